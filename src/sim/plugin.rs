//! `fleetdeck __sim-plugin`: the exec credential plugin the simulator's kubeconfigs run
//! (`sim --write-kubeconfig … --auth exec`), standing in for `aws eks get-token`,
//! `gke-gcloud-auth-plugin` or `kubelogin`. It asks the simulator's token issuer for a
//! short-lived token and prints the ExecCredential, and it can behave as real plugins do
//! on a bad day: slow, chatty on stderr, failing, hanging, needing a person to log in, or
//! handing out a cached token the server has revoked.
//!
//! How it behaves is read on every run from `--state DIR/behaviour.json` (so a test can
//! change it while fleetdeck runs), over the flags. Each run appends `start`/`end` lines
//! with a nanosecond clock and its pid to `DIR/runs.log`, which is how tests and
//! benchmarks count runs and how many ran at once.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// Flags of `fleetdeck __sim-plugin`.
#[derive(Debug, Clone, clap::Args)]
pub struct PluginArgs {
    /// The simulator's address (`127.0.0.1:PORT`).
    #[arg(long)]
    pub issuer: String,
    /// The simulator user to get a token for.
    #[arg(long, default_value = "admin")]
    pub user: String,
    /// Lifetime of the tokens asked for, in seconds (the issuer's default without).
    #[arg(long)]
    pub ttl: Option<f64>,
    /// Seconds to take before answering.
    #[arg(long, default_value_t = 0.0)]
    pub delay: f64,
    /// A line to write on stderr at each run (repeatable), as chatty plugins do.
    #[arg(long)]
    pub say: Vec<String>,
    /// Folder with `behaviour.json` (read each run), where `runs.log`, the token cache and the login session are kept.
    #[arg(long)]
    pub state: Option<PathBuf>,
}

/// `behaviour.json`: each key overrides its flag; every key is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Behaviour {
    /// Seconds to take before answering.
    pub delay_seconds: Option<f64>,
    /// Lines to write on stderr.
    pub stderr: Option<Vec<String>>,
    /// Fail with this message on stderr.
    pub fail: Option<String>,
    /// The exit code of a failure (default 1).
    pub exit_code: Option<i32>,
    /// Never answer.
    #[serde(default)]
    pub hang: bool,
    /// A person must log in first, typing this one-time code at the prompt; the login is
    /// kept as a session in the state folder.
    pub login_code: Option<String>,
    /// Lifetime of the tokens, in seconds.
    pub ttl_seconds: Option<f64>,
    /// Hand out the token cached from the last run instead of a new one (a plugin whose
    /// cache holds a token the server revoked).
    #[serde(default)]
    pub stale: bool,
}

/// What went wrong, said on stderr as a plugin would.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// A message the plugin prints before exiting with `code`.
    #[error("{message}")]
    Says {
        /// The exit code.
        code: i32,
        /// The message.
        message: String,
    },
}

fn now_nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

fn log_run(state: Option<&Path>, what: &str) {
    if let Some(dir) = state
        && let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("runs.log"))
    {
        // One write of the whole line: many plugins append to one log at once, and an
        // appended write this small is never interleaved with another's.
        let line = format!("{what} {} {}\n", now_nanos(), std::process::id());
        let _ = file.write_all(line.as_bytes());
    }
}

fn says(code: i32, message: impl Into<String>) -> PluginError {
    PluginError::Says {
        code,
        message: message.into(),
    }
}

/// Runs the plugin; returns the exit code.
pub fn run(args: &PluginArgs) -> i32 {
    let state = args.state.as_deref();
    log_run(state, "start");
    let outcome = answer(args);
    log_run(state, "end");
    match outcome {
        Ok(credential) => {
            println!("{credential}");
            0
        }
        Err(PluginError::Says { code, message }) => {
            eprintln!("{message}");
            code
        }
    }
}

fn answer(args: &PluginArgs) -> Result<String, PluginError> {
    let state = args.state.as_deref();
    let behaviour: Behaviour = match state.map(|d| d.join("behaviour.json")) {
        Some(path) if path.exists() => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| says(1, format!("error: reading {}: {e}", path.display())))?;
            serde_json::from_str(&text)
                .map_err(|e| says(1, format!("error: {}: {e}", path.display())))?
        }
        _ => Behaviour::default(),
    };
    let info: serde_json::Value = std::env::var("KUBERNETES_EXEC_INFO")
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let api_version = info["apiVersion"]
        .as_str()
        .unwrap_or("client.authentication.k8s.io/v1")
        .to_string();
    let interactive = info["spec"]["interactive"].as_bool().unwrap_or(false);
    let delay = behaviour.delay_seconds.unwrap_or(args.delay);
    if delay > 0.0 && delay.is_finite() {
        std::thread::sleep(Duration::from_secs_f64(delay));
    }
    for line in behaviour.stderr.as_ref().unwrap_or(&args.say) {
        eprintln!("{line}");
    }
    if behaviour.hang {
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
    if let Some(message) = &behaviour.fail {
        return Err(says(behaviour.exit_code.unwrap_or(1), message.clone()));
    }
    if let Some(code) = &behaviour.login_code {
        login(state, &args.user, code, interactive)?;
    }
    let cache = state.map(|d| d.join(format!("cache-{}.json", args.user)));
    if behaviour.stale
        && let Some(text) = cache.as_ref().and_then(|p| std::fs::read_to_string(p).ok())
    {
        return Ok(text);
    }
    let ttl = behaviour.ttl_seconds.or(args.ttl);
    let (token, expires) = issue(&args.issuer, &args.user, ttl)?;
    let credential = serde_json::json!({
        "apiVersion": api_version,
        "kind": "ExecCredential",
        "status": {"token": token, "expirationTimestamp": expires},
    })
    .to_string();
    if let Some(path) = cache {
        let _ = std::fs::write(path, &credential);
    }
    Ok(credential)
}

