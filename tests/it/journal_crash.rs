//! A journal writer killed with SIGKILL at arbitrary moments leaves a consistent
//! database: it opens, passes `PRAGMA integrity_check`, and every event is whole.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use fleetdeck::journal::{Durability, EventQuery, JournalStore, SqliteJournal};
use fleetdeck::model::run::{EventBody, StepStatus};

#[test]
fn sigkill_mid_append_leaves_a_consistent_journal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("journal.sqlite");
    let mut total_before = 0;
    for round in 0..5u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fleetdeck"))
            .args(["__journal-stress"])
            .arg(&db)
            .env("FLEETDECK_CONFIG", dir.path().join("config.toml"))
            .env("FLEETDECK_DATA_DIR", dir.path().join("data"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready");
        // Let it append for a varying while, then kill it mid-flight.
        std::thread::sleep(Duration::from_millis(40 + round * 37));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();

        let journal = SqliteJournal::open(&db, Durability::Full).expect("opens after SIGKILL");
        assert_eq!(journal.integrity_check().unwrap(), "ok");
        let events = journal
            .query(&EventQuery::default())
            .expect("every row decodes");
        assert!(
            events.len() > total_before,
            "round {round} appended nothing"
        );
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e.seq.0, i as i64 + 1, "no gap, no duplicate");
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
