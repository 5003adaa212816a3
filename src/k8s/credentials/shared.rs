//! What every credential of the process shares: the settings, the bound on plugins
//! running at once (300 contexts with 300 users must not fork 300 processes on a laptop),
//! the one terminal a prompting plugin may use at a time, and the counts that show the
//! bound held.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use tokio::sync::Semaphore;

use super::exec::{self, Attach, Run};
use super::source::ExecSpec;

/// How credentials are obtained (`[credentials]` in config.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CredentialSettings {
    /// A plugin that has not answered in this long is stopped (default 30 s).
    pub exec_timeout: Duration,
    /// Most plugins running at once, across every credential (default 8).
    pub max_parallel: usize,
    /// Whether a plugin may be given the terminal to prompt on when its credential is
    /// needed (a command line, as kubectl does); never in the console, and never with
    /// `--no-interactive`.
    pub prompt: Prompt,
}

/// Whether a plugin may prompt on the terminal without being asked to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompt {
    /// Never: the console draws on the terminal, or the user said `--no-interactive`.
    Never,
    /// When standard input is a terminal.
    AtTerminal,
}

impl Default for CredentialSettings {
    fn default() -> Self {
        CredentialSettings {
            exec_timeout: Duration::from_secs(30),
            max_parallel: 8,
            prompt: Prompt::Never,
        }
    }
}

/// How many plugins ran, and the most that ran at once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PluginStats {
    /// Runs started since the process started.
    pub runs: u64,
    /// The most runs under way at the same moment.
    pub peak: usize,
    /// Runs under way now.
    pub running: usize,
}

/// Shared by every cell of a store.
pub struct Shared {
    settings: RwLock<CredentialSettings>,
    slots: RwLock<Arc<Semaphore>>,
    terminal: tokio::sync::Mutex<()>,
    runs: AtomicU64,
    running: AtomicUsize,
    peak: AtomicUsize,
}

impl Shared {
    /// Shared state with `settings`.
    pub fn new(settings: CredentialSettings) -> Shared {
        Shared {
            slots: RwLock::new(Arc::new(Semaphore::new(settings.max_parallel.max(1)))),
            settings: RwLock::new(settings),
            terminal: tokio::sync::Mutex::new(()),
            runs: AtomicU64::new(0),
            running: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// The settings now.
    pub fn settings(&self) -> CredentialSettings {
        *self.settings.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Replaces the settings; runs under way keep the bound they started with.
    pub fn configure(&self, settings: CredentialSettings) {
        *self
            .settings
            .write()
            .unwrap_or_else(PoisonError::into_inner) = settings;
        *self.slots.write().unwrap_or_else(PoisonError::into_inner) =
            Arc::new(Semaphore::new(settings.max_parallel.max(1)));
    }

    /// Whether a plugin may prompt on the terminal unasked.
    pub fn may_prompt(&self) -> bool {
        self.settings().prompt == Prompt::AtTerminal && std::io::stdin().is_terminal()
    }

    /// The counts so far.
    pub fn stats(&self) -> PluginStats {
        PluginStats {
            runs: self.runs.load(Ordering::Relaxed),
            peak: self.peak.load(Ordering::Relaxed),
            running: self.running.load(Ordering::Relaxed),
        }
    }

    /// Runs a plugin once a slot is free; a run on the terminal also waits for the
    /// terminal, so two prompts never interleave. The timeout starts when the plugin does.
    pub async fn run_plugin(&self, spec: &ExecSpec, attach: Attach) -> Run {
        let slots = Arc::clone(&self.slots.read().unwrap_or_else(PoisonError::into_inner));
        let _slot = slots.acquire_owned().await.ok();
        let _terminal = match attach {
            Attach::Terminal => Some(self.terminal.lock().await),
            Attach::Detached => None,
        };
        self.runs.fetch_add(1, Ordering::Relaxed);
        let now = self.running.fetch_add(1, Ordering::AcqRel) + 1;
        self.peak.fetch_max(now, Ordering::AcqRel);
        let _running = Running(&self.running);
        let timeout = match attach {
            // A person may take their time; a hung plugin on the terminal is still the
            // person's to stop (Ctrl-C reaches it).
            Attach::Terminal => Duration::from_secs(15 * 60),
            Attach::Detached => self.settings().exec_timeout,
        };
        exec::run(spec, attach, timeout).await
    }
}

/// Counts a run as finished however its future ends (also when dropped).
struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
