//! The one task that owns the console's state: it `select!`s over terminal events, fleet
//! snapshots (whose facts a blocking thread works out first), automation and activity
//! updates, a clock tick and signals; turns each into a message for `App::update`; and
//! draws only when something changed. Bursts (a key
//! repeat, snapshots arriving faster than frames) are merged: every message that is
//! already waiting is applied before the next frame, and snapshot-driven frames are
//! capped at about 30 per second while key-driven frames are drawn at once.

use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures::{FutureExt, StreamExt};
use tokio::signal::unix::{SignalKind, signal};
use tokio::time::{Instant, MissedTickBehavior, interval, sleep_until};

use super::app::{App, Command, Msg};
use super::fleet_data::PreparedSnapshot;
use super::terminal;
use super::{ConsoleError, ConsoleInputs};

/// Least time between two frames caused by data rather than keys.
const DATA_FRAME_INTERVAL: Duration = Duration::from_millis(33);
/// Most queued terminal events applied before drawing.
const BURST: usize = 64;

/// Runs the console until quit.
pub async fn run(mut inputs: ConsoleInputs) -> Result<(), ConsoleError> {
    let config = inputs.app_config();
    let mut app = App::new(config, inputs.ledger.clone(), jiff::Timestamp::now());
    app.update(Msg::Snapshot(inputs.snapshots.borrow_and_update().clone()));
    if let Some(rx) = inputs.activity.as_mut() {
        app.update(Msg::Activity(rx.borrow_and_update().clone()));
    }
    let (mut term, _guard) = terminal::setup()?;
    let size = term.size()?;
    app.update(Msg::Resize(size.width, size.height));

    let mut events = EventStream::new();
    let mut tick = interval(Duration::from_millis(250));
    tick.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut sigterm = signal(SignalKind::terminate())?;
    let mut sigint = signal(SignalKind::interrupt())?;
    let mut sighup = signal(SignalKind::hangup())?;
    let mut last_frame = Instant::now() - DATA_FRAME_INTERVAL;
    let mut data_pending = false;
    // A new snapshot's facts (each changed cluster's capacity and what-if) are worked out
    // on a blocking thread, one snapshot at a time, while keys keep being answered on the
    // snapshot before it. Snapshots published meanwhile are merged: the next one taken
    // is the newest.
    let mut preparing: Option<tokio::task::JoinHandle<PreparedSnapshot>> = None;
    let mut publisher_gone = false;

    loop {
        if app.dirty && !data_pending {
            term.draw(|f| super::view::draw(&app, f.area(), f.buffer_mut()))?;
            app.dirty = false;
            last_frame = Instant::now();
        }
        let mut commands = Vec::new();
        tokio::select! {
            event = events.next() => {
                match event {
                    Some(Ok(event)) => {
                        commands.extend(apply_burst(&mut app, event, || {
                            match events.next().now_or_never() {
                                Some(Some(Ok(event))) => Some(event),
                                _ => None,
                            }
                        }));
                        data_pending = false;
                    }
                    Some(Err(e)) => return Err(ConsoleError::Terminal(e)),
                    None => commands.push(Command::Quit),
                }
            }
            changed = inputs.snapshots.changed(), if preparing.is_none() && !publisher_gone => {
                if changed.is_err() {
                    // The publisher is gone: keep showing the last snapshot; ages grow and
                    // statuses will say how old the data is.
                    tracing::warn!("fleet snapshot publisher stopped");
                    publisher_gone = true;
                } else {
                    let snapshot = inputs.snapshots.borrow_and_update().clone();
                    let facts = app.facts_inputs();
                    preparing = Some(tokio::task::spawn_blocking(move || facts.prepare(snapshot)));
                }
            }
            prepared = async {
                match preparing.as_mut() {
                    Some(task) => task.await,
                    None => std::future::pending().await,
                }
            } => {
                preparing = None;
                match prepared {
                    Ok(prepared) => {
                        app.update(Msg::Prepared(Box::new(prepared)));
                        if let Some(retired) = app.take_retired() {
                            tokio::task::spawn_blocking(move || drop(retired));
                        }
                        data_pending = last_frame.elapsed() < DATA_FRAME_INTERVAL;
                    }
                    Err(failure) => {
                        tracing::error!(%failure, "working out a snapshot's facts failed");
                        let said = crate::t!(app.config.lang, "msg-facts-failed", failure = failure.to_string());
                        app.hold_message(said);
                    }
                }
            }
            Some(activity) = next_value(&mut inputs.activity) => { app.update(Msg::Activity(activity)); }
            Some(notice) = next_notice(&mut inputs.notices) => { app.update(Msg::Notice(notice)); }
            _ = sleep_until(last_frame + DATA_FRAME_INTERVAL), if data_pending => { data_pending = false; }
            _ = tick.tick() => {
                app.update(Msg::Tick(jiff::Timestamp::now()));
                if let Some(failure) = terminal::take_background_failure() {
                    let said = crate::t!(app.config.lang, "msg-background-failed", failure = failure.to_string());
                    app.hold_message(said);
                }
            }
            _ = sigterm.recv() => commands.extend(app.update(Msg::Terminate)),
            _ = sigint.recv() => commands.extend(app.update(Msg::Terminate)),
            _ = sighup.recv() => commands.extend(app.update(Msg::Terminate)),
        }
        for command in super::file_input::perform_reads(&mut app, commands) {
            match command {
                Command::Quit => return Ok(()),
                // Performed by `perform_reads` above.
                Command::ReadMaintenanceFile(_) => {}
                Command::Login(context) => {
                    // The plugin reads the terminal: nothing of the console may read it
                    // meanwhile, so the event stream is dropped and made anew after.
                    // (Its reading thread holds the terminal's reader until it is woken
                    // by the drop; the next stream is made only once the terminal is
                    // taken back.)
                    drop(events);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    let notice = login(&inputs, &mut term, context, app.config.lang).await?;
                    events = EventStream::new();
                    // A Ctrl-C typed to stop the plugin reached this process too: it was
                    // the plugin's, not a request to quit.
                    while sigint.recv().now_or_never().flatten().is_some() {}
                    app.update(Msg::Notice(notice));
                    app.dirty = true;
                }
                Command::Send(c) => {
                    // Quitting, or recording a refusal the console already showed, needs
                    // no word when no journal listens.
                    let quiet = !c.needs_answer();
                    let sent = inputs
                        .commands
                        .as_ref()
                        .is_some_and(|tx| tx.send(c).is_ok());
                    if !sent && !quiet {
                        app.update(Msg::Notice(super::feed::Notice {
                            ok: false,
                            text: crate::i18n::Msg::new("msg-no-journal-nothing-recorded"),
                        }));
                    }
                }
            }
        }
    }
}

