//! The import rules of the layers (see DESIGN.md, "Layers"), checked on the source text:
//! every `crate::…` path (also inside `use crate::{…}` groups) and every `super::` chain
//! that climbs to the crate root is resolved to the top-level module it names.
//!
//! - `model/` is pure: it names nothing outside `model/` except `yaml/` (the pure text
//!   reader the file decoders are built on) and `i18n/` (the message catalogues, compiled
//!   in), both held to the same rules, and reads no file, process, clock or runtime.
//! - `engine/` does not reach up into the console (`tui/`), nor into the simulator.
//! - `tui/` renders snapshots and sends commands: it names no engine, no Kubernetes or hook
//!   adapter and no simulator. It reads the journal (`tui/journal_feed.rs`: the header's
//!   automation state, the runs and the timeline), never a cluster.
//! - `sim/` shares no code path with the product: model constants and `yaml/` only.
//! - Adapters (`k8s/`, `journal/`, `hooks/`) sit below the engine and the console.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level modules a layer may not name.
fn forbidden(layer: &str) -> &'static [&'static str] {
    const PRODUCT: &[&str] = &["config", "engine", "hooks", "journal", "k8s", "sim", "tui"];
    match layer {
        "model" => PRODUCT,
        "yaml" => &[
            "config", "engine", "hooks", "journal", "k8s", "model", "sim", "tui",
        ],
        "i18n" => &[
            "config", "engine", "hooks", "journal", "k8s", "model", "sim", "tui", "yaml",
        ],
        "engine" => &["tui", "sim"],
        "tui" => &["engine", "hooks", "k8s", "sim"],
        "sim" => &["config", "engine", "hooks", "journal", "k8s", "tui"],
        "k8s" | "journal" | "hooks" => &["engine", "tui", "sim"],
        _ => &[],
    }
}

/// Text that reads a file, the process, the clock or a runtime: not allowed in pure layers.
const IMPURE: &[&str] = &[
    "std::fs",
    "std::process",
    "std::env",
    "std::net",
    "std::thread",
    "SystemTime",
    "Instant::now",
    "Timestamp::now",
    "Zoned::now",
    "tokio",
    "async ",
    ".await",
];

/// Layers that must be pure.
const PURE: &[&str] = &["model", "yaml", "i18n"];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`k8s/kube_port.rs` → `[k8s, kube_port]`,
/// `k8s/mod.rs` → `[k8s]`, `lib.rs` → `[]`).
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The source without comment lines (doc links name modules without importing them).
fn code(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The top-level names inside a `{…}` group starting at `text` (just after the `{`).
fn group_heads(text: &str, out: &mut BTreeSet<String>) {
    let mut depth = 0;
    let mut start = true;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && (c.is_alphanumeric() || c == '_') => {
                let name = ident(&text[i..]);
                if name != "self" {
                    out.insert(name.to_string());
                }
                start = false;
            }
            _ => {}
        }
    }
}

/// The top-level modules of the crate that `text`, the code of the module at `module`,
/// names.
fn crate_modules(text: &str, module: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let text = code(text);
    for (at, _) in text.match_indices("crate::") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '$')) {
            continue; // `$crate::` or `some_crate::`
        }
        let rest = &text[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => group_heads(group, &mut out),
            None => {
                out.insert(ident(rest).to_string());
            }
        }
    }
    for (at, _) in text.match_indices("super::") {
        if text[..at].ends_with("super::") {
            continue; // counted from the first `super::` of the chain
        }
        let mut rest = &text[at..];
        let mut up = 0;
        while let Some(next) = rest.strip_prefix("super::") {
            up += 1;
            rest = next;
        }
        // Inline modules (`mod tests`) add a level the file path does not show, so a chain
        // that would climb above the crate root is left alone.
        if up == module.len() {
            match rest.strip_prefix('{') {
                Some(group) => group_heads(group, &mut out),
                None => {
                    out.insert(ident(rest).to_string());
                }
            }
        }
    }
    out
}

/// Every broken rule in the tree, one line each.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let module = module_path(relative);
        let Some(layer) = module.first() else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("source readable");
        for name in crate_modules(&text, &module) {
            if forbidden(layer).contains(&name.as_str()) {
                found.push(format!(
                    "src/{}: {layer}/ names {name}/",
                    relative.display()
                ));
            }
        }
        if PURE.contains(&layer.as_str()) {
            let code = code(&text);
            for token in IMPURE {
                if code.contains(token) {
                    found.push(format!("src/{}: {layer}/ uses {token}", relative.display()));
                }
            }
        }
    }
    found
}

#[test]
fn layers_import_only_downwards_and_model_is_pure() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = violations(&src);
    assert!(
        found.is_empty(),
        "layering rules broken:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_sees_groups_nested_paths_and_super_chains() {
    let module = ["engine".to_string(), "start".to_string()];
    let text = "use crate::{\n    model::run::RunId,\n    tui::{App, Msg},\n};\n\
                // use crate::sim::Fleet;\n\
                fn f() { crate::k8s::connect(); super::super::journal::open(); }\n\
                macro_rules! m { () => { $crate::hidden() } }\n";
    let names: Vec<String> = crate_modules(text, &module).into_iter().collect();
    assert_eq!(names, ["journal", "k8s", "model", "tui"]);
    // `super::` within the layer stays within it; deeper chains from inline modules are ignored.
    let names = crate_modules("use super::plan; use super::super::super::x;", &module);
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn a_broken_rule_is_reported() {
    let dir = std::env::temp_dir().join(format!("fleetdeck-layering-{}", std::process::id()));
    let model = dir.join("model");
    std::fs::create_dir_all(&model).expect("temp dir");
    std::fs::write(
        model.join("clock.rs"),
        "use crate::engine::x;\nfn now() { jiff::Timestamp::now(); }\n",
    )
    .expect("write");
    std::fs::write(dir.join("lib.rs"), "pub mod model;\n").expect("write");
    let found = violations(&dir);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        found,
        [
            "src/model/clock.rs: model/ names engine/",
            "src/model/clock.rs: model/ uses Timestamp::now",
        ]
    );
}
