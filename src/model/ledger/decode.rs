//! Reading a ledger out of a YAML tree: shapes, formats and unknown fields.
//! Rules that need the whole ledger (duplicates, overlaps, dictionary) live in `rules`.
//! Over 600 lines because each diagnostic is said twice: its English (data: JSON output
//! carries it) and the message other languages show; splitting the fields apart would
//! scatter one file format over several files.

use std::collections::BTreeMap;
use std::str::FromStr;
use std::time::Duration;

use ipnet::IpNet;
use jiff::Timestamp;
use jiff::civil::{Date, Time};

use super::types::*;
use crate::i18n::Msg;
use crate::model::duration::parse_duration;
use crate::yaml::{
    Diagnostics, Fields, Node, Pos, Value, string, string_list, string_map, suggest,
};

const LEDGER_FIELDS: &[&str] = &[
    "apiVersion",
    "kind",
    "labelDictionary",
    "supportMatrix",
    "kubernetesSupport",
    "clusters",
];
const CLUSTER_FIELDS: &[&str] = &[
    "id",
    "displayName",
    "context",
    "jobContexts",
    "identity",
    "env",
    "region",
    "failureDomain",
    "tier",
    "owner",
    "lifecycle",
    "labels",
    "versions",
    "network",
    "sharedDependencies",
    "backup",
    "maintenanceWindow",
    "exceptions",
];
const IDENTITY_FIELDS: &[&str] = &["kubeSystemUID", "server"];
const JOB_CONTEXT_FIELDS: &[&str] = &["maintenance", "release"];
const NETWORK_FIELDS: &[&str] = &["podCIDR", "serviceCIDR"];
const BACKUP_FIELDS: &[&str] = &[
    "location",
    "lastSuccess",
    "lastRestoreDrill",
    "lastRestoreDrillDuration",
    "rpo",
    "rto",
];
const WINDOW_FIELDS: &[&str] = &["days", "start", "duration", "timezone"];
const EXCEPTION_FIELDS: &[&str] = &["what", "reason", "owner", "exitCriteria", "expires"];

/// Decodes the ledger document. Returns a ledger (possibly partial) whenever the document
/// is a mapping, so that the whole-ledger rules can still run and every problem is
/// reported in one pass; callers must not use it when `diags` has errors.
pub fn decode_ledger(
    root: &Node,
    is_known_zone: &dyn Fn(&str) -> bool,
    diags: &mut Diagnostics,
) -> Option<Ledger> {
    let mut ledger = Ledger {
        api_version: String::new(),
        kind: String::new(),
        label_dictionary: BTreeMap::new(),
        support_matrix: Default::default(),
        kubernetes_support: BTreeMap::new(),
        clusters: Vec::new(),
        positions: Positions::default(),
    };
    let top = Fields::of(root, "ledger", diags)?;
    if top.of_other_kind("Ledger", diags) {
        return None;
    }
    top.reject_unknown(LEDGER_FIELDS, diags);
    ledger.api_version = top.required_string("apiVersion", diags).unwrap_or_default();
    if let Some(node) = top.get("apiVersion")
        && ledger.api_version != API_VERSION
    {
        diags.error_said(
            node.pos,
            format!(
                "apiVersion must be \"{API_VERSION}\", found \"{}\"",
                ledger.api_version
            ),
            Msg::new("validate-api-version")
                .arg("want", API_VERSION)
                .arg("found", &ledger.api_version),
        );
    }
    ledger.kind = top.required_string("kind", diags).unwrap_or_default();
    if let Some(node) = top.get("kind")
        && ledger.kind != "Ledger"
    {
        diags.error_said(
            node.pos,
            format!("kind must be \"Ledger\", found \"{}\"", ledger.kind),
            Msg::new("validate-must-be-text")
                .arg("key", "kind")
                .arg("want", "Ledger")
                .arg("found", &ledger.kind),
        );
    }
    if let Some(node) = top.get("labelDictionary") {
        ledger.label_dictionary = decode_dictionary(node, &mut ledger.positions, diags);
    }
    if let Some(node) = top.get("supportMatrix") {
        ledger.support_matrix = super::decode_support::decode_support_matrix(node, diags);
    }
    if let Some(node) = top.get("kubernetesSupport") {
        ledger.kubernetes_support = super::decode_support::decode_kubernetes_support(node, diags);
    }
    if let Some(node) = top.required("clusters", diags) {
        match &node.value {
            Value::Seq(items) => {
                for item in items {
                    // Keyed by the index in `ledger.clusters`, which the rules use.
                    let path = format!("clusters.{}", ledger.clusters.len());
                    ledger.positions.record(path.clone(), item.pos);
                    if let Some(cluster) =
                        decode_cluster(item, &path, &mut ledger.positions, is_known_zone, diags)
                    {
                        ledger.clusters.push(cluster);
                    }
                }
            }
            _ => diags.error_said(
                node.pos,
                format!(
                    "field `clusters` must be a list, found {}",
                    node.shape_name()
                ),
                Msg::new("validate-must-be-list")
                    .arg("field", "clusters")
                    .arg("found", node.shape_msg()),
            ),
        }
    }
    Some(ledger)
}