/// Gives the terminal to the login of `context` and takes it back; what to tell the
/// operator afterwards.
async fn login(
    inputs: &ConsoleInputs,
    term: &mut terminal::Term,
    context: String,
    lang: crate::i18n::Lang,
) -> Result<super::feed::Notice, ConsoleError> {
    let Some(port) = inputs.login.clone() else {
        return Ok(super::feed::Notice {
            ok: false,
            text: crate::i18n::Msg::new("login-no-port"),
        });
    };
    terminal::suspend()?;
    {
        use std::io::Write;
        let banner = crate::t!(lang, "login-banner", context = context.as_str());
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "\n{banner}\n");
        let _ = out.flush();
    }
    let outcome = port(context).await;
    {
        use std::io::Write;
        let _ = writeln!(
            std::io::stdout().lock(),
            "{}",
            crate::t!(lang, "login-banner-done")
        );
    }
    terminal::resume(term)?;
    Ok(outcome.notice())
}

/// The next notice; pending forever when nobody answers commands.
async fn next_notice(
    rx: &mut Option<tokio::sync::mpsc::UnboundedReceiver<super::feed::Notice>>,
) -> Option<super::feed::Notice> {
    match rx {
        Some(r) => match r.recv().await {
            Some(n) => Some(n),
            None => {
                *rx = None;
                std::future::pending().await
            }
        },
        None => std::future::pending().await,
    }
}

