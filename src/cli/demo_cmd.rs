//! `fleetdeck demo`: the simulator in-process on loopback with a scenario and its ledger,
//! a journal in a temporary directory, and the console — the same code paths as a real
//! fleet (kubeconfig contexts, pinned identities, watches over HTTP).

use std::process::ExitCode;

use anyhow::Context;
use fleetdeck::sim::{Scenario, SimFleet, start_on_loopback, write_kubeconfig, write_ledger};

use super::settings::Settings;

/// How long a demo cluster's checks may say "not yet" before it counts as failed: the
/// demo's soaks are seconds, and a cluster that stays short of its nodes halts the
/// rollout within a minute rather than ten.
const DEMO_VERIFY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(45);

/// Flags of `fleetdeck demo`.
#[derive(Debug, Clone, clap::Args)]
pub struct DemoArgs {
    /// Scenario: small, demo, large, findings, or a scenario file
    #[arg(long, default_value = "demo")]
    pub scenario: String,
    /// Seed for names, UIDs, versions and placement
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Simulated time speed factor
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// Keep the demo's kubeconfig, ledger, journal and a config.toml naming them in this
    /// directory (created if missing) instead of a temporary one, so other fleetdeck
    /// commands read what the console reads (`--config DIR/config.toml handover`)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

/// Runs the demo until the operator quits.
pub fn run(settings: &Settings, args: &DemoArgs) -> anyhow::Result<ExitCode> {
    let temp = tempfile::Builder::new()
        .prefix("fleetdeck-demo-")
        .tempdir()
        .context(fleetdeck::t!(settings.lang, "demo-temp-dir"))?;
    let dir = match &args.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| {
                fleetdeck::t!(
                    settings.lang,
                    "ctx-creating",
                    path = dir.display().to_string()
                )
            })?;
            dir.clone()
        }
        None => temp.path().to_path_buf(),
    };
    let runtime = super::runtime()?;
    runtime.block_on(async {
        let scenario = Scenario::load(&args.scenario)?;
        let fleet = SimFleet::from_scenario(&scenario, args.seed, args.speed)?;
        let (addr, server) = start_on_loopback(fleet.clone(), 0).await?;
        let kubeconfig_path = dir.join("kubeconfig");
        let ledger_path = dir.join("ledger.yaml");
        write_kubeconfig(&fleet, &kubeconfig_path, addr)?;
        write_ledger(&fleet, &ledger_path, addr)?;
        // Other commands read this demo's fleet and journal as its console does with
        // `fleetdeck --config DIR/config.toml COMMAND` (`handover`, `snapshot`, …).
        let config = fleetdeck::config::Config {
            ledger: Some(ledger_path.clone()),
            kubeconfig: Some(kubeconfig_path.clone()),
            journal: Some(dir.join("journal.sqlite")),
            ..Default::default()
        };
        std::fs::write(dir.join("config.toml"), toml::to_string(&config)?)
            .with_context(|| {
                fleetdeck::t!(settings.lang, "ctx-writing", path = dir.join("config.toml").display().to_string())
            })?;
        tracing::info!(%addr, dir = %dir.display(), "demo fleet serving");
        let ledger = fleetdeck::config::ledger_file::load(&ledger_path)?;
        let kubeconfig =
            fleetdeck::k8s::kubeconfig::load(&fleetdeck::k8s::kubeconfig::KubeconfigSource {
                paths: vec![kubeconfig_path],
                explicit: true,
            })?;
        // The demo's journal lives with its fleet, in the temporary directory.
        let mut settings = settings.clone();
        let journal = dir.join("journal.sqlite");
        settings.journal = fleetdeck::journal::JournalTarget::Sqlite(journal.clone());
        let (gates, prometheus) =
            super::demo_seed::choose_gates(settings.prometheus.as_deref(), &dir, addr);
        if settings.prometheus.is_none() {
            settings.prometheus = prometheus.as_ref().map(|p| p.url.clone());
        }
        let lang = settings.lang;
        // English names the scenario as typed; another language says what it is too.
        let named = if lang == fleetdeck::i18n::Lang::En {
            scenario.name.clone()
        } else {
            fleetdeck::t!(
                lang,
                "demo-scenario-named",
                name = scenario.name.clone(),
                description = scenario.description_in(lang)
            )
        };
        let notice = fleetdeck::t!(
            lang,
            "demo-notice",
            scenario = named,
            seed = args.seed.to_string(),
            addr = addr.to_string(),
            gates = gates.notice(lang)
        );
        // Read-only: nothing is journaled, not even the demo's own rollout; a scenario
        // without the staging clusters it targets (`findings`) runs without it.
        let targets = ledger.clusters.iter().any(|c| c.env == "staging");
        if !targets {
            tracing::info!(scenario = %scenario.name, "demo rollout not seeded: no staging cluster");
        }
        if !settings.readonly && targets {
            let rollout = super::demo_seed::seed_rollout(&journal, &ledger, &gates)?;
            tracing::info!(%rollout, ?gates, "demo rollout waits for approval");
        }
        let demo = super::console_cmd::Demo {
            rollout_gates: gates.notice(lang),
            verify_timeout: DEMO_VERIFY_TIMEOUT,
        };
        let result =
            super::console_cmd::run_live(&settings, ledger, kubeconfig, Some(notice), Some(demo))
                .await;
        drop(prometheus);
        server.shutdown().await;
        result
    })?;
    runtime.shutdown_background();
    Ok(ExitCode::SUCCESS)
}
