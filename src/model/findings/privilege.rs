//! Rule 9: least privilege. Each identity fleetdeck acts as (the read one, and each job's
//! own) is judged against what its job needs ([`crate::model::job_rights`]): one that can
//! change far more than its job (cluster-admin where reading is enough) is a warning; one
//! that lacks a right its job cannot do without (evictions forbidden before a maintenance
//! starts) is critical.

use super::{Finding, GrantedRule, PrivilegeFact, Read, RuleId, Severity};
use crate::i18n::Msg;
use crate::model::job_rights::{Right, WRITE_VERBS, grants, rights};
use crate::model::ledger::{ClusterId, Job};

/// Most rights named in a finding's summary (the evidence lists them all).
const NAMED: usize = 3;

fn covers(values: &[String], wanted: &str) -> bool {
    values.iter().any(|v| v == "*" || v == wanted)
}

/// Whether `rule` grants `right` (RBAC's matching: `*` matches anything; a resource
/// `pods/*` matches every subresource of pods).
fn grants_right(rule: &GrantedRule, right: &Right) -> bool {
    let resource = rule.resources.iter().any(|r| {
        r == "*"
            || r == right.resource
            || r.strip_suffix("/*").is_some_and(|base| {
                right.resource.split('/').next() == Some(base) && right.resource.contains('/')
            })
    });
    covers(&rule.groups, right.group) && resource && covers(&rule.verbs, right.verb)
}

