//! One credential, shared by every client and cluster whose kubeconfig user reads the same
//! way: the credential in hand, obtained once (single-flight: callers that arrive while it
//! is being obtained wait for that run instead of starting their own), renewed in the
//! background while the old one is still good, obtained again once when a server refuses
//! it, and the problem that keeps it from being used, with when to try again.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use http::HeaderValue;
use jiff::Timestamp;
use rustls::sign::CertifiedKey;
use tokio::sync::watch;
use tokio::time::Instant;

use super::exec::{Attach, Obtained, RunFailure};
use super::shared::Shared;
use super::source::{CredentialSource, Interactive};
use crate::model::live::{
    CredentialProblem, CredentialReport, ProblemKind, program_name, renew_at, retry_after,
};

/// A credential as it is sent: the `Authorization` header and the client certificate the
/// TLS layer presents, with when it was obtained and expires. `serial` tells one
/// credential from the next of the same cell.
pub struct Issued {
    /// Increases with every credential the cell obtains.
    pub serial: u64,
    /// The `Authorization` header to send, if any (marked sensitive: never logged).
    pub authorization: Option<HeaderValue>,
    /// The client certificate to present, if the source handed one out.
    pub certificate: Option<Arc<CertifiedKey>>,
    /// That certificate's subject and expiry, for the findings.
    pub certificate_expiry: Option<(String, Timestamp)>,
    /// When it was obtained.
    pub obtained_at: Timestamp,
    /// When it expires.
    pub expires_at: Option<Timestamp>,
}

impl std::fmt::Debug for Issued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret itself.
        f.debug_struct("Issued")
            .field("serial", &self.serial)
            .field("authorization", &self.authorization.is_some())
            .field("certificate", &self.certificate.is_some())
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// A client certificate in hand, with its subject and expiry when they could be read.
type HeldCertificate = (Arc<CertifiedKey>, Option<(String, Timestamp)>);

/// A credential a little short of its expiry is treated as expired: a request sent with it
/// must still be good when the server reads it.
const EXPIRY_SKEW: jiff::SignedDuration = jiff::SignedDuration::from_secs(1);

/// How often a token file is looked at for a new token.
const TOKEN_FILE_CHECK: std::time::Duration = std::time::Duration::from_secs(5);

#[derive(Default)]
struct State {
    current: Option<Arc<Issued>>,
    /// Why no credential can be used, with when to try again.
    problem: Option<CredentialProblem>,
    retry_at: Option<Instant>,
    /// A renewal that failed while the credential in hand was still good.
    warning: Option<CredentialProblem>,
    failures: u32,
    serial: u64,
    runs: u64,
    stderr: VecDeque<String>,
    /// A token file's modification time and size when last read, and when looked at.
    file_stamp: Option<(Option<std::time::SystemTime>, u64)>,
    file_checked: Option<Instant>,
    renewing: bool,
}

/// What the state says a caller should do.
enum Peek {
    Ready { issued: Arc<Issued>, renew: bool },
    Failed(CredentialProblem),
    Fetch,
}

/// One credential and everything known about it.
pub struct CredentialCell {
    source: CredentialSource,
    shared: Arc<Shared>,
    state: Mutex<State>,
    /// Held while the credential is being obtained: the single flight.
    refresh: tokio::sync::Mutex<()>,
    /// Set while a problem is recorded, so a good answer costs no lock to report.
    troubled: AtomicBool,
    /// Bumped whenever the credential or its problem changes.
    changed: watch::Sender<u64>,
}

impl std::fmt::Debug for CredentialCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CredentialCell")
            .field("kind", &self.source.kind())
            .finish()
    }
}

impl CredentialCell {
    /// A cell for `source`, nothing obtained yet.
    pub(super) fn new(source: CredentialSource, shared: Arc<Shared>) -> CredentialCell {
        CredentialCell {
            source,
            shared,
            state: Mutex::new(State::default()),
            refresh: tokio::sync::Mutex::new(()),
            troubled: AtomicBool::new(false),
            changed: watch::channel(0).0,
        }
    }

