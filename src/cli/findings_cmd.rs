//! `fleetdeck findings [-o json|table] [--fail-on SEVERITY]`: every cluster synced as
//! `snapshot` syncs it, its facts read once, every rule judged (the same function the
//! console's Findings screen uses), printed worst first; exit 1 when a finding is at or
//! above `--fail-on`.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use fleetdeck::engine::windows::MaintenanceWindows;
use fleetdeck::journal::{AnyJournal, JournalStore, OpenMode};
use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::model::findings::{
    ClusterFacts, Finding, FleetFindings, FleetInputs, FlowUse, RequestStats, Severity, judge_fleet,
};
use fleetdeck::model::ledger::{Ledger, Selector};
use fleetdeck::model::live::FleetSnapshot;
use jiff::Timestamp;
use serde::Serialize;

use fleetdeck::t;

use super::output::{Table, emit};
use super::settings::Settings;

/// When `findings` exits 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    /// Never: findings are printed, the exit is 0.
    Never,
    /// At or above this severity.
    At(Severity),
}

fn parse_fail_on(text: &str) -> Result<FailOn, String> {
    if text.eq_ignore_ascii_case("never") {
        return Ok(FailOn::Never);
    }
    Severity::parse(text)
        .map(FailOn::At)
        .ok_or_else(|| format!("{text:?} is not a severity: info, warning, critical, or never")) // i18n: not for people (a value parser's error inside clap's, English like clap's)
}

/// `fleetdeck findings …`
#[derive(Debug, Args)]
pub struct FindingsArgs {
    /// Exit 1 when any finding is at or above this severity: info, warning, critical
    /// (or never)
    #[arg(long, value_name = "SEVERITY", default_value = "critical", value_parser = parse_fail_on)]
    pub fail_on: FailOn,
    /// Only the clusters this ledger selector picks (fleet-wide findings are kept)
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,
    /// How long to wait for every cluster's status and facts
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = super::live::parse_wait)]
    pub wait_synced: Duration,
}

/// One cluster's facts as `-o json` shows them beside the findings.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterOut<'a> {
    cluster: &'a str,
    status: &'static str,
    /// When its facts were read, or null.
    facts_read_at: Option<Timestamp>,
    /// Why they were not, or null.
    facts_unknown: Option<String>,
    /// Where our requests landed.
    flows: Option<&'a [FlowUse]>,
    /// Our requests over the last minutes.
    requests: Option<&'a RequestStats>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FindingOut<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    /// The rule's number in the findings reference (1–8; 0: a fact not read).
    group: u8,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Counts {
    critical: usize,
    warning: usize,
    info: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report<'a> {
    api_version: &'static str,
    kind: &'static str,
    judged_at: Option<Timestamp>,
    fail_on: String,
    failed: bool,
    counts: Counts,
    findings: Vec<FindingOut<'a>>,
    expiry_weeks: &'a [fleetdeck::model::findings::ExpiryWeek],
    clusters: Vec<ClusterOut<'a>>,
}

/// Syncs the fleet until every reachable cluster's facts were read (or the wait is up).
fn observe(settings: &Settings, ledger: &Ledger, wait: Duration) -> anyhow::Result<FleetSnapshot> {
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig)?;
    let runtime = super::runtime()?;
    let snapshot = runtime.block_on(sync_with_facts(ledger, kubeconfig, settings.sync, wait));
    runtime.shutdown_background();
    Ok(snapshot)
}

/// Syncs the fleet with its findings facts read (one round, unless it has to wait), until
/// every reachable cluster's facts were read or `wait` is up. `handover` reads the fleet
/// with it too.
pub(super) async fn sync_with_facts(
    ledger: &Ledger,
    kubeconfig: kube::config::Kubeconfig,
    mut options: fleetdeck::k8s::fleet_sync::FleetSyncOptions,
    wait: Duration,
) -> FleetSnapshot {
    if options.cluster.findings.is_none() {
        options.cluster.findings = Some(fleetdeck::k8s::findings::FactsOptions::default());
    }
    let deadline = tokio::time::Instant::now() + wait;
    let mut sync = FleetSync::start(ledger, kubeconfig, options);
    let mut snapshot = sync.wait_settled(wait).await;
    let all_read = |s: &FleetSnapshot| {
        s.clusters
            .iter()
            .all(|c| !c.status.data_usable() || c.findings.is_some())
    };
    while !all_read(&snapshot) {
        match tokio::time::timeout_at(deadline, sync.snapshots.changed()).await {
            Ok(Ok(())) => snapshot = sync.snapshots.borrow_and_update().clone(),
            _ => break,
        }
    }
    sync.stop();
    snapshot
}

/// Every finding of the fleet, judged as `findings` and the console judge them.
pub(super) fn judge(
    settings: &Settings,
    ledger: &Ledger,
    snapshot: &FleetSnapshot,
    journal: Result<&fleetdeck::model::run::Projection, String>,
    now: Timestamp,
) -> FleetFindings {
    let windows = MaintenanceWindows::from_ledger(ledger);
    let zone = |id: &fleetdeck::model::ledger::ClusterId| windows.zone(id);
    judge_fleet(
        &FleetInputs {
            ledger,
            snapshot,
            journal,
            zone: &zone,
        },
        now,
        &settings.findings,
    )
}

