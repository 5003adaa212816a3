//! Running an operator's program (a maintenance hook, a release's exec action or check):
//! argv without a shell, stdin closed, environment given, killed when its timeout passes.

use std::time::Duration;

/// Output kept from one program run, at most this many bytes.
const OUTPUT_LIMIT: usize = 64 * 1024;

/// How a program run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramOutcome {
    /// The exit code (none when killed by a signal or the timeout).
    pub exit_code: Option<i32>,
    /// Killed because its timeout passed.
    pub timed_out: bool,
    /// Standard output then standard error, truncated.
    pub output: String,
}

impl ProgramOutcome {
    /// Whether it exited with status 0.
    pub fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }

    /// One line for people: the exit and the output's last line.
    pub fn summary(&self) -> String {
        let last = self
            .output
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        let end = match (self.timed_out, self.exit_code) {
            (true, _) => "killed after its timeout".to_string(),
            (false, Some(code)) => format!("exit status {code}"),
            (false, None) => "killed by a signal".to_string(),
        };
        if last.is_empty() {
            end
        } else {
            format!("{end}: {last}")
        }
    }
}

/// Runs `argv` with `env` added to ours; `Err` when it could not be started at all.
pub async fn run_program(
    argv: &[String],
    env: &[(String, String)],
    timeout: Duration,
) -> Result<ProgramOutcome, String> {
    let Some((program, args)) = argv.split_first() else {
        return Err("empty argv".into());
    };
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    match tokio::time::timeout(timeout, command.output()).await {
        Err(_) => Ok(ProgramOutcome {
            exit_code: None,
            timed_out: true,
            output: format!("killed after {}s", timeout.as_secs()),
        }),
        Ok(Err(e)) => Err(format!("{program}: {e}")),
        Ok(Ok(output)) => {
            let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&output.stderr));
            if text.len() > OUTPUT_LIMIT {
                let mut cut = OUTPUT_LIMIT;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
                text.push_str("\n[output truncated]");
            }
            Ok(ProgramOutcome {
                exit_code: output.status.code(),
                timed_out: false,
                output: text,
            })
        }
    }
}
