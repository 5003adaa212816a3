//! Running an exec credential plugin as client-go does, but never blocking a runtime
//! thread and never on the console's terminal: `tokio::process`, a timeout that kills it,
//! `KUBERNETES_EXEC_INFO` as the spec writes it, stderr captured line by line. Only a run
//! a person asked for (a login) is given the terminal.

use std::process::Stdio;
use std::time::Duration;

use jiff::Timestamp;
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};

use super::source::{ExecSpec, Interactive, cluster_json};
use crate::model::live::{ProblemKind, asks_for_login, program_name};

/// Most lines of a plugin's stderr kept per run.
pub const STDERR_LINES: usize = 20;

/// Most bytes of an answer read from a plugin's stdout (a certificate chain fits well).
const STDOUT_LIMIT: u64 = 1 << 20;

/// How a plugin is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attach {
    /// Behind the console or a command that must not prompt: stdin is empty,
    /// `interactive: false`, stderr captured.
    Detached,
    /// For a person at the terminal (a login): stdin and stderr are the terminal's,
    /// `interactive: true`; stdout is still read for the answer.
    Terminal,
}

/// What a plugin handed out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obtained {
    /// A bearer token.
    pub token: Option<String>,
    /// A client certificate chain and its key, both PEM.
    pub certificate: Option<(String, String)>,
    /// When it expires (none: used until a server refuses it).
    pub expires_at: Option<Timestamp>,
}

/// Why a run gave no credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFailure {
    /// What kind of failure.
    pub kind: ProblemKind,
    /// In words, with the plugin's own where it said something.
    pub message: String,
}

/// One run of a plugin: what it handed out or why not, and what it wrote on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The credential, or why there is none.
    pub outcome: Result<Obtained, RunFailure>,
    /// Its stderr, last lines (empty for a run on the terminal: the person saw it).
    pub stderr: Vec<String>,
}

/// The ExecCredential a plugin prints.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    api_version: Option<String>,
    kind: Option<String>,
    status: Option<AnswerStatus>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AnswerStatus {
    #[serde(default)]
    token: String,
    #[serde(default)]
    client_certificate_data: String,
    #[serde(default)]
    client_key_data: String,
    expiration_timestamp: Option<String>,
}

/// `KUBERNETES_EXEC_INFO` for a run of `spec`.
pub fn exec_info(spec: &ExecSpec, interactive: bool) -> String {
    let mut info = serde_json::json!({
        "apiVersion": spec.api_version,
        "kind": "ExecCredential",
        "spec": {"interactive": interactive},
    });
    if let (Some(cluster), Some(spec_obj)) = (&spec.cluster, info.get_mut("spec")) {
        spec_obj["cluster"] = cluster_json(cluster);
    }
    info.to_string()
}

/// Runs `spec` once, attached as `attach` says, giving up (and killing it) after
/// `timeout`.
pub async fn run(spec: &ExecSpec, attach: Attach, timeout: Duration) -> Run {
    let program = program_name(&spec.command).to_string();
    if attach == Attach::Detached && spec.interactive == Interactive::Always {
        return Run {
            outcome: Err(RunFailure {
                kind: ProblemKind::LoginNeeded,
                message: format!(
                    "the plugin {program} talks to a person (interactiveMode: Always), so it is run only at a terminal"
                ),
            }),
            stderr: Vec::new(),
        };
    }
    let interactive = attach == Attach::Terminal && spec.interactive != Interactive::Never;
    let mut command = tokio::process::Command::new(&spec.command);
    command
        .args(&spec.args)
        .envs(spec.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("KUBERNETES_EXEC_INFO", exec_info(spec, interactive))
        .stdout(Stdio::piped())
        .kill_on_drop(true);
    if interactive {
        command.stdin(Stdio::inherit()).stderr(Stdio::inherit());
    } else {
        command.stdin(Stdio::null()).stderr(Stdio::piped());
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            let message = if error.kind() == std::io::ErrorKind::NotFound {
                let hint = spec
                    .install_hint
                    .as_deref()
                    .map(|h| format!(" ({})", h.trim()))
                    .unwrap_or_default();
                format!("exec: executable {} not found{hint}", spec.command)
            } else {
                format!("exec: {}: {error}", spec.command)
            };
            return Run {
                outcome: Err(RunFailure {
                    kind: ProblemKind::Failed,
                    message,
                }),
                stderr: Vec::new(),
            };
        }
    };
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let read_stdout = async move {
        let mut out = Vec::new();
        if let Some(pipe) = stdout {
            let _ = pipe.take(STDOUT_LIMIT).read_to_end(&mut out).await;
        }
        out
    };
    let read_stderr = async move {
        let mut lines = std::collections::VecDeque::new();
        if let Some(pipe) = stderr {
            let mut reader = BufReader::new(pipe).lines();
            while let Ok(Some(line)) = reader.next_line().await {
                if lines.len() == STDERR_LINES {
                    lines.pop_front();
                }
                lines.push_back(line);
            }
        }
        Vec::from(lines)
    };
    let finished = tokio::time::timeout(timeout, async {
        let (out, err, status) = tokio::join!(read_stdout, read_stderr, child.wait());
        (out, err, status)
    })
    .await;
    let Ok((stdout, stderr, status)) = finished else {
        // Dropping the child kills it (kill_on_drop); reap it so no zombie is left.
        let _ = child.start_kill();
        let _ = child.wait().await;
        return Run {
            outcome: Err(RunFailure {
                kind: ProblemKind::TimedOut,
                message: format!(
                    "exec plugin {program} did not answer within {} and was stopped",
                    crate::model::duration::format_duration(timeout)
                ),
            }),
            stderr: Vec::new(),
        };
    };
    let outcome = match status {
        Err(error) => Err(RunFailure {
            kind: ProblemKind::Failed,
            message: format!("exec plugin {program}: {error}"),
        }),
        Ok(status) if !status.success() => Err(failed(&program, status, &stderr)),
        Ok(_) => read_answer(spec, &program, &stdout),
    };
    Run { outcome, stderr }
}

