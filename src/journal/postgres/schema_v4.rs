//! Schema version 4: the database checks exactly what the executor acts on.
//!
//! - One writer role per kind (`model::run::writers`): `run.status` is the executor's
//!   only, its notes are `executor.note`; every executor kind carries a fence matching
//!   the live lease (held, same token, same role), and none goes in without one.
//! - One plan per run, and an approval counts only for a planned run, by a person its
//!   plan allows (the plan is the run's one plan, which every reader uses).
//! - Payloads are checked at the door (`fleetdeck.payload_problem`, the same rules as
//!   `model::run::payload`, whose table `fleetdeck.payload_shapes` mirrors).
//! - Writers serialise on a table lock only the journal's own functions can take (an
//!   advisory lock is anyone's to take, a viewer's too).
//! - Idempotency keys are unique per writer's key space (`key_scope`): one writer cannot
//!   take another's key ahead of it; the same write again is answered with the stored
//!   event before any other check, so a retry after a lost answer is found, never refused.
//! - A lease lapsed while nobody else took it is taken again by its holder with the same
//!   token (nothing happened in between that the token must fence off).

/// The statements of version 4.
pub const MIGRATION_4: &str = r#"
-- The writers' lock. Nobody is granted anything on it: only the journal's SECURITY
-- DEFINER functions (running as its owner) lock it, for writers only.
CREATE TABLE fleetdeck.write_lock ();
REVOKE ALL ON fleetdeck.write_lock FROM PUBLIC;

-- Takes the writers' lock for the caller's transaction and says the last sequence: for a
-- write decided on the journal as it stood (`append_if_last`) and for finding out, after
-- a lost answer, what an earlier attempt left.
CREATE FUNCTION fleetdeck.lock_writes() RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
BEGIN
    IF NOT (fleetdeck.may('fleetdeck_operator') OR fleetdeck.may('fleetdeck_approver')
            OR fleetdeck.may('fleetdeck_executor')) THEN
        RAISE EXCEPTION 'role % may read the journal but not write it', session_user
            USING ERRCODE = '42501';
    END IF;
    LOCK TABLE fleetdeck.write_lock IN EXCLUSIVE MODE;
    RETURN (SELECT coalesce(max(e.seq), 0) FROM fleetdeck.events e);
END
$$;
REVOKE ALL ON FUNCTION fleetdeck.lock_writes() FROM PUBLIC;