/// Every right of `jobs`, the required ones only when `required_only`.
fn rights_of(jobs: &[Job], required_only: bool) -> Vec<Right> {
    let mut out: Vec<Right> = jobs
        .iter()
        .flat_map(|job| rights(grants(*job), required_only))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The rights `jobs` cannot do without that `rules` do not grant.
pub fn missing(jobs: &[Job], rules: &[GrantedRule]) -> Vec<Right> {
    rights_of(jobs, true)
        .into_iter()
        .filter(|right| !rules.iter().any(|rule| grants_right(rule, right)))
        .collect()
}

/// The changes `rules` allow that `jobs` never make, as people read them (`delete pods`,
/// `* on everything (cluster-admin)`). Nothing is too much for an identity that applies
/// releases: what a release needs is what its manifests hold.
pub fn excess(jobs: &[Job], rules: &[GrantedRule]) -> Vec<String> {
    if jobs.contains(&Job::Release) {
        return Vec::new();
    }
    let needed = rights_of(jobs, false);
    let mut out = Vec::new();
    for rule in rules {
        let everything = covers(&rule.groups, "*")
            && rule.resources.iter().any(|r| r == "*")
            && rule.verbs.iter().any(|v| v == "*");
        if everything {
            out.push("* on everything (cluster-admin)".to_string());
            continue;
        }
        for verb in rule
            .verbs
            .iter()
            .filter(|v| WRITE_VERBS.contains(&v.as_str()))
        {
            for resource in &rule.resources {
                // A wildcard verb or resource is never what a job needs exactly.
                let needs_it = verb != "*"
                    && resource != "*"
                    && needed.iter().any(|n| {
                        n.verb == verb && n.resource == resource && covers(&rule.groups, n.group)
                    });
                if !needs_it {
                    let group = match rule.groups.first().map(String::as_str) {
                        None | Some("") => String::new(),
                        Some(g) => format!(".{g}"),
                    };
                    out.push(format!("{verb} {resource}{group}"));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Which way an identity's rights are wrong.
#[derive(Clone, Copy)]
enum Verdict {
    /// A right its job cannot do without is not granted.
    Missing,
    /// It can change far more than its job needs.
    Excess,
}

/// The finding of `verdict` for `fact`'s identity (doing `job`), naming `rights`.
fn finding(
    cluster: &ClusterId,
    fact: &PrivilegeFact,
    job: &str,
    verdict: Verdict,
    rights: &[String],
) -> Finding {
    let shown = rights
        .iter()
        .take(NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let more = rights.len().saturating_sub(NAMED);
    let rest = if more > 0 {
        format!(" (+{more} more)")
    } else {
        String::new()
    };
    let user = fact.user.as_str();
    let (rule, severity, id, fix, summary, each, silence) = match verdict {
        Verdict::Missing => (
            RuleId::PrivilegeMissing,
            Severity::Critical,
            "fd-privilege-missing",
            "fd-fix-privilege-missing",
            format!("the {job} identity {user} may not {shown}{rest}"),
            "needed, not granted",
            format!("grant the role `fleetdeck rbac --job {job}` prints"),
        ),
        Verdict::Excess => (
            RuleId::PrivilegeExcess,
            Severity::Warning,
            "fd-privilege-excess",
            "fd-fix-privilege-excess",
            format!(
                "the {job} identity {user} can change far more than its job needs: {shown}{rest}"
            ),
            "granted, never used by its jobs",
            format!(
                "bind it to the role `fleetdeck rbac --job {job}` prints instead, or give the job a context of its own (jobContexts)"
            ),
        ),
    };
    Finding {
        summary_msg: Some(
            Msg::new(id)
                .arg("job", job)
                .arg("user", user)
                .arg("rights", shown.as_str())
                .arg("more", more as i64),
        ),
        silence_msg: Some(Msg::new(fix).arg("job", job)),
        cluster: cluster.clone(),
        rule,
        severity,
        key: format!("{}/{job}", rule.name()),
        subject: format!("{job} identity {user}"),
        summary,
        evidence: rights.iter().map(|r| format!("{each}: {r}")).collect(),
        measure: None,
        since: None,
        severity_since: None,
        silence,
    }
}

/// The least-privilege findings for one cluster.
pub(super) fn privilege_findings(cluster: &ClusterId, facts: &[PrivilegeFact]) -> Vec<Finding> {
    let mut out = Vec::new();
    for fact in facts {
        let job = fact
            .jobs
            .iter()
            .map(|j| j.name())
            .collect::<Vec<_>>()
            .join("+");
        let job = job.as_str();
        let rules = match &fact.rules {
            Read::Known(rules) => rules,
            Read::Unknown(why) => {
                out.push(super::judge::unknown(
                    cluster,
                    &format!("privilege/{job}"),
                    &format!("what the {job} identity {} may do", fact.user),
                    why,
                ));
                continue;
            }
        };
        let lacking: Vec<String> = missing(&fact.jobs, rules)
            .iter()
            .map(|r| format!("{} {}", r.verb, r.resource))
            .collect();
        // A list the server says may be incomplete (another authorizer may allow more)
        // cannot prove a right is missing.
        if !lacking.is_empty() && !fact.incomplete {
            out.push(finding(cluster, fact, job, Verdict::Missing, &lacking));
        }
        let more = excess(&fact.jobs, rules);
        if !more.is_empty() {
            out.push(finding(cluster, fact, job, Verdict::Excess, &more));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(groups: &[&str], resources: &[&str], verbs: &[&str]) -> GrantedRule {
        let own = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        GrantedRule {
            groups: own(groups),
            resources: own(resources),
            verbs: own(verbs),
        }
    }

    fn fact(job: Job, rules: Vec<GrantedRule>) -> PrivilegeFact {
        PrivilegeFact {
            jobs: vec![job],
            user: "ops".into(),
            rules: Read::Known(rules),
            incomplete: false,
        }
    }

    #[test]
    fn cluster_admin_for_reading_is_far_more_than_needed() {
        let admin = vec![rule(&["*"], &["*"], &["*"])];
        let found = privilege_findings(&"c".into(), &[fact(Job::Read, admin)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].rule, RuleId::PrivilegeExcess);
        assert_eq!(
            found[0].summary,
            "the read identity ops can change far more than its job needs: * on everything (cluster-admin)"
        );
    }

    #[test]
    fn a_drain_without_evictions_is_critical_before_it_starts() {
        let without = vec![
            rule(&[""], &["nodes"], &["patch"]),
            rule(&[""], &["events"], &["create"]),
        ];
        let found = privilege_findings(&"c".into(), &[fact(Job::Maintenance, without)]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].severity, Severity::Critical);
        assert_eq!(
            found[0].summary,
            "the maintenance identity ops may not create pods/eviction"
        );
        let exactly = vec![
            rule(&[""], &["nodes"], &["patch"]),
            rule(&[""], &["pods/eviction"], &["create"]),
            rule(&[""], &["events"], &["create"]),
        ];
        assert!(privilege_findings(&"c".into(), &[fact(Job::Maintenance, exactly)]).is_empty());
        // `pods/*` covers the eviction, and `pods/exec` with it: more than a drain needs.
        let wider = vec![
            rule(&[""], &["nodes"], &["patch"]),
            rule(&[""], &["pods/*"], &["create"]),
            rule(&[""], &["events"], &["create"]),
        ];
        let found = privilege_findings(&"c".into(), &[fact(Job::Maintenance, wider)]);
        assert_eq!(
            found.iter().map(|f| f.summary.as_str()).collect::<Vec<_>>(),
            ["the maintenance identity ops can change far more than its job needs: create pods/*"]
        );
    }

    #[test]
    fn reading_rights_are_not_excess_but_deleting_pods_is() {
        let viewer = vec![
            rule(&["*"], &["*"], &["get", "list", "watch"]),
            rule(
                &["authorization.k8s.io"],
                &["selfsubjectrulesreviews"],
                &["create"],
            ),
        ];
        assert!(privilege_findings(&"c".into(), &[fact(Job::Read, viewer.clone())]).is_empty());
        let mut deleter = viewer;
        deleter.push(rule(&[""], &["pods"], &["delete"]));
        let found = privilege_findings(&"c".into(), &[fact(Job::Read, deleter)]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].summary,
            "the read identity ops can change far more than its job needs: delete pods"
        );
    }

    #[test]
    fn an_identity_that_also_releases_is_never_too_mighty() {
        let admin = vec![rule(&["*"], &["*"], &["*"])];
        let mut all = fact(Job::Read, admin);
        all.jobs = vec![Job::Read, Job::Maintenance, Job::Release];
        assert!(privilege_findings(&"c".into(), &[all]).is_empty());
    }

    #[test]
    fn an_incomplete_list_proves_nothing_missing() {
        let mut f = fact(Job::Maintenance, Vec::new());
        f.incomplete = true;
        assert!(privilege_findings(&"c".into(), &[f]).is_empty());
    }
}
