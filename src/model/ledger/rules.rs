//! Whole-ledger rules: what can only be judged by looking at several clusters at once,
//! at the dictionary, or at today's date.

use std::collections::HashMap;

use ipnet::IpNet;
use jiff::civil::Date;

use super::types::{Ledger, Positions};
use crate::i18n::Msg;
use crate::yaml::{Diagnostics, suggest};

/// Exceptions expiring within this many days get a warning.
pub const EXCEPTION_WARNING_DAYS: i64 = 14;

/// Runs every whole-ledger rule, adding its findings to `diags`.
pub fn check_ledger(ledger: &Ledger, diags: &mut Diagnostics) {
    check_unique_ids(ledger, diags);
    check_unique_contexts_and_identities(ledger, diags);
    check_dictionary(ledger, diags);
    check_cidrs(ledger, diags);
    check_accountability(ledger, diags);
    check_support(ledger, diags);
}

/// Each cluster's combination of versions (as the ledger records them) against the
/// support matrix, when the ledger has one: an unsupported one is a warning naming what
/// is outside it, an untested one names the closest validated combination.
fn check_support(ledger: &Ledger, diags: &mut Diagnostics) {
    use crate::model::upgrade::Support;
    if ledger.support_matrix.is_empty() {
        return;
    }
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        let at = ledger.positions.at(&format!("clusters.{index}"));
        let judged = ledger.support_matrix.judge(&cluster.versions);
        match &judged {
            Support::Unsupported { components } => {
                let outside = components
                    .iter()
                    .map(|(c, v)| format!("{c} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                diags.warning_said(
                    at,
                    format!(
                        "cluster \"{}\" runs an unsupported combination: {outside} in no validated combination",
                        cluster.id
                    ),
                    Msg::new("validate-unsupported-combination")
                        .arg("cluster", cluster.id.to_string())
                        .arg("outside", outside.as_str()),
                );
            }
            Support::Untested { closest, differs } => {
                let differs = differs.join(", ");
                diags.warning_said(
                    at,
                    format!(
                        "cluster \"{}\" runs an untested combination: the closest validated one, {closest}, differs in {differs}",
                        cluster.id
                    ),
                    Msg::new("validate-untested-combination")
                        .arg("cluster", cluster.id.to_string())
                        .arg("closest", closest.as_str())
                        .arg("differs", differs.as_str()),
                );
            }
            Support::Supported { .. } | Support::NoMatrix => {}
        }
    }
}

fn at(positions: &Positions, index: usize, field: &str) -> crate::yaml::Pos {
    positions.at(&format!("clusters.{index}.{field}"))
}

/// Ids are stable keys everywhere (journal, selectors, URLs): unique and DNS-label shaped.
fn check_unique_ids(ledger: &Ledger, diags: &mut Diagnostics) {
    let mut first_seen: HashMap<&str, usize> = HashMap::new();
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        let id = cluster.id.as_str();
        if id.is_empty() {
            continue;
        }
        let pos = at(&ledger.positions, index, "id");
        if !is_dns_label(id) {
            diags.error_said(
                pos,
                format!("cluster id \"{id}\" must be lowercase letters, digits and '-', at most 63 characters"),
                Msg::new("validate-cluster-id").arg("id", id.to_string()),
            );
        }
        match first_seen.get(id) {
            Some(&first) => diags.error_said(
                pos,
                format!(
                    "duplicate cluster id \"{id}\" (first defined at {})",
                    at(&ledger.positions, first, "id")
                ),
                Msg::new("validate-duplicate-id")
                    .arg("id", id.to_string())
                    .arg("first", at(&ledger.positions, first, "id").to_string()),
            ),
            None => {
                first_seen.insert(id, index);
            }
        }
    }
}

