//! Running the `fleetdeck` binary as a user runs it, kept away from the user's own
//! configuration, ledger, kubeconfig, journal and data: everything lives in `dir` (the
//! journal at its default place, `dir/data/journal.sqlite`).

use std::path::Path;
use std::process::{Command, Output};

/// The global flags that point a command at a workspace's ledger, kubeconfig and journal
/// (`ledger.yaml`, `kubeconfig`, `journal.sqlite` in its directory), acting as `actor`.
pub fn workspace_flags(actor: &str) -> [&str; 8] {
    [
        "--ledger",
        "ledger.yaml",
        "--kubeconfig",
        "kubeconfig",
        "--journal",
        "journal.sqlite",
        "--as",
        actor,
    ]
}

/// The binary under test: `FLEETDECK_BIN` when set (a copy taken right after building,
/// useful when several checkouts share one target directory), else Cargo's.
pub fn binary() -> String {
    std::env::var("FLEETDECK_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_fleetdeck").to_owned())
}

/// `fleetdeck ARGS` in `dir`, ready to run, for tests that set up its standard streams.
pub fn command(args: &[&str], dir: &Path) -> Command {
    let mut command = Command::new(binary());
    command
        .args(args)
        .current_dir(dir)
        .env("FLEETDECK_CONFIG", dir.join("config.toml"))
        .env("FLEETDECK_DATA_DIR", dir.join("data"))
        .env_remove("FLEETDECK_JOURNAL")
        .env_remove("FLEETDECK_LEDGER")
        .env_remove("FLEETDECK_PROMETHEUS")
        .env_remove("KUBECONFIG")
        .env("HOME", dir);
    command
}

/// Runs `fleetdeck ARGS` in `dir`.
pub fn fleetdeck(args: &[&str], dir: &Path) -> Output {
    command(args, dir).output().expect("the binary runs")
}

/// Standard output then standard error, as text.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