-- One writer role per kind (mirrors `model::run::writers::writer_of`).
CREATE OR REPLACE FUNCTION fleetdeck.role_for_kind(kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN kind = 'run.approved' THEN 'fleetdeck_approver'
        WHEN kind IN ('run.planned', 'operator.pause', 'operator.resume', 'operator.handoff',
                      'operator.takeover', 'operator.return', 'operator.abort',
                      'operator.note', 'operator.acknowledge', 'operator.refused',
                      'operator.windowOverride', 'gitops.intent', 'gitops.outcome')
             THEN 'fleetdeck_operator'
        WHEN kind IN ('run.status', 'step.status', 'step.intent', 'step.outcome',
                      'step.observed', 'step.waiting', 'step.nodeEventFailed', 'guard.tripped',
                      'lease.acquired', 'executor.note', 'rollout.batch', 'rollout.staged',
                      'rollout.applied', 'rollout.verified', 'rollout.gate', 'rollout.halted',
                      'rollout.observed', 'rollout.dispatched', 'rollout.claimed',
                      'rollout.answered')
             THEN 'fleetdeck_executor'
        ELSE 'fleetdeck_admin'
    END
$$;

-- The key space of an event (mirrors `model::run::writers::key_scope`): executors share
-- one (a standby repeats its predecessor's keys), everyone else has their own.
CREATE FUNCTION fleetdeck.key_scope_for(p_kind text, p_actor text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN fleetdeck.role_for_kind(p_kind) = 'fleetdeck_executor' THEN 'executor'
                ELSE p_actor END
$$;

ALTER TABLE fleetdeck.events ADD COLUMN key_scope text;
ALTER TABLE fleetdeck.events DISABLE TRIGGER events_no_update;
UPDATE fleetdeck.events SET key_scope = fleetdeck.key_scope_for(kind, actor);
ALTER TABLE fleetdeck.events ENABLE TRIGGER events_no_update;
ALTER TABLE fleetdeck.events ALTER COLUMN key_scope SET NOT NULL;
ALTER TABLE fleetdeck.events DROP CONSTRAINT events_idem_key_key;
CREATE UNIQUE INDEX events_by_key ON fleetdeck.events (key_scope, idem_key);
CREATE INDEX events_plans ON fleetdeck.events (run_id, seq) WHERE kind = 'run.planned';

-- Every known kind's top-level keys and their JSON types (mirrors
-- `model::run::payload::SHAPES`; 'any' takes every type).
CREATE TABLE fleetdeck.payload_shapes (
    kind     text    NOT NULL,
    key      text    NOT NULL,
    types    text[]  NOT NULL,
    required boolean NOT NULL,
    PRIMARY KEY (kind, key)
);
INSERT INTO fleetdeck.payload_shapes (kind, key, types, required)
SELECT v.kind, v.key, string_to_array(v.types, '|'), v.required FROM (VALUES
    ('executor.note', 'text', 'string', true),
    ('gitops.intent', 'action', 'string', true),
    ('gitops.intent', 'object', 'any', true),
    ('gitops.intent', 'previous', 'any', true),
    ('gitops.intent', 'reason', 'string', true),
    ('gitops.outcome', 'detail', 'any', true),
    ('gitops.outcome', 'intent', 'string', true),
    ('gitops.outcome', 'ok', 'boolean', true),
    ('guard.tripped', 'notReady', 'array', false),
    ('guard.tripped', 'not_ready', 'array', false),
    ('guard.tripped', 'reason', 'string', true),
    ('guard.tripped', 'scope', 'object', true),
    ('guard.tripped', 'total', 'number', true),
    ('lease.acquired', 'scope', 'string', true),
    ('lease.acquired', 'token', 'number', true),
    ('operator.abort', 'note', 'string', true),
    ('operator.acknowledge', 'extent', 'array', true),
    ('operator.acknowledge', 'note', 'string', true),
    ('operator.acknowledge', 'problem', 'string', true),
    ('operator.acknowledge', 'title', 'string', true),
    ('operator.handoff', 'note', 'string', true),
    ('operator.handoff', 'to', 'string', true),
    ('operator.note', 'text', 'string', true),
    ('operator.pause', 'reason', 'string', true),
    ('operator.pause', 'scope', 'object', true),
    ('operator.refused', 'command', 'string', true),
    ('operator.refused', 'reason', 'string', true),
    ('operator.resume', 'note', 'string', true),
    ('operator.resume', 'scope', 'object', true),
    ('operator.return', 'note', 'string', true),
    ('operator.return', 'outcome', 'string', true),
    ('operator.takeover', 'note', 'string', true),
    ('operator.windowOverride', 'reason', 'string', true),
    ('operator.windowOverride', 'until', 'string', true),
    ('rollout.answered', 'answer', 'object', true),
    ('rollout.answered', 'request', 'string', true),
    ('rollout.applied', 'digest', 'string', true),
    ('rollout.batch', 'batch', 'number', true),
    ('rollout.batch', 'phase', 'object', true),
    ('rollout.claimed', 'request', 'string', true),
    ('rollout.claimed', 'withdrawn', 'boolean', true),
    ('rollout.dispatched', 'call', 'string', true),
    ('rollout.dispatched', 'intent', 'string|null', true),
    ('rollout.gate', 'batch', 'number', true),
    ('rollout.gate', 'halt', 'object|null', true),
    ('rollout.halted', 'batch', 'number', true),
    ('rollout.halted', 'why', 'object', true),
    ('rollout.observed', 'command', 'number|null', true),
    ('rollout.observed', 'observation', 'any', true),
    ('rollout.staged', 'digest', 'string', true),
    ('rollout.verified', 'outcome', 'object', true),
    ('run.approved', 'batch', 'number|null', true),
    ('run.approved', 'note', 'string', true),
    ('run.planned', 'batches', 'array', true),
    ('run.planned', 'items', 'array', true),
    ('run.planned', 'spec', 'any', true),
    ('run.planned', 'title', 'string', true),
    ('run.status', 'status', 'object', true),
    ('step.intent', 'action', 'string', true),
    ('step.intent', 'detail', 'any', true),
    ('step.intent', 'identity', 'string', false),
    ('step.nodeEventFailed', 'error', 'string', true),
    ('step.nodeEventFailed', 'message', 'string', true),
    ('step.nodeEventFailed', 'reason', 'string', true),
    ('step.observed', 'observation', 'any', true),
    ('step.outcome', 'detail', 'any', true),
    ('step.outcome', 'intent', 'string', true),
    ('step.outcome', 'ok', 'boolean', true),
    ('step.status', 'status', 'object', true),
    ('step.waiting', 'why', 'string', true)
) AS v(kind, key, types, required);
REVOKE ALL ON fleetdeck.payload_shapes FROM PUBLIC;

-- The shapes as one array per kind (`key types required`), built from the table once:
-- read on every insert, a table lookup there would cost more than the rest of the check.
DO $do$
DECLARE
    arms text;
BEGIN
    SELECT string_agg(format('WHEN %L THEN %L::text[]', k.kind, k.entries), ' ' ORDER BY k.kind)
      INTO arms
      FROM (SELECT s.kind,
                   array_agg(s.key || ' ' || array_to_string(s.types, '|') || ' ' || s.required
                             ORDER BY s.key)::text AS entries
              FROM fleetdeck.payload_shapes s GROUP BY s.kind) k;
    EXECUTE format('CREATE FUNCTION fleetdeck.payload_keys(p_kind text) RETURNS text[]
                    LANGUAGE sql IMMUTABLE AS $f$ SELECT CASE p_kind %s END $f$', arms);
END
$do$;

-- Why a payload of `p_kind` may not go in, or NULL (mirrors
-- `model::run::payload::payload_problem`, same rules, same order, same words). `p_shapes`
-- false checks only what every reader can parse (an imported event of an older shape). A
-- payload that is not JSON every reader can read (a lone surrogate, a NUL) is refused by
-- the cast to jsonb with PostgreSQL's own error.
CREATE FUNCTION fleetdeck.payload_problem(p_kind text, p_payload json, p_shapes boolean DEFAULT true)
RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
    doc jsonb;
    entries text[];
    entry text;
    key text;
    types text[];
    found_type text;
BEGIN
    IF octet_length(p_payload::text) > 33554432 THEN
        RETURN 'it is larger than 32 MiB';
    END IF;
    doc := p_payload::jsonb;
    IF p_shapes THEN
        entries := fleetdeck.payload_keys(p_kind);
    END IF;
    IF entries IS NOT NULL AND jsonb_typeof(doc) <> 'object' THEN
        RETURN 'it is ' || CASE WHEN jsonb_typeof(doc) IN ('array', 'object') THEN 'an ' ELSE 'a ' END
               || jsonb_typeof(doc) || ', not an object';
    END IF;
    IF jsonb_path_exists(doc, 'strict $.** ? (@.type() == "number" && (@ >= 1e18 || @ <= -1e18))') THEN
        RETURN 'it holds a number beyond ±10^18';
    END IF;
    IF jsonb_path_exists(doc, 'strict $.**{64 to last}') THEN
        RETURN 'it is nested 64 levels deep or more';
    END IF;
    FOREACH entry IN ARRAY coalesce(entries, '{}') LOOP
        key := split_part(entry, ' ', 1);
        types := string_to_array(split_part(entry, ' ', 2), '|');
        IF NOT doc ? key THEN
            IF split_part(entry, ' ', 3) = 'true' THEN
                RETURN format('it has no %s', to_json(key));
            END IF;
        ELSE
            found_type := jsonb_typeof(doc -> key);
            IF NOT ('any' = ANY (types) OR found_type = ANY (types)) THEN
                RETURN format('its %s is %s, not %s', to_json(key),
                              CASE WHEN found_type IN ('array', 'object') THEN 'an ' ELSE 'a ' END || found_type,
                              array_to_string(types, ' or '));
            END IF;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

-- Whether the connected person may act as `role_name` (as version 1 said), cheaper: read on
-- every insert, it asks the role cache rather than the catalogue's views where it can.
CREATE OR REPLACE FUNCTION fleetdeck.may(role_name text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT (to_regrole(role_name) IS NOT NULL AND pg_has_role(session_user, to_regrole(role_name), 'MEMBER'))
        OR (to_regrole('fleetdeck_admin') IS NOT NULL
            AND pg_has_role(session_user, to_regrole('fleetdeck_admin'), 'MEMBER'))
        OR session_user = (SELECT n.nspowner::regrole::text FROM pg_namespace n WHERE n.nspname = 'fleetdeck')
        OR coalesce((SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = session_user), false)
$$;

CREATE OR REPLACE FUNCTION fleetdeck.before_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = fleetdeck, pg_catalog, pg_temp AS $$
DECLARE
    needed text := fleetdeck.role_for_kind(NEW.kind);
    lease_row fleetdeck.leases%ROWTYPE;
    lease_found boolean;
    author text;
    policy text;
    problem text;
BEGIN
    -- `fleetdeck journal copy` brings another journal's events over as they were (their
    -- sequence, actor and time): an admin's job only, and only after the last event.
    IF current_setting('fleetdeck.import', true) = 'on' THEN
        IF NOT fleetdeck.may('fleetdeck_admin') THEN
            RAISE EXCEPTION 'role % may not import events (it needs fleetdeck_admin)', session_user
                USING ERRCODE = '42501';
        END IF;
        LOCK TABLE fleetdeck.write_lock IN EXCLUSIVE MODE;
        IF NEW.seq IS NULL OR NEW.seq <= (SELECT coalesce(max(e.seq), 0) FROM fleetdeck.events e) THEN
            RAISE EXCEPTION 'an imported event (%) must come after the journal''s last one', NEW.seq;
        END IF;
        problem := fleetdeck.payload_problem(NEW.kind, NEW.payload, false);
        IF problem IS NOT NULL THEN
            RAISE EXCEPTION 'a % event is refused: %', NEW.kind, problem
                USING ERRCODE = 'FD004', DETAIL = NEW.kind, HINT = problem;
        END IF;
        NEW.key_scope := fleetdeck.key_scope_for(NEW.kind, NEW.actor);
        RETURN NEW;
    END IF;
    IF NOT fleetdeck.may(needed) THEN
        RAISE EXCEPTION 'role % may not write % events (it needs %)', session_user, NEW.kind, needed
            USING ERRCODE = '42501', HINT = 'ask an admin to grant ' || needed || ' to ' || session_user;
    END IF;
    -- The journal's write lock: sequence order is commit order.
    LOCK TABLE fleetdeck.write_lock IN EXCLUSIVE MODE;
    NEW.actor := session_user;
    NEW.key_scope := fleetdeck.key_scope_for(NEW.kind, session_user);
    SELECT coalesce(max(e.seq), 0) + 1 INTO NEW.seq FROM fleetdeck.events e;
    -- The same write again (a retry after a lost answer): the conflict on the key answers
    -- with the stored event; it was checked when it went in.
    IF EXISTS (SELECT 1 FROM fleetdeck.events e
                WHERE e.key_scope = NEW.key_scope AND e.idem_key = NEW.idem_key) THEN
        RETURN NEW;
    END IF;
    IF NEW.time_us IS NULL OR NEW.time_us < 0 OR NEW.time_us > 253402300799999999 THEN
        RAISE EXCEPTION 'a % event is refused: its time is before 1970 or after 9999', NEW.kind
            USING ERRCODE = 'FD004', DETAIL = NEW.kind, HINT = 'its time is before 1970 or after 9999';
    END IF;
    problem := fleetdeck.payload_problem(NEW.kind, NEW.payload);
    IF problem IS NOT NULL THEN
        RAISE EXCEPTION 'a % event is refused: %', NEW.kind, problem
            USING ERRCODE = 'FD004', DETAIL = NEW.kind, HINT = problem;
    END IF;
    IF needed = 'fleetdeck_executor' AND NEW.lease_scope IS NULL THEN
        RAISE EXCEPTION '% events are written only under the executor lease, and this one carries no fence', NEW.kind
            USING ERRCODE = 'FD005', DETAIL = NEW.kind;
    END IF;
    IF NEW.lease_scope IS NOT NULL THEN
        SELECT * INTO lease_row FROM fleetdeck.leases l WHERE l.scope = NEW.lease_scope;
        lease_found := FOUND;
        IF NOT lease_found OR lease_row.token IS DISTINCT FROM NEW.lease_token
           OR lease_row.holder IS NULL OR lease_row.holder_role IS DISTINCT FROM session_user THEN
            RAISE EXCEPTION 'stale fencing token % for lease %', NEW.lease_token, NEW.lease_scope
                USING ERRCODE = 'FD001',
                      DETAIL = CASE WHEN lease_found THEN lease_row.token ELSE 0 END::text;
        END IF;
    END IF;
    IF NEW.kind = 'run.planned' THEN
        IF NEW.run_id IS NULL THEN
            RAISE EXCEPTION 'a run.planned event is refused: a plan names the run it plans'
                USING ERRCODE = 'FD004', DETAIL = 'run.planned', HINT = 'a plan names the run it plans';
        END IF;
        IF EXISTS (SELECT 1 FROM fleetdeck.events e
                    WHERE e.run_id = NEW.run_id AND e.kind = 'run.planned') THEN
            RAISE EXCEPTION 'run % already has a plan: a run has one plan, and a re-plan is a new run', NEW.run_id
                USING ERRCODE = 'FD003', DETAIL = NEW.run_id;
        END IF;
    END IF;
    IF NEW.kind = 'run.approved' THEN
        SELECT e.actor, e.payload -> 'spec' -> 'rollout' ->> 'approvals' INTO author, policy
            FROM fleetdeck.events e
            WHERE e.run_id = NEW.run_id AND e.kind = 'run.planned' ORDER BY e.seq LIMIT 1;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'run % has no plan to approve', coalesce(NEW.run_id, '(none named)')
                USING ERRCODE = 'FD002';
        END IF;
        IF policy = 'distinctFromAuthor' AND author = session_user THEN
            RAISE EXCEPTION '% started this rollout and cannot approve its batches (approvals.distinctApprover is true): ask another person', author
                USING ERRCODE = 'FD002';
        END IF;
    END IF;
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION fleetdeck.acquire_lease(p_scope text, p_holder text, p_ttl_us bigint)
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
    LOCK TABLE fleetdeck.write_lock IN EXCLUSIVE MODE;
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
    ELSIF found_row AND cur.holder = p_holder AND cur.holder_role = session_user THEN
        -- Lapsed while nobody else took it: the same holding, the same token.
        new_token := cur.token;
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
            ON CONFLICT (key_scope, idem_key) DO NOTHING;
    END IF;
    RETURN QUERY SELECT true, p_scope, p_holder, new_token, acquired, now_us + p_ttl_us;
END
$$;
"#;

/// What `journal init --roles` takes away from PUBLIC on the journal's database, one
/// step each: `(message id saying what, statement, a query that is true while PUBLIC still
/// has it)`. Each needs the database's (or, for the large object functions, the cluster's
/// bootstrap superuser's) ownership; run by another role, PostgreSQL revokes nothing and
/// only warns, so each step is checked after it: one still granted is reported, not
/// fatal, and the admin does it (docs/team.md).
pub const HARDENING: &[(&str, &str, &str)] = &[
    (
        "journal-harden-connect",
        "DO $$ BEGIN
            EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', current_database());
            EXECUTE format('GRANT CONNECT ON DATABASE %I TO fleetdeck_viewer', current_database());
         END $$",
        "SELECT has_database_privilege('public', current_database(), 'CONNECT')",
    ),
    (
        "journal-harden-temp",
        "DO $$ BEGIN
            EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
         END $$",
        "SELECT has_database_privilege('public', current_database(), 'TEMPORARY')",
    ),
    (
        "journal-harden-public-schema",
        "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
        "SELECT has_schema_privilege('public', 'public', 'CREATE')",
    ),
    (
        "journal-harden-large-objects",
        "REVOKE EXECUTE ON FUNCTION pg_catalog.lo_creat(integer), pg_catalog.lo_create(oid),
                pg_catalog.lo_from_bytea(oid, bytea), pg_catalog.lo_import(text),
                pg_catalog.lo_import(text, oid) FROM PUBLIC",
        "SELECT has_function_privilege('public', 'pg_catalog.lo_creat(integer)', 'EXECUTE')
             OR has_function_privilege('public', 'pg_catalog.lo_create(oid)', 'EXECUTE')
             OR has_function_privilege('public', 'pg_catalog.lo_from_bytea(oid, bytea)', 'EXECUTE')
             OR has_function_privilege('public', 'pg_catalog.lo_import(text)', 'EXECUTE')
             OR has_function_privilege('public', 'pg_catalog.lo_import(text, oid)', 'EXECUTE')",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hardening_step_is_said_in_both_languages() {
        for (id, ..) in HARDENING {
            for lang in [crate::i18n::Lang::En, crate::i18n::Lang::ZhCn] {
                assert!(crate::i18n::has(lang, id), "{id} in {lang:?}");
            }
        }
    }

    #[test]
    fn the_databases_payload_shapes_are_the_models() {
        // The VALUES rows of the migration, read back: ('kind', 'key', 'types', required).
        let rows: Vec<(String, String, String, bool)> = MIGRATION_4
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("('") && (l.ends_with("),") || l.ends_with(')')))
            .filter_map(|l| {
                let inner = l
                    .trim_start_matches('(')
                    .trim_end_matches(',')
                    .trim_end_matches(')');
                let parts: Vec<&str> = inner.split(", ").collect();
                let text = |p: &str| p.trim_matches('\'').to_string();
                match parts.as_slice() {
                    [kind, key, types, required] => {
                        Some((text(kind), text(key), text(types), *required == "true"))
                    }
                    _ => None,
                }
            })
            .collect();
        let model: Vec<(String, String, String, bool)> = crate::model::run::payload::SHAPES
            .iter()
            .map(|(k, key, t, r)| (k.to_string(), key.to_string(), t.to_string(), *r))
            .collect();
        assert_eq!(rows, model);
    }

    #[test]
    fn the_writer_table_in_the_team_page_is_the_models() {
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/team.md"),
        )
        .unwrap_or_default();
        let table = page
            .split("### One writer per event kind")
            .nth(1)
            .and_then(|rest| rest.split("\n\n").nth(1))
            .unwrap_or_default();
        let rows: Vec<(String, String)> = table
            .lines()
            .filter_map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                let kind = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                let role = cells.get(2)?.trim_matches('`');
                Some((kind.to_string(), role.to_string()))
            })
            .collect();
        let kinds: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            kinds,
            crate::model::run::EVENT_KINDS,
            "every kind, in order"
        );
        for (kind, role) in &rows {
            assert_eq!(
                crate::model::run::writers::writer_of(kind).role(),
                role,
                "{kind}"
            );
            let fenced = table
                .lines()
                .any(|l| l.starts_with(&format!("| `{kind}` |")) && l.contains("lease"));
            assert_eq!(
                fenced,
                crate::model::run::writers::needs_fence(kind),
                "{kind}: fence"
            );
        }
    }

    #[test]
    fn the_databases_writer_roles_are_the_models() {
        // Each kind named in role_for_kind's lists, under the role of its list.
        let function = MIGRATION_4
            .split("CREATE OR REPLACE FUNCTION fleetdeck.role_for_kind")
            .nth(1)
            .and_then(|rest| rest.split("$$;").next())
            .unwrap_or_default();
        let mut named = 0;
        for branch in function.split("WHEN ").skip(1) {
            let role = branch
                .split("THEN '")
                .nth(1)
                .and_then(|r| r.split('\'').next())
                .unwrap_or_default();
            for kind in branch
                .split("THEN")
                .next()
                .unwrap_or_default()
                .split('\'')
                .skip(1)
                .step_by(2)
            {
                named += 1;
                assert_eq!(
                    crate::model::run::writers::writer_of(kind).role(),
                    role,
                    "{kind}"
                );
            }
        }
        assert_eq!(
            named,
            crate::model::run::EVENT_KINDS.len(),
            "every kind is named once"
        );
    }
}