/// A plugin that exited with an error: a login it asks for (in the lines that ask for
/// it, with any address to open), or a failure in its last words. Every line is kept
/// with the credential for the cluster's page.
fn failed(program: &str, status: std::process::ExitStatus, stderr: &[String]) -> RunFailure {
    let said: Vec<&str> = stderr
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    let code = status
        .code()
        .map_or_else(|| "a signal".to_string(), |c| format!("exit code {c}"));
    let asking: Vec<&str> = said
        .iter()
        .copied()
        .filter(|l| asks_for_login(l) || l.contains("https://") || l.contains("http://"))
        .collect();
    if asking.iter().any(|l| asks_for_login(l)) {
        let first = asking.len().saturating_sub(3);
        return RunFailure {
            kind: ProblemKind::LoginNeeded,
            message: asking[first..].join(" "),
        };
    }
    let message = match said.last() {
        Some(last) => format!("exec plugin {program} failed with {code}: {last}"),
        None => format!("exec plugin {program} failed with {code}"),
    };
    RunFailure {
        kind: ProblemKind::Failed,
        message,
    }
}

/// The credential in the plugin's answer, checked as client-go checks it: the same
/// `apiVersion` as asked, a status, a token or a certificate with its key.
fn read_answer(spec: &ExecSpec, program: &str, stdout: &[u8]) -> Result<Obtained, RunFailure> {
    let bad = |why: String| RunFailure {
        kind: ProblemKind::Failed,
        message: format!("exec plugin {program}: {why}"),
    };
    let answer: Answer = serde_json::from_slice(stdout)
        .map_err(|e| bad(format!("its answer is not an ExecCredential ({e})")))?;
    let version = answer.api_version.unwrap_or_default();
    if version != spec.api_version {
        return Err(bad(format!(
            "is configured to use API version {}, plugin returned version {version:?}",
            spec.api_version
        )));
    }
    if answer.kind.as_deref() != Some("ExecCredential") {
        return Err(bad(format!(
            "returned kind {:?}, not ExecCredential",
            answer.kind.unwrap_or_default()
        )));
    }
    let status = answer
        .status
        .ok_or_else(|| bad("didn't return a status field".into()))?;
    let has_cert = !status.client_certificate_data.is_empty();
    let has_key = !status.client_key_data.is_empty();
    if status.token.is_empty() && !has_cert && !has_key {
        return Err(bad("didn't return a token or cert/key pair".into()));
    }
    if has_cert != has_key {
        return Err(bad("returned only certificate or key, not both".into()));
    }
    let expires_at = status
        .expiration_timestamp
        .as_deref()
        .map(|t| {
            t.parse::<Timestamp>()
                .map_err(|e| bad(format!("expirationTimestamp {t:?}: {e}")))
        })
        .transpose()?;
    Ok(Obtained {
        token: (!status.token.is_empty()).then_some(status.token),
        certificate: has_cert.then_some((status.client_certificate_data, status.client_key_data)),
        expires_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(script: &str) -> ExecSpec {
        ExecSpec {
            api_version: "client.authentication.k8s.io/v1".into(),
            command: "sh".into(),
            args: vec!["-c".into(), script.into()],
            env: vec![("PLUGIN_GREETING".into(), "hello".into())],
            interactive: Interactive::Never,
            cluster: None,
            install_hint: None,
        }
    }

    const ANSWER: &str = r#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t-1","expirationTimestamp":"2026-12-01T19:00:00Z"}}"#;

    #[tokio::test]
    async fn a_token_and_its_expiry_are_read_and_stderr_is_kept_not_shown() {
        let script = format!(
            "echo \"$PLUGIN_GREETING from the plugin\" >&2; case \"$KUBERNETES_EXEC_INFO\" in *'\"interactive\":false'*) echo '{ANSWER}';; *) exit 3;; esac"
        );
        let run = run(&spec(&script), Attach::Detached, Duration::from_secs(10)).await;
        let obtained = run.outcome.expect("a credential");
        assert_eq!(obtained.token.as_deref(), Some("t-1"));
        assert_eq!(
            obtained.expires_at,
            Some("2026-12-01T19:00:00Z".parse().unwrap())
        );
        assert_eq!(run.stderr, ["hello from the plugin"]);
    }

    #[tokio::test]
    async fn failures_say_what_the_plugin_said_and_logins_are_told_apart() {
        let failing = run(
            &spec("echo 'error: no such profile ops' >&2; exit 2"),
            Attach::Detached,
            Duration::from_secs(10),
        )
        .await;
        assert_eq!(
            failing.outcome.unwrap_err(),
            RunFailure {
                kind: ProblemKind::Failed,
                message: "exec plugin sh failed with exit code 2: error: no such profile ops"
                    .into()
            }
        );
        let login = run(
            &spec("echo 'error: the SSO session has expired; run: aws sso login' >&2; exit 1"),
            Attach::Detached,
            Duration::from_secs(10),
        )
        .await;
        assert_eq!(login.outcome.unwrap_err().kind, ProblemKind::LoginNeeded);
        let mut always = spec("echo never run >&2; exit 9");
        always.interactive = Interactive::Always;
        let refused = run(&always, Attach::Detached, Duration::from_secs(10)).await;
        assert_eq!(refused.outcome.unwrap_err().kind, ProblemKind::LoginNeeded);
        assert!(refused.stderr.is_empty(), "not run at all");
    }

    #[tokio::test]
    async fn a_hanging_plugin_is_stopped_at_the_timeout() {
        let started = std::time::Instant::now();
        let hung = run(
            &spec("sleep 30"),
            Attach::Detached,
            Duration::from_millis(300),
        )
        .await;
        assert_eq!(hung.outcome.unwrap_err().kind, ProblemKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[tokio::test]
    async fn answers_are_checked_as_client_go_checks_them() {
        for (answer, why) in [
            (
                r#"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}}"#,
                "plugin returned version",
            ),
            (
                r#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"}"#,
                "didn't return a status field",
            ),
            (
                r#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}}"#,
                "didn't return a token or cert/key pair",
            ),
            (
                r#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"x"}}"#,
                "only certificate or key",
            ),
            ("not json", "not an ExecCredential"),
        ] {
            let script = format!("echo '{answer}'");
            let run = run(&spec(&script), Attach::Detached, Duration::from_secs(10)).await;
            let failure = run.outcome.unwrap_err();
            assert_eq!(failure.kind, ProblemKind::Failed);
            assert!(
                failure.message.contains(why),
                "{answer}: {}",
                failure.message
            );
        }
        let missing = ExecSpec {
            command: "/nonexistent/plugin".into(),
            install_hint: Some("install it with: apt install plugin".into()),
            ..spec("")
        };
        let run = run(&missing, Attach::Detached, Duration::from_secs(10)).await;
        assert_eq!(
            run.outcome.unwrap_err().message,
            "exec: executable /nonexistent/plugin not found (install it with: apt install plugin)"
        );
    }

    #[test]
    fn exec_info_carries_the_cluster_only_when_asked() {
        let mut s = spec("");
        assert_eq!(
            exec_info(&s, false),
            r#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false}}"#
        );
        s.cluster = Some(super::super::source::ClusterInfo {
            server: "https://127.0.0.1:6443".into(),
            tls_server_name: None,
            insecure_skip_tls_verify: false,
            certificate_authority_data: Some("Q0E=".into()),
            proxy_url: None,
            disable_compression: false,
            config: Some(r#"{"region":"eu"}"#.into()),
        });
        let info: serde_json::Value = serde_json::from_str(&exec_info(&s, true)).unwrap();
        assert_eq!(info["spec"]["interactive"], true);
        assert_eq!(info["spec"]["cluster"]["server"], "https://127.0.0.1:6443");
        assert_eq!(
            info["spec"]["cluster"]["certificate-authority-data"],
            "Q0E="
        );
        assert_eq!(info["spec"]["cluster"]["config"]["region"], "eu");
    }
}
