//! `fleetdeck journal`: what the engine and the operators did, oldest first.

use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use fleetdeck::journal::{AnyJournal, EventQuery, JournalStore, JournalTarget, OpenMode};
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{CommandRefusal, Event, RunId, kinds_matching};
use jiff::Timestamp;

use fleetdeck::t;

use super::output::{Table, emit, outln};
use super::settings::Settings;

/// `fleetdeck journal [--since 8h|RFC3339] [--cluster ID] [--run ID] [--kind KIND]`
#[derive(Debug, Args)]
pub struct JournalArgs {
    /// Only events since this long ago (`8h`, `2d`), this date (`2026-11-30`, from
    /// midnight UTC) or this instant (RFC 3339)
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only events about this cluster (ledger id)
    #[arg(long, value_name = "ID")]
    pub cluster: Option<String>,
    /// Only events of this run
    #[arg(long, value_name = "ID")]
    pub run: Option<String>,
    /// Only events of this kind (e.g. `operator.pause`, or a group: `operator.*`);
    /// repeatable
    #[arg(long, value_name = "KIND")]
    pub kind: Vec<String>,
    /// Set up or move the journal
    #[command(subcommand)]
    pub action: Option<JournalAction>,
}

/// `fleetdeck journal init|copy`.
#[derive(Debug, Subcommand)]
pub enum JournalAction {
    /// Create the journal or bring its schema up to date (PostgreSQL: run it as the
    /// database's owner; it refuses a schema newer than this fleetdeck)
    Init {
        /// Also create the team roles (fleetdeck_viewer, _operator, _approver, _executor,
        /// _admin) and grant each what it may do (PostgreSQL only)
        #[arg(long)]
        roles: bool,
    },
    /// Copy every event of one journal into another (a file path or a PostgreSQL URL);
    /// re-running copies only what is missing; counts and the last sequence are checked
    Copy {
        /// The journal to copy
        #[arg(long, value_name = "PATH_OR_URL")]
        from: String,
        /// The journal to copy into (PostgreSQL: initialised, and you an admin)
        #[arg(long, value_name = "PATH_OR_URL")]
        to: String,
    },
}

/// `--since`: `8h` is 8 hours ago, `2026-11-30` that date's midnight UTC, anything else
/// an RFC 3339 time.
pub fn parse_since(text: &str, now: Timestamp) -> anyhow::Result<Timestamp> {
    fleetdeck::model::duration::parse_since(text, now).with_context(|| format!("--since {text:?}"))
}

/// Opens the journal named by the settings; in read-only mode for reading only, so
/// nothing is created, migrated or written.
pub fn open(settings: &Settings) -> anyhow::Result<AnyJournal> {
    AnyJournal::open(&settings.journal, mode(settings)).with_context(|| {
        fleetdeck::t!(
            settings.lang,
            "ctx-journal",
            target = settings.journal.describe()
        )
    })
}

/// What `--readonly` allows: reading only, or reading and writing.
pub fn mode(settings: &Settings) -> OpenMode {
    if settings.readonly {
        OpenMode::ReadOnly
    } else {
        OpenMode::ReadWrite
    }
}

