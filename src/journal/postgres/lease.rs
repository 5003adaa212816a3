//! Executor leases, changed only through the database's `SECURITY DEFINER` functions.

use std::time::Duration;

use jiff::Timestamp;

use super::PostgresJournal;
use super::errors::from_pg;
use crate::journal::row::{from_micros, micros};
use crate::journal::{JournalError, Lease, LeaseGrant};
use crate::model::run::{Actor, FencingToken, LeaseScope};

fn lease_from(
    scope: &LeaseScope,
    holder: Option<String>,
    token: i64,
    acquired: i64,
    expires: i64,
) -> Result<Lease, JournalError> {
    Ok(Lease {
        scope: scope.clone(),
        holder: holder.map(Actor),
        token: FencingToken(token),
        acquired_at: from_micros(acquired, 0)?,
        expires_at: from_micros(expires, 0)?,
    })
}

fn expiry(now: Timestamp, ttl: Duration) -> Result<Timestamp, JournalError> {
    let ttl = jiff::SignedDuration::try_from(ttl)
        .map_err(|e| JournalError::Invalid(format!("lease TTL too large: {e}")))?;
    now.checked_add(ttl)
        .map_err(|e| JournalError::Invalid(format!("lease TTL too large: {e}")))
}

impl PostgresJournal {
    pub(super) fn acquire(
        &mut self,
        scope: &LeaseScope,
        holder: &Actor,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<LeaseGrant, JournalError> {
        let expires = expiry(now, ttl)?;
        let scope = scope.clone();
        let holder = holder.clone();
        self.run(move |client, where_| async move {
            let row = client
                .query_one(
                    "SELECT * FROM fleetdeck.acquire_lease($1, $2, $3, $4)",
                    &[&scope.0, &holder.0, &micros(now), &micros(expires)],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            let granted: bool = row.get(0);
            let lease = lease_from(&scope, row.get(1), row.get(2), row.get(3), row.get(4))?;
            Ok(if granted {
                LeaseGrant::Acquired { lease }
            } else {
                LeaseGrant::HeldByOther { lease }
            })
        })
    }

    pub(super) fn renew(
        &mut self,
        lease: &Lease,
        ttl: Duration,
        now: Timestamp,
    ) -> Result<Lease, JournalError> {
        let expires = expiry(now, ttl)?;
        let holder = lease
            .holder
            .clone()
            .ok_or_else(|| JournalError::Invalid("cannot renew a released lease".into()))?;
        let held = lease.clone();
        self.run(move |client, where_| async move {
            let renewed: bool = client
                .query_one(
                    "SELECT fleetdeck.renew_lease($1, $2, $3, $4)",
                    &[&held.scope.0, &holder.0, &held.token.0, &micros(expires)],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?
                .get(0);
            if !renewed {
                return Err(JournalError::LeaseLost {
                    scope: held.scope.clone(),
                    holder,
                });
            }
            Ok(Lease {
                expires_at: expires,
                ..held
            })
        })
    }

    pub(super) fn release(&mut self, lease: &Lease, now: Timestamp) -> Result<(), JournalError> {
        let held = lease.clone();
        self.run(move |client, where_| async move {
            let released: bool = client
                .query_one(
                    "SELECT fleetdeck.release_lease($1, $2, $3)",
                    &[&held.scope.0, &held.token.0, &micros(now)],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?
                .get(0);
            if !released {
                return Err(JournalError::LeaseLost {
                    scope: held.scope.clone(),
                    holder: held.holder.clone().unwrap_or_else(|| Actor(String::new())),
                });
            }
            Ok(())
        })
    }

    pub(super) fn read_lease(&self, scope: &LeaseScope) -> Result<Option<Lease>, JournalError> {
        let scope = scope.clone();
        self.run(move |client, where_| async move {
            let row = client
                .query_opt(
                    "SELECT holder, token, acquired_us, expires_us FROM fleetdeck.leases WHERE scope = $1",
                    &[&scope.0],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            row.map(|r| lease_from(&scope, r.get(0), r.get(1), r.get(2), r.get(3)))
                .transpose()
        })
    }
}
