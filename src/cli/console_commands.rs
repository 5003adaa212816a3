//! Where the console's commands land: each operator command is checked against the
//! journal and appended with the console's actor (through the same library code as the
//! CLI commands), and the console is told what was recorded or why not. Refusals the
//! console made before sending anything are journaled too, without an answer.

use fleetdeck::engine::operator::{
    execute, record_refusals, record_refused_command, start_maintenance,
};
use fleetdeck::i18n::Msg;
use fleetdeck::journal::{AnyJournal, JournalTarget, OpenMode};
use fleetdeck::model::run::Actor;
use fleetdeck::tui::{ConsoleCommand, Notice};
use jiff::Timestamp;
use tokio::sync::mpsc;

/// What a command that changes a cluster needs: the ledger (the cluster's pin), the
/// kubeconfig, and the runtime its requests run on.
pub struct Reach {
    /// The ledger.
    pub ledger: std::sync::Arc<fleetdeck::model::ledger::Ledger>,
    /// The kubeconfig.
    pub kubeconfig: kube::config::Kubeconfig,
    /// The runtime.
    pub handle: tokio::runtime::Handle,
}

/// Serves console commands until the console's sender is gone. Runs on a blocking
/// thread: SQLite calls block.
pub fn serve(
    journal: JournalTarget,
    actor: String,
    mode: OpenMode,
    reach: Option<Reach>,
    mut commands: mpsc::UnboundedReceiver<ConsoleCommand>,
    notices: mpsc::UnboundedSender<Notice>,
) -> tokio::task::JoinHandle<()> {
    tokio::task::spawn_blocking(move || {
        let actor = Actor(actor);
        // Opened on the first command and kept; opened again after a failure.
        let mut store: Option<AnyJournal> = None;
        while let Some(command) = commands.blocking_recv() {
            if command == ConsoleCommand::Quit {
                return;
            }
            if store.is_none() {
                // Read-only: SQLite itself refuses every write, and nothing is created.
                let opened = AnyJournal::open(&journal, mode);
                store = opened
                    .map_err(|error| {
                        let _ = notices.send(Notice {
                            ok: false,
                            text: Msg::new("ctx-journal-failed")
                                .arg("target", journal.describe())
                                .arg("error", error.to_string()),
                        });
                    })
                    .ok();
            }
            let Some(journal_store) = store.as_mut() else {
                continue;
            };
            let Some(notice) = answer(journal_store, &command, &actor, mode, reach.as_ref()) else {
                continue;
            };
            tracing::info!(ok = notice.ok, text = %notice.text, "console command");
            if notices.send(notice).is_err() {
                return;
            }
        }
    })
}

/// Carries out `command`; what to tell the console, if anything.
fn answer(
    store: &mut AnyJournal,
    command: &ConsoleCommand,
    actor: &Actor,
    mode: OpenMode,
    reach: Option<&Reach>,
) -> Option<Notice> {
    let now = Timestamp::now();
    let notice = match command {
        ConsoleCommand::Quit => Notice {
            ok: true,
            text: Msg::new("console-closing"),
        },
        ConsoleCommand::Operator(op) => match execute(store, op, actor, mode, now) {
            Ok(recorded) => Notice {
                ok: true,
                text: recorded.message,
            },
            Err(error) => Notice {
                ok: false,
                text: error.to_string().into(),
            },
        },
        ConsoleCommand::StartMaintenance { spec, inventory } => {
            match start_maintenance(store, spec, inventory, actor, mode, now) {
                Ok((run, plan)) => Notice {
                    ok: true,
                    text: Msg::new("console-started-run")
                        .arg("run", run.to_string())
                        .arg("batches", plan.batches.len())
                        .arg("actor", actor.to_string()),
                },
                Err(error) => Notice {
                    ok: false,
                    text: error.to_string().into(),
                },
            }
        }
        // The console already said no; the journal only keeps the record.
        ConsoleCommand::Refused(refusals) => {
            let written = record_refusals(store, refusals, actor, mode, now);
            tracing::info!(written, "console refusals journaled");
            return None;
        }
        ConsoleCommand::RefusedByRules(command) => {
            let written = record_refused_command(store, command, actor, mode, now);
            tracing::info!(written, verb = command.verb(), "console refusal journaled");
            return None;
        }
        ConsoleCommand::GitOpsSync(request) => {
            match gitops_sync(store, request, actor, mode, reach) {
                Ok(summary) => Notice {
                    ok: true,
                    text: summary,
                },
                Err(why) => Notice {
                    ok: false,
                    text: why,
                },
            }
        }
    };
    Some(notice)
}

