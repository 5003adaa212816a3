//! Every rule on one cluster: its live facts (or why there are none), its ledger entry,
//! and what the journal says about its window.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::{
    ClusterFacts, Finding, Read, RuleId, Severity, Thresholds, WindowOverride, apf, backup,
    certificates, control_plane, gitops, webhooks, windows,
};
use crate::model::ledger::{Cluster, ClusterId};

/// What one cluster is judged on.
#[derive(Debug, Clone)]
pub struct ClusterContext<'a> {
    /// Its ledger entry.
    pub cluster: &'a Cluster,
    /// Its live facts, or why there are none (`cluster Unreachable: …`, `not synced`).
    pub facts: Read<&'a ClusterFacts>,
    /// Its maintenance window's time zone, as loaded (`None`: it could not be, or the
    /// ledger declares no window).
    pub window_zone: Option<&'a TimeZone>,
    /// Window overrides from the journal.
    pub overrides: &'a [WindowOverride],
    /// Changes in flight that wait for the window (`rollout cni-1.17`).
    pub waiting: &'a [String],
}

/// What could not be read, as a message when it is one of the rules' own words (a name
/// read from a cluster, such as an endpoint, is shown as it is).
fn what_msg(what: &str) -> crate::i18n::Msg {
    let id = match what {
        "live facts" => "fd-what-live-facts",
        "the priority levels of our requests" => "fd-what-priority-levels",
        "the priority level of our requests" => "fd-what-priority-level",
        "the journal (window overrides, changes waiting for windows, rollouts' burn rates)" => {
            "fd-what-journal"
        }
        "GitOps objects" => "fd-what-gitops",
        "admission webhooks" => "fd-what-webhooks",
        "aggregated APIs" => "fd-what-apiservices",
        _ => return crate::i18n::Msg::new("fd-what-as-is").arg("what", what),
    };
    crate::i18n::Msg::new(id)
}

/// Why it could not be read: a reason of the console's own as a message, one read from
/// a cluster (an error's text) as it is.
fn why_msg(why: &str) -> crate::i18n::Msg {
    match why {
        "no journal connected" => crate::i18n::Msg::new("fd-why-no-journal"),
        _ => crate::i18n::Msg::new("fd-what-as-is").arg("what", why),
    }
}

/// The finding for a fact that could not be read: unknown is not fine.
pub(super) fn unknown(cluster: &ClusterId, key: &str, what: &str, why: &str) -> Finding {
    Finding {
        summary_msg: Some(
            crate::i18n::Msg::new("fd-unknown")
                .arg("what", what_msg(what))
                .arg("why", why_msg(why)),
        ),
        silence_msg: Some(crate::i18n::Msg::new("fd-fix-unknown")),
        cluster: cluster.clone(),
        rule: RuleId::FactsUnknown,
        severity: Severity::Warning,
        key: format!("factsUnknown/{key}"),
        subject: what.to_string(),
        summary: format!("{what}: unknown ({why})"),
        evidence: vec![format!("could not be read: {why}")],
        measure: None,
        since: None,
        severity_since: None,
        silence: "make it readable (RBAC: get/list, the cluster reachable); until then it is unknown, not fine".into(),
    }
}

/// Every rule's findings for one cluster, in no particular order (see
/// [`super::sort_findings`]).
pub fn judge_cluster(ctx: &ClusterContext<'_>, now: Timestamp, t: &Thresholds) -> Vec<Finding> {
    let id = &ctx.cluster.id;
    let mut out = backup::backup_findings(ctx.cluster, now, t);
    out.extend(windows::window_findings(
        ctx.cluster,
        ctx.window_zone,
        ctx.overrides,
        ctx.waiting,
        now,
    ));
    match &ctx.facts {
        Read::Unknown(why) => out.push(unknown(id, "cluster", "live facts", why)),
        Read::Known(facts) => {
            out.extend(certificates::certificate_findings(
                id,
                &facts.certificates,
                now,
                t,
            ));
            out.extend(webhooks::webhook_findings(id, &facts.webhooks, t));
            out.extend(webhooks::api_service_findings(id, &facts.api_services));
            out.extend(apf::apf_findings(id, &facts.flows, facts.requests.as_ref()));
            out.extend(control_plane::health_findings(id, "readyz", &facts.readyz));
            out.extend(control_plane::health_findings(id, "livez", &facts.livez));
            out.extend(control_plane::request_findings(
                id,
                facts.requests.as_ref(),
                t,
            ));
            out.extend(gitops::gitops_findings(id, &facts.gitops, now, t));
            out.extend(super::privilege::privilege_findings(id, &facts.privileges));
        }
    }
    out
}
