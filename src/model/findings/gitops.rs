//! Rule 6: GitOps sync. Argo CD Applications and Flux Kustomizations and HelmReleases,
//! their sync and health as their tools report them: out of sync for how long, degraded,
//! suspended. A GitOps controller syncing a bad change everywhere is how one commit
//! takes down a fleet; one suspended and forgotten is how a fleet drifts.

use jiff::Timestamp;

use super::{
    Finding, GitOpsHealth, GitOpsObject, Measure, Read, RuleId, Severity, SyncState, Thresholds,
};
use crate::model::duration::format_duration;
use crate::model::ledger::ClusterId;

fn for_how_long(now: Timestamp, since: Option<Timestamp>) -> (Option<std::time::Duration>, String) {
    match since {
        Some(since) => {
            let secs = (now.as_second() - since.as_second()).max(0) as u64;
            let secs = if secs >= 3600 { secs - secs % 60 } else { secs };
            let d = std::time::Duration::from_secs(secs);
            (Some(d), format!(" for {}", format_duration(d)))
        }
        None => (None, String::new()),
    }
}

/// A GitOps summary as a message: `id` when since when is unknown, `id-for` with how
/// long otherwise (the ` for 2h` of [`for_how_long`]).
fn gitops_msg(
    id: &'static str,
    id_for: &'static str,
    o: &GitOpsObject,
    length: Option<std::time::Duration>,
) -> crate::i18n::Msg {
    match length {
        Some(d) => crate::i18n::Msg::new(id_for)
            .arg("object", o.describe())
            .arg("duration", format_duration(d)),
        None => crate::i18n::Msg::new(id).arg("object", o.describe()),
    }
}

fn base(cluster: &ClusterId, rule: RuleId, severity: Severity, o: &GitOpsObject) -> Finding {
    let mut evidence = vec![format!(
        "sync {}, health {}",
        match o.sync {
            SyncState::Synced => "Synced",
            SyncState::OutOfSync => "OutOfSync",
            SyncState::Unknown => "Unknown",
        },
        match o.health {
            GitOpsHealth::Healthy => "Healthy",
            GitOpsHealth::Progressing => "Progressing",
            GitOpsHealth::Degraded => "Degraded",
            GitOpsHealth::Missing => "Missing",
            GitOpsHealth::Unknown => "Unknown",
        }
    )];
    if let Some(message) = &o.message {
        evidence.push(format!("message: {message}"));
    }
    Finding {
        summary_msg: None,
        silence_msg: None,
        cluster: cluster.clone(),
        rule,
        severity,
        key: format!(
            "{}/{}/{}/{}",
            rule.name(),
            o.kind.kind(),
            o.namespace,
            o.name
        ),
        subject: o.describe(),
        summary: String::new(),
        evidence,
        measure: None,
        since: o.since,
        severity_since: o.since,
        silence: String::new(),
    }
}

/// Findings for one cluster's GitOps objects.
pub(super) fn gitops_findings(
    cluster: &ClusterId,
    objects: &Read<Vec<GitOpsObject>>,
    now: Timestamp,
    t: &Thresholds,
) -> Vec<Finding> {
    let objects = match objects {
        Read::Known(o) => o,
        Read::Unknown(why) => {
            return vec![super::judge::unknown(
                cluster,
                "gitops",
                "GitOps objects",
                why,
            )];
        }
    };
    let mut out = Vec::new();
    for o in objects {
        if o.suspended {
            let mut f = base(cluster, RuleId::GitOpsSuspended, Severity::Warning, o);
            f.summary = format!(
                "{} is suspended: nothing reconciles it with its source",
                o.describe()
            );
            if let Some(note) = &o.suspended_note {
                f.evidence.push(format!("suspended: {note}"));
            }
            f.since = None;
            f.severity_since = None;
            f.summary_msg =
                Some(crate::i18n::Msg::new("fd-gitops-suspended").arg("object", o.describe()));
            f.silence_msg = Some(
                crate::i18n::Msg::new("fd-fix-gitops-resume")
                    .arg("cluster", cluster.to_string())
                    .arg("kind", o.kind.kind())
                    .arg("namespace", o.namespace.to_string())
                    .arg("name", o.name.to_string()),
            );
            f.silence = format!(
                "resume its sync once the incident is over (fleetdeck gitops resume {cluster} {} {}/{})",
                o.kind.kind(),
                o.namespace,
                o.name
            );
            out.push(f);
        }
        if o.sync == SyncState::OutOfSync {
            let (length, words) = for_how_long(now, o.since);
            let long = length.is_none_or(|d| d > t.gitops_out_of_sync_after);
            let mut f = base(
                cluster,
                RuleId::GitOpsOutOfSync,
                if long {
                    Severity::Warning
                } else {
                    Severity::Info
                },
                o,
            );
            f.summary = format!("{} is OutOfSync{words}", o.describe());
            f.evidence.push(format!(
                "threshold {} out of sync{}",
                format_duration(t.gitops_out_of_sync_after),
                if length.is_none() {
                    " (since when is unknown: judged as past it)"
                } else {
                    ""
                }
            ));
            f.measure = length.map(|d| Measure {
                value: d.as_secs() as f64,
                threshold: Some(t.gitops_out_of_sync_after.as_secs() as f64),
                unit: "seconds",
            });
            if long {
                f.severity_since = o
                    .since
                    .and_then(|s| {
                        s.checked_add(
                            jiff::SignedDuration::try_from(t.gitops_out_of_sync_after).ok()?,
                        )
                        .ok()
                    })
                    .or(o.since);
            }
            f.summary_msg = Some(gitops_msg(
                "fd-gitops-out-of-sync",
                "fd-gitops-out-of-sync-for",
                o,
                length,
            ));
            f.silence_msg = Some(crate::i18n::Msg::new("fd-fix-gitops-sync"));
            f.silence = "sync it (or fix what keeps it from syncing), or suspend its sync on purpose during an incident".into();
            out.push(f);
        }
        if matches!(o.health, GitOpsHealth::Degraded | GitOpsHealth::Missing) {
            let (length, words) = for_how_long(now, o.since);
            let mut f = base(cluster, RuleId::GitOpsDegraded, Severity::Warning, o);
            f.summary = format!(
                "{} is {}{words}",
                o.describe(),
                if o.health == GitOpsHealth::Degraded {
                    "Degraded"
                } else {
                    "Missing"
                }
            );
            f.summary_msg = Some(if o.health == GitOpsHealth::Degraded {
                gitops_msg("fd-gitops-degraded", "fd-gitops-degraded-for", o, length)
            } else {
                gitops_msg("fd-gitops-missing", "fd-gitops-missing-for", o, length)
            });
            f.silence_msg = Some(crate::i18n::Msg::new("fd-fix-gitops-degraded"));
            f.silence = "look at what it deployed (its resources' health), and at the last change to its source".into();
            out.push(f);
        }
    }
    out
}
