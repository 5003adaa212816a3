//! The command-line edge: parses arguments, resolves settings, dispatches to commands.

mod args;
mod config_cmd;
mod console_cmd;
mod ledger;
mod logging;
mod output;
mod settings;

use std::process::ExitCode;

use clap::CommandFactory;

pub use args::Cli;
use args::{Command, ConfigCommand, LedgerCommand};
use settings::Settings;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let settings = Settings::resolve(&cli.global)?;
    if let Err(reason) = logging::init(&settings.paths.log_file) {
        eprintln!("fleetdeck: logging disabled ({reason})");
    }
    tracing::info!(version = env!("CARGO_PKG_VERSION"), actor = %settings.actor, "start");
    match cli.command {
        None => console_cmd::open(&settings),
        Some(Command::Ledger { command }) => match command {
            LedgerCommand::Validate { file, now } => {
                ledger::validate(&settings, file.as_deref(), now)
            }
            LedgerCommand::Show { selector } => ledger::show(&settings, selector.as_deref()),
            LedgerCommand::Contexts => ledger::contexts(&settings),
        },
        Some(Command::Config { command }) => match command {
            ConfigCommand::Paths => config_cmd::paths(&settings),
        },
        Some(Command::Completions { shell }) => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "fleetdeck",
                &mut std::io::stdout(),
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
