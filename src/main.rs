//! The `fleetdeck` binary: the only place that uses `anyhow`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // `--help` speaks the chosen language: the language is read before parsing.
    let cli = cli::parse();
    match cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("fleetdeck: {}", cli::describe_error(&error));
            cli::exit_code(&error)
        }
    }
}
