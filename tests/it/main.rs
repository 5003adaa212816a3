//! Every integration test of fleetdeck, in one test binary: one link step for the whole
//! suite, and the support modules compiled once for every test that uses them.
//!
//! Each module is one subject (what a file under `tests/` used to be on its own). Run one
//! with `cargo test --test it MODULE::` (e.g. `cargo test --test it sim_kube::`); how to run
//! the rest, and which modules start kubectl, tmux, Prometheus or PostgreSQL, is in
//! `docs/testing.md`.
//!
//! `Cargo.toml` sets `autotests = false`, so Cargo builds this binary only: a test file
//! put anywhere else under `tests/` would never run. The test at the bottom fails when one
//! exists, or when a file here is not declared as a module.

#[macro_use]
mod support;

mod approve_live_check;
mod cli_exit_codes;
mod cli_json_keys;
mod cli_ledger;
mod cli_output;
mod console_tmux;
mod console_tmux_zh;
mod credentials;
mod credentials_cli;
mod credentials_tmux;
mod docs;
mod expired_exception;
mod findings_budget;
mod findings_e2e;
mod gitops_cli;
mod handover_cli;
mod i18n_cli;
mod identity_refusal;
mod job_identity;
mod journal_cli;
mod journal_crash;
mod ledger_fuzz;
mod ledger_reload;
mod live_fleet;
mod maintenance_engine;
mod maintenance_failover;
mod readonly_demo;
mod rollout_cli;
mod rollout_engine;
mod rollout_failover;
mod rollout_planner;
mod rollout_release;
mod sim_api;
mod sim_behaviour;
mod sim_conformance;
mod sim_deletion;
mod sim_dry_run;
mod sim_kube;
mod sim_kubectl;
mod sim_scenarios;
mod sim_volumes;
mod team_attacks;
mod team_attacks_run;
mod team_consoles;
mod team_failover;
mod team_live;
mod team_roles;
mod team_shards;
mod team_write_outcome;
mod unknown_volumes;
mod upgrade_check;
mod workload_names;

mod harness {
    //! The harness's own rule: every Rust file under `tests/` is part of this binary.

    use std::path::{Path, PathBuf};

    /// The `tests/` folder of the package.
    fn tests_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
    }

    /// Every `.rs` file under `dir`, at any depth.
    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Whether `parent` (a `main.rs` or `mod.rs`) declares `mod name;`.
    fn declares(parent: &Path, name: &str) -> bool {
        std::fs::read_to_string(parent).is_ok_and(|text| {
            text.lines().any(|line| {
                let line = line.trim();
                let line = line
                    .strip_prefix("pub(crate) ")
                    .or_else(|| line.strip_prefix("pub "))
                    .unwrap_or(line);
                line == format!("mod {name};")
            })
        })
    }

    /// The module file that must declare `file`, and the name it must declare it by:
    /// `dir/x.rs` and `dir/x/mod.rs` are declared in `dir/main.rs` or `dir/mod.rs`.
    fn declared_by(file: &Path) -> Option<(PathBuf, String)> {
        let stem = file.file_stem()?.to_str()?;
        let dir = file.parent()?;
        let (dir, name) = if stem == "mod" {
            (dir.parent()?, dir.file_name()?.to_str()?)
        } else {
            (dir, stem)
        };
        let parent = [dir.join("main.rs"), dir.join("mod.rs")]
            .into_iter()
            .find(|p| p.is_file())?;
        Some((parent, name.to_string()))
    }

    #[test]
    fn every_test_file_is_a_module_of_the_harness() {
        let tests = tests_dir();
        let harness = tests.join("it");
        let mut files = Vec::new();
        rust_files(&tests, &mut files);
        files.sort();
        let mut problems = Vec::new();
        for file in &files {
            let shown = file
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(file);
            if !file.starts_with(&harness) {
                problems.push(format!(
                    "{}: outside tests/it/, so it never runs (Cargo.toml has autotests = false); \
                     move it into tests/it/ (`git mv`) and add its `mod` line to tests/it/main.rs \
                     (support code goes to tests/it/support/)",
                    shown.display()
                ));
                continue;
            }
            if file == &harness.join("main.rs") {
                continue;
            }
            match declared_by(file) {
                Some((parent, name)) if declares(&parent, &name) => {}
                Some((parent, name)) => problems.push(format!(
                    "{}: not a module of the harness; add `mod {name};` to {}",
                    shown.display(),
                    parent
                        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                        .unwrap_or(&parent)
                        .display()
                )),
                None => problems.push(format!(
                    "{}: no main.rs or mod.rs next to it declares it",
                    shown.display()
                )),
            }
        }
        assert!(
            files.len() > 30,
            "the walk found only {} files under {}",
            files.len(),
            tests.display()
        );
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_file_is_declared_by_the_main_rs_or_mod_rs_next_to_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let it = dir.path().join("it");
        std::fs::create_dir_all(it.join("support")).expect("mkdir");
        std::fs::write(it.join("main.rs"), "mod support;\nmod kept;\n").expect("write");
        std::fs::write(it.join("support/mod.rs"), "pub mod cli;\n").expect("write");
        assert_eq!(
            declared_by(&it.join("kept.rs")),
            Some((it.join("main.rs"), "kept".into()))
        );
        assert!(declares(&it.join("main.rs"), "kept"));
        assert!(!declares(&it.join("main.rs"), "forgotten"));
        assert_eq!(
            declared_by(&it.join("support/mod.rs")),
            Some((it.join("main.rs"), "support".into()))
        );
        assert!(declares(&it.join("support/mod.rs"), "cli"));
        assert!(!declares(&it.join("support/mod.rs"), "sim"));
    }
}
