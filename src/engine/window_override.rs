//! A person's override of a cluster's maintenance window: journaled (who, why, until
//! when) as an operator command; the executor lets changes start on that cluster until
//! it ends. An override of zero length ends an earlier one.

use std::time::Duration;

use jiff::Timestamp;

use crate::journal::{JournalError, JournalStore};
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, EventBody, IdempotencyKey, NewEvent};

/// Why the override was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum OverrideError {
    /// Read-only mode refuses every write.
    #[error(
        "read-only mode: refusing to override the maintenance window of {0} (drop --readonly to act)"
    )]
    ReadOnly(String),
    /// A reason is required.
    #[error("a reason is required: say why changes may start outside the window")]
    NoReason,
    /// Longer than a week: a window that needs overriding for that long needs changing.
    #[error("an override of {0} is longer than a week: change the window in the ledger instead")]
    TooLong(String),
    /// The journal failed.
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// Journals that `actor` allows changes to `cluster` outside its window for `length`
/// from `now`; the sentence to show.
pub fn override_window(
    store: &mut impl JournalStore,
    cluster: &ClusterId,
    length: Duration,
    reason: &str,
    actor: &Actor,
    readonly: bool,
    now: Timestamp,
) -> Result<String, OverrideError> {
    if readonly {
        return Err(OverrideError::ReadOnly(cluster.0.clone()));
    }
    if reason.trim().is_empty() {
        return Err(OverrideError::NoReason);
    }
    if length > Duration::from_secs(7 * 86_400) {
        return Err(OverrideError::TooLong(
            crate::model::duration::format_duration(length),
        ));
    }
    let until = jiff::SignedDuration::try_from(length)
        .ok()
        .and_then(|d| now.checked_add(d).ok())
        .unwrap_or(now);
    let event = NewEvent::new(
        now,
        actor.clone(),
        IdempotencyKey::for_command(actor, now, &format!("window-override/{cluster}")),
        EventBody::WindowOverridden {
            until,
            reason: reason.trim().to_string(),
        },
    )
    .with_cluster(cluster.clone());
    let appended = store.append(event, None)?;
    Ok(if length.is_zero() {
        format!(
            "the maintenance window of {cluster} is enforced again (journal event {})",
            appended.event.seq.0
        )
    } else {
        format!(
            "changes to {cluster} may start outside its maintenance window until {} (journal event {}, by {actor})",
            until.strftime("%Y-%m-%d %H:%M UTC"),
            appended.event.seq.0
        )
    })
}
