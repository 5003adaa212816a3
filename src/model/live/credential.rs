//! What fleetdeck knows about the credential a cluster is reached with: its kind, when it
//! expires, how often its plugin ran, the last lines the plugin wrote on stderr, and the
//! problem that keeps it from being used. A credential problem is its own status
//! ([`super::ClusterStatus::Credentials`]): a cluster whose plugin failed is not
//! unreachable, and telling the two apart is what lets an operator act on it.

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

/// How a kubeconfig user authenticates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CredentialKind {
    /// No credential at all (anonymous).
    None,
    /// A bearer token written in the kubeconfig.
    Token,
    /// A bearer token read from a file, re-read when the file changes (projected
    /// service-account tokens rotate hourly).
    TokenFile {
        /// The file.
        path: String,
    },
    /// A user name and password (basic authentication).
    Basic,
    /// A client certificate and key from the kubeconfig.
    ClientCertificate,
    /// An exec credential plugin.
    #[serde(rename_all = "camelCase")]
    Exec {
        /// The program it runs.
        command: String,
    },
    /// A legacy `auth-provider` entry, which fleetdeck does not run.
    #[serde(rename_all = "camelCase")]
    AuthProvider {
        /// The provider's name (`oidc`, `gcp`, `azure`).
        name: String,
    },
}

impl CredentialKind {
    /// A few words for tables: `exec aws`, `token file`, `client certificate`.
    pub fn label(&self) -> String {
        match self {
            CredentialKind::None => "none".into(),
            CredentialKind::Token => "token".into(),
            CredentialKind::TokenFile { .. } => "token file".into(),
            CredentialKind::Basic => "basic".into(),
            CredentialKind::ClientCertificate => "client certificate".into(),
            CredentialKind::Exec { command } => format!("exec {}", program_name(command)),
            CredentialKind::AuthProvider { name } => format!("auth-provider {name}"),
        }
    }
}

/// The last path segment of a command (`/usr/local/bin/aws` → `aws`).
pub fn program_name(command: &str) -> &str {
    command.rsplit('/').next().unwrap_or(command)
}

/// Why a credential cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ProblemKind {
    /// The plugin ran and failed (non-zero exit, unreadable answer, program missing).
    Failed,
    /// The plugin did not answer within the exec timeout and was killed.
    TimedOut,
    /// The credential expired and no new one could be had.
    Expired,
    /// A person must log in (the plugin asked for a browser, a device code, MFA, or is
    /// configured `interactiveMode: Always`): fleetdeck never runs that behind the console.
    LoginNeeded,
    /// The API server refused the credential (401), also after a fresh one was fetched.
    Refused,
    /// The kubeconfig names a way of authenticating fleetdeck does not run.
    Unsupported,
    /// The credential's file could not be read.
    Unreadable,
}

impl ProblemKind {
    /// The words tables and the console print after `Credentials:`.
    pub fn label(self) -> &'static str {
        match self {
            ProblemKind::Failed => "plugin failed",
            ProblemKind::TimedOut => "plugin timed out",
            ProblemKind::Expired => "expired",
            ProblemKind::LoginNeeded => "login needed",
            ProblemKind::Refused => "refused by the server",
            ProblemKind::Unsupported => "not supported",
            ProblemKind::Unreadable => "unreadable",
        }
    }

    /// Whether a person at a terminal can fix it by logging in (`:login`).
    pub fn wants_login(self) -> bool {
        matches!(self, ProblemKind::LoginNeeded)
    }
}

/// A credential that cannot be used, and what its source said about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CredentialProblem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// What the plugin, the file or the server said, as they said it (the plugin's
    /// own message, e.g. `error: the SSO session has expired; run: aws sso login`).
    pub message: String,
    /// When it was seen.
    pub since: Timestamp,
}

impl CredentialProblem {
    /// The sentence a cluster's status reason carries: `credentials (login needed): …`.
    pub fn reason(&self) -> String {
        if self.message.is_empty() {
            format!("credentials ({})", self.kind.label())
        } else {
            format!("credentials ({}): {}", self.kind.label(), self.message)
        }
    }
}

/// The credential one cluster uses, as last seen by the credential layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CredentialReport {
    /// The kubeconfig user's name.
    pub user: String,
    /// How it authenticates.
    #[serde(flatten)]
    pub kind: CredentialKind,
    /// When the credential in hand expires (none: used until refused).
    pub expires_at: Option<Timestamp>,
    /// When the credential in hand was obtained.
    pub obtained_at: Option<Timestamp>,
    /// How many times its plugin ran in this process (0 for other kinds).
    pub runs: u64,
    /// Why it cannot be used now, if so.
    pub problem: Option<CredentialProblem>,
    /// A problem met while a still-valid credential was in hand (a background refresh
    /// that failed): not yet the cluster's, but the operator should know.
    pub warning: Option<CredentialProblem>,
    /// The last lines the plugin wrote on stderr, oldest first (never on the screen
    /// the console draws: shown on the cluster's page and in `snapshot`).
    pub stderr: Vec<String>,
}

