//! The team journal behind the store trait.

use std::time::Duration;

use jiff::Timestamp;

use super::PostgresJournal;
use crate::journal::{Appended, EventQuery, Fence, JournalError, JournalStore, Lease, LeaseGrant};
use crate::model::run::{Actor, Event, LeaseScope, NewEvent, Sequence};

impl JournalStore for PostgresJournal {
    fn append(&mut self, event: NewEvent, fence: Option<&Fence>) -> Result<Appended, JournalError> {
        let mut out = self.write(vec![event], fence, None)?;
        out.pop()
            .ok_or_else(|| JournalError::Invalid("the database wrote nothing".into()))
    }

    fn append_all(
        &mut self,
        events: Vec<NewEvent>,
        fence: Option<&Fence>,
    ) -> Result<Vec<Appended>, JournalError> {
        self.write(events, fence, None)
    }

    fn append_if_last(
        &mut self,
        event: NewEvent,
        last_seen: Option<Sequence>,
    ) -> Result<Appended, JournalError> {
        let mut out = self.write(vec![event], None, Some(last_seen))?;
        out.pop()
            .ok_or_else(|| JournalError::Invalid("the database wrote nothing".into()))
    }

    fn scan(&self, query: &EventQuery, visit: &mut dyn FnMut(Event)) -> Result<(), JournalError> {
        self.scan_events(query, visit)
    }

    fn acquire_lease(
        &mut self,
        scope: &LeaseScope,
        holder: &Actor,
        ttl: Duration,
        _now: Timestamp,
    ) -> Result<LeaseGrant, JournalError> {
        // The database's clock decides, not the caller's.
        self.acquire(scope, holder, ttl)
    }

    fn renew_lease(
        &mut self,
        lease: &Lease,
        ttl: Duration,
        _now: Timestamp,
    ) -> Result<Lease, JournalError> {
        self.renew(lease, ttl)
    }

    fn release_lease(&mut self, lease: &Lease, _now: Timestamp) -> Result<(), JournalError> {
        self.release(lease)
    }

    fn lease(&self, scope: &LeaseScope) -> Result<Option<Lease>, JournalError> {
        self.read_lease(scope)
    }

    fn authenticated_actor(&self) -> Option<Actor> {
        Some(self.identity.role.clone())
    }

    fn team(&self) -> Result<Option<crate::model::team::TeamFacts>, JournalError> {
        self.team_facts().map(Some)
    }

    fn wait_for_change(&self, poll: Duration) {
        self.wait_for_announcement(poll)
    }
}
