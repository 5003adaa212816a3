//! End-to-end: the real `fleetdeck` binary in a detached tmux session (200×60), driven
//! with `send-keys` and read with `capture-pane`. Checks what a person would see, and
//! that the terminal is given back (alternate screen off) after quitting.
//!
//! `demo_walkthrough` drives `fleetdeck demo --seed 1` through every screen.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The binary under test: `FLEETDECK_BIN` when set (a copy taken right after building,
/// useful when several checkouts share one target directory), else Cargo's.
fn bin() -> String {
    std::env::var("FLEETDECK_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_fleetdeck").to_owned())
}

/// A detached tmux session running one command; killed on drop.
struct Tmux {
    name: String,
    _home: tempfile::TempDir,
}

/// These tests are the end-to-end proof that the binary works in a terminal: a missing
/// tmux is a failure with instructions, never a silent skip (`.ci/run` installs it).
fn require_tmux() {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "tmux is required for the end-to-end tests: apt-get install tmux"
    );
}

impl Tmux {
    /// Starts `fleetdeck ARGS` in a fresh session with an isolated HOME and config; the
    /// shell prints `exit=<code>` when the binary returns, then waits.
    fn start(test: &str, args: &[&str], env: &[(&str, &str)]) -> Tmux {
        let home = tempfile::tempdir().expect("temp home");
        let name = format!("fleetdeck-{test}-{}", std::process::id());
        let mut line = String::new();
        for (k, v) in env {
            line.push_str(&format!("{k}='{v}' "));
        }
        line.push_str(&format!("'{}'", bin()));
        for a in args {
            line.push_str(&format!(" '{a}'"));
        }
        let script = format!(
            "export HOME='{h}' XDG_CONFIG_HOME='{h}/.config' XDG_DATA_HOME='{h}/.local/share' XDG_STATE_HOME='{h}/.local/state' TERM=xterm-256color; unset FLEETDECK_LEDGER FLEETDECK_CONFIG KUBECONFIG; {line}; echo \"exit=$?\"; sleep 600",
            h = home.path().display()
        );
        let status = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-x",
                "200",
                "-y",
                "60",
                "-s",
                &name,
                "sh",
                "-c",
                &script,
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session failed");
        Tmux { name, _home: home }
    }

    fn send(&self, keys: &[&str]) {
        for k in keys {
            let status = Command::new("tmux")
                .args(["send-keys", "-t", &self.name, k])
                .status()
                .expect("send-keys");
            assert!(status.success());
            // Let the console draw between keys, as a person would.
            sleep(Duration::from_millis(60));
        }
    }

    fn send_text(&self, text: &str) {
        let status = Command::new("tmux")
            .args(["send-keys", "-t", &self.name, "-l", text])
            .status()
            .expect("send-keys");
        assert!(status.success());
        sleep(Duration::from_millis(60));
    }

    fn capture(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn alternate_screen_on(&self) -> bool {
        let out = Command::new("tmux")
            .args(["display-message", "-p", "-t", &self.name, "#{alternate_on}"])
            .output()
            .expect("display-message");
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    /// Waits until the screen contains `text`, returning the screen; fails with it after
    /// `secs` seconds.
    fn wait_for(&self, text: &str, secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.capture();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {text:?}; screen:\n{screen}"
            );
            sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .status();
    }
}

fn example_ledger() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ledger.yaml")
}

#[test]
fn without_a_ledger_it_says_how_to_start_the_demo() {
    require_tmux();
    let t = Tmux::start("noledger", &[], &[]);
    let screen = t.wait_for("exit=", 20);
    assert!(screen.contains("fleetdeck demo --seed 1"), "{screen}");
    assert!(screen.contains("exit=2"), "{screen}");
    assert!(!t.alternate_screen_on());
}

#[test]
fn console_on_a_ledger_navigates_and_restores_the_terminal() {
    require_tmux();
    let ledger = example_ledger();
    let t = Tmux::start(
        "ledger",
        &["--ledger", ledger.to_str().unwrap(), "--as", "tester@e2e"],
        &[],
    );
    let screen = t.wait_for("CLUSTER", 30);
    assert!(
        t.alternate_screen_on(),
        "the console draws on the alternate screen"
    );
    assert!(screen.contains("tester@e2e"), "{screen}");
    assert!(
        screen.contains("no kubeconfig found") && screen.contains("Unreachable"),
        "says why no cluster can be reached:\n{screen}"
    );
    assert!(
        screen.contains("AUTOMATION RUNNING"),
        "the journal feeds the header: {screen}"
    );
    assert!(!screen.contains("Synced"), "no invented status:\n{screen}");
    assert!(screen.contains("14 of 14 clusters"), "{screen}");

    // Filter with fuzzy text and a label.
    t.send(&["/"]);
    t.send_text("env=production");
    t.send(&["Enter"]);
    let screen = t.wait_for("filter: env=production", 5);
    assert!(!screen.contains("14 of 14 clusters"), "{screen}");

    // Open the selected cluster, then back.
    t.send(&["Enter"]);
    t.wait_for("ledger › cluster ", 5);
    t.send(&["Escape"]);
    t.wait_for("<enter> open", 5);

    // Capacity screen, palette back to the ledger, help, quit.
    t.send(&["2"]);
    t.wait_for("ledger › capacity", 5);
    t.send(&[":"]);
    t.send_text("ledger");
    t.send(&["Enter"]);
    t.wait_for("clusters · sort", 5);
    t.send(&["?"]);
    t.wait_for("Quit fleetdeck", 5);
    t.send(&["Escape", "q"]);
    let screen = t.wait_for("exit=", 10);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on(), "terminal restored");
    assert!(
        !screen.contains("╭ ledger"),
        "console gone from the screen:\n{screen}"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    require_tmux();
    let ledger = example_ledger();
    let actor = format!("sigterm-{}@e2e", std::process::id());
    let t = Tmux::start(
        "sigterm",
        &["--ledger", ledger.to_str().unwrap(), "--as", &actor],
        &[],
    );
    t.wait_for("CLUSTER", 30);
    let out = Command::new("pgrep")
        .args(["-f", "--", &format!("--as {actor}")])
        .output();
    let Ok(out) = out else { return };
    for pid in String::from_utf8_lossy(&out.stdout).split_whitespace() {
        let _ = Command::new("kill").args(["-TERM", pid]).status();
    }
    let screen = t.wait_for("exit=", 10);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on());
}

/// The walkthrough on the demo fleet: every screen, a filter, a cluster, a
/// what-if, quit.
#[test]
fn demo_walkthrough() {
    let t = Tmux::start("demo", &["demo", "--seed", "1"], &[]);
    t.wait_for("Synced", 60);
    t.send(&["/"]);
    t.send_text("gpu-prod-use1-01");
    t.send(&["Enter"]);
    t.wait_for("filter: gpu-prod-use1-01", 5);
    t.send(&["Enter"]);
    t.wait_for("ledger › cluster ", 5);
    t.send(&["c"]);
    t.wait_for("What limits headroom", 10);
    t.send(&["w"]);
    t.wait_for("What-if:", 10);
    t.send(&["2"]);
    t.wait_for("Fleet ·", 5);
    t.send(&["1", "?"]);
    t.wait_for("Quit fleetdeck", 5);
    t.send(&["Escape", "q"]);
    let screen = t.wait_for("exit=", 15);
    assert!(screen.contains("exit=0"), "{screen}");
    assert!(!t.alternate_screen_on());
}