/// Builds, prints and judges the findings.
pub fn run(settings: &Settings, args: &FindingsArgs) -> anyhow::Result<ExitCode> {
    let ledger = fleetdeck::config::ledger_file::load(&settings.ledger_path()?)?;
    let selector = Selector::parse(args.selector.as_deref().unwrap_or(""))?;
    super::ledger::warn_unknown_keys(settings.lang, &selector, &ledger);
    let snapshot = observe(settings, &ledger, args.wait_synced)?;
    // No journal file yet is an empty journal: nothing overridden, nothing waiting.
    let journal = match &settings.journal {
        fleetdeck::journal::JournalTarget::Sqlite(path) if !path.exists() => {
            Ok(fleetdeck::model::run::Projection::default())
        }
        target => AnyJournal::open(target, OpenMode::ReadOnly)
            .and_then(|store| store.projection())
            .map_err(|e| {
                let at = fleetdeck::t!(settings.lang, "ctx-journal", target = target.describe());
                format!("{at}: {e}")
            }),
    };
    let now = Timestamp::now();
    let judged = judge(
        settings,
        &ledger,
        &snapshot,
        journal.as_ref().map_err(Clone::clone),
        now,
    );
    let picked: Vec<&str> = ledger
        .clusters
        .iter()
        .filter(|c| selector.matches(c))
        .map(|c| c.id.as_str())
        .collect();
    let findings: Vec<&Finding> = judged
        .findings
        .iter()
        .filter(|f| {
            f.cluster.as_str() == fleetdeck::model::findings::FLEET
                || picked.contains(&f.cluster.as_str())
        })
        .collect();
    let failed = match args.fail_on {
        FailOn::Never => false,
        FailOn::At(at) => findings.iter().any(|f| f.severity >= at),
    };
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let clusters: Vec<ClusterOut> = ledger
        .clusters
        .iter()
        .filter(|c| picked.contains(&c.id.as_str()))
        .map(|c| {
            let live = snapshot.cluster(&c.id.0);
            let facts = fleetdeck::model::findings::facts_of(live.map(|l| &**l));
            let read: Option<&ClusterFacts> = facts.known().copied();
            ClusterOut {
                cluster: &c.id.0,
                status: live.map_or("UNKNOWN", |l| l.status.label()),
                facts_read_at: read.and_then(|f| f.read_at),
                facts_unknown: match &facts {
                    fleetdeck::model::findings::Read::Unknown(why) => Some(why.clone()),
                    fleetdeck::model::findings::Read::Known(_) => None,
                },
                flows: read.and_then(|f| f.flows.known()).map(Vec::as_slice),
                requests: read.and_then(|f| f.requests.as_ref()),
            }
        })
        .collect();
    let report = Report {
        api_version: fleetdeck::model::ledger::API_VERSION,
        kind: "FindingList",
        judged_at: judged.judged_at,
        fail_on: match args.fail_on {
            FailOn::Never => "never".into(),
            FailOn::At(s) => Severity::NAMES[s as usize].into(),
        },
        failed,
        counts: Counts {
            critical: count(Severity::Critical),
            warning: count(Severity::Warning),
            info: count(Severity::Info),
        },
        findings: findings
            .iter()
            .map(|f| FindingOut {
                finding: f,
                group: f.rule.group(),
            })
            .collect(),
        expiry_weeks: &judged.expiry_weeks,
        clusters,
    };
    emit(settings.output, &report, || {
        table(settings.lang, &report, &judged, now)
    })?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `3d`, `5h`, `12m` since `then`.
fn age(now: Timestamp, then: Option<Timestamp>) -> String {
    match then {
        Some(t) if t <= now => super::live::age(Some(t), now),
        Some(_) => "-".into(),
        None => "-".into(),
    }
}

fn table(
    lang: fleetdeck::i18n::Lang,
    report: &Report<'_>,
    judged: &FleetFindings,
    now: Timestamp,
) -> String {
    let mut table = Table::in_lang(
        lang,
        vec!["SEVERITY", "CLUSTER", "RULE", "SUMMARY", "SINCE"],
    );
    for f in &report.findings {
        let f = f.finding;
        table.row(vec![
            f.severity.label().to_string(),
            f.cluster.to_string(),
            f.rule.name(),
            f.summary.clone(),
            age(now, f.since),
        ]);
    }
    let mut out = if report.findings.is_empty() {
        format!("{}\n", t!(lang, "findings-none"))
    } else {
        table.render()
    };
    let busy: Vec<String> = judged
        .expiry_weeks
        .iter()
        .filter(|w| w.clusters.len() > 1)
        .map(|w| {
            t!(
                lang,
                "findings-week",
                week = w.week_of.to_string(),
                count = w.clusters.len().to_string()
            )
        })
        .collect();
    if !busy.is_empty() {
        out.push_str(&t!(lang, "findings-busy-weeks", weeks = busy.join(", ")));
        out.push('\n');
    }
    for c in &report.clusters {
        if let Some(flows) = c.flows.filter(|f| !f.is_empty()) {
            let list: Vec<String> = flows
                .iter()
                .map(|f| format!("{} → {} ({})", f.flow_schema, f.priority_level, f.requests))
                .collect();
            out.push_str(&t!(
                lang,
                "findings-flows",
                cluster = c.cluster.to_string(),
                flows = list.join(", ")
            ));
            out.push('\n');
        }
    }
    let failed = if report.failed {
        t!(
            lang,
            "findings-failed",
            fail_on = report.fail_on.to_string()
        )
    } else {
        String::new()
    };
    out.push_str(&t!(
        lang,
        "findings-summary",
        total = report.findings.len().to_string(),
        critical = report.counts.critical.to_string(),
        warning = report.counts.warning.to_string(),
        info = report.counts.info.to_string(),
        failed = failed
    ));
    out.push('\n');
    out
}
