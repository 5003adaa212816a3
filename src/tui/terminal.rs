//! Taking over the terminal and always giving it back: raw mode and the alternate screen
//! are undone on return, on error, on panic (hook) and on SIGTERM/SIGINT (the event loop
//! turns those into a quit).

use std::io::{self, Stdout};
use std::sync::{Mutex, Once};
use std::thread::ThreadId;

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

/// Gives the terminal back for a while (a credential plugin's login prompt): the normal
/// screen, the cursor, cooked mode. [`resume`] takes it again.
pub fn suspend() -> io::Result<()> {
    crossterm::execute!(
        io::stdout(),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        Show
    )?;
    disable_raw_mode()
}

/// Takes the terminal again after [`suspend`] and clears it, so the next frame is drawn
/// whole where the console was.
pub fn resume(terminal: &mut Term) -> io::Result<()> {
    enable_raw_mode()?;
    crossterm::execute!(io::stdout(), EnterAlternateScreen, EnableBracketedPaste)?;
    terminal.hide_cursor()?;
    terminal.clear()
}

static HOOK: Once = Once::new();

/// The thread the console draws from, while it owns the terminal.
static CONSOLE_THREAD: Mutex<Option<ThreadId>> = Mutex::new(None);

/// The first panic of a thread other than the console's, for the console to show.
static BACKGROUND_FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// What a panic on `thread` calls for.
#[derive(Debug, PartialEq, Eq)]
enum OnPanic {
    /// The console itself is going down: give the terminal back, then report as usual.
    RestoreAndReport,
    /// A background task failed while the console runs on: printing would draw over the
    /// console and restoring would leave it drawing over the shell. It is logged and kept
    /// for the console to show.
    Record,
}

fn on_panic(thread: ThreadId, message: String) -> OnPanic {
    let console = CONSOLE_THREAD.lock().ok().and_then(|t| *t);
    if console.is_none_or(|c| c == thread) {
        return OnPanic::RestoreAndReport;
    }
    tracing::error!(%message, "a background task panicked");
    if let Ok(mut first) = BACKGROUND_FAILURE.lock() {
        first.get_or_insert(message);
    }
    OnPanic::Record
}

/// The first background panic since the last call, if any.
pub fn take_background_failure() -> Option<String> {
    BACKGROUND_FAILURE.lock().ok().and_then(|mut f| f.take())
}

/// Restores the terminal before the console's own panic message is printed, so the
/// message is readable and the shell usable; panics elsewhere are recorded instead.
fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            match on_panic(std::thread::current().id(), info.to_string()) {
                OnPanic::RestoreAndReport => {
                    restore();
                    previous(info);
                }
                OnPanic::Record => {}
            }
        }));
    });
}

/// Restores the terminal when dropped, whatever path leaves the console.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        if let Ok(mut thread) = CONSOLE_THREAD.lock() {
            *thread = None;
        }
        restore();
    }
}

/// Enters raw mode and the alternate screen.
pub fn setup() -> io::Result<(Term, Guard)> {
    install_panic_hook();
    if let Ok(mut thread) = CONSOLE_THREAD.lock() {
        *thread = Some(std::thread::current().id());
    }
    enable_raw_mode()?;
    let guard = Guard;
    crossterm::execute!(io::stdout(), EnterAlternateScreen, EnableBracketedPaste)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.hide_cursor()?;
    terminal.clear()?;
    Ok((terminal, guard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_console_threads_panic_gives_the_terminal_back() {
        let console = std::thread::current().id();
        let background = std::thread::spawn(|| std::thread::current().id())
            .join()
            .unwrap();
        *CONSOLE_THREAD.lock().unwrap() = Some(console);
        assert_eq!(
            on_panic(background, "fleet sync: boom".into()),
            OnPanic::Record
        );
        assert_eq!(on_panic(background, "a second one".into()), OnPanic::Record);
        assert_eq!(
            on_panic(console, "console: boom".into()),
            OnPanic::RestoreAndReport
        );
        *CONSOLE_THREAD.lock().unwrap() = None;
        assert_eq!(
            on_panic(background, "no console".into()),
            OnPanic::RestoreAndReport
        );
        assert_eq!(
            take_background_failure().as_deref(),
            Some("fleet sync: boom")
        );
        assert_eq!(take_background_failure(), None);
    }
}
