//! `fleetdeck` with no subcommand: the console on the user's ledger. This build has no
//! live fleet sync wired into the console yet, so the console opens on the ledger alone
//! and says so (every cluster shows `no data`, never invented figures); with no ledger at
//! all it explains how to start the demo instead.

use std::process::ExitCode;
use std::sync::Arc;

use fleetdeck::ledger_file;
use fleetdeck::model::live::FleetSnapshot;
use fleetdeck::tui::{ConsoleInputs, no_color_requested, run_console};

use super::settings::Settings;

/// How to see the console on a simulated fleet.
pub const DEMO_HINT: &str = "fleetdeck demo --seed 1";

/// Opens the console, or explains how to get one.
pub fn open(settings: &Settings) -> anyhow::Result<ExitCode> {
    let Some(path) = settings.ledger.clone() else {
        eprintln!(
            "fleetdeck: no ledger configured (pass --ledger FILE, set FLEETDECK_LEDGER, or set `ledger` in {}).\n\
             To try the console on a simulated fleet, run:\n\n    {DEMO_HINT}\n",
            settings.paths.config_file.display()
        );
        return Ok(ExitCode::from(2));
    };
    let ledger = Arc::new(ledger_file::load(&path)?);
    let (_tx, snapshots) = tokio::sync::watch::channel(FleetSnapshot::empty());
    let inputs = ConsoleInputs {
        snapshots,
        ledger,
        actor: settings.actor.clone(),
        readonly: settings.readonly,
        theme: std::env::var("FLEETDECK_THEME").unwrap_or_else(|_| "dark".into()),
        keymap: std::env::var("FLEETDECK_KEYMAP").unwrap_or_else(|_| "default".into()),
        config_dir: Some(settings.paths.config_dir.clone()),
        no_color: no_color_requested(std::env::var_os("NO_COLOR")),
        automation: None,
        activity: None,
        commands: None,
        notice: Some(format!(
            "no live data: this build does not connect to clusters from the console yet; `{DEMO_HINT}` shows a simulated fleet"
        )),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run_console(inputs))?;
    Ok(ExitCode::SUCCESS)
}
