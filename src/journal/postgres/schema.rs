//! The PostgreSQL journal's schema: versioned migrations and the roles of team mode.
//!
//! Everything lives in the schema `fleetdeck`. Clients never write the tables directly
//! with their own values where it matters: a `BEFORE INSERT` trigger numbers each event
//! (under the writers' lock, a table lock only the journal's own functions take, so
//! sequence order is commit order and a reader catching up by sequence never skips a late
//! commit), writes the actor as the authenticated role (`session_user`), checks the one
//! writer role of the event's kind, the payload's shape, the fence against the live lease
//! (required for every executor kind), one plan per run and the four-eyes rule; leases
//! change only through `SECURITY DEFINER` functions. So `psql` with a role's password can
//! do no more than fleetdeck itself lets that role do. Version 4 (`schema_v4`) is where
//! most of that is said.
//!
//! Never edit a released migration: add the next one.

/// One schema change.
#[derive(Debug)]
pub struct PgMigration {
    /// The version the schema has after it.
    pub version: i64,
    /// What it does, for the log.
    pub description: &'static str,
    /// The statements.
    pub sql: &'static str,
}

/// The channel new events are announced on (payload: the last sequence committed).
pub const CHANNEL: &str = "fleetdeck_events";

/// Every migration, in order; the last one's version is the current schema version.
pub const PG_MIGRATIONS: &[PgMigration] = &[
    PgMigration {
        version: 1,
        description: "events (append-only, numbered, actor and roles by the database), leases, notifications",
        sql: r#"
CREATE TABLE fleetdeck.events (
    seq         bigint  PRIMARY KEY,
    time_us     bigint  NOT NULL,
    actor       text    NOT NULL DEFAULT session_user,
    kind        text    NOT NULL,
    run_id      text,
    item        text,
    step        text,
    cluster     text,
    payload     json    NOT NULL,
    idem_key    text    NOT NULL UNIQUE,
    lease_scope text,
    lease_token bigint
);
CREATE INDEX events_by_time    ON fleetdeck.events (time_us);
CREATE INDEX events_by_run     ON fleetdeck.events (run_id, seq) WHERE run_id IS NOT NULL;
CREATE INDEX events_by_cluster ON fleetdeck.events (cluster, seq) WHERE cluster IS NOT NULL;
CREATE INDEX events_by_kind    ON fleetdeck.events (kind, seq);

CREATE TABLE fleetdeck.leases (
    scope       text    PRIMARY KEY,
    holder      text,
    holder_role text    NOT NULL DEFAULT session_user,
    token       bigint  NOT NULL CHECK (token > 0),
    acquired_us bigint  NOT NULL,
    expires_us  bigint  NOT NULL
);

-- Whether the connected person (session_user, never a SET ROLE) may act as `role`: a
-- member of it or of fleetdeck_admin, the owner of the journal, or a superuser.
CREATE FUNCTION fleetdeck.may(role_name text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user)
        OR session_user = (SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 'fleetdeck')
        OR (EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name)
            AND pg_has_role(session_user, role_name, 'MEMBER'))
        OR (EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleetdeck_admin')
            AND pg_has_role(session_user, 'fleetdeck_admin', 'MEMBER'))
$$;

-- Which role writes which kind of event. A kind not listed (a newer fleetdeck's) is the
-- admin's only.
CREATE FUNCTION fleetdeck.role_for_kind(kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN kind = 'run.approved' THEN 'fleetdeck_approver'
        WHEN kind IN ('run.planned', 'operator.pause', 'operator.resume', 'operator.handoff',
                      'operator.takeover', 'operator.return', 'operator.abort',
                      'operator.note', 'operator.refused') THEN 'fleetdeck_operator'
        WHEN kind IN ('run.status', 'step.status', 'step.intent', 'step.outcome',
                      'step.observed', 'guard.tripped', 'lease.acquired') OR kind LIKE 'rollout.%'
             THEN 'fleetdeck_executor'
        ELSE 'fleetdeck_admin'
    END
$$;

CREATE FUNCTION fleetdeck.before_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
DECLARE
    needed text := fleetdeck.role_for_kind(NEW.kind);
    current_token bigint;
    current_role_name text;
    author text;
    policy text;
BEGIN
    -- `fleetdeck journal copy` brings another journal's events over as they were (their
    -- sequence, actor and time): an admin's job only, and only after the last event.
    IF current_setting('fleetdeck.import', true) = 'on' THEN
        IF NOT fleetdeck.may('fleetdeck_admin') THEN
            RAISE EXCEPTION 'role % may not import events (it needs fleetdeck_admin)', session_user
                USING ERRCODE = '42501';
        END IF;
        PERFORM pg_advisory_xact_lock(7380453045844698467);
        IF NEW.seq IS NULL OR NEW.seq <= (SELECT coalesce(max(e.seq), 0) FROM fleetdeck.events e) THEN
            RAISE EXCEPTION 'an imported event (%) must come after the journal''s last one', NEW.seq;
        END IF;
        RETURN NEW;
    END IF;
    -- Approvals and refusal notes are written by approvers too; notes by every writer.
    IF NOT (fleetdeck.may(needed)
            OR (NEW.kind IN ('operator.refused', 'operator.note')
                AND (fleetdeck.may('fleetdeck_approver') OR fleetdeck.may('fleetdeck_executor')))
            OR (NEW.kind = 'run.status' AND fleetdeck.may('fleetdeck_operator'))) THEN
        RAISE EXCEPTION 'role % may not write % events (it needs %)', session_user, NEW.kind, needed
            USING ERRCODE = '42501', HINT = 'ask an admin to grant ' || needed || ' to ' || session_user;
    END IF;
    -- The journal's write lock: sequence order is commit order.
    PERFORM pg_advisory_xact_lock(7380453045844698467);
    NEW.actor := session_user;
    IF NEW.lease_scope IS NOT NULL THEN
        SELECT l.token, l.holder_role INTO current_token, current_role_name
            FROM fleetdeck.leases l WHERE l.scope = NEW.lease_scope;
        IF current_token IS DISTINCT FROM NEW.lease_token
           OR current_role_name IS DISTINCT FROM session_user THEN
            RAISE EXCEPTION 'stale fencing token % for lease %', NEW.lease_token, NEW.lease_scope
                USING ERRCODE = 'FD001', DETAIL = coalesce(current_token, 0)::text;
        END IF;
    END IF;
    IF NEW.kind = 'run.approved' AND NEW.run_id IS NOT NULL THEN
        SELECT e.actor, e.payload -> 'spec' -> 'rollout' ->> 'approvals' INTO author, policy
            FROM fleetdeck.events e
            WHERE e.run_id = NEW.run_id AND e.kind = 'run.planned' ORDER BY e.seq LIMIT 1;
        IF policy = 'distinctFromAuthor' AND author = session_user THEN
            RAISE EXCEPTION '% started this rollout and cannot approve its batches (approvals.distinctApprover is true): ask another person', author
                USING ERRCODE = 'FD002';
        END IF;
    END IF;
    SELECT coalesce(max(e.seq), 0) + 1 INTO NEW.seq FROM fleetdeck.events e;
    RETURN NEW;
END
$$;
CREATE TRIGGER events_before_insert BEFORE INSERT ON fleetdeck.events
    FOR EACH ROW EXECUTE FUNCTION fleetdeck.before_event();

-- The journal is an audit trail: nothing in it changes or disappears.
CREATE FUNCTION fleetdeck.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the journal is append-only' USING ERRCODE = '42501';
END
$$;
CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON fleetdeck.events
    FOR EACH ROW EXECUTE FUNCTION fleetdeck.refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON fleetdeck.events
    FOR EACH STATEMENT EXECUTE FUNCTION fleetdeck.refuse_change();

-- Consoles and CLIs learn of new events without polling: one notification per statement,
-- delivered at commit, carrying the last sequence it wrote.
CREATE FUNCTION fleetdeck.after_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fleetdeck_events', (SELECT max(seq)::text FROM new_rows));
    RETURN NULL;
END
$$;
CREATE TRIGGER events_notify AFTER INSERT ON fleetdeck.events
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION fleetdeck.after_events();

-- Leases change only here. The holder name is the executor instance's; the role that
-- holds it is the authenticated one, and only that role may renew, release or write
-- under it.
CREATE FUNCTION fleetdeck.acquire_lease(p_scope text, p_holder text, p_now_us bigint,
                                        p_expires_us bigint)
RETURNS TABLE (granted boolean, o_holder text, o_token bigint, o_acquired_us bigint, o_expires_us bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
DECLARE
    cur fleetdeck.leases%ROWTYPE;
    found_row boolean;
    new_token bigint;
    acquired bigint;
BEGIN
    IF NOT fleetdeck.may('fleetdeck_executor') THEN
        RAISE EXCEPTION 'role % may not hold executor leases (it needs fleetdeck_executor)', session_user
            USING ERRCODE = '42501';
    END IF;
    PERFORM pg_advisory_xact_lock(7380453045844698467);
    SELECT * INTO cur FROM fleetdeck.leases l WHERE l.scope = p_scope FOR UPDATE;
    found_row := FOUND;
    IF found_row AND cur.holder IS NOT NULL AND p_now_us < cur.expires_us THEN
        IF cur.holder = p_holder AND cur.holder_role = session_user THEN
            new_token := cur.token;
        ELSE
            RETURN QUERY SELECT false, cur.holder, cur.token, cur.acquired_us, cur.expires_us;
            RETURN;
        END IF;
    ELSIF found_row THEN
        new_token := cur.token + 1;
    ELSE
        new_token := 1;
    END IF;
    IF found_row AND cur.token = new_token THEN
        acquired := cur.acquired_us;
    ELSE
        acquired := p_now_us;
    END IF;
    INSERT INTO fleetdeck.leases AS l (scope, holder, holder_role, token, acquired_us, expires_us)
        VALUES (p_scope, p_holder, session_user, new_token, acquired, p_expires_us)
        ON CONFLICT (scope) DO UPDATE SET holder = excluded.holder, holder_role = excluded.holder_role,
            token = excluded.token, acquired_us = excluded.acquired_us, expires_us = excluded.expires_us;
    IF NOT (found_row AND cur.token = new_token) THEN
        INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key, lease_scope, lease_token)
            VALUES (p_now_us, 'lease.acquired', json_build_object('scope', p_scope, 'token', new_token), 'lease/' || p_scope || '/' || new_token,
                    p_scope, new_token)
            ON CONFLICT (idem_key) DO NOTHING;
    END IF;
    RETURN QUERY SELECT true, p_holder, new_token, acquired, p_expires_us;
END
$$;

CREATE FUNCTION fleetdeck.renew_lease(p_scope text, p_holder text, p_token bigint, p_expires_us bigint)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
BEGIN
    UPDATE fleetdeck.leases SET expires_us = p_expires_us
        WHERE scope = p_scope AND token = p_token AND holder = p_holder AND holder_role = session_user;
    RETURN FOUND;
END
$$;

CREATE FUNCTION fleetdeck.release_lease(p_scope text, p_token bigint, p_now_us bigint)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
BEGIN
    -- The row (and so the token) stays, so the next holder's token is still larger than
    -- every token ever handed out.
    UPDATE fleetdeck.leases SET holder = NULL, expires_us = p_now_us
        WHERE scope = p_scope AND token = p_token AND holder_role = session_user;
    RETURN FOUND;
END
$$;

REVOKE ALL ON FUNCTION fleetdeck.acquire_lease(text, text, bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleetdeck.renew_lease(text, text, bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleetdeck.release_lease(text, bigint, bigint) FROM PUBLIC;
"#,
    },
    PgMigration {
        version: 2,
        description: "lease scopes (the fleet, or shards of one key), lease times from the database's clock, executor and operator kinds completed",
        sql: MIGRATION_2,
    },
    PgMigration {
        version: 3,
        description: "operators override maintenance windows and suspend or resume GitOps sync",
        sql: MIGRATION_3,
    },
    PgMigration {
        version: 4,
        description: "one writer role per kind, a fence on every executor kind, one plan per run, payloads checked at the door, a writers' lock only writers take, idempotency keys per writer",
        sql: super::schema_v4::MIGRATION_4,
    },
];

/// Version 2. Lease times come from the database's clock (an executor role passing a time
/// of its own could otherwise take a lease before it lapsed); a lease is refused while a
/// lease that may not be held beside it is held (the fleet's excludes every shard's, and
/// shards of two keys exclude each other), and such leases that lapsed are revoked (their
/// token moves on) so a late write under them is refused.
const MIGRATION_2: &str = r#"
DROP FUNCTION fleetdeck.acquire_lease(text, text, bigint, bigint);
DROP FUNCTION fleetdeck.renew_lease(text, text, bigint, bigint);
DROP FUNCTION fleetdeck.release_lease(text, bigint, bigint);

-- The database's clock in microseconds since the epoch: the only clock leases use.
CREATE FUNCTION fleetdeck.now_us() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
    SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
$$;

-- Whether executors holding leases `a` and `b` may act at the same time: two shards of one
-- key only (they own disjoint clusters). Mirrors `model::shard::may_coexist`.
CREATE FUNCTION fleetdeck.may_coexist(a text, b text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT a <> b AND a <> 'fleet' AND b <> 'fleet'
       AND split_part(a, '=', 1) = split_part(b, '=', 1)
$$;

CREATE FUNCTION fleetdeck.check_lease_args(p_scope text, p_ttl_us bigint) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF p_scope IS NULL OR (p_scope <> 'fleet' AND p_scope !~ '^[A-Za-z0-9._/-]+=[A-Za-z0-9._/-]+$') THEN
        RAISE EXCEPTION 'lease scope % is neither fleet nor KEY=VALUE', p_scope USING ERRCODE = '22023';
    END IF;
    IF p_ttl_us IS NULL OR p_ttl_us < 1000 OR p_ttl_us > 86400000000 THEN
        RAISE EXCEPTION 'lease TTL of % µs is not between 1 ms and 24 h', p_ttl_us USING ERRCODE = '22023';
    END IF;
END
$$;

CREATE FUNCTION fleetdeck.acquire_lease(p_scope text, p_holder text, p_ttl_us bigint)
RETURNS TABLE (granted boolean, o_scope text, o_holder text, o_token bigint,
               o_acquired_us bigint, o_expires_us bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
DECLARE
    cur fleetdeck.leases%ROWTYPE;
    other fleetdeck.leases%ROWTYPE;
    found_row boolean;
    new_token bigint;
    acquired bigint;
    now_us bigint;
BEGIN
    IF NOT fleetdeck.may('fleetdeck_executor') THEN
        RAISE EXCEPTION 'role % may not hold executor leases (it needs fleetdeck_executor)', session_user
            USING ERRCODE = '42501';
    END IF;
    PERFORM fleetdeck.check_lease_args(p_scope, p_ttl_us);
    PERFORM pg_advisory_xact_lock(7380453045844698467);
    now_us := fleetdeck.now_us();
    SELECT * INTO other FROM fleetdeck.leases l
        WHERE l.scope <> p_scope AND NOT fleetdeck.may_coexist(l.scope, p_scope)
          AND l.holder IS NOT NULL AND now_us < l.expires_us
        ORDER BY l.scope LIMIT 1;
    IF FOUND THEN
        RETURN QUERY SELECT false, other.scope, other.holder, other.token, other.acquired_us, other.expires_us;
        RETURN;
    END IF;
    SELECT * INTO cur FROM fleetdeck.leases l WHERE l.scope = p_scope FOR UPDATE;
    found_row := FOUND;
    IF found_row AND cur.holder IS NOT NULL AND now_us < cur.expires_us THEN
        IF cur.holder = p_holder AND cur.holder_role = session_user THEN
            new_token := cur.token;
        ELSE
            RETURN QUERY SELECT false, cur.scope, cur.holder, cur.token, cur.acquired_us, cur.expires_us;
            RETURN;
        END IF;
    ELSIF found_row THEN
        new_token := cur.token + 1;
    ELSE
        new_token := 1;
    END IF;
    -- Every lease that may not be held beside ours has lapsed: revoke those still named, so
    -- that what their holders write late is refused by the fence.
    UPDATE fleetdeck.leases l SET holder = NULL, token = l.token + 1
        WHERE l.scope <> p_scope AND NOT fleetdeck.may_coexist(l.scope, p_scope) AND l.holder IS NOT NULL;
    IF found_row AND cur.token = new_token THEN
        acquired := cur.acquired_us;
    ELSE
        acquired := now_us;
    END IF;
    INSERT INTO fleetdeck.leases AS l (scope, holder, holder_role, token, acquired_us, expires_us)
        VALUES (p_scope, p_holder, session_user, new_token, acquired, now_us + p_ttl_us)
        ON CONFLICT (scope) DO UPDATE SET holder = excluded.holder, holder_role = excluded.holder_role,
            token = excluded.token, acquired_us = excluded.acquired_us, expires_us = excluded.expires_us;
    IF NOT (found_row AND cur.token = new_token) THEN
        INSERT INTO fleetdeck.events (time_us, kind, payload, idem_key, lease_scope, lease_token)
            VALUES (now_us, 'lease.acquired', json_build_object('scope', p_scope, 'token', new_token),
                    'lease/' || p_scope || '/' || new_token, p_scope, new_token)
            ON CONFLICT (idem_key) DO NOTHING;
    END IF;
    RETURN QUERY SELECT true, p_scope, p_holder, new_token, acquired, now_us + p_ttl_us;
END
$$;

-- The new expiry, or NULL when the lease is no longer this holder's.
CREATE FUNCTION fleetdeck.renew_lease(p_scope text, p_holder text, p_token bigint, p_ttl_us bigint)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
DECLARE
    expires bigint;
BEGIN
    PERFORM fleetdeck.check_lease_args(p_scope, p_ttl_us);
    UPDATE fleetdeck.leases SET expires_us = fleetdeck.now_us() + p_ttl_us
        WHERE scope = p_scope AND token = p_token AND holder = p_holder AND holder_role = session_user
        RETURNING expires_us INTO expires;
    RETURN expires;
END
$$;

CREATE FUNCTION fleetdeck.release_lease(p_scope text, p_token bigint)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
BEGIN
    -- The row (and so the token) stays, so the next holder's token is still larger than
    -- every token ever handed out.
    UPDATE fleetdeck.leases SET holder = NULL, expires_us = fleetdeck.now_us()
        WHERE scope = p_scope AND token = p_token AND holder_role = session_user;
    RETURN FOUND;
END
$$;

REVOKE ALL ON FUNCTION fleetdeck.acquire_lease(text, text, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleetdeck.renew_lease(text, text, bigint, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleetdeck.release_lease(text, bigint) FROM PUBLIC;

-- Kinds version 1 left to the admin: what waits and a refused node Event are the
-- executor's, a handover acknowledgement the operator's.
CREATE OR REPLACE FUNCTION fleetdeck.role_for_kind(kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN kind = 'run.approved' THEN 'fleetdeck_approver'
        WHEN kind IN ('run.planned', 'operator.pause', 'operator.resume', 'operator.handoff',
                      'operator.takeover', 'operator.return', 'operator.abort',
                      'operator.note', 'operator.refused', 'operator.acknowledge') THEN 'fleetdeck_operator'
        WHEN kind IN ('run.status', 'step.status', 'step.intent', 'step.outcome',
                      'step.observed', 'step.waiting', 'step.nodeEventFailed', 'guard.tripped',
                      'lease.acquired') OR kind LIKE 'rollout.%'
             THEN 'fleetdeck_executor'
        ELSE 'fleetdeck_admin'
    END
$$;
"#;

/// Version 3. Operators override maintenance windows and suspend or resume GitOps sync.
const MIGRATION_3: &str = r#"
CREATE OR REPLACE FUNCTION fleetdeck.role_for_kind(kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN kind = 'run.approved' THEN 'fleetdeck_approver'
        WHEN kind IN ('run.planned', 'operator.pause', 'operator.resume', 'operator.handoff',
                      'operator.takeover', 'operator.return', 'operator.abort',
                      'operator.note', 'operator.refused', 'operator.acknowledge',
                      'operator.windowOverride', 'gitops.intent', 'gitops.outcome')
             THEN 'fleetdeck_operator'
        WHEN kind IN ('run.status', 'step.status', 'step.intent', 'step.outcome',
                      'step.observed', 'step.waiting', 'step.nodeEventFailed', 'guard.tripped',
                      'lease.acquired') OR kind LIKE 'rollout.%'
             THEN 'fleetdeck_executor'
        ELSE 'fleetdeck_admin'
    END
$$;
"#;

/// The schema version this build writes.
pub fn current_pg_version() -> i64 {
    PG_MIGRATIONS.last().map_or(0, |m| m.version)
}

/// The roles of team mode, least to most privileged, with what each may do.
pub const ROLES: &[(&str, &str)] = &[
    ("fleetdeck_viewer", "read the journal and follow it live"),
    (
        "fleetdeck_operator",
        "pause, resume, hand off, take over, return, abort, start maintenance and rollouts, notes, acknowledge handover items, override maintenance windows, suspend and resume GitOps sync",
    ),
    (
        "fleetdeck_approver",
        "approve batches (never their own rollout's under distinctApprover)",
    ),
    (
        "fleetdeck_executor",
        "hold executor leases and write step, status, rollout events and executor notes, each under the lease it holds",
    ),
    ("fleetdeck_admin", "all of the above"),
];

/// Creates the roles (as `NOLOGIN` groups) when missing and grants each what it may do.
/// Idempotent; needs a role that may create roles (an admin or the superuser).
pub const ROLES_SQL: &str = r#"
DO $$
DECLARE r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['fleetdeck_viewer', 'fleetdeck_operator', 'fleetdeck_approver',
                             'fleetdeck_executor', 'fleetdeck_admin'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        END IF;
    END LOOP;
END
$$;
GRANT fleetdeck_viewer TO fleetdeck_operator, fleetdeck_approver, fleetdeck_executor;
GRANT fleetdeck_operator, fleetdeck_approver, fleetdeck_executor TO fleetdeck_admin;
GRANT USAGE ON SCHEMA fleetdeck TO fleetdeck_viewer;
GRANT SELECT ON fleetdeck.events, fleetdeck.leases, fleetdeck.schema_version TO fleetdeck_viewer;
GRANT INSERT ON fleetdeck.events TO fleetdeck_operator, fleetdeck_approver, fleetdeck_executor;
GRANT EXECUTE ON FUNCTION fleetdeck.acquire_lease(text, text, bigint),
                          fleetdeck.renew_lease(text, text, bigint, bigint),
                          fleetdeck.release_lease(text, bigint) TO fleetdeck_executor;
GRANT EXECUTE ON FUNCTION fleetdeck.lock_writes()
    TO fleetdeck_operator, fleetdeck_approver, fleetdeck_executor;
"#;