impl CredentialReport {
    /// A report for a credential not used yet.
    pub fn new(user: &str, kind: CredentialKind) -> CredentialReport {
        CredentialReport {
            user: user.to_string(),
            kind,
            expires_at: None,
            obtained_at: None,
            runs: 0,
            problem: None,
            warning: None,
            stderr: Vec::new(),
        }
    }

    /// How long the credential in hand is still good at `now` (none without an expiry).
    pub fn remaining(&self, now: Timestamp) -> Option<Duration> {
        let at = self.expires_at?;
        Some(at.duration_since(now).try_into().unwrap_or(Duration::ZERO))
    }
}

/// When a credential obtained at `obtained` and expiring at `expires` should be renewed
/// in the background, while it is still good: once a quarter of its life is left, but
/// never earlier than five minutes before it expires (an hour-long token is renewed at
/// 55 minutes, a 15-second one after about 11 seconds).
pub fn renew_at(obtained: Timestamp, expires: Timestamp) -> Timestamp {
    let life = expires.duration_since(obtained);
    if life <= jiff::SignedDuration::ZERO {
        return obtained;
    }
    let quarter = life / 4;
    let margin = quarter.min(jiff::SignedDuration::from_mins(5));
    expires.checked_sub(margin).unwrap_or(obtained)
}

/// How long to wait before running a plugin again after it failed `failures` times in a
/// row: 10 s, doubling, at most 5 minutes; a login that is needed is asked again no more
/// than once a minute (the person may log in from a shell meanwhile). A login from the
/// console, or a changed kubeconfig, does not wait.
pub fn retry_after(kind: ProblemKind, failures: u32) -> Duration {
    let base = Duration::from_secs(10);
    let backoff = base
        .saturating_mul(1u32 << failures.saturating_sub(1).min(5))
        .min(Duration::from_secs(300));
    match kind {
        ProblemKind::LoginNeeded => backoff.max(Duration::from_secs(60)),
        ProblemKind::Unsupported => Duration::from_secs(3600),
        _ => backoff,
    }
}

/// Whether what a failing plugin wrote asks for a person: a browser to open, a device
/// code, a login or MFA prompt. Plugins say so in words (kubelogin, `aws sso`, gcloud,
/// Teleport), not in an exit code, so words are what is looked for.
pub fn asks_for_login(text: &str) -> bool {
    let lower = text.to_lowercase();
    const HINTS: [&str; 11] = [
        "login",
        "log in",
        "log-in",
        "sign in",
        "sign-in",
        "device code",
        "devicelogin",
        "browser",
        "mfa",
        "multi-factor",
        "reauthenticat",
    ];
    HINTS.iter().any(|hint| lower.contains(hint))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn renewal_leaves_a_quarter_of_the_life_at_most_five_minutes() {
        assert_eq!(
            renew_at(at("2026-12-01T10:00:00Z"), at("2026-12-01T10:00:16Z")),
            at("2026-12-01T10:00:12Z")
        );
        assert_eq!(
            renew_at(at("2026-12-01T10:00:00Z"), at("2026-12-01T11:00:00Z")),
            at("2026-12-01T10:55:00Z")
        );
        assert_eq!(
            renew_at(at("2026-12-01T10:00:00Z"), at("2026-12-01T09:00:00Z")),
            at("2026-12-01T10:00:00Z"),
            "already expired: renew now"
        );
    }

    #[test]
    fn retries_back_off_and_logins_wait_a_minute() {
        assert_eq!(retry_after(ProblemKind::Failed, 1), Duration::from_secs(10));
        assert_eq!(retry_after(ProblemKind::Failed, 2), Duration::from_secs(20));
        assert_eq!(
            retry_after(ProblemKind::TimedOut, 4),
            Duration::from_secs(80)
        );
        assert_eq!(
            retry_after(ProblemKind::Failed, 30),
            Duration::from_secs(300)
        );
        assert_eq!(
            retry_after(ProblemKind::LoginNeeded, 1),
            Duration::from_secs(60)
        );
    }

    #[test]
    fn login_prompts_are_recognised_and_plain_failures_are_not() {
        for text in [
            "error: the SSO session has expired; run: aws sso login",
            "To sign in, use a web browser to open the page https://microsoft.com/devicelogin",
            "Please enter your MFA code",
            "Reauthentication required.",
        ] {
            assert!(asks_for_login(text), "{text}");
        }
        for text in [
            "error: connection refused",
            "exec: executable aws not found",
            "",
        ] {
            assert!(!asks_for_login(text), "{text}");
        }
    }

    #[test]
    fn a_problem_reads_as_its_kind_then_the_source_s_words() {
        let problem = CredentialProblem {
            kind: ProblemKind::LoginNeeded,
            message: "error: the SSO session has expired".into(),
            since: at("2026-12-01T10:00:00Z"),
        };
        assert_eq!(
            problem.reason(),
            "credentials (login needed): error: the SSO session has expired"
        );
        assert_eq!(
            CredentialKind::Exec {
                command: "/usr/local/bin/aws".into()
            }
            .label(),
            "exec aws"
        );
    }
}
