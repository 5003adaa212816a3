//! Executor processes for failover tests: `fleetdeck run` started, SIGKILLed and waited
//! for, and the journal they share.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fleetdeck::journal::{AnyJournal, EventQuery, JournalStore};

use super::backend::TestJournal;

// One definition of the binary under test, shared with the CLI tests.
use super::cli::binary;

/// An executor process, killed on drop.
pub struct Executor(Child);

impl Executor {
    /// `fleetdeck run` as `name` in `dir` (ledger and kubeconfig there) on `journal`,
    /// lease 2 s, with `extra` flags for `run`.
    pub fn spawn(dir: &Path, journal: &TestJournal, name: &str, extra: &[&str]) -> Executor {
        let child = Command::new(binary())
            .args(["--ledger", "ledger.yaml", "--kubeconfig", "kubeconfig"])
            .args(journal.flags(name))
            .args(["run", "--lease-ttl", "2s"])
            .args(extra)
            .current_dir(dir)
            .env("FLEETDECK_CONFIG", dir.join("config.toml"))
            .env("FLEETDECK_DATA_DIR", dir.join(format!("data-{name}")))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn executor");
        Executor(child)
    }

    /// SIGKILL: no chance to record anything or give the lease back.
    pub fn kill9(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", &self.0.id().to_string()])
            .status();
        let _ = self.0.wait();
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The journal, for reading.
pub fn journal(journal: &TestJournal) -> AnyJournal {
    journal.open()
}

/// Waits until `done`, or fails printing the latest journal events.
pub fn wait(what: &str, secs: u64, dir: &TestJournal, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done() {
        if Instant::now() >= deadline {
            let events = journal(dir)
                .query(&EventQuery::default())
                .unwrap_or_default();
            let lines: Vec<String> = events
                .iter()
                .rev()
                .take(40)
                .map(|e| {
                    format!(
                        "{} {} {:?} {:?}",
                        e.seq.0, e.event.actor, e.event.step, e.event.body
                    )
                })
                .collect();
            panic!(
                "timed out waiting for {what}; latest events:\n{}",
                lines.join("\n")
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
