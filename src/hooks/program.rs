//! Running an operator's program (a maintenance hook, a release's exec action or check):
//! argv without a shell, stdin closed, environment given, killed when its timeout passes.

use std::time::Duration;

use crate::model::maintenance::HookResult;

/// Output kept from one program run, at most this many bytes.
const OUTPUT_LIMIT: usize = 64 * 1024;

/// Runs `argv` with `env` added to ours: how it ended (exit, timeout, output), or `Err`
/// when it could not be started at all.
pub async fn run_program(
    argv: &[String],
    env: &[(String, String)],
    timeout: Duration,
) -> Result<HookResult, String> {
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
        Err(_) => Ok(HookResult {
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
            Ok(HookResult {
                exit_code: output.status.code(),
                timed_out: false,
                output: text,
            })
        }
    }
}
