//! The reducer's vocabulary: the messages it takes ([`Msg`]), the commands it gives the
//! event loop ([`Command`]) and the overlays it can put above a screen ([`Overlay`]). Kept
//! apart from `app.rs` so that screens and dialogs can speak it without reaching into the
//! console's state.

use crossterm::event::KeyEvent;
use jiff::Timestamp;

use super::dialog::Dialog;
use super::feed::{Activity, ConsoleCommand, Notice};
use super::fleet_data::PreparedSnapshot;
use super::palette::PaletteState;
use crate::model::live::FleetSnapshot;

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// The terminal changed size.
    Resize(u16, u16),
    /// Text pasted (bracketed paste): goes into the field being edited, if any.
    Paste(String),
    /// A new fleet snapshot.
    Snapshot(FleetSnapshot),
    /// A new fleet snapshot whose facts were worked out beside the event loop.
    Prepared(Box<PreparedSnapshot>),
    /// Journal-derived activity changed.
    Activity(Activity),
    /// Time passed (clocks, data ages).
    Tick(Timestamp),
    /// The answer to a command the console sent.
    Notice(Notice),
    /// SIGTERM, SIGINT or SIGHUP.
    Terminate,
    /// A maintenance file read for `:start FILE` (see [`Command::ReadMaintenanceFile`]).
    MaintenanceFile {
        /// The file as the operator named it (`~/` expanded).
        name: String,
        /// Its text, or why it could not be read.
        text: Result<String, String>,
    },
}

/// What the event loop should do after an update.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Restore the terminal and return.
    Quit,
    /// Forward to whoever listens for console commands.
    Send(ConsoleCommand),
    /// Read the maintenance file `:start FILE` names and answer with
    /// [`Msg::MaintenanceFile`]: the reducer itself reads no file.
    ReadMaintenanceFile(std::path::PathBuf),
    /// Give the terminal to a context's credential plugin for a person to log in, then
    /// come back (see [`super::login`]).
    Login(String),
}

/// An overlay above the screen.
#[derive(Debug, Clone)]
pub enum Overlay {
    /// `?`: keys of the active keymap.
    Help {
        /// First line shown.
        scroll: usize,
    },
    /// `:`.
    Palette(PaletteState),
    /// An operator action's dialog.
    Dialog(Box<Dialog>),
    /// `H`: the shift handover walkthrough.
    Handover,
    /// `enter` on a PDB of the drill-down: its pods and their nodes.
    PdbPods(super::screens::pdb_pods::PdbPodsState),
}
