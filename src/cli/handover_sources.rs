//! Where `fleetdeck handover` reads from: the same journal, ledger, kubeconfig and sync
//! settings as the console (flags over environment over config.toml, see `Settings`),
//! the fleet synced as `snapshot` syncs it, with a bounded wait. A source that cannot be
//! read is reported as not read, with why, never as empty.

use std::time::Duration;

use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::model::findings::Finding;
use fleetdeck::model::handover::{ClusterHealth, Known, cluster_health};
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::run::{Event, Projection};
use jiff::Timestamp;
use kube::config::Kubeconfig;

use super::super::journal_cmd::open;
use super::super::settings::Settings;

/// The journal's kinds the handover reads events of (the rest is in the projection).
const KINDS: [&str; 2] = ["operator.note", "operator.acknowledge"];

/// Everything the handover was built from, as read.
pub struct Sources {
    /// The journal's state and the shift's notes and acknowledgements.
    pub journal: Known<(Projection, Vec<Event>)>,
    /// The ledger.
    pub ledger: Known<Ledger>,
    /// Every ledger cluster as the sync saw it.
    pub fleet: Known<Vec<ClusterHealth>>,
    /// The fleet's findings, judged from the same sync and journal.
    pub findings: Known<Vec<Finding>>,
    /// What else limited the check, with why (a kubeconfig that could not be read).
    pub notices: Vec<(String, Option<fleetdeck::i18n::Msg>)>,
}

/// Reads every source; `wait` bounds the fleet sync (zero skips it).
pub fn read(settings: &Settings, since: Timestamp, wait: Duration) -> Sources {
    let journal = read_journal(settings, since);
    let projection = match &journal {
        Known::Read((projection, _)) => Ok(projection),
        // i18n: not for people (the reason is a value of `handover -o json`; a report in another language frames it in its own words)
        Known::NotRead(why) => Err(format!("journal not read: {why}")),
    };
    let (ledger, fleet, findings, notices) = observe(settings, wait, projection);
    Sources {
        journal,
        ledger,
        fleet,
        findings,
        notices,
    }
}

fn read_journal(settings: &Settings, since: Timestamp) -> Known<(Projection, Vec<Event>)> {
    let read = || -> anyhow::Result<(Projection, Vec<Event>)> {
        let store = open(settings)?;
        let projection = store.projection()?;
        let events = store.query(&EventQuery {
            since: Some(since),
            kinds: KINDS.iter().map(|k| (*k).to_string()).collect(),
            ..EventQuery::default()
        })?;
        Ok((projection, events))
    };
    match read() {
        Ok(read) => Known::Read(read),
        Err(error) => Known::NotRead(super::super::describe_error(&error)),
    }
}

/// What `observe` read: the ledger, the clusters' states, the findings, and notices.
type Observed = (
    Known<Ledger>,
    Known<Vec<ClusterHealth>>,
    Known<Vec<Finding>>,
    Vec<(String, Option<fleetdeck::i18n::Msg>)>,
);

/// The ledger, the fleet's live state and its findings, read as the console reads them
/// (the findings' facts too, as `findings` waits for them): without a kubeconfig every
/// cluster is Unreachable with the reason, as in the console.
fn observe(settings: &Settings, wait: Duration, journal: Result<&Projection, String>) -> Observed {
    let Some(path) = &settings.ledger else {
        // i18n: not for people (the reason is a value of `handover -o json`; a report in another language frames it in its own words)
        let why = format!(
            "no ledger configured: pass --ledger FILE, set FLEETDECK_LEDGER, or set `ledger` in {}",
            settings.paths.config_file.display()
        );
        return not_read(why);
    };
    let ledger = match fleetdeck::config::ledger_file::load(path) {
        Ok(ledger) => ledger,
        Err(error) => {
            // i18n: not for people (the reason is a value of `handover -o json`; a report in another language frames it in its own words)
            return not_read(format!("ledger {}: {error}", path.display()));
        }
    };
    if wait.is_zero() {
        // i18n: not for people (the reason is a value of `handover -o json`; a report in another language frames it in its own words)
        let why = "--wait-synced 0s skips the fleet sync".to_string();
        return (
            Known::Read(ledger),
            Known::NotRead(why.clone()),
            Known::NotRead(why),
            Vec::new(),
        );
    }
    let mut notices = Vec::new();
    let kubeconfig = match fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig) {
        Ok(kubeconfig) => kubeconfig,
        Err(error) => {
            notices.push((
                // i18n: not for people (the reason is a value of `handover -o json`; a report in another language frames it in its own words)
                format!("kubeconfig not read ({error}): no cluster can be reached"),
                Some(
                    fleetdeck::i18n::Msg::new("handover-nc-kubeconfig")
                        .arg("why", error.to_string()),
                ),
            ));
            Kubeconfig::default()
        }
    };
    let synced = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map(|runtime| {
            let snapshot = runtime.block_on(super::super::findings_cmd::sync_with_facts(
                &ledger,
                kubeconfig,
                settings.sync,
                wait,
            ));
            // Watches are long-polls; do not wait for them to notice the shutdown.
            runtime.shutdown_background();
            snapshot
        });
    let (fleet, findings) = match synced {
        Ok(snapshot) => {
            let judged = super::super::findings_cmd::judge(
                settings,
                &ledger,
                &snapshot,
                journal,
                Timestamp::now(),
            );
            (
                Known::Read(cluster_health(&snapshot)),
                Known::Read(judged.findings),
            )
        }
        Err(error) => {
            // i18n: not for people (the reason is a value of `handover -o json`; a report in another language frames it in its own words)
            let why = format!("the fleet sync could not start: {error}");
            (Known::NotRead(why.clone()), Known::NotRead(why))
        }
    };
    (Known::Read(ledger), fleet, findings, notices)
}

/// Nothing read past the ledger, for `why`.
fn not_read(why: String) -> Observed {
    (
        Known::NotRead(why.clone()),
        Known::NotRead(why.clone()),
        Known::NotRead(why),
        Vec::new(),
    )
}