/// Applies `first` and whatever else is already queued (`queued`), to be drawn as one
/// frame. Keys typed ahead of a confirmation are dropped: the operator has not seen what
/// it will do yet, so a fast `a ⏎ ⏎` must not send it. Other events still apply.
fn apply_burst(
    app: &mut App,
    first: Event,
    mut queued: impl FnMut() -> Option<Event>,
) -> Vec<Command> {
    // Once a confirmation opens within this burst (whether or not one was on screen
    // when it began), no later key of the burst is taken: none of them was typed
    // after seeing it.
    let mut confirming = app.in_confirmation();
    let mut commands = apply_event(app, first);
    let mut unseen = !confirming && app.in_confirmation();
    confirming = app.in_confirmation();
    let mut dropped = 0;
    for _ in 0..BURST {
        let Some(event) = queued() else {
            break;
        };
        if unseen && matches!(event, Event::Key(_) | Event::Paste(_)) {
            dropped += 1;
            continue;
        }
        commands.extend(apply_event(app, event));
        unseen |= !confirming && app.in_confirmation();
        confirming = app.in_confirmation();
    }
    if dropped > 0 {
        app.message = Some(crate::t!(
            app.config.lang,
            "msg-dropped-keys",
            dropped = dropped.to_string()
        ));
    }
    commands
}

fn apply_event(app: &mut App, event: Event) -> Vec<Command> {
    match event {
        Event::Key(key) => app.update(Msg::Key(key)),
        Event::Resize(w, h) => app.update(Msg::Resize(w, h)),
        Event::Paste(text) => app.update(Msg::Paste(text)),
        _ => Vec::new(),
    }
}

/// The next value of an optional watch channel; pending forever when there is none or its
/// sender is gone (so `select!` simply stops polling it).
async fn next_value<T: Clone>(rx: &mut Option<tokio::sync::watch::Receiver<T>>) -> Option<T> {
    match rx {
        Some(r) => match r.changed().await {
            Ok(()) => Some(r.borrow_and_update().clone()),
            Err(_) => {
                *rx = None;
                std::future::pending().await
            }
        },
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::fixtures::console as fixtures;
    use crate::model::live::ClusterStatus;

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn keys_typed_ahead_of_a_confirmation_are_dropped() {
        let mut app = fixtures::operator_app();
        fixtures::seen_as(&mut app, "us-east-prod-03", ClusterStatus::Synced);
        // `3` then `a`: the approval form opens; its note is optional.
        for code in [KeyCode::Char('3'), KeyCode::Char('a')] {
            apply_burst(&mut app, key(code), || None);
        }
        // Enter (to the confirmation) and Enter again, typed ahead in one burst.
        let mut queue = vec![key(KeyCode::Enter)].into_iter();
        let commands = apply_burst(&mut app, key(KeyCode::Enter), || queue.next());
        assert!(commands.is_empty(), "nothing sent unseen: {commands:?}");
        assert!(app.in_confirmation());
        assert!(
            app.message
                .as_deref()
                .is_some_and(|m| m.contains("typed ahead"))
        );
        // Drawn and read, the next Enter confirms.
        let commands = apply_burst(&mut app, key(KeyCode::Enter), || None);
        assert!(
            commands.iter().any(|c| matches!(c, Command::Send(_))),
            "{commands:?}"
        );
    }

    #[test]
    fn a_second_confirmation_opened_within_one_burst_is_not_confirmed_either() {
        let mut app = fixtures::operator_app();
        fixtures::seen_as(&mut app, "us-east-prod-03", ClusterStatus::Synced);
        for code in [KeyCode::Char('3'), KeyCode::Char('a')] {
            apply_burst(&mut app, key(code), || None);
        }
        apply_burst(&mut app, key(KeyCode::Enter), || None);
        assert!(app.in_confirmation(), "a confirmation is on screen");
        // ⏎ confirms the one on screen; then `a ⏎ ⏎` would open, advance and confirm a
        // second approval nobody has seen (the journal has not answered the first yet).
        let mut queue = vec![
            key(KeyCode::Char('a')),
            key(KeyCode::Enter),
            key(KeyCode::Enter),
        ]
        .into_iter();
        let commands = apply_burst(&mut app, key(KeyCode::Enter), || queue.next());
        let sent = commands
            .iter()
            .filter(|c| matches!(c, Command::Send(_)))
            .count();
        assert_eq!(
            sent, 1,
            "only the confirmation that was drawn: {commands:?}"
        );
    }
}