fn decode_dictionary(
    node: &Node,
    positions: &mut Positions,
    diags: &mut Diagnostics,
) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let Value::Map(entries) = &node.value else {
        diags.error_said(
            node.pos,
            format!(
                "field `labelDictionary` must be a mapping of label to allowed values, found {}",
                node.shape_name()
            ),
            Msg::new("validate-dictionary-shape").arg("found", node.shape_msg()),
        );
        return out;
    };
    for (key, values) in entries {
        positions.record(format!("labelDictionary.{}", key.text), key.pos);
        let list = string_list(values, &format!("labelDictionary.{}", key.text), diags);
        let mut allowed: Vec<String> = Vec::new();
        for (value, pos) in list {
            if allowed.contains(&value) {
                diags.warning_said(
                    pos,
                    format!("labelDictionary.{} lists \"{value}\" twice", key.text),
                    Msg::new("validate-dictionary-twice")
                        .arg("key", &key.text)
                        .arg("value", &value),
                );
            } else {
                allowed.push(value);
            }
        }
        out.insert(key.text.clone(), allowed);
    }
    out
}

fn decode_cluster(
    node: &Node,
    path: &str,
    positions: &mut Positions,
    is_known_zone: &dyn Fn(&str) -> bool,
    diags: &mut Diagnostics,
) -> Option<Cluster> {
    let fields = Fields::of(node, "cluster", diags)?;
    fields.reject_unknown(CLUSTER_FIELDS, diags);
    let mut record = |name: &str| {
        if let Some(n) = fields.get(name) {
            positions.record(format!("{path}.{name}"), n.pos);
        }
    };
    for name in CLUSTER_FIELDS {
        record(name);
    }
    let id = fields.required_string("id", diags);
    let lifecycle = fields.required("lifecycle", diags).and_then(|n| {
        let text = string(n, "lifecycle", diags)?;
        let parsed = Lifecycle::parse(&text);
        if parsed.is_none() {
            let (en, msg) = one_of("lifecycle", &text, &Lifecycle::NAMES);
            diags.error_said(n.pos, en, msg);
        }
        parsed
    });
    let labels = fields
        .get("labels")
        .map(|n| string_map(n, "labels", diags))
        .unwrap_or_default();
    for (key, (_, pos)) in &labels {
        positions.record(format!("{path}.labels.{key}"), *pos);
    }
    let versions = fields
        .get("versions")
        .map(|n| string_map(n, "versions", diags))
        .unwrap_or_default();
    // Compared with what `/version` reports (`v1.32.3`): another spelling is drift forever.
    if let Some((version, pos)) = versions.get("kubernetes")
        && !is_kubernetes_version(version)
    {
        diags.error_said(
            *pos,
            format!(
                "versions.kubernetes \"{version}\" is not written as the API server reports it (v1.32.3)"
            ),
            Msg::new("validate-kubernetes-version").arg("version", version),
        );
    }
    let cluster = Cluster {
        display_name: fields
            .optional_string("displayName", diags)
            .or_else(|| id.clone())
            .unwrap_or_default(),
        id: ClusterId::from(id.unwrap_or_default()),
        context: fields.required_string("context", diags).unwrap_or_default(),
        job_contexts: fields
            .get("jobContexts")
            .and_then(|n| decode_job_contexts(n, diags))
            .unwrap_or_default(),
        identity: fields
            .get("identity")
            .and_then(|n| decode_identity(n, diags)),
        env: fields.required_string("env", diags).unwrap_or_default(),
        region: fields.required_string("region", diags).unwrap_or_default(),
        failure_domain: fields
            .required_string("failureDomain", diags)
            .unwrap_or_default(),
        tier: fields.required_string("tier", diags).unwrap_or_default(),
        owner: fields
            .optional_string("owner", diags)
            .filter(|o| !o.trim().is_empty()),
        lifecycle: lifecycle.unwrap_or(Lifecycle::Running),
        labels: labels.into_iter().map(|(k, (v, _))| (k, v)).collect(),
        versions: versions.into_iter().map(|(k, (v, _))| (k, v)).collect(),
        network: fields
            .get("network")
            .and_then(|n| decode_network(n, path, positions, diags)),
        shared_dependencies: fields
            .get("sharedDependencies")
            .map(|n| {
                string_list(n, "sharedDependencies", diags)
                    .into_iter()
                    .map(|(s, _)| s)
                    .collect()
            })
            .unwrap_or_default(),
        backup: fields
            .get("backup")
            .and_then(|n| decode_backup(n, path, positions, diags)),
        maintenance_window: fields
            .get("maintenanceWindow")
            .and_then(|n| decode_window(n, is_known_zone, diags)),
        exceptions: fields
            .get("exceptions")
            .map(|n| decode_exceptions(n, path, positions, diags))
            .unwrap_or_default(),
    };
    Some(cluster)
}

