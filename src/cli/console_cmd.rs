//! `fleetdeck` with no subcommand: the console on the user's ledger and kubeconfig, every
//! cluster synced live through its own pinned context. With no ledger it explains how to
//! start the demo instead.

use std::process::ExitCode;
use std::sync::Arc;

use fleetdeck::k8s::fleet_sync::{FleetSync, FleetSyncOptions};
use fleetdeck::ledger_file;
use fleetdeck::model::ledger::Ledger;
use fleetdeck::tui::{ConsoleInputs, no_color_requested, run_console};
use kube::config::Kubeconfig;

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
    let ledger = ledger_file::load(&path)?;
    // Without a kubeconfig the console still opens: every cluster then shows Unreachable
    // with the reason, which is what an operator needs to see, not a refusal to start.
    let (kubeconfig, notice) = match fleetdeck::kubeconfig::load(&settings.kubeconfig) {
        Ok(kubeconfig) => (kubeconfig, None),
        Err(error) => (
            Kubeconfig::default(),
            Some(format!("{error}; no cluster can be reached")),
        ),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run_live(settings, ledger, kubeconfig, notice))?;
    runtime.shutdown_background();
    Ok(ExitCode::SUCCESS)
}

/// Runs the console on a live sync of `ledger` until the operator quits.
pub async fn run_live(
    settings: &Settings,
    ledger: Ledger,
    kubeconfig: Kubeconfig,
    notice: Option<String>,
) -> anyhow::Result<()> {
    let mut sync = FleetSync::start(&ledger, kubeconfig, FleetSyncOptions::default());
    let inputs = ConsoleInputs {
        snapshots: sync.snapshots.clone(),
        ledger: Arc::new(ledger),
        actor: settings.actor.clone(),
        readonly: settings.readonly,
        theme: std::env::var("FLEETDECK_THEME").unwrap_or_else(|_| "dark".into()),
        keymap: std::env::var("FLEETDECK_KEYMAP").unwrap_or_else(|_| "default".into()),
        config_dir: Some(settings.paths.config_dir.clone()),
        no_color: no_color_requested(std::env::var_os("NO_COLOR")),
        automation: None,
        activity: None,
        commands: None,
        notice,
    };
    let result = run_console(inputs).await;
    sync.stop();
    result?;
    Ok(())
}
