//! What the console reads from disk on the operator's request, outside the reducer: the
//! reducer asks with a [`Command`] and gets the answer back as a [`Msg`], so `update`
//! stays a function of its messages (and tests drive it the same way the event loop does).

use super::app::{Command, Msg};

/// Reads the maintenance file of a [`Command::ReadMaintenanceFile`] (`~/` is `$HOME/`,
/// as a shell reads it); the message that carries its text, or why it could not be read.
pub fn read_maintenance_file(path: &std::path::Path) -> Msg {
    let path = crate::config::expand_home(path);
    Msg::MaintenanceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).map_err(|error| error.to_string()),
    }
}

/// Performs the commands that read files, feeding their answers back into `app`; the
/// commands left for the event loop (quit, send), in order.
pub fn perform_reads(app: &mut super::app::App, commands: Vec<Command>) -> Vec<Command> {
    let mut queue: std::collections::VecDeque<Command> = commands.into();
    let mut out = Vec::new();
    while let Some(command) = queue.pop_front() {
        match command {
            Command::ReadMaintenanceFile(path) => {
                queue.extend(app.update(read_maintenance_file(&path)));
            }
            other => out.push(other),
        }
    }
    out
}
