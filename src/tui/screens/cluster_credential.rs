//! What the cluster's page says of its credential: what it is, for whom, how long it is
//! still good and how often its plugin ran; the problem that keeps it out, with how to
//! log in when a person must; and the plugin's last words on stderr, which are shown
//! here and never on the screen while the plugin runs.

use ratatui::text::Line;

use crate::model::duration::age;
use crate::model::live::{ClusterSnapshot, CredentialKind, CredentialReport};
use crate::t;
use crate::tui::component::Context;
use crate::tui::theme::Slot;

/// Most stderr lines of the plugin shown on the page (the rest are in `snapshot -o json`).
const STDERR_SHOWN: usize = 3;

/// The lines of `cluster`'s credential, worst first; none for a static credential with
/// nothing to say.
pub fn lines(ctx: &Context, cluster: &ClusterSnapshot, context: &str) -> Vec<Line<'static>> {
    let Some(report) = &cluster.credential else {
        return Vec::new();
    };
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let plugin = match &report.kind {
        CredentialKind::Exec { command } => {
            Some(crate::model::live::program_name(command).to_string())
        }
        _ => None,
    };
    let mut out = Vec::new();
    if let Some(problem) = &report.problem {
        out.push(Line::styled(
            t!(
                lang,
                "fleet-credential-problem",
                kind = problem.kind.label(),
                message = problem.message.as_str()
            ),
            t.style(Slot::Critical),
        ));
        if let Some(program) = plugin.as_deref().filter(|_| problem.kind.wants_login()) {
            out.push(Line::styled(
                t!(
                    lang,
                    "fleet-credential-login-hint",
                    context = context,
                    program = program
                ),
                t.style(Slot::Warn),
            ));
        }
    }
    let worth_a_line = report.problem.is_some()
        || matches!(
            report.kind,
            CredentialKind::Exec { .. } | CredentialKind::TokenFile { .. }
        );
    if worth_a_line {
        out.push(Line::styled(summary(ctx, report), t.style(Slot::Muted)));
    }
    if let Some(warning) = &report.warning {
        out.push(Line::styled(
            t!(lang, "fleet-credential-warning", message = warning.reason()),
            t.style(Slot::Warn),
        ));
    }
    if let Some(program) = &plugin {
        let first = report.stderr.len().saturating_sub(STDERR_SHOWN);
        for line in &report.stderr[first..] {
            out.push(Line::styled(
                t!(
                    lang,
                    "fleet-credential-stderr",
                    program = program.as_str(),
                    line = line.as_str()
                ),
                t.style(Slot::Muted),
            ));
        }
    }
    out
}

/// `credential: exec aws as ops · good for 12m · its plugin ran 3 times`.
fn summary(ctx: &Context, report: &CredentialReport) -> String {
    let lang = ctx.config.lang;
    let expiry = match (report.obtained_at, report.expires_at) {
        (None, _) => t!(lang, "fleet-credential-not-yet"),
        (Some(_), None) => t!(lang, "fleet-credential-no-expiry"),
        (Some(_), Some(at)) if at <= ctx.now => {
            t!(lang, "fleet-credential-expired", ago = age(ctx.now, at))
        }
        (Some(_), Some(at)) => t!(lang, "fleet-credential-expires-in", left = age(at, ctx.now)),
    };
    t!(
        lang,
        "fleet-credential",
        kind = report.kind.label(),
        user = report.user.as_str(),
        expiry = expiry,
        runs = report.runs as i64
    )
}
