//! Where the console's commands land: each operator command is checked against the
//! journal and appended with the console's actor (through the same library code as the
//! CLI commands), and the console is told what was recorded or why not.

use std::path::PathBuf;

use fleetdeck::engine::operator::{execute, start_maintenance};
use fleetdeck::journal::{Durability, SqliteJournal};
use fleetdeck::model::run::Actor;
use fleetdeck::tui::{ConsoleCommand, Notice};
use jiff::Timestamp;
use tokio::sync::mpsc;

/// Serves console commands until the console's sender is gone. Runs on a blocking
/// thread: SQLite calls block.
pub fn serve(
    journal: PathBuf,
    actor: String,
    readonly: bool,
    mut commands: mpsc::UnboundedReceiver<ConsoleCommand>,
    notices: mpsc::UnboundedSender<Notice>,
) -> tokio::task::JoinHandle<()> {
    tokio::task::spawn_blocking(move || {
        let actor = Actor(actor);
        // Opened on the first command and kept; opened again after a failure.
        let mut store: Option<SqliteJournal> = None;
        while let Some(command) = commands.blocking_recv() {
            if command == ConsoleCommand::Quit {
                return;
            }
            if store.is_none() {
                store = SqliteJournal::open(&journal, Durability::Full)
                    .map_err(|error| {
                        let _ = notices.send(Notice {
                            ok: false,
                            text: format!("journal {}: {error}", journal.display()),
                        });
                    })
                    .ok();
            }
            let Some(journal_store) = store.as_mut() else {
                continue;
            };
            let notice = answer(journal_store, &command, &actor, readonly);
            tracing::info!(ok = notice.ok, text = %notice.text, "console command");
            if notices.send(notice).is_err() {
                return;
            }
        }
    })
}

fn answer(
    store: &mut SqliteJournal,
    command: &ConsoleCommand,
    actor: &Actor,
    readonly: bool,
) -> Notice {
    let now = Timestamp::now();
    match command {
        ConsoleCommand::Quit => Notice {
            ok: true,
            text: "console closing".into(),
        },
        ConsoleCommand::Operator(op) => match execute(store, op, actor, readonly, now) {
            Ok(recorded) => Notice {
                ok: true,
                text: recorded.summary,
            },
            Err(error) => Notice {
                ok: false,
                text: error.to_string(),
            },
        },
        ConsoleCommand::StartMaintenance { spec, inventory } => {
            match start_maintenance(store, spec, inventory, actor, readonly, now) {
                Ok((run, plan)) => Notice {
                    ok: true,
                    text: format!(
                        "started run {run} ({} batch(es)) by {actor}; the executor picks it up",
                        plan.batches.len()
                    ),
                },
                Err(error) => Notice {
                    ok: false,
                    text: error.to_string(),
                },
            }
        }
    }
}