fn is_dns_label(s: &str) -> bool {
    s.len() <= 63
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// Two ledger entries reaching the same context or the same kube-system UID would let an
/// action meant for one cluster land on another.
fn check_unique_contexts_and_identities(ledger: &Ledger, diags: &mut Diagnostics) {
    let mut contexts: HashMap<&str, usize> = HashMap::new();
    let mut uids: HashMap<&str, usize> = HashMap::new();
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        if !cluster.context.is_empty() {
            if let Some(&first) = contexts.get(cluster.context.as_str()) {
                diags.error_said(
                    at(&ledger.positions, index, "context"),
                    format!(
                        "context \"{}\" is already used by cluster \"{}\" (at {})",
                        cluster.context,
                        ledger.clusters[first].id,
                        at(&ledger.positions, first, "context")
                    ),
                    Msg::new("validate-duplicate-context")
                        .arg("context", cluster.context.to_string())
                        .arg("cluster", ledger.clusters[first].id.to_string())
                        .arg("first", at(&ledger.positions, first, "context").to_string()),
                );
            } else {
                contexts.insert(&cluster.context, index);
            }
        }
        if let Some(identity) = &cluster.identity {
            if let Some(&first) = uids.get(identity.kube_system_uid.as_str()) {
                diags.error_said(
                    at(&ledger.positions, index, "identity"),
                    format!(
                        "kubeSystemUID \"{}\" is already pinned by cluster \"{}\" (at {})",
                        identity.kube_system_uid,
                        ledger.clusters[first].id,
                        at(&ledger.positions, first, "identity")
                    ),
                    Msg::new("validate-duplicate-identity")
                        .arg("uid", identity.kube_system_uid.to_string())
                        .arg("cluster", ledger.clusters[first].id.to_string())
                        .arg(
                            "first",
                            at(&ledger.positions, first, "identity").to_string(),
                        ),
                );
            } else {
                uids.insert(&identity.kube_system_uid, index);
            }
        }
    }
}

/// `env`, `tier` and every label must use a value the dictionary declares.
fn check_dictionary(ledger: &Ledger, diags: &mut Diagnostics) {
    let dictionary = &ledger.label_dictionary;
    for key in ["env", "tier"] {
        if !dictionary.contains_key(key) {
            diags.warning_said(
                ledger.positions.at("labelDictionary"),
                format!("labelDictionary does not declare `{key}`, so its values are not checked"),
                Msg::new("validate-dictionary-undeclared").arg("key", key),
            );
        }
    }
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        let check = |key: &str, value: &str, field: &str, diags: &mut Diagnostics| {
            let Some(allowed) = dictionary.get(key) else {
                return;
            };
            if value.is_empty() || allowed.iter().any(|a| a == value) {
                return;
            }
            let near = suggest(value, allowed.iter().map(String::as_str));
            let hint = near
                .map(|s| format!(" (did you mean \"{s}\"?)"))
                .unwrap_or_default();
            diags.error_said(
                at(&ledger.positions, index, field),
                format!(
                    "{key} \"{value}\" is not in the labelDictionary (allowed: {}){hint}",
                    allowed.join(", ")
                ),
                Msg::new(if near.is_some() {
                    "validate-not-in-dictionary-near"
                } else {
                    "validate-not-in-dictionary"
                })
                .arg("key", key)
                .arg("value", value)
                .arg("allowed", allowed.join(", "))
                .arg("near", near.unwrap_or_default()),
            );
        };
        check("env", &cluster.env, "env", diags);
        check("tier", &cluster.tier, "tier", diags);
        for (key, value) in &cluster.labels {
            let field = format!("labels.{key}");
            if dictionary.contains_key(key) {
                check(key, value, &field, diags);
            } else {
                let near = suggest(key, dictionary.keys().map(String::as_str));
                let hint = near
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                let says = match near {
                    Some(near) => Msg::new("validate-label-undeclared-near")
                        .arg("key", key)
                        .arg("near", near),
                    None => Msg::new("validate-label-undeclared").arg("key", key),
                };
                diags.error_said(
                    at(&ledger.positions, index, &field),
                    format!("label `{key}` is not declared in the labelDictionary{hint}"),
                    says,
                );
            }
        }
    }
}