/// Whether `text` reads like a `/version` gitVersion: `v`, then major.minor.patch, then
/// anything (`v1.32.3-gke.1200`).
fn is_kubernetes_version(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('v') else {
        return false;
    };
    let numbers: Vec<&str> = rest.splitn(3, '.').collect();
    match numbers.as_slice() {
        [major, minor, patch] => {
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            let patch_digits: String = patch.chars().take_while(char::is_ascii_digit).collect();
            digits(major) && digits(minor) && !patch_digits.is_empty()
        }
        _ => false,
    }
}

/// Whether `text` is a UID as Kubernetes writes one: 8-4-4-4-12 hexadecimal digits.
fn is_uid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, len)| g.len() == len && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn decode_job_contexts(node: &Node, diags: &mut Diagnostics) -> Option<JobContexts> {
    let fields = Fields::of(node, "jobContexts", diags)?;
    fields.reject_unknown(JOB_CONTEXT_FIELDS, diags);
    let context = |name: &str, diags: &mut Diagnostics| {
        fields
            .optional_string(name, diags)
            .filter(|c| !c.trim().is_empty())
    };
    Some(JobContexts {
        maintenance: context("maintenance", diags),
        release: context("release", diags),
    })
}

fn decode_identity(node: &Node, diags: &mut Diagnostics) -> Option<Identity> {
    let fields = Fields::of(node, "identity", diags)?;
    fields.reject_unknown(IDENTITY_FIELDS, diags);
    // A blank UID would compare equal to a cluster that reports none; anything but a
    // UID is a paste gone wrong and could never match.
    let uid = fields.non_empty_checked("kubeSystemUID", diags, |text| {
        if is_uid(text) {
            Ok(())
        } else {
            Err((
                "is not a UID (8-4-4-4-12 hexadecimal digits, as `kubectl get ns kube-system -o jsonpath='{.metadata.uid}'` prints it)".into(),
                Msg::new("validate-not-uid"),
            ))
        }
    });
    let server = fields.non_empty("server", diags);
    if let (Some(node), Some(server)) = (fields.get("server"), &server)
        && !(server.starts_with("https://") || server.starts_with("http://"))
    {
        diags.error_said(
            node.pos,
            format!("identity.server must be an http(s) URL, found \"{server}\""),
            Msg::new("validate-server-url").arg("server", server),
        );
    }
    Some(Identity {
        kube_system_uid: uid?,
        server: server?,
    })
}

