//! Logs go to a file, never to the terminal the console draws on.

use std::path::Path;

use tracing_subscriber::EnvFilter;

/// Sends `tracing` output to `log_file` (level from `FLEETDECK_LOG`, default `info`).
/// If the file cannot be opened, logging is off and the reason is returned for a notice.
pub fn init(log_file: &Path) -> Result<(), String> {
    if let Some(dir) = log_file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_file)
        .map_err(|e| format!("{}: {e}", log_file.display()))?;
    let filter =
        EnvFilter::try_from_env("FLEETDECK_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init()
        .map_err(|e| e.to_string())
}
