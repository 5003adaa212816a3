//! `fleetdeck journal`: what the engine and the operators did, oldest first.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use fleetdeck::journal::{Durability, EventQuery, JournalStore, SqliteJournal};
use fleetdeck::model::duration::parse_duration;
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{Event, RunId};
use jiff::Timestamp;

use super::output::{Table, emit};
use super::settings::Settings;

/// `fleetdeck journal [--since 8h|RFC3339] [--cluster ID] [--run ID] [--kind KIND]`
#[derive(Debug, Args)]
pub struct JournalArgs {
    /// Only events since this long ago (`8h`, `2d`) or this instant (RFC 3339)
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only events about this cluster (ledger id)
    #[arg(long, value_name = "ID")]
    pub cluster: Option<String>,
    /// Only events of this run
    #[arg(long, value_name = "ID")]
    pub run: Option<String>,
    /// Only events of this kind (e.g. `operator.pause`); repeatable
    #[arg(long, value_name = "KIND")]
    pub kind: Vec<String>,
}

/// Reads `8h` as "8 hours ago" and anything else as an RFC 3339 instant.
pub fn parse_since(text: &str, now: Timestamp) -> anyhow::Result<Timestamp> {
    if let Ok(duration) = parse_duration(text) {
        let ago = jiff::SignedDuration::try_from(duration)?;
        return Ok(now.checked_sub(ago)?);
    }
    text.parse::<Timestamp>().with_context(|| {
        format!("--since {text:?}: expected a duration such as 8h or an RFC 3339 time")
    })
}

/// Opens the journal named by the settings; in read-only mode for reading only, so
/// nothing is created, migrated or written.
pub fn open(settings: &Settings) -> anyhow::Result<SqliteJournal> {
    if settings.readonly {
        return Ok(SqliteJournal::open_read_only(&settings.journal)?);
    }
    SqliteJournal::open(&settings.journal, Durability::Full)
        .with_context(|| format!("journal {}", settings.journal.display()))
}

/// Records an operator command as the console does (same checks, same events), with
/// the settings' actor. In read-only mode it is refused before the journal is even
/// opened, so nothing is written, not even a new journal file.
pub fn record_command(
    settings: &Settings,
    command: &fleetdeck::model::run::OperatorCommand,
) -> anyhow::Result<fleetdeck::engine::operator::Recorded> {
    use fleetdeck::engine::operator::{OperatorError, execute};
    if settings.readonly {
        return Err(OperatorError::ReadOnly(command.verb().to_string()).into());
    }
    Ok(execute(
        &mut open(settings)?,
        command,
        &fleetdeck::model::run::Actor(settings.actor.clone()),
        settings.readonly,
        jiff::Timestamp::now(),
    )?)
}

/// The run `id` in the journal's projection, or an error that names it.
pub fn run_view<'p>(
    projection: &'p fleetdeck::model::run::Projection,
    id: &str,
) -> anyhow::Result<&'p fleetdeck::model::run::RunView> {
    projection
        .runs
        .get(&RunId(id.to_string()))
        .with_context(|| format!("no run {id} in the journal"))
}

/// `journal`: the matching events as a table or JSON/YAML.
pub fn run(settings: &Settings, args: &JournalArgs) -> anyhow::Result<ExitCode> {
    let query = EventQuery {
        since: args
            .since
            .as_deref()
            .map(|s| parse_since(s, Timestamp::now()))
            .transpose()?,
        cluster: args.cluster.clone().map(ClusterId),
        run: args.run.clone().map(RunId),
        kinds: args.kind.clone(),
        ..Default::default()
    };
    let events = open(settings)?.query(&query)?;
    emit(settings.output, &events, || table(&events))?;
    Ok(ExitCode::SUCCESS)
}

fn table(events: &[Event]) -> String {
    let mut table = Table::new(vec![
        "SEQ", "TIME", "ACTOR", "KIND", "RUN", "ITEM", "STEP", "CLUSTER", "DETAIL",
    ]);
    let dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    for e in events {
        let (kind, payload) = e.event.body.to_parts();
        let mut detail = payload.to_string();
        if detail.chars().count() > 100 {
            detail = detail.chars().take(99).collect::<String>() + "…";
        }
        table.row(vec![
            e.seq.0.to_string(),
            e.event.time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            e.event.actor.0.clone(),
            kind,
            dash(e.event.run.as_ref().map(|r| r.0.clone())),
            dash(e.event.item.as_ref().map(|r| r.0.clone())),
            dash(e.event.step.as_ref().map(|r| r.0.clone())),
            dash(e.event.cluster.as_ref().map(|r| r.0.clone())),
            detail,
        ]);
    }
    table.render()
}
