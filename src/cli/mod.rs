//! The command-line edge: parses arguments, resolves settings, dispatches to commands.

mod approve_check;
mod args;
mod capacity_cmd;
mod capacity_lines;
mod capacity_siblings;
mod config_cmd;
mod console_cmd;
mod console_commands;
mod demo_cmd;
mod demo_seed;
mod engine_port;
mod exit;
mod findings_cmd;
mod gitops_cmd;
mod handover_cmd;
mod help_lang;
mod journal_cmd;
mod journal_stress;
mod ledger;
mod ledger_findings;
mod ledger_reload;
mod live;
mod logging;
mod maintenance_cmd;
mod maintenance_ops;
mod output;
mod pause_cmd;
mod rbac_cmd;
mod reconcile_cmd;
mod rollout_cmd;
mod rollout_live;
mod rollout_render;
mod rollout_windows;
mod settings;
mod snapshot_cmd;
mod spec_file;
mod upgrade_cmd;
mod window_cmd;

use std::process::ExitCode;

use clap::CommandFactory;

pub use args::Cli;
use args::{Command, ConfigCommand, LedgerCommand};
pub use help_lang::parse;
use settings::Settings;

/// An error as one line of causes, outermost first: `context: cause: its cause`. A cause
/// whose text the line already holds (an error that prints its source itself) is not
/// repeated.
pub fn describe_error(error: &anyhow::Error) -> String {
    // One walk of a cause chain for the whole program: it also reads an API server's
    // refusal as its message rather than kube's dump of the status.
    fleetdeck::k8s::reflect::describe_error(error.as_ref())
}

/// The exit code for a command that ended with `error` (see [`exit`]).
pub fn exit_code(error: &anyhow::Error) -> ExitCode {
    exit::code_for(error)
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    // The simulator's plugin is run by clients many times a minute: it reads no
    // configuration and writes no log, and speaks on stdout and stderr as a plugin does.
    if let Some(Command::SimPlugin(args)) = &cli.command {
        let code = fleetdeck::sim::run_plugin(args);
        return Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)));
    }
    let settings = Settings::resolve(&cli.global)?;
    fleetdeck::k8s::credentials::store().configure(settings.credentials);
    if let Err(reason) = logging::init(&settings.paths.log_file) {
        let reason = reason.to_string();
        // i18n: not for people (the program's name before its message)
        eprintln!(
            "fleetdeck: {}",
            fleetdeck::t!(settings.lang, "logging-disabled", reason = reason)
        );
    }
    tracing::info!(version = env!("CARGO_PKG_VERSION"), actor = %settings.actor, "start");
    let result = dispatch(&settings, cli.command);
    warn_unreadable(&settings);
    result
}

/// Says, once at the end, which journal rows the command read but could not use (each
/// was skipped, and the command went on without it).
fn warn_unreadable(settings: &Settings) {
    let rows = fleetdeck::journal::unreadable_rows();
    if rows.is_empty() {
        return;
    }
    let list: Vec<String> = rows
        .iter()
        .map(|r| format!("#{} {} ({})", r.seq, r.kind, r.reason))
        .collect();
    eprintln!(
        "{}",
        fleetdeck::t!(
            settings.lang,
            "journal-unreadable-skipped",
            n = rows.len().to_string(),
            rows = list.join("; ")
        )
    );
}

/// Runs one command with the resolved settings.
fn dispatch(settings: &Settings, command: Option<Command>) -> anyhow::Result<ExitCode> {
    match command {
        None => console_cmd::open(settings),
        Some(Command::Ledger { command }) => match command {
            LedgerCommand::Validate { file, now } => {
                ledger::validate(settings, file.as_deref(), now)
            }
            LedgerCommand::Show { selector } => ledger::show(settings, selector.as_deref()),
            LedgerCommand::Contexts => ledger::contexts(settings),
            LedgerCommand::Reconcile {
                suggest,
                wait_synced,
            } => reconcile_cmd::run(settings, suggest, wait_synced),
        },
        Some(Command::Snapshot { wait_synced }) => snapshot_cmd::run(settings, wait_synced),
        Some(Command::Capacity {
            cluster,
            what_if,
            gang,
            siblings,
            wait_synced,
        }) => capacity_cmd::run(
            settings,
            cluster.as_deref(),
            what_if.as_deref(),
            gang.as_deref(),
            siblings.as_deref(),
            wait_synced,
        ),
        Some(Command::Demo(args)) => demo_cmd::run(settings, &args),
        Some(Command::Sim(args)) => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            runtime.block_on(fleetdeck::sim::serve_from_cli(args))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Config { command }) => match command {
            ConfigCommand::Paths => config_cmd::paths(settings),
        },
        Some(Command::Journal(args)) => journal_cmd::run(settings, &args),
        Some(Command::Handover(args)) => handover_cmd::run(settings, &args),
        Some(Command::Findings(args)) => findings_cmd::run(settings, &args),
        Some(Command::Window { command }) => window_cmd::run(settings, &command),
        Some(Command::Gitops { command }) => gitops_cmd::run(settings, &command),
        Some(Command::Maintenance { command }) => maintenance_cmd::run(settings, &command),
        Some(Command::Run(args)) => maintenance_ops::execute(settings, &args),
        Some(Command::Rollout { command }) => rollout_cmd::run(settings, &command),
        Some(Command::Pause(args)) => pause_cmd::pause(settings, &args),
        Some(Command::Rbac(args)) => rbac_cmd::run(settings, &args),
        Some(Command::Upgrade { command }) => upgrade_cmd::run(settings, &command),
        Some(Command::Resume(args)) => pause_cmd::resume(settings, &args),
        Some(Command::JournalStress { db }) => journal_stress::run(&db),
        // Answered before the settings are read, above.
        Some(Command::SimPlugin(_)) => Ok(ExitCode::SUCCESS),
        Some(Command::Completions { shell }) => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "fleetdeck", &mut script);
            output::write_out(script)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The runtime a command that talks to clusters runs on: two workers (the machines this
/// runs on are small, and a command's work is IO), timers and IO enabled.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read ledger {path}: {source}")]
    struct ReadError {
        path: String,
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory");
        let error = anyhow::Error::new(ReadError {
            path: "nope.yaml".into(),
            source: io,
        });
        assert_eq!(
            describe_error(&error),
            "cannot read ledger nope.yaml: No such file or directory"
        );
        let error = anyhow::anyhow!("disk full").context("journal j.sqlite");
        assert_eq!(describe_error(&error), "journal j.sqlite: disk full");
    }
}
