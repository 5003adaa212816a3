//! Taking over the terminal and always giving it back: raw mode and the alternate screen
//! are undone on return, on error, on panic (hook) and on SIGTERM/SIGINT (the event loop
//! turns those into a quit).

use std::io::{self, Stdout};
use std::sync::Once;

use crossterm::cursor::Show;
use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// The terminal the console draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Puts the terminal back: leaves the alternate screen, shows the cursor, ends raw mode.
/// Safe to call more than once.
pub fn restore() {
    let _ = crossterm::execute!(
        io::stdout(),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        Show
    );
    let _ = disable_raw_mode();
}

static HOOK: Once = Once::new();

/// Restores the terminal before any panic message is printed, so the message is readable
/// and the shell usable.
fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Restores the terminal when dropped, whatever path leaves the console.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Enters raw mode and the alternate screen.
pub fn setup() -> io::Result<(Term, Guard)> {
    install_panic_hook();
    enable_raw_mode()?;
    let guard = Guard;
    crossterm::execute!(io::stdout(), EnterAlternateScreen, EnableBracketedPaste)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.hide_cursor()?;
    terminal.clear()?;
    Ok((terminal, guard))
}
