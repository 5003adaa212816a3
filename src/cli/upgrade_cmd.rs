//! `fleetdeck upgrade check --to v1.N`: every ledger cluster's readiness for a Kubernetes
//! minor release before the first batch — control-plane step, kubelet skew, removed APIs
//! requested, named or stored, add-ons against the support matrix — as ready, blocked
//! (each reason with what to do) or unknown (what could not be read).

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use fleetdeck::k8s::connect::{ConnectOptions, connect};
use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::k8s::kubeconfig;
use fleetdeck::k8s::upgrade_facts::upgrade_facts;
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::live::FleetSnapshot;
use fleetdeck::model::upgrade::{ClusterReadiness, Minor, Readiness, UpgradeFacts, check};
use fleetdeck::t;

use super::output::{Table, emit};
use super::settings::Settings;

/// `fleetdeck upgrade …`
#[derive(Debug, clap::Subcommand)]
pub enum UpgradeCommand {
    /// Whether each cluster is ready for a Kubernetes minor release: control-plane step, kubelet skew, removed APIs in use, webhooks and stored versions, add-ons against the support matrix (exit 1 when any is blocked or unknown)
    Check {
        /// The target, e.g. v1.32
        #[arg(long, value_name = "VERSION")]
        to: String,
        /// How long to wait for every cluster to reach a verdict
        #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = super::live::parse_wait)]
        wait_synced: Duration,
    },
}

/// Runs `fleetdeck upgrade …`.
pub fn run(settings: &Settings, command: &UpgradeCommand) -> anyhow::Result<ExitCode> {
    match command {
        UpgradeCommand::Check { to, wait_synced } => check_fleet(settings, to, *wait_synced),
    }
}

/// Every cluster's readiness for `target`, read through each cluster's own context.
pub async fn readiness(
    ledger: &Ledger,
    kubeconfig: &kube::config::Kubeconfig,
    snapshot: &FleetSnapshot,
    target: Minor,
) -> Vec<ClusterReadiness> {
    let mut out = Vec::new();
    for cluster in &ledger.clusters {
        let Some(live) = snapshot.cluster(&cluster.id.0) else {
            continue;
        };
        let facts = match connect(cluster, kubeconfig, &ConnectOptions::default()).await {
            Ok(client) => upgrade_facts(&client.client, live).await,
            Err(error) => UpgradeFacts::unknown(&error.to_string()),
        };
        out.push(check(
            &cluster.id.0,
            target,
            &facts,
            &cluster.versions,
            &ledger.support_matrix,
        ));
    }
    out
}

fn check_fleet(settings: &Settings, to: &str, wait: Duration) -> anyhow::Result<ExitCode> {
    let target =
        Minor::parse(to).with_context(|| t!(settings.lang, "upgrade-bad-target", to = to))?;
    let ledger = super::ledger_findings::load(settings.lang, &settings.ledger_path()?)?;
    let kubeconfig = kubeconfig::load(&settings.kubeconfig)?;
    let runtime = super::runtime()?;
    let results = runtime.block_on(async {
        let mut sync = FleetSync::start(&ledger, kubeconfig.clone(), settings.sync);
        let snapshot = sync.wait_settled(wait).await;
        let results = readiness(&ledger, &kubeconfig, &snapshot, target).await;
        sync.stop();
        results
    });
    runtime.shutdown_background();
    emit(settings.output, &results, || table(settings.lang, &results))?;
    let all_clear = results
        .iter()
        .all(|r| matches!(r.readiness, Readiness::Ready | Readiness::AtTarget));
    Ok(if all_clear {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The table: a row per cluster, then each blocker and unknown with what to do.
fn table(lang: fleetdeck::i18n::Lang, results: &[ClusterReadiness]) -> String {
    let mut table = Table::in_lang(lang, vec!["CLUSTER", "CURRENT", "READINESS", "WHY"]);
    for r in results {
        let first = r
            .blockers
            .first()
            .map(|b| b.what.clone())
            .or_else(|| r.unknown.first().cloned())
            .unwrap_or_else(|| "-".into());
        let more = r.blockers.len() + r.unknown.len();
        let why = if more > 1 {
            t!(
                lang,
                "upgrade-more",
                first = first,
                more = (more - 1) as i64
            )
        } else {
            first
        };
        table.row(vec![
            r.cluster.clone(),
            r.current.clone().unwrap_or_else(|| "?".into()),
            r.readiness.label().to_string(),
            why,
        ]);
    }
    let mut out = table.render();
    for r in results
        .iter()
        .filter(|r| !r.blockers.is_empty() || !r.unknown.is_empty())
    {
        out.push('\n');
        out.push_str(&t!(
            lang,
            "upgrade-cluster-head",
            cluster = r.cluster.as_str(),
            readiness = r.readiness.label(),
            target = r.target.as_str()
        ));
        out.push('\n');
        for b in &r.blockers {
            out.push_str(&t!(
                lang,
                "upgrade-blocker",
                what = b.what.as_str(),
                fix = b.fix.as_str()
            ));
            out.push('\n');
        }
        for u in &r.unknown {
            out.push_str(&t!(lang, "upgrade-unknown", what = u.as_str()));
            out.push('\n');
        }
    }
    let counts = |want: Readiness| results.iter().filter(|r| r.readiness == want).count() as i64;
    out.push('\n');
    out.push_str(&t!(
        lang,
        "upgrade-summary",
        clusters = results.len() as i64,
        ready = counts(Readiness::Ready),
        blocked = counts(Readiness::Blocked),
        unknown = counts(Readiness::Unknown),
        there = counts(Readiness::AtTarget)
    ));
    out.push('\n');
    out
}