fn decode_network(
    node: &Node,
    path: &str,
    positions: &mut Positions,
    diags: &mut Diagnostics,
) -> Option<Network> {
    let fields = Fields::of(node, "network", diags)?;
    fields.reject_unknown(NETWORK_FIELDS, diags);
    let mut cidr = |name: &str| -> Option<IpNet> {
        let node = fields.get(name)?;
        positions.record(format!("{path}.network.{name}"), node.pos);
        let text = string(node, name, diags)?;
        parse_cidr(&text, name, node.pos, diags)
    };
    Some(Network {
        pod_cidr: cidr("podCIDR"),
        service_cidr: cidr("serviceCIDR"),
    })
}

/// A CIDR must be a network address: host bits set usually mean a typo.
fn parse_cidr(text: &str, field: &str, pos: Pos, diags: &mut Diagnostics) -> Option<IpNet> {
    match IpNet::from_str(text.trim()) {
        Ok(net) if net.addr() != net.network() => {
            let network = format!("{}/{}", net.network(), net.prefix_len());
            diags.error_said(
                pos,
                format!("{field} {text} has host bits set (did you mean {network}?)"),
                Msg::new("validate-host-bits")
                    .arg("field", field)
                    .arg("text", text)
                    .arg("network", network),
            );
            None
        }
        Ok(net) => Some(net),
        Err(_) => {
            diags.error_said(
                pos,
                format!(
                    "{field} \"{text}\" is not a CIDR (expected e.g. 10.32.0.0/14 or fd00::/48)"
                ),
                Msg::new("validate-not-cidr")
                    .arg("field", field)
                    .arg("text", text),
            );
            None
        }
    }
}

fn decode_backup(
    node: &Node,
    path: &str,
    positions: &mut Positions,
    diags: &mut Diagnostics,
) -> Option<Backup> {
    let fields = Fields::of(node, "backup", diags)?;
    fields.reject_unknown(BACKUP_FIELDS, diags);
    for name in BACKUP_FIELDS {
        if let Some(n) = fields.get(name) {
            positions.record(format!("{path}.backup.{name}"), n.pos);
        }
    }
    let last_success = fields.get("lastSuccess").and_then(|n| {
        let text = string(n, "lastSuccess", diags)?;
        parse_timestamp(&text, "backup.lastSuccess", n.pos, diags)
    });
    let last_restore_drill = fields.get("lastRestoreDrill").and_then(|n| {
        let text = string(n, "lastRestoreDrill", diags)?;
        parse_date(&text, "backup.lastRestoreDrill", n.pos, diags)
    });
    // A zero objective would make every backup late and every restore too slow: it is
    // a typo, not a policy.
    let positive = |name: &str, diags: &mut Diagnostics| -> Option<Duration> {
        let n = fields.get(name)?;
        let text = string(n, name, diags)?;
        match parse_duration(&text) {
            Ok(d) if d.as_secs() == 0 => {
                diags.error_said(
                    n.pos,
                    format!("backup.{name} must be longer than zero"),
                    Msg::new("validate-backup-zero").arg("name", name),
                );
                None
            }
            Ok(d) => Some(d),
            Err(e) => {
                diags.error_said(
                    n.pos,
                    format!("backup.{name}: {e}"),
                    Msg::new("validate-field-duration")
                        .arg("field", format!("backup.{name}"))
                        .arg("error", e.msg()),
                );
                None
            }
        }
    };
    let last_restore_drill_duration = positive("lastRestoreDrillDuration", diags);
    let rpo = positive("rpo", diags);
    let rto = positive("rto", diags);
    if let (Some(n), None) = (fields.get("lastRestoreDrillDuration"), &last_restore_drill)
        && last_restore_drill_duration.is_some()
    {
        diags.warning_said(
            n.pos,
            "backup.lastRestoreDrillDuration without lastRestoreDrill: the drill it measures has no date",
            Msg::new("validate-drill-without-date"),
        );
    }
    Some(Backup {
        location: fields.optional_string("location", diags),
        last_success,
        last_restore_drill,
        last_restore_drill_duration,
        rpo,
        rto,
    })
}