/// Pod and service ranges must not overlap anywhere in the fleet: overlapping ranges break
/// multi-cluster networking and make traffic ambiguous.
fn check_cidrs(ledger: &Ledger, diags: &mut Diagnostics) {
    struct Range {
        cluster: usize,
        field: &'static str,
        net: IpNet,
    }
    let mut ranges: Vec<Range> = Vec::new();
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        let Some(network) = &cluster.network else {
            continue;
        };
        if let (Some(pod), Some(service)) = (network.pod_cidr, network.service_cidr)
            && overlaps(&pod, &service)
        {
            diags.error_said(
                at(&ledger.positions, index, "network.serviceCIDR"),
                format!("serviceCIDR {service} overlaps this cluster's own podCIDR {pod}"),
                Msg::new("validate-cidr-own")
                    .arg("service", service.to_string())
                    .arg("pod", pod.to_string()),
            );
        }
        for (field, net) in [
            ("podCIDR", network.pod_cidr),
            ("serviceCIDR", network.service_cidr),
        ] {
            let Some(net) = net else { continue };
            for other in ranges.iter().filter(|r| r.cluster != index) {
                if overlaps(&net, &other.net) {
                    let cluster = ledger.clusters[other.cluster].id.to_string();
                    let other_at = at(
                        &ledger.positions,
                        other.cluster,
                        &format!("network.{}", other.field),
                    )
                    .to_string();
                    diags.error_said(
                        at(&ledger.positions, index, &format!("network.{field}")),
                        format!(
                            "{field} {net} overlaps {} {} of cluster \"{cluster}\" (at {other_at})",
                            other.field, other.net,
                        ),
                        Msg::new("validate-cidr-overlap")
                            .arg("field", field)
                            .arg("net", net.to_string())
                            .arg("otherField", other.field)
                            .arg("otherNet", other.net.to_string())
                            .arg("cluster", cluster)
                            .arg("at", other_at),
                    );
                }
            }
            ranges.push(Range {
                cluster: index,
                field,
                net,
            });
        }
    }
}

fn overlaps(a: &IpNet, b: &IpNet) -> bool {
    a.contains(&b.network()) || b.contains(&a.network())
}

/// An exception past its date is no longer an accepted deviation: an error for `ledger
/// validate`, and one expiring within [`EXCEPTION_WARNING_DAYS`] a warning. Apart from
/// [`check_ledger`] because neither makes the ledger unusable.
pub fn check_exceptions(ledger: &Ledger, today: Date, diags: &mut Diagnostics) {
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        for (n, exception) in cluster.exceptions.iter().enumerate() {
            let pos = at(&ledger.positions, index, &format!("exceptions.{n}.expires"));
            let days_left = match today.until(exception.expires) {
                Ok(span) => span.get_days() as i64,
                Err(_) => continue,
            };
            if days_left < 0 {
                diags.error_said(
                    pos,
                    format!(
                        "exception \"{}\" expired on {} ({} days ago); renew it with a new date or remove it (owner: {})",
                        exception.what, exception.expires, -days_left, exception.owner
                    ),
                    Msg::new("validate-exception-expired")
                        .arg("what", exception.what.to_string())
                        .arg("expires", exception.expires.to_string())
                        .arg("days", -days_left)
                        .arg("owner", exception.owner.to_string()),
                );
            } else if days_left <= EXCEPTION_WARNING_DAYS {
                diags.warning_said(
                    pos,
                    format!(
                        "exception \"{}\" expires on {} (in {} days; owner: {})",
                        exception.what, exception.expires, days_left, exception.owner
                    ),
                    Msg::new("validate-exception-expiring")
                        .arg("what", exception.what.to_string())
                        .arg("expires", exception.expires.to_string())
                        .arg("days", days_left)
                        .arg("owner", exception.owner.to_string()),
                );
            }
        }
    }
}

/// Production and critical clusters need someone to page; running clusters need a pinned
/// identity before fleetdeck may act on them.
fn check_accountability(ledger: &Ledger, diags: &mut Diagnostics) {
    for (index, cluster) in ledger.clusters.iter().enumerate() {
        if cluster.owner.is_none() && (cluster.env == "production" || cluster.tier == "critical") {
            let production = cluster.env == "production";
            diags.error_said(
                ledger.positions.at(&format!("clusters.{index}")),
                format!(
                    "cluster \"{}\" is {} but has no owner",
                    cluster.id,
                    if production { "production" } else { "critical" }
                ),
                Msg::new(if production {
                    "validate-no-owner-production"
                } else {
                    "validate-no-owner-critical"
                })
                .arg("cluster", cluster.id.to_string()),
            );
        }
        if cluster.identity.is_none() && cluster.lifecycle != super::types::Lifecycle::Building {
            diags.warning_said(
                ledger.positions.at(&format!("clusters.{index}")),
                format!(
                    "cluster \"{}\" has no pinned identity; every action on it will be refused",
                    cluster.id
                ),
                Msg::new("validate-no-identity").arg("cluster", cluster.id.to_string()),
            );
        }
    }
}
