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
            f.silence = "sync it (or fix what keeps it from syncing), or suspend its sync on purpose during an incident".into();
            out.push(f);
        }
        if matches!(o.health, GitOpsHealth::Degraded | GitOpsHealth::Missing) {
            let (_, words) = for_how_long(now, o.since);
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
            f.silence = "look at what it deployed (its resources' health), and at the last change to its source".into();
            out.push(f);
        }
    }
    out
}
