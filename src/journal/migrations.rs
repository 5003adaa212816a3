//! Versioned schema migrations. Each runs once, in its own transaction together with the
//! bump of `schema_version`, so a crash mid-migration leaves the previous version intact.
//! Never edit a released migration: add the next one.

/// One schema change.
#[derive(Debug)]
pub struct Migration {
    /// The version the schema has after it.
    pub version: i64,
    /// What it does, for the log.
    pub description: &'static str,
    /// The statements.
    pub sql: &'static str,
}

/// Every migration, in order; the last one's version is the current schema version.
pub const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    description: "events (append-only) and leases",
    sql: r#"
CREATE TABLE events (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    time_us     INTEGER NOT NULL,
    actor       TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    run_id      TEXT,
    item        TEXT,
    step        TEXT,
    cluster     TEXT,
    payload     TEXT    NOT NULL CHECK (json_valid(payload)),
    idem_key    TEXT    NOT NULL UNIQUE,
    lease_scope TEXT,
    lease_token INTEGER
);
CREATE INDEX events_by_time    ON events (time_us);
CREATE INDEX events_by_run     ON events (run_id, seq) WHERE run_id IS NOT NULL;
CREATE INDEX events_by_cluster ON events (cluster, seq) WHERE cluster IS NOT NULL;
CREATE INDEX events_by_kind    ON events (kind, seq);
-- The journal is an audit trail: nothing in it changes or disappears.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;

CREATE TABLE leases (
    scope       TEXT    PRIMARY KEY,
    holder      TEXT,
    token       INTEGER NOT NULL CHECK (token > 0),
    acquired_us INTEGER NOT NULL,
    expires_us  INTEGER NOT NULL
);
"#,
}];

/// The schema version this build writes.
pub fn current_version() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_increase_by_one_from_one() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.description);
        }
    }
}