/// Suspends or resumes a GitOps object's sync as `fleetdeck gitops` does: the cluster's
/// identity checked against the ledger's pin first, intent and outcome journaled.
fn gitops_sync(
    store: &mut AnyJournal,
    request: &fleetdeck::tui::GitOpsSyncRequest,
    actor: &Actor,
    mode: OpenMode,
    reach: Option<&Reach>,
) -> Result<Msg, Msg> {
    use fleetdeck::engine::gitops_sync::{GitOpsTarget, SyncChange, change_sync};
    let reach = reach.ok_or_else(|| Msg::new("console-no-cluster"))?;
    let cluster = reach.ledger.cluster(&request.cluster.0).ok_or_else(|| {
        Msg::new("console-not-in-ledger").arg("cluster", request.cluster.to_string())
    })?;
    let target = GitOpsTarget {
        kind: request.kind,
        namespace: request.namespace.clone(),
        name: request.name.clone(),
    };
    let change = if request.suspend {
        SyncChange::Suspend
    } else {
        SyncChange::Resume
    };
    reach.handle.block_on(async {
        let client = fleetdeck::k8s::verified::verified_client(
            cluster,
            &reach.kubeconfig,
            &fleetdeck::k8s::connect::ConnectOptions::default(),
        )
        .await
        .map_err(|e| {
            Msg::new("console-gitops-refused")
                .arg("cluster", cluster.id.to_string())
                .arg("verb", change.verb())
                .arg("error", e.detailed())
        })?;
        change_sync(
            store,
            &client.client,
            &cluster.id,
            &target,
            change,
            &request.reason,
            actor,
            mode,
        )
        .await
        .map(|done| done.message)
        .map_err(|e| Msg::verbatim(e.to_string()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetdeck::journal::{EventQuery, JournalStore};
    use fleetdeck::model::ledger::ClusterId;
    use fleetdeck::model::run::{ClusterRefusal, EventBody};

    #[test]
    fn a_refusal_the_console_made_is_journaled_without_an_answer_unless_read_only() {
        let mut store =
            AnyJournal::Sqlite(fleetdeck::journal::SqliteJournal::in_memory().expect("journal"));
        let actor = Actor("dana@ops".into());
        let refused = ConsoleCommand::Refused(vec![ClusterRefusal::start_maintenance(
            "console-n1",
            ClusterId("prod-03".into()),
            "nothing recent is known about it: cluster is Unreachable",
        )]);
        assert_eq!(
            answer(&mut store, &refused, &actor, OpenMode::ReadOnly, None),
            None
        );
        let all = EventQuery::default();
        assert!(store.query(&all).expect("query").is_empty(), "read-only");
        assert_eq!(
            answer(&mut store, &refused, &actor, OpenMode::ReadWrite, None),
            None
        );
        let events = store.query(&all).expect("query");
        let [event] = events.as_slice() else {
            panic!("{events:?}")
        };
        assert_eq!(event.event.actor, actor);
        assert_eq!(event.event.cluster, Some(ClusterId("prod-03".into())));
        assert!(matches!(
            &event.event.body,
            EventBody::CommandRefused { command, .. } if command == "start-maintenance"
        ));
    }
}