    /// Where the credential comes from.
    pub fn source(&self) -> &CredentialSource {
        &self.source
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes on every change of the credential or its problem.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    fn notify(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    /// The credential to send now: the one in hand while it is good (starting its renewal
    /// in the background once it is due), else a new one, obtained once for every caller
    /// waiting. A source that failed is not asked again before its retry time: callers get
    /// its problem at once.
    pub async fn get(self: &Arc<Self>) -> Result<Arc<Issued>, CredentialProblem> {
        match self.peek() {
            Peek::Ready { issued, renew } => {
                if renew {
                    self.renew_in_background();
                }
                return Ok(issued);
            }
            Peek::Failed(problem) => return Err(problem),
            Peek::Fetch => {}
        }
        let _flight = self.refresh.lock().await;
        match self.peek() {
            Peek::Ready { issued, .. } => Ok(issued),
            Peek::Failed(problem) => Err(problem),
            Peek::Fetch => self.fetch(self.background_attach()).await,
        }
    }

    fn peek(&self) -> Peek {
        let now = Timestamp::now();
        let st = self.state();
        let waiting = st.retry_at.is_some_and(|at| Instant::now() < at);
        // A credential a server refused is not sent again before its retry time.
        if let Some(problem) = &st.problem
            && problem.kind == ProblemKind::Refused
            && waiting
        {
            return Peek::Failed(problem.clone());
        }
        if let Some(issued) = &st.current
            && good_at(issued, now)
        {
            let file_due = matches!(self.source, CredentialSource::TokenFile(_))
                && st
                    .file_checked
                    .is_none_or(|at| at.elapsed() >= TOKEN_FILE_CHECK);
            if file_due {
                return Peek::Fetch;
            }
            let renew = matches!(self.source, CredentialSource::Exec(_))
                && !st.renewing
                && !waiting
                && issued
                    .expires_at
                    .is_some_and(|expires| now >= renew_at(issued.obtained_at, expires));
            return Peek::Ready {
                issued: Arc::clone(issued),
                renew,
            };
        }
        match &st.problem {
            Some(problem) if waiting => Peek::Failed(problem.clone()),
            _ => Peek::Fetch,
        }
    }

    /// Renews the credential on a task of its own, unless a run is under way already.
    fn renew_in_background(self: &Arc<Self>) {
        {
            let mut st = self.state();
            if st.renewing {
                return;
            }
            st.renewing = true;
        }
        let cell = Arc::clone(self);
        tokio::spawn(async move {
            if let Ok(_flight) = cell.refresh.try_lock() {
                let _ = cell.fetch(Attach::Detached).await;
            }
            cell.state().renewing = false;
        });
    }

    /// How a run behind the caller's back is attached: to the terminal only for a
    /// command line that may prompt, at a terminal, for a plugin that may talk.
    fn background_attach(&self) -> Attach {
        match &self.source {
            CredentialSource::Exec(spec)
                if spec.interactive != Interactive::Never && self.shared.may_prompt() =>
            {
                Attach::Terminal
            }
            _ => Attach::Detached,
        }
    }

    /// A server refused `used` (401). Unless a newer credential is in hand already, the
    /// source is asked once more (client-go does the same); the new credential is returned
    /// when it differs from the refused one. Otherwise the problem is recorded and `None`
    /// returned: the caller keeps the server's answer.
    pub async fn refused(self: &Arc<Self>, used: &Issued) -> Option<Arc<Issued>> {
        let _flight = self.refresh.lock().await;
        let fetchable = matches!(
            self.source,
            CredentialSource::Exec(_) | CredentialSource::TokenFile(_)
        );
        {
            let mut st = self.state();
            match &st.current {
                Some(current) if current.serial != used.serial => {
                    return Some(Arc::clone(current));
                }
                // Dropped by an earlier refusal whose new attempt failed: that attempt's
                // retry time holds for this one too.
                None if st.retry_at.is_some_and(|at| Instant::now() < at) => return None,
                _ => {}
            }
            // The refused credential is not sent again: callers arriving meanwhile wait
            // for the new one.
            if fetchable {
                st.current = None;
                st.file_stamp = None;
            }
        }
        if fetchable && let Ok(fresh) = self.fetch(self.background_attach()).await {
            if !same_secret(&fresh, used) {
                return Some(fresh);
            }
            self.record_refusal(
                "the API server refused the credential (401 Unauthorized), and the source handed out the same one again",
            );
            return None;
        }
        if !fetchable {
            self.record_refusal("the API server refused the credential (401 Unauthorized)");
        }
        None
    }

    /// A server refused the credential obtained after an earlier refusal: no third try.
    pub fn refused_again(&self, used: &Issued) {
        let current = self.state().current.as_ref().map(|c| c.serial);
        if current == Some(used.serial) {
            self.record_refusal(
                "the API server refused the credential (401 Unauthorized), also a fresh one",
            );
        }
    }

    fn record_refusal(&self, message: &str) {
        {
            let mut st = self.state();
            st.failures += 1;
            st.retry_at = Some(Instant::now() + retry_after(ProblemKind::Refused, st.failures));
            st.problem = Some(CredentialProblem {
                kind: ProblemKind::Refused,
                message: message.to_string(),
                since: Timestamp::now(),
            });
            // A plugin's refused credential is dropped; a static one is all there is and
            // is tried again at the retry time.
            if matches!(self.source, CredentialSource::Exec(_)) {
                st.current = None;
            }
        }
        self.troubled.store(true, Ordering::Release);
        tracing::warn!(source = ?self.source.kind(), %message, "credential refused");
        self.notify();
    }

    /// A server accepted `used`: a refusal recorded for it is over.
    pub fn accepted(&self, used: &Issued) {
        if !self.troubled.load(Ordering::Acquire) {
            return;
        }
        let cleared = {
            let mut st = self.state();
            let refused = st
                .problem
                .as_ref()
                .is_some_and(|p| p.kind == ProblemKind::Refused);
            let same = st.current.as_ref().is_some_and(|c| c.serial == used.serial);
            if refused && same {
                st.problem = None;
                st.retry_at = None;
                st.failures = 0;
            }
            st.problem.is_none()
        };
        if cleared {
            self.troubled.store(false, Ordering::Release);
            self.notify();
        }
    }

    /// Runs the source attached to the terminal for a person to log in, whatever its
    /// retry time, and keeps what it hands out.
    pub async fn login(self: &Arc<Self>) -> Result<Arc<Issued>, CredentialProblem> {
        let _flight = self.refresh.lock().await;
        self.fetch(Attach::Terminal).await
    }

    /// Obtains a credential from the source now (the caller holds the flight).
    async fn fetch(&self, attach: Attach) -> Result<Arc<Issued>, CredentialProblem> {
        let obtained = match &self.source {
            CredentialSource::None | CredentialSource::ClientCertificate => Ok(Obtained {
                token: None,
                certificate: None,
                expires_at: None,
            }),
            CredentialSource::Token(token) => Ok(Obtained {
                token: Some(token.clone()),
                certificate: None,
                expires_at: None,
            }),
            CredentialSource::Basic { username, password } => {
                return self.keep(Some(super::header::basic(username, password)), None, None);
            }
            CredentialSource::TokenFile(path) => match self.read_token_file(path).await {
                FileRead::Unchanged(issued) => return Ok(issued),
                FileRead::Read(outcome) => outcome,
            },
            CredentialSource::Exec(spec) => {
                let run = self.shared.run_plugin(spec, attach).await;
                {
                    // What the last run said (a run on the terminal said it to the person,
                    // so nothing is kept of it).
                    let mut st = self.state();
                    st.runs += 1;
                    st.stderr = run.stderr.into_iter().collect();
                }
                run.outcome
            }
            CredentialSource::AuthProvider(name) => Err(RunFailure {
                kind: ProblemKind::Unsupported,
                message: super::source::auth_provider_refusal(name),
            }),
            CredentialSource::Invalid(why) => Err(RunFailure {
                kind: ProblemKind::Unsupported,
                message: why.clone(),
            }),
        };
        match obtained {
            Ok(obtained) => self.keep_obtained(obtained),
            Err(failure) => Err(self.record_failure(failure)),
        }
    }

    fn keep_obtained(&self, obtained: Obtained) -> Result<Arc<Issued>, CredentialProblem> {
        if let Some(expires) = obtained.expires_at
            && expires <= Timestamp::now()
        {
            return Err(self.record_failure(RunFailure {
                kind: ProblemKind::Expired,
                message: format!("the credential handed out expired at {expires}"),
            }));
        }
        let certificate_expiry = obtained.certificate.as_ref().and_then(|(chain, _)| {
            crate::k8s::findings::x509::earliest_expiry(chain)
                .ok()
                .map(|info| (info.subject, info.not_after))
        });
        let certificate = match &obtained.certificate {
            Some((chain, key)) => match super::client_cert::certified_key(chain, key) {
                Ok(key) => Some(key),
                Err(why) => {
                    return Err(self.record_failure(RunFailure {
                        kind: ProblemKind::Failed,
                        message: why,
                    }));
                }
            },
            None => None,
        };
        let authorization = obtained.token.as_deref().and_then(super::header::bearer);
        self.keep(
            authorization,
            certificate.map(|key| (key, certificate_expiry)),
            obtained.expires_at,
        )
    }

    fn keep(
        &self,
        authorization: Option<HeaderValue>,
        certificate: Option<HeldCertificate>,
        expires_at: Option<Timestamp>,
    ) -> Result<Arc<Issued>, CredentialProblem> {
        let (certificate, certificate_expiry) = match certificate {
            Some((key, expiry)) => (Some(key), expiry),
            None => (None, None),
        };
        let issued = {
            let mut st = self.state();
            st.serial += 1;
            let issued = Arc::new(Issued {
                serial: st.serial,
                authorization,
                certificate,
                certificate_expiry,
                obtained_at: Timestamp::now(),
                expires_at,
            });
            st.current = Some(Arc::clone(&issued));
            st.problem = None;
            st.warning = None;
            st.retry_at = None;
            st.failures = 0;
            issued
        };
        self.troubled.store(false, Ordering::Release);
        self.notify();
        Ok(issued)
    }

    /// Records a failed attempt. With a good credential still in hand (a renewal), it is
    /// a warning and the credential is used on; otherwise it is the problem, tried again
    /// after a back-off.
    fn record_failure(&self, failure: RunFailure) -> CredentialProblem {
        let problem = CredentialProblem {
            kind: failure.kind,
            message: failure.message,
            since: Timestamp::now(),
        };
        {
            let mut st = self.state();
            st.failures += 1;
            st.retry_at = Some(Instant::now() + retry_after(problem.kind, st.failures));
            let still_good = st
                .current
                .as_ref()
                .is_some_and(|c| good_at(c, Timestamp::now()));
            if still_good {
                st.warning = Some(problem.clone());
            } else {
                st.current = None;
                st.problem = Some(problem.clone());
            }
        }
        self.troubled.store(true, Ordering::Release);
        tracing::warn!(source = ?self.source.kind(), problem = %problem.reason(), "credential");
        self.notify();
        problem
    }

    /// Reads a token file when it changed since it was last read.
    async fn read_token_file(&self, path: &std::path::Path) -> FileRead {
        let stamp = tokio::fs::metadata(path)
            .await
            .ok()
            .map(|m| (m.modified().ok(), m.len()));
        {
            let mut st = self.state();
            st.file_checked = Some(Instant::now());
            if let (Some(stamp), Some(current)) = (stamp, &st.current)
                && st.file_stamp == Some(stamp)
                && st.problem.is_none()
            {
                return FileRead::Unchanged(Arc::clone(current));
            }
            st.file_stamp = stamp;
        }
        FileRead::Read(match tokio::fs::read_to_string(path).await {
            Ok(text) if !text.trim().is_empty() => Ok(Obtained {
                token: Some(text.trim().to_string()),
                certificate: None,
                expires_at: None,
            }),
            Ok(_) => Err(RunFailure {
                kind: ProblemKind::Unreadable,
                message: format!("token file {} is empty", path.display()),
            }),
            Err(error) => Err(RunFailure {
                kind: ProblemKind::Unreadable,
                message: format!("cannot read token file {}: {error}", path.display()),
            }),
        })
    }

    /// The client certificate to present now (for the TLS layer, which cannot wait).
    pub fn current_certificate(&self) -> Option<Arc<CertifiedKey>> {
        self.state()
            .current
            .as_ref()
            .and_then(|c| c.certificate.clone())
    }

    /// The subject and expiry of the client certificate in hand, if the source handed
    /// one out.
    pub fn certificate_expiry(&self) -> Option<(String, Timestamp)> {
        self.state()
            .current
            .as_ref()
            .and_then(|c| c.certificate_expiry.clone())
    }

    /// The problem that keeps the credential from being used now, if any.
    pub fn problem(&self) -> Option<CredentialProblem> {
        let st = self.state();
        let usable = st
            .current
            .as_ref()
            .is_some_and(|c| good_at(c, Timestamp::now()));
        match &st.problem {
            Some(p) if p.kind == ProblemKind::Refused => Some(p.clone()),
            Some(p) if !usable => Some(p.clone()),
            _ => None,
        }
    }

    /// What is known about the credential, for `user` (the kubeconfig's user name).
    pub fn report(&self, user: &str) -> CredentialReport {
        let st = self.state();
        let mut report = CredentialReport::new(user, self.source.kind());
        report.expires_at = st.current.as_ref().and_then(|c| c.expires_at);
        report.obtained_at = st.current.as_ref().map(|c| c.obtained_at);
        report.runs = st.runs;
        report.warning = st.warning.clone();
        report.stderr = st.stderr.iter().cloned().collect();
        drop(st);
        report.problem = self.problem();
        report
    }

    /// The program a login runs, for what the console says before it does.
    pub fn program(&self) -> Option<&str> {
        match &self.source {
            CredentialSource::Exec(spec) => Some(program_name(&spec.command)),
            _ => None,
        }
    }
}

enum FileRead {
    Unchanged(Arc<Issued>),
    Read(Result<Obtained, RunFailure>),
}

fn good_at(issued: &Issued, now: Timestamp) -> bool {
    issued
        .expires_at
        .is_none_or(|at| at.checked_sub(EXPIRY_SKEW).is_ok_and(|at| now < at))
}

fn same_secret(a: &Issued, b: &Issued) -> bool {
    let same_cert = match (&a.certificate, &b.certificate) {
        (Some(x), Some(y)) => x.cert == y.cert,
        (None, None) => true,
        _ => false,
    };
    a.authorization == b.authorization && same_cert
}

#[cfg(test)]
#[path = "cell_tests.rs"]
mod tests;
