//! Executor leases, changed only through the database's `SECURITY DEFINER` functions, on
//! the database's clock: the times a client passes are not used, so an executor cannot take
//! a lease early (or keep one longer) by saying it is later (or earlier) than it is.

use std::time::Duration;

use super::PostgresJournal;
use super::errors::from_pg;
use crate::journal::row::from_micros;
use crate::journal::{JournalError, Lease, LeaseGrant};
use crate::model::run::{Actor, FencingToken, LeaseScope};

fn lease_from(
    scope: LeaseScope,
    holder: Option<String>,
    token: i64,
    acquired: i64,
    expires: i64,
) -> Result<Lease, JournalError> {
    Ok(Lease {
        scope,
        holder: holder.map(Actor),
        token: FencingToken(token),
        acquired_at: from_micros(acquired, 0)?,
        expires_at: from_micros(expires, 0)?,
    })
}

/// The time to live in microseconds, as the database functions take it.
fn ttl_micros(ttl: Duration) -> Result<i64, JournalError> {
    i64::try_from(ttl.as_micros())
        .map_err(|_| JournalError::Invalid(format!("lease TTL too large: {ttl:?}")))
}

impl PostgresJournal {
    /// Takes `scope` for `holder` when the database finds it free (see
    /// [`crate::journal::JournalStore::acquire_lease`]).
    pub(super) fn acquire(
        &mut self,
        scope: &LeaseScope,
        holder: &Actor,
        ttl: Duration,
    ) -> Result<LeaseGrant, JournalError> {
        let ttl = ttl_micros(ttl)?;
        let scope = scope.clone();
        let holder = holder.clone();
        self.run(move |client, where_| async move {
            let row = client
                .query_one(
                    "SELECT * FROM fleetdeck.acquire_lease($1, $2, $3)",
                    &[&scope.0, &holder.0, &ttl],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?;
            let granted: bool = row.get(0);
            let lease = lease_from(
                LeaseScope(row.get(1)),
                row.get(2),
                row.get(3),
                row.get(4),
                row.get(5),
            )?;
            Ok(if granted {
                LeaseGrant::Acquired { lease }
            } else {
                LeaseGrant::HeldByOther { lease }
            })
        })
    }

    /// Extends `lease` by `ttl` from the database's now.
    pub(super) fn renew(&mut self, lease: &Lease, ttl: Duration) -> Result<Lease, JournalError> {
        let ttl = ttl_micros(ttl)?;
        let holder = lease
            .holder
            .clone()
            .ok_or_else(|| JournalError::Invalid("cannot renew a released lease".into()))?;
        let held = lease.clone();
        self.run(move |client, where_| async move {
            let expires: Option<i64> = client
                .query_one(
                    "SELECT fleetdeck.renew_lease($1, $2, $3, $4)",
                    &[&held.scope.0, &holder.0, &held.token.0, &ttl],
                )
                .await
                .map_err(|e| from_pg(e, &where_))?
                .get(0);
            let Some(expires) = expires else {
                return Err(JournalError::LeaseLost {
                    scope: held.scope.clone(),
                    holder,
                });
            };
            Ok(Lease {
                expires_at: from_micros(expires, 0)?,
                ..held
            })
        })
    }

    /// Gives `lease` up at the database's now.
    pub(super) fn release(&mut self, lease: &Lease) -> Result<(), JournalError> {
        let held = lease.clone();
        self.run(move |client, where_| async move {
            let released: bool = client
                .query_one(
                    "SELECT fleetdeck.release_lease($1, $2)",
                    &[&held.scope.0, &held.token.0],
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

    /// The lease as stored.
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
            row.map(|r| lease_from(scope.clone(), r.get(0), r.get(1), r.get(2), r.get(3)))
                .transpose()
        })
    }
}