/// `journal init [--roles]`.
fn init(settings: &Settings, roles: bool) -> anyhow::Result<ExitCode> {
    match &settings.journal {
        JournalTarget::Postgres(text) => {
            let report =
                fleetdeck::journal::PostgresJournal::init(text, roles).with_context(|| {
                    fleetdeck::t!(
                        settings.lang,
                        "ctx-journal",
                        target = settings.journal.describe()
                    )
                })?;
            let lang = settings.lang;
            let what = if report.from == report.to {
                t!(
                    lang,
                    "journal-schema-current",
                    version = report.to.to_string()
                )
            } else {
                t!(
                    lang,
                    "journal-schema-migrated",
                    from = report.from.to_string(),
                    to = report.to.to_string()
                )
            };
            let journal = settings.journal.describe().to_string();
            outln!(
                "{}",
                t!(lang, "journal-schema", journal = journal, what = what)
            )?;
            if report.roles {
                for (role, may) in fleetdeck::journal::postgres::ROLES {
                    outln!("  {role}: {may}")?;
                }
                outln!("{}", t!(lang, "journal-grant-roles"))?;
                for id in &report.revoked {
                    let what = fleetdeck::i18n::text(lang, id, &[]);
                    outln!("{}", t!(lang, "journal-revoked", what = what))?;
                }
                for (id, why) in &report.not_revoked {
                    let what = fleetdeck::i18n::text(lang, id, &[]);
                    outln!(
                        "{}",
                        t!(lang, "journal-not-revoked", what = what, why = why.clone())
                    )?;
                }
            }
            if report.max_prepared_transactions > 0 {
                eprintln!(
                    "{}",
                    t!(
                        lang,
                        "journal-prepared-transactions",
                        n = report.max_prepared_transactions.to_string()
                    )
                );
            }
        }
        JournalTarget::Sqlite(path) => {
            if roles {
                anyhow::bail!(t!(settings.lang, "journal-sqlite-roles"));
            }
            let journal = open(settings)?;
            let what = t!(
                settings.lang,
                "journal-schema-current",
                version = journal.schema_version()?.to_string()
            );
            outln!(
                "{}",
                t!(
                    settings.lang,
                    "journal-schema",
                    journal = path.display().to_string(),
                    what = what
                )
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `journal copy --from --to`.
fn copy(settings: &Settings, from: &str, to: &str) -> anyhow::Result<ExitCode> {
    let from_target = JournalTarget::parse(from);
    let to_target = JournalTarget::parse(to);
    let source = AnyJournal::open(&from_target, OpenMode::ReadOnly)
        .with_context(|| format!("--from {}", from_target.describe()))?;
    let mut destination = AnyJournal::open(&to_target, OpenMode::ReadWrite)
        .with_context(|| format!("--to {}", to_target.describe()))?;
    let report = fleetdeck::journal::copy::copy(&source, &mut destination).with_context(|| {
        fleetdeck::t!(
            settings.lang,
            "ctx-copy",
            from = from_target.describe(),
            to = to_target.describe()
        )
    })?;
    emit(settings.output, &report, || {
        let said = t!(
            settings.lang,
            "journal-copied",
            copied = report.copied.to_string(),
            already = report.already_there.to_string(),
            events = report.destination_events.to_string(),
            last = report.destination_last.to_string()
        );
        format!("{said}\n")
    })?;
    Ok(ExitCode::SUCCESS)
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
        mode(settings),
        jiff::Timestamp::now(),
    )?)
}

/// The run `id` in the journal's projection, or an error that names it.
pub fn run_view<'p>(
    projection: &'p fleetdeck::model::run::Projection,
    id: &str,
) -> anyhow::Result<&'p fleetdeck::model::run::RunView> {
    let id = RunId(id.to_string());
    match projection.runs.get(&id) {
        Some(run) => Ok(run),
        None => Err(CommandRefusal::NoRun(id).into()),
    }
}