/// A login the person must do once: at a terminal, the plugin prompts for the one-time
/// code; behind one, it fails saying a login is needed, as kubelogin and `aws sso` do.
fn login(
    state: Option<&Path>,
    user: &str,
    code: &str,
    interactive: bool,
) -> Result<(), PluginError> {
    let session = state.map(|d| d.join(format!("session-{user}")));
    if session.as_ref().is_some_and(|s| s.exists()) {
        return Ok(());
    }
    if !interactive {
        return Err(says(
            1,
            "error: login required: the SSO session for the simulator has expired; log in again at a terminal",
        ));
    }
    eprint!("Enter the one-time code for {user} to log in to the simulated fleet: ");
    let mut typed = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut typed)
        .map_err(|e| says(1, format!("error: reading the code: {e}")))?;
    if typed.trim() != code {
        return Err(says(1, "error: that code is not valid; login failed"));
    }
    if let Some(path) = session {
        let _ = std::fs::write(path, "logged in\n");
    }
    eprintln!("Logged in.");
    Ok(())
}

/// Asks the simulator's issuer for a token (plain HTTP on loopback: the simulator's
/// port answers both).
fn issue(issuer: &str, user: &str, ttl: Option<f64>) -> Result<(String, String), PluginError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| says(1, format!("error: {e}")))?;
    runtime.block_on(async {
        use http_body_util::BodyExt;
        let addr: std::net::SocketAddr = issuer
            .parse()
            .map_err(|e| says(1, format!("error: issuer {issuer:?}: {e}")))?;
        if !addr.ip().is_loopback() {
            return Err(says(
                1,
                format!("error: issuer {issuer} is not on loopback"),
            ));
        }
        let stream = tokio::net::TcpStream::connect(addr).await.map_err(|e| {
            says(
                1,
                format!("error: cannot reach the issuer at {issuer}: {e}"),
            )
        })?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .map_err(|e| says(1, format!("error: issuer {issuer}: {e}")))?;
        tokio::spawn(connection);
        let mut body = serde_json::json!({"user": user});
        if let Some(ttl) = ttl {
            body["ttlSeconds"] = ttl.into();
        }
        let request = http::Request::post("/sim/v1/tokens")
            .header(http::header::HOST, issuer)
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(http_body_util::Full::new(bytes::Bytes::from(
                body.to_string(),
            )))
            .map_err(|e| says(1, format!("error: {e}")))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| says(1, format!("error: issuer {issuer}: {e}")))?;
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| says(1, format!("error: issuer {issuer}: {e}")))?
            .to_bytes();
        let answer: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
        if !status.is_success() {
            return Err(says(
                1,
                format!(
                    "error: the issuer refused: {}",
                    answer["message"].as_str().unwrap_or(status.as_str())
                ),
            ));
        }
        match (
            answer["token"].as_str(),
            answer["expirationTimestamp"].as_str(),
        ) {
            (Some(token), Some(expires)) => Ok((token.to_string(), expires.to_string())),
            _ => Err(says(1, "error: the issuer's answer has no token")),
        }
    })
}

/// One run of the plugin as its log in the state folder says: when it started and, once
/// it finished, when it ended (nanoseconds since the epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PluginRun {
    /// When it started.
    pub start: u128,
    /// When it ended; `None` while it runs (or when it was killed).
    pub end: Option<u128>,
}

/// The runs `state/runs.log` records, in the order they started.
pub fn runs_in(state: &Path) -> Vec<PluginRun> {
    let text = std::fs::read_to_string(state.join("runs.log")).unwrap_or_default();
    let mut open: std::collections::BTreeMap<&str, u128> = Default::default();
    let mut out = Vec::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [what, at, pid] = parts[..] else { continue };
        let Ok(at) = at.parse::<u128>() else { continue };
        match what {
            "start" => {
                open.insert(pid, at);
            }
            "end" => {
                if let Some(start) = open.remove(pid) {
                    out.push(PluginRun {
                        start,
                        end: Some(at),
                    });
                }
            }
            _ => {}
        }
    }
    out.extend(
        open.into_values()
            .map(|start| PluginRun { start, end: None }),
    );
    out.sort();
    out
}

/// The most of `runs` that were under way at one moment (one still running counts to
/// the end).
pub fn most_at_once(runs: &[PluginRun]) -> usize {
    let mut edges: Vec<(u128, i64)> = runs
        .iter()
        .flat_map(|r| [(r.start, 1), (r.end.unwrap_or(u128::MAX), -1)])
        .collect();
    // Ends before starts at the same instant: touching runs are not at once.
    edges.sort();
    let (mut now, mut most) = (0i64, 0i64);
    for (_, delta) in edges {
        now += delta;
        most = most.max(now);
    }
    usize::try_from(most).unwrap_or(0)
}
