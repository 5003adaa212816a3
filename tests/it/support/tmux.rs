//! The real `fleetdeck` binary in a detached tmux session (200×60), driven with
//! `send-keys` and read with `capture-pane`.

use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use super::cli;

/// A detached tmux session running one command; killed on drop.
pub struct Tmux {
    name: String,
    _home: tempfile::TempDir,
}

/// These tests are the end-to-end proof that the binary works in a terminal: a missing
/// tmux is a failure with instructions, never a silent skip (`.ci/run` installs it).
pub fn require_tmux() {
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
    /// Starts the demo read-only as `viewer@e2e` (seed 1) on the fleet and journal in
    /// `dir`, as a person watching over someone else's shoulder would.
    pub fn readonly_demo(test: &str, dir: &str) -> Tmux {
        Tmux::start(
            test,
            &[
                "--as",
                "viewer@e2e",
                "--readonly",
                "demo",
                "--seed",
                "1",
                "--dir",
                dir,
            ],
            &[],
        )
    }

    /// Starts `fleetdeck ARGS` in a fresh session with an isolated HOME and config; the
    /// shell prints `exit=<code>` when the binary returns, then waits.
    pub fn start(test: &str, args: &[&str], env: &[(&str, &str)]) -> Tmux {
        let home = tempfile::tempdir().expect("temp home");
        let name = format!("fleetdeck-{test}-{}", std::process::id());
        let mut line = String::new();
        for (k, v) in env {
            line.push_str(&format!("{k}='{v}' "));
        }
        line.push_str(&format!("'{}'", cli::binary()));
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

    pub fn send(&self, keys: &[&str]) {
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

    pub fn send_text(&self, text: &str) {
        let status = Command::new("tmux")
            .args(["send-keys", "-t", &self.name, "-l", text])
            .status()
            .expect("send-keys");
        assert!(status.success());
        sleep(Duration::from_millis(60));
    }

    pub fn capture(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn alternate_screen_on(&self) -> bool {
        let out = Command::new("tmux")
            .args(["display-message", "-p", "-t", &self.name, "#{alternate_on}"])
            .output()
            .expect("display-message");
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    /// Waits until the screen contains one of `texts`, returning the screen; fails with it
    /// after `secs` seconds. For a key whose answer may be either of two dialogs.
    pub fn wait_for_any(&self, texts: &[&str], secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.capture();
            if texts.iter().any(|text| screen.contains(text)) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for one of {texts:?}; screen:\n{screen}"
            );
            sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the screen contains `text`, returning the screen; fails with it after
    /// `secs` seconds.
    pub fn wait_for(&self, text: &str, secs: u64) -> String {
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

impl Tmux {
    /// Waits until the screen no longer contains `text`, returning the screen; fails with
    /// it after `secs` seconds.
    pub fn wait_until_gone(&self, text: &str, secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.capture();
            if !screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {text:?} to go; screen:\n{screen}"
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
