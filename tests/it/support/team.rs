//! A team on a fresh journal of the shared throwaway PostgreSQL server, as its members
//! would attack it: `psql` with each role's password over TCP on loopback (one statement
//! list at a time, or a session held open), and the journal as each role's client opens
//! it, or as the database's superuser reads it.
//!
//! The members: `op_a` and `op_b` (operators and approvers), `op_d` (an operator only),
//! `view_c` (a viewer), `exec_a` and `exec_b` (executors) and `nobody_e` (a login with no
//! fleetdeck role at all).

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};

use fleetdeck::journal::postgres::throwaway::{self, TEST_PASSWORD, ThrowawayServer};
use fleetdeck::journal::{AnyJournal, EventQuery, JournalStore, JournalTarget, OpenMode};
use fleetdeck::model::run::{Event, Projection};

/// The shared server.
pub fn server() -> &'static ThrowawayServer {
    throwaway::shared().expect("test PostgreSQL")
}

/// The team's members and the fleetdeck roles of each.
pub const MEMBERS: &[(&str, &[&str])] = &[
    ("op_a", &["fleetdeck_operator", "fleetdeck_approver"]),
    ("op_b", &["fleetdeck_operator", "fleetdeck_approver"]),
    ("op_d", &["fleetdeck_operator"]),
    ("view_c", &["fleetdeck_viewer"]),
    ("exec_a", &["fleetdeck_executor"]),
    ("exec_b", &["fleetdeck_executor"]),
    ("nobody_e", &[]),
];

/// One team's journal.
pub struct Team {
    /// The database.
    pub db: String,
}

impl Team {
    /// A fresh journal (initialised with `journal init --roles`) and every member.
    pub fn new() -> Team {
        let server = server();
        let db = server.fresh_database().expect("database");
        for (name, roles) in MEMBERS {
            server.login_role(name, roles).expect("login role");
        }
        Team { db }
    }

    /// The team of an existing journal on the shared server (its members' login roles
    /// made by whoever made the journal).
    pub fn on(db: &str) -> Team {
        Team { db: db.to_string() }
    }

    /// `role`'s connection string, with extra `key=value` parameters.
    pub fn url_with(&self, role: &str, extra: &str) -> String {
        format!(
            "host=127.0.0.1 port={} dbname={} user={role} password={TEST_PASSWORD} sslmode=disable {extra}",
            server().port(),
            self.db
        )
    }

    /// `role`'s connection string.
    pub fn url(&self, role: &str) -> String {
        self.url_with(role, "")
    }

    /// The journal as `role`'s fleetdeck opens it.
    pub fn open_as(&self, role: &str) -> AnyJournal {
        AnyJournal::open(
            &JournalTarget::Postgres(self.url(role)),
            OpenMode::ReadWrite,
        )
        .expect("the journal opens")
    }

    /// Every event, as the database's superuser reads them.
    pub fn events(&self) -> Vec<Event> {
        AnyJournal::open(
            &JournalTarget::Postgres(server().admin_url(&self.db)),
            OpenMode::ReadOnly,
        )
        .and_then(|j| j.query(&EventQuery::default()))
        .expect("the events")
    }

    /// The journal's state, folded from every event.
    pub fn projection(&self) -> Projection {
        Projection::replay(&self.events())
    }

    /// Stores, past the door, an `operator.pause` whose payload no reader can parse (a
    /// number out of range), as an older fleetdeck could have let in, or an owner with the
    /// journal's checks turned off.
    pub fn poison(&self) {
        server()
            .execute(
                &self.db,
                "ALTER TABLE fleetdeck.events DISABLE TRIGGER events_before_insert;
                 INSERT INTO fleetdeck.events (seq, time_us, actor, kind, payload, idem_key, key_scope)
                 SELECT coalesce(max(seq), 0) + 1, 1750000000000000, 'mallory', 'operator.pause', '{\"scope\": {\"scope\": \"fleet\"}, \"reason\": 1e400}', 'poison', 'mallory' FROM fleetdeck.events;
                 ALTER TABLE fleetdeck.events ENABLE TRIGGER events_before_insert;",
            )
            .expect("poisoned");
    }

    /// `psql` as `role` running `sql`: whether it succeeded, and what it said.
    pub fn psql(&self, role: &str, sql: &str) -> (bool, String) {
        let out = psql_command(&self.url(role))
            .args(["-c", sql])
            .output()
            .expect("psql runs");
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    }

    /// `psql` as `role` running `sql` with `input` on its standard input (the rows of a
    /// `COPY … FROM STDIN`).
    pub fn psql_with_input(&self, role: &str, sql: &str, input: &str) -> (bool, String) {
        let mut child = psql_command(&self.url(role))
            .args(["-c", sql])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("psql runs");
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(input.as_bytes()).expect("input");
        }
        let out = child.wait_with_output().expect("psql ends");
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    }

    /// A `psql` session of `role` kept open, fed statements one by one.
    pub fn session(&self, role: &str) -> Session {
        let mut child = psql_command(&self.url(role))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("psql runs");
        let stdin = child.stdin.take().expect("stdin");
        Session { child, stdin }
    }
}

fn psql_command(url: &str) -> Command {
    let bin = throwaway::server_bin_dir().expect("server binaries");
    let real = std::fs::canonicalize(bin.join("postgres"))
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("psql")))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| "psql".into());
    let mut command = Command::new(real);
    command
        .arg(url)
        .args(["-v", "ON_ERROR_STOP=1", "-X", "-q", "-t", "-A"]);
    command
}

/// An open `psql` session.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
}

impl Session {
    /// Sends `sql` (what the session does with it shows in the journal, not here).
    pub fn send(&mut self, sql: &str) {
        writeln!(self.stdin, "{sql}").expect("psql takes the statement");
        self.stdin.flush().expect("flushed");
    }

    /// Ends the session by closing its input, and waits for it.
    pub fn close(mut self) {
        let _ = writeln!(self.stdin, "\\q");
        let _ = self.child.wait();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A rollout plan of one stage over cluster `c1` (one batch, ten seconds' soak), with
/// `approval`: what the planner gives a rollout file whose targets are that one cluster.
pub fn one_cluster_plan(
    approval: fleetdeck::model::rollout::Approval,
) -> fleetdeck::model::rollout::RolloutPlan {
    use fleetdeck::model::rollout::{Pick, PlannedStage, RolloutPlan};
    RolloutPlan {
        release: "cni".into(),
        targets: 1,
        combinations: 1,
        stages: vec![PlannedStage {
            name: "all".into(),
            pick: Pick::Ordered,
            approval,
            soak: std::time::Duration::from_secs(10),
            batches: vec![vec![fleetdeck::model::ledger::ClusterId("c1".into())]],
            covers: Vec::new(),
            newly_covered: Vec::new(),
            untested_before: Vec::new(),
        }],
        warnings: Vec::new(),
        live_drift: Vec::new(),
        not_observed: Vec::new(),
    }
}
