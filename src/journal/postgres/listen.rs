//! Live updates without polling the table: one connection per process LISTENs on the
//! journal's channel and turns each notification into a wake-up. The reader then reads by
//! sequence (`seq > last seen`), so a notification that was lost, merged with another or
//! sent while the connection was down costs nothing: after every reconnect the reader is
//! woken to catch up, and a slow safety interval bounds the wait even if a notification
//! never comes.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;

use futures::StreamExt;
use tokio_postgres::AsyncMessage;

use super::bridge;
use super::schema::CHANNEL;
use super::tls::RustlsMakeConnect;
use crate::journal::JournalError;

/// The longest a reader waits without a notification before it reads anyway.
pub const SAFETY_CATCH_UP: Duration = Duration::from_secs(5);

/// The longest pause between two attempts to reconnect.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Wake-ups for a reader of the journal.
pub struct Changes {
    rx: Receiver<()>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

fn wake(tx: &SyncSender<()>) {
    // A wake-up already waiting covers this one too.
    let _ = tx.try_send(());
}

impl Changes {
    /// Starts listening (and reconnecting, with backoff, until dropped).
    pub fn start(
        config: tokio_postgres::Config,
        tls: RustlsMakeConnect,
    ) -> Result<Self, JournalError> {
        let (tx, rx) = sync_channel(1);
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        bridge::handle()?.spawn(async move {
            let mut backoff = Duration::from_millis(100);
            loop {
                match config.connect(tls.clone()).await {
                    Ok((client, mut connection)) => {
                        let (note_tx, mut notes) = tokio::sync::mpsc::unbounded_channel();
                        let driver = tokio::spawn(async move {
                            let mut messages =
                                futures::stream::poll_fn(move |cx| connection.poll_message(cx));
                            while let Some(message) = messages.next().await {
                                match message {
                                    Ok(AsyncMessage::Notification(_)) => {
                                        if note_tx.send(()).is_err() {
                                            return;
                                        }
                                    }
                                    Ok(_) => {}
                                    Err(_) => return,
                                }
                            }
                        });
                        if client
                            .batch_execute(&format!("LISTEN {CHANNEL}"))
                            .await
                            .is_ok()
                        {
                            backoff = Duration::from_millis(100);
                            // Listening from now on: whatever came before is caught up.
                            wake(&tx);
                            loop {
                                tokio::select! {
                                    note = notes.recv() => match note {
                                        Some(()) => wake(&tx),
                                        None => break,
                                    },
                                    _ = &mut stopped => return,
                                }
                            }
                        }
                        driver.abort();
                        tracing::warn!("journal notifications lost; reconnecting");
                        // The reader tries now, and notices the database is gone.
                        wake(&tx);
                    }
                    Err(error) => {
                        tracing::debug!(%error, "journal notifications: cannot connect");
                        wake(&tx);
                    }
                }
                tokio::select! {
                    _ = tokio::time::sleep(backoff) => {}
                    _ = &mut stopped => return,
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        });
        Ok(Changes { rx, _stop: stop })
    }

    /// Blocks until a wake-up, or `at_most`.
    pub fn wait(&self, at_most: Duration) {
        let _ = self.rx.recv_timeout(at_most);
    }
}
