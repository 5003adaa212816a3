//! Leases: which executor may act, until when, under which fencing token.

use jiff::Timestamp;
use serde::Serialize;

use crate::model::run::{Actor, FencingToken, LeaseScope};

/// A lease as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lease {
    /// What it covers.
    pub scope: LeaseScope,
    /// Who holds it (`None` after a release).
    pub holder: Option<Actor>,
    /// The fencing token of the current holding.
    pub token: FencingToken,
    /// When the current holder took it.
    pub acquired_at: Timestamp,
    /// When it lapses unless renewed.
    pub expires_at: Timestamp,
}

impl Lease {
    /// Whether someone holds it at `now`.
    pub fn is_held_at(&self, now: Timestamp) -> bool {
        self.holder.is_some() && now < self.expires_at
    }

    /// The fence to attach to every write made under this lease.
    pub fn fence(&self) -> Fence {
        Fence {
            scope: self.scope.clone(),
            token: self.token,
        }
    }
}

/// What a write under a lease carries: the store checks it in the write's transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fence {
    /// The lease.
    pub scope: LeaseScope,
    /// The writer's token.
    pub token: FencingToken,
}

/// The answer to an acquisition attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "camelCase")]
pub enum LeaseGrant {
    /// We hold it now.
    Acquired {
        /// The lease we hold.
        lease: Lease,
    },
    /// Someone else holds it; try again after `lease.expires_at` (as a standby).
    HeldByOther {
        /// The current holding.
        lease: Lease,
    },
}