/// `journal`: the matching events as a table or JSON/YAML.
pub fn run(settings: &Settings, args: &JournalArgs) -> anyhow::Result<ExitCode> {
    match &args.action {
        Some(JournalAction::Init { roles }) => return init(settings, *roles),
        Some(JournalAction::Copy { from, to }) => return copy(settings, from, to),
        None => {}
    }
    let since = args
        .since
        .as_deref()
        .map(|s| parse_since(s, Timestamp::now()))
        .transpose()?;
    let journal = open(settings)?;
    let mut kinds = Vec::new();
    for pattern in &args.kind {
        match kinds_matching(pattern) {
            Ok(known) => kinds.extend(known.into_iter().map(str::to_string)),
            // A kind a newer fleetdeck wrote is still a kind of this journal.
            Err(unknown) => {
                let written = EventQuery {
                    kinds: vec![pattern.clone()],
                    limit: Some(1),
                    ..Default::default()
                };
                if journal.query(&written)?.is_empty() {
                    return Err(anyhow::Error::new(unknown).context("--kind"));
                }
                kinds.push(pattern.clone());
            }
        }
    }
    let query = EventQuery {
        since,
        cluster: args.cluster.clone().map(ClusterId::from),
        run: args.run.clone().map(RunId),
        kinds,
        ..Default::default()
    };
    let events = journal.query(&query)?;
    emit(settings.output, &events, || table(settings.lang, &events))?;
    if events.is_empty() {
        for hint in unknown_names(settings.lang, &journal, args)? {
            eprintln!("{}", t!(settings.lang, "journal-no-events", hint = hint));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Why `--cluster` or `--run` cannot match: the journal names no such cluster or run at
/// all (with the closest one it does name). Filters that merely match nothing in the
/// time or kinds asked are not mentioned.
fn unknown_names(
    lang: fleetdeck::i18n::Lang,
    journal: &AnyJournal,
    args: &JournalArgs,
) -> anyhow::Result<Vec<String>> {
    let mut hints = Vec::new();
    if let Some(cluster) = &args.cluster {
        let known: Vec<String> = journal
            .clusters()?
            .into_iter()
            .map(|c| c.to_string())
            .collect();
        hints.extend(unknown_name(lang, "journal-no-cluster", cluster, &known));
    }
    if let Some(run) = &args.run {
        let known: Vec<String> = journal.run_ids()?.into_iter().map(|r| r.0).collect();
        hints.extend(unknown_name(lang, "journal-no-run", run, &known));
    }
    Ok(hints)
}

/// `no cluster X in the journal (did you mean x?)`, or nothing when the journal has it;
/// `id` is the message (`journal-no-cluster`, `journal-no-run`).
fn unknown_name(
    lang: fleetdeck::i18n::Lang,
    id: &str,
    name: &str,
    known: &[String],
) -> Option<String> {
    if known.iter().any(|k| k == name) {
        return None;
    }
    let hint = fleetdeck::yaml::suggest(name, known.iter().map(String::as_str))
        .map(|s| t!(lang, "cli-did-you-mean", suggestion = s))
        .unwrap_or_default();
    Some(fleetdeck::i18n::text(
        lang,
        id,
        &[("name", name.into()), ("hint", hint.into())],
    ))
}

fn table(lang: fleetdeck::i18n::Lang, events: &[Event]) -> String {
    let mut table = Table::in_lang(
        lang,
        vec![
            "SEQ", "TIME", "ACTOR", "KIND", "RUN", "ITEM", "STEP", "CLUSTER", "DETAIL",
        ],
    );
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
            dash(e.event.cluster.as_ref().map(|r| r.to_string())),
            detail,
        ]);
    }
    table.render()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_the_journal_does_not_have_is_named_with_the_closest_it_has() {
        let known = vec!["prod-use1-01".to_string(), "stg-euw1-02".to_string()];
        use fleetdeck::i18n::Lang;
        let cluster = "journal-no-cluster";
        assert_eq!(
            unknown_name(Lang::En, cluster, "prod-use1-01", &known),
            None
        );
        assert_eq!(
            unknown_name(Lang::En, cluster, "PROD-USE1-01", &known).as_deref(),
            Some("no cluster PROD-USE1-01 in the journal (did you mean prod-use1-01?)")
        );
        assert_eq!(
            unknown_name(Lang::En, "journal-no-run", "zzz", &known).as_deref(),
            Some("no run zzz in the journal")
        );
        assert_eq!(
            unknown_name(Lang::ZhCn, cluster, "PROD-USE1-01", &known).as_deref(),
            Some("事件日志中没有集群 PROD-USE1-01（是否想找 prod-use1-01？）")
        );
    }
}
