//! A journal writer killed with SIGKILL at arbitrary moments leaves a consistent journal:
//! it opens, every event is whole, sequences have no gap, and every commit the writer was
//! told of is there. On SQLite the file also passes `PRAGMA integrity_check`; on
//! PostgreSQL every other round kills the database server itself (all its processes, with
//! SIGKILL, as a crash of its machine would), which then recovers from its log.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::backend::{Backend, TestJournal};
use fleetdeck::journal::{EventQuery, JournalStore, JournalTarget, SqliteJournal};
use fleetdeck::model::run::{EventBody, StepStatus};

/// The stress writer, with the last sequence it was told was committed.
struct Writer {
    child: Child,
    committed: Arc<Mutex<i64>>,
}

fn start_writer(target: &str, dir: &std::path::Path) -> Writer {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
        .args(["__journal-stress", target])
        .env("FLEETDECK_CONFIG", dir.join("config.toml"))
        .env("FLEETDECK_DATA_DIR", dir.join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    assert_eq!(first.trim(), "ready");
    let committed = Arc::new(Mutex::new(0));
    let seen = committed.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if let Some(seq) = line.strip_prefix("committed ").and_then(|n| n.parse().ok()) {
                *seen.lock().unwrap_or_else(|e| e.into_inner()) = seq;
            }
        }
    });
    Writer { child, committed }
}

impl Writer {
    /// SIGKILL (if it still runs) and the last commit it heard of.
    fn kill(mut self) -> i64 {
        let _ = self.child.kill(); // SIGKILL on Unix
        let _ = self.child.wait();
        // The reader thread has read whatever the pipe held once the writer is gone.
        std::thread::sleep(Duration::from_millis(100));
        *self.committed.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn sigkill_mid_append_leaves_a_consistent_journal(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    // Its own server: this test kills it.
    let journal = TestJournal::on_own_server(backend, dir.path());
    let target = journal.target_for("exec-stress");
    let mut total_before = 0;
    for round in 0..6u64 {
        let writer = start_writer(&target, dir.path());
        // Let it append for a varying while, then kill it (or the database) mid-flight.
        std::thread::sleep(Duration::from_millis(40 + round * 37));
        let crash_server = journal.is_postgres() && round % 2 == 1;
        if crash_server {
            journal.crash_database();
        }
        let committed = writer.kill();

        if let JournalTarget::Sqlite(path) = JournalTarget::parse(&target) {
            let file = SqliteJournal::open_read_only(&path).expect("opens after SIGKILL");
            assert_eq!(file.integrity_check().unwrap(), "ok");
        }
        let events = journal
            .open()
            .query(&EventQuery::default())
            .expect("every row decodes");
        assert!(
            events.len() > total_before,
            "round {round} appended nothing"
        );
        assert!(
            events.len() as i64 >= committed,
            "round {round}: the writer was told {committed} was committed, the journal ends at {}{}",
            events.len(),
            if crash_server {
                " (server crashed)"
            } else {
                ""
            }
        );
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e.seq.0, i as i64 + 1, "no gap, no duplicate");
            // Each writer takes a lease of its own first: its events go under it.
            if matches!(e.event.body, EventBody::LeaseAcquired { .. }) {
                continue;
            }
            let EventBody::StepStatusChanged {
                status: StepStatus::Blocked { reason },
            } = &e.event.body
            else {
                panic!("event {} is not whole: {:?}", e.seq.0, e.event.body)
            };
            // The payload encodes its own number and length: a torn write would not match.
            let (n, pad) = reason.split_once(':').expect("payload shape");
            let n: usize = n.parse().expect("payload number");
            assert_eq!(pad.len(), n % 512, "payload of event {} is whole", e.seq.0);
            assert!(e.event.key.0.ends_with(&format!("/{n}")));
            assert!(e.event.run.is_some() && e.event.item.is_some() && e.event.step.is_some());
        }
        total_before = events.len();
    }
}

on_both_backends!(sigkill_mid_append_leaves_a_consistent_journal);
