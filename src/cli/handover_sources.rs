//! Where `fleetdeck handover` reads from: the same journal, ledger, kubeconfig and sync
//! settings as the console (flags over environment over config.toml, see `Settings`),
//! the fleet synced as `snapshot` syncs it, with a bounded wait. A source that cannot be
//! read is reported as not read, with why, never as empty.

use std::time::Duration;

use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::k8s::fleet_sync::FleetSync;
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
    /// What else limited the check, with why (a kubeconfig that could not be read).
    pub notices: Vec<String>,
}

/// Reads every source; `wait` bounds the fleet sync (zero skips it).
pub fn read(settings: &Settings, since: Timestamp, wait: Duration) -> Sources {
    let journal = read_journal(settings, since);
    let (ledger, fleet, notices) = observe(settings, wait);
    Sources {
        journal,
        ledger,
        fleet,
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

/// The ledger and the fleet's live state, read as the console reads them: without a
/// kubeconfig every cluster is Unreachable with the reason, as in the console.
fn observe(
    settings: &Settings,
    wait: Duration,
) -> (Known<Ledger>, Known<Vec<ClusterHealth>>, Vec<String>) {
    let Some(path) = &settings.ledger else {
        let why = format!(
            "no ledger configured: pass --ledger FILE, set FLEETDECK_LEDGER, or set `ledger` in {}",
            settings.paths.config_file.display()
        );
        return (Known::NotRead(why.clone()), Known::NotRead(why), Vec::new());
    };
    let ledger = match fleetdeck::config::ledger_file::load(path) {
        Ok(ledger) => ledger,
        Err(error) => {
            let why = format!("ledger {}: {error}", path.display());
            return (Known::NotRead(why.clone()), Known::NotRead(why), Vec::new());
        }
    };
    if wait.is_zero() {
        let why = "--wait-synced 0s skips the fleet sync".to_string();
        return (Known::Read(ledger), Known::NotRead(why), Vec::new());
    }
    let mut notices = Vec::new();
    let kubeconfig = match fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig) {
        Ok(kubeconfig) => kubeconfig,
        Err(error) => {
            notices.push(format!(
                "kubeconfig not read ({error}): no cluster can be reached"
            ));
            Kubeconfig::default()
        }
    };
    let synced = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map(|runtime| {
            let snapshot = runtime.block_on(async {
                let mut sync = FleetSync::start(&ledger, kubeconfig, settings.sync);
                let snapshot = sync.wait_settled(wait).await;
                sync.stop();
                snapshot
            });
            // Watches are long-polls; do not wait for them to notice the shutdown.
            runtime.shutdown_background();
            snapshot
        });
    let fleet = match synced {
        Ok(snapshot) => Known::Read(cluster_health(&snapshot)),
        Err(error) => Known::NotRead(format!("the fleet sync could not start: {error}")),
    };
    (Known::Read(ledger), fleet, notices)
}