/// Accepts an RFC 3339 timestamp or a plain date (taken as midnight UTC).
fn parse_timestamp(
    text: &str,
    field: &str,
    pos: Pos,
    diags: &mut Diagnostics,
) -> Option<Timestamp> {
    if let Ok(ts) = Timestamp::from_str(text.trim()) {
        return Some(ts);
    }
    if let Ok(date) = Date::from_str(text.trim())
        && let Ok(zoned) = date.to_zoned(jiff::tz::TimeZone::UTC)
    {
        return Some(zoned.timestamp());
    }
    diags.error_said(
        pos,
        format!("{field} \"{text}\" is not a date or time (expected e.g. 2026-11-28T02:00:00Z)"),
        Msg::new("validate-not-timestamp")
            .arg("field", field)
            .arg("text", text),
    );
    None
}

pub(super) fn parse_date(
    text: &str,
    field: &str,
    pos: Pos,
    diags: &mut Diagnostics,
) -> Option<Date> {
    match Date::from_str(text.trim()) {
        Ok(date) if text.trim().len() == 10 => Some(date),
        _ => {
            diags.error_said(
                pos,
                format!("{field} \"{text}\" is not a date (expected YYYY-MM-DD, e.g. 2026-12-31)"),
                Msg::new("validate-not-date")
                    .arg("field", field)
                    .arg("text", text),
            );
            None
        }
    }
}

fn decode_window(
    node: &Node,
    is_known_zone: &dyn Fn(&str) -> bool,
    diags: &mut Diagnostics,
) -> Option<MaintenanceWindow> {
    let fields = Fields::of(node, "maintenanceWindow", diags)?;
    fields.reject_unknown(WINDOW_FIELDS, diags);
    let days = fields.required("days", diags).map(|n| {
        string_list(n, "maintenanceWindow.days", diags)
            .into_iter()
            .filter_map(|(day, pos)| {
                let parsed = Weekday::parse(&day);
                if parsed.is_none() {
                    let (en, msg) = one_of("maintenanceWindow.days", &day, &Weekday::NAMES);
                    diags.error_said(pos, en, msg);
                }
                parsed
            })
            .collect::<Vec<_>>()
    });
    if let (Some(n), Some(days)) = (fields.get("days"), &days)
        && days.is_empty()
        && matches!(&n.value, Value::Seq(items) if items.is_empty())
    {
        diags.error_said(
            n.pos,
            "maintenanceWindow.days must name at least one day",
            Msg::new("validate-window-no-days"),
        );
    }
    let start = fields.required("start", diags).and_then(|n| {
        let text = string(n, "maintenanceWindow.start", diags)?;
        let parsed = Time::strptime("%H:%M", text.trim()).ok();
        if parsed.is_none() {
            diags.error_said(
                n.pos,
                format!("maintenanceWindow.start \"{text}\" is not a time of day (expected HH:MM, e.g. 02:00)"),
                Msg::new("validate-window-start").arg("text", &text),
            );
        }
        parsed
    });
    let duration = fields.required("duration", diags).and_then(|n| {
        let text = string(n, "maintenanceWindow.duration", diags)?;
        match parse_duration(&text) {
            Ok(d) if d.as_secs() == 0 => {
                diags.error_said(
                    n.pos,
                    "maintenanceWindow.duration must be longer than zero",
                    Msg::new("validate-window-zero"),
                );
                None
            }
            Ok(d) if d.as_secs() > 7 * 86_400 => {
                diags.error_said(
                    n.pos,
                    format!("maintenanceWindow.duration {text} is longer than a week"),
                    Msg::new("validate-window-week").arg("text", &text),
                );
                None
            }
            Ok(d) => Some(d),
            Err(e) => {
                diags.error_said(
                    n.pos,
                    format!("maintenanceWindow.duration: {e}"),
                    Msg::new("validate-field-duration")
                        .arg("field", "maintenanceWindow.duration")
                        .arg("error", e.msg()),
                );
                None
            }
        }
    });
    let timezone = fields.required("timezone", diags).and_then(|n| {
        let text = string(n, "maintenanceWindow.timezone", diags)?;
        if !is_known_zone(&text) {
            diags.error_said(
                n.pos,
                format!("maintenanceWindow.timezone \"{text}\" is not a known time zone (e.g. UTC, Europe/Berlin)"),
                Msg::new("validate-window-zone").arg("text", &text),
            );
            return None;
        }
        Some(text)
    });
    Some(MaintenanceWindow {
        days: days?,
        start: start?,
        duration: duration?,
        timezone: timezone?,
    })
}

