//! The `fleetdeck` binary: the only place that uses `anyhow`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("fleetdeck: {}", cli::describe_error(&error));
            cli::exit_code(&error)
        }
    }
}