fn decode_exceptions(
    node: &Node,
    path: &str,
    positions: &mut Positions,
    diags: &mut Diagnostics,
) -> Vec<Exception> {
    let Value::Seq(items) = &node.value else {
        diags.error_said(
            node.pos,
            format!(
                "field `exceptions` must be a list, found {}",
                node.shape_name()
            ),
            Msg::new("validate-must-be-list")
                .arg("field", "exceptions")
                .arg("found", node.shape_msg()),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let Some(fields) = Fields::of(item, "exception", diags) else {
            continue;
        };
        fields.reject_unknown(EXCEPTION_FIELDS, diags);
        let expires_node = fields.required("expires", diags);
        let expires = expires_node.and_then(|n| {
            let text = string(n, "expires", diags)?;
            parse_date(&text, "exception.expires", n.pos, diags)
        });
        // Read every field before combining, so that each missing one is reported.
        let what = fields.required_string("what", diags);
        let reason = fields.required_string("reason", diags);
        let owner = fields.required_string("owner", diags);
        let exit_criteria = fields.required_string("exitCriteria", diags);
        if let (
            Some(what),
            Some(reason),
            Some(owner),
            Some(exit_criteria),
            Some(expires),
            Some(n),
        ) = (what, reason, owner, exit_criteria, expires, expires_node)
        {
            positions.record(format!("{path}.exceptions.{}.expires", out.len()), n.pos);
            positions.record(format!("{path}.exceptions.{}", out.len()), item.pos);
            out.push(Exception {
                what,
                reason,
                owner,
                exit_criteria,
                expires,
            });
        }
    }
    out
}

/// "field X "v" is not one of a, b, c (did you mean b?)".
fn one_of(field: &str, value: &str, allowed: &[&str]) -> (String, crate::i18n::Msg) {
    let near = suggest(value, allowed.iter().copied());
    let hint = near.map(|s| format!(" (did you mean \"{s}\"?)"));
    let id = match near {
        Some(_) => "validate-not-one-of-near",
        None => "validate-not-one-of",
    };
    let names = allowed.join(", ");
    (
        format!(
            "{field} \"{value}\" is not one of {names}{}",
            hint.unwrap_or_default()
        ),
        crate::i18n::Msg::new(id)
            .arg("field", field)
            .arg("found", value)
            .arg("names", names)
            .arg("near", near.unwrap_or_default()),
    )
}
