//! Every ledger rule, checked for its message and its position.

use jiff::civil::date;

use super::{LedgerContext, read_ledger};

/// A small valid ledger; tests replace pieces of it.
pub(super) const BASE: &str = r#"apiVersion: fleetdeck.dev/v1
kind: Ledger
labelDictionary:
  env: [production, staging]
  tier: [critical, standard]
  compliance: [pci, none]
clusters:
  - id: eu-prod-01
    context: eu-prod-01
    identity:
      kubeSystemUID: 11111111-1111-1111-1111-111111111111
      server: https://eu-prod-01:6443
    env: production
    region: eu-central
    failureDomain: eu-fra-1
    tier: critical
    owner: team-a
    lifecycle: running
    labels:
      compliance: pci
    network:
      podCIDR: 10.0.0.0/16
      serviceCIDR: 172.20.0.0/20
    backup:
      lastSuccess: 2026-11-28T02:00:00Z
      lastRestoreDrill: 2026-10-01
    maintenanceWindow:
      days: [Sat, Sun]
      start: "02:00"
      duration: 4h
      timezone: UTC
    exceptions:
      - what: old kernel
        reason: vendor driver
        owner: team-a
        exitCriteria: driver 2.0
        expires: 2027-06-30
  - id: eu-stg-01
    context: eu-stg-01
    identity:
      kubeSystemUID: 22222222-2222-2222-2222-222222222222
      server: https://eu-stg-01:6443
    env: staging
    region: eu-central
    failureDomain: eu-fra-2
    tier: standard
    owner: team-b
    lifecycle: running
    network:
      podCIDR: 10.1.0.0/16
      serviceCIDR: 172.20.16.0/20
"#;

pub(super) fn known_zone(name: &str) -> bool {
    matches!(name, "UTC" | "Europe/Berlin")
}

/// Diagnostics rendered as `ledger.yaml:L:C: message`.
pub(super) fn check(text: &str) -> Vec<String> {
    let report = read_ledger(
        text,
        &LedgerContext {
            today: date(2026, 11, 29),
            is_known_zone: &known_zone,
        },
    );
    report
        .diagnostics
        .iter()
        .map(|d| d.render("ledger.yaml"))
        .collect()
}

fn with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "fixture lacks {from:?}");
    BASE.replacen(from, to, 1)
}

#[test]
fn base_ledger_is_clean_and_usable() {
    assert_eq!(check(BASE), Vec::<String>::new());
    let report = read_ledger(
        BASE,
        &LedgerContext {
            today: date(2026, 11, 29),
            is_known_zone: &known_zone,
        },
    );
    let ledger = report.ledger.expect("usable");
    assert_eq!(ledger.clusters.len(), 2);
    assert_eq!(ledger.clusters[0].display_name, "eu-prod-01");
    assert_eq!(ledger.clusters[0].exceptions[0].owner, "team-a");
}

#[test]
fn duplicate_id_names_the_first_definition() {
    let text = with(
        "  - id: eu-stg-01\n    context: eu-stg-01",
        "  - id: eu-prod-01\n    context: eu-stg-01",
    );
    assert_eq!(
        check(&text),
        vec!["ledger.yaml:38:9: duplicate cluster id \"eu-prod-01\" (first defined at 8:9)"]
    );
}

#[test]
fn errors_make_the_ledger_unusable_but_warnings_do_not() {
    let text = with(
        "- id: eu-stg-01\n    context: eu-stg-01",
        "- id: eu-prod-01\n    context: eu-stg-01",
    );
    let ctx = LedgerContext {
        today: date(2026, 11, 29),
        is_known_zone: &known_zone,
    };
    assert!(read_ledger(&text, &ctx).ledger.is_none());
    let soon = with("expires: 2027-06-30", "expires: 2026-12-05");
    let report = read_ledger(&soon, &ctx);
    assert_eq!(report.diagnostics.len(), 1);
    assert!(report.ledger.is_some());
}

#[test]
fn unknown_fields_suggest_the_closest() {
    assert_eq!(
        check(&with("    owner: team-a\n", "    ownr: team-a\n")),
        vec![
            "ledger.yaml:8:5: cluster \"eu-prod-01\" is production but has no owner",
            "ledger.yaml:17:5: unknown field `ownr` in cluster (did you mean `owner`?)",
        ]
    );
    assert_eq!(
        check(&with(
            "      podCIDR: 10.0.0.0/16",
            "      podCidr: 10.0.0.0/16"
        )),
        vec!["ledger.yaml:22:7: unknown field `podCidr` in network (did you mean `podCIDR`?)"]
    );
}

#[test]
fn values_outside_the_dictionary() {
    assert_eq!(
        check(&with("    env: staging", "    env: stagng")),
        vec![
            "ledger.yaml:43:10: env \"stagng\" is not in the labelDictionary (allowed: production, staging) (did you mean \"staging\"?)"
        ]
    );
    assert_eq!(
        check(&with("      compliance: pci", "      compliance: hipaa")),
        vec![
            "ledger.yaml:20:19: compliance \"hipaa\" is not in the labelDictionary (allowed: pci, none)"
        ]
    );
    assert_eq!(
        check(&with("      compliance: pci", "      complience: pci")),
        vec![
            "ledger.yaml:20:19: label `complience` is not declared in the labelDictionary (did you mean `compliance`?)"
        ]
    );
}

#[test]
fn malformed_cidrs() {
    assert_eq!(
        check(&with("podCIDR: 10.0.0.0/16", "podCIDR: 10.0.0.0/33")),
        vec![
            "ledger.yaml:22:16: podCIDR \"10.0.0.0/33\" is not a CIDR (expected e.g. 10.32.0.0/14 or fd00::/48)"
        ]
    );
    assert_eq!(
        check(&with("podCIDR: 10.0.0.0/16", "podCIDR: 10.0.3.0/16")),
        vec![
            "ledger.yaml:22:16: podCIDR 10.0.3.0/16 has host bits set (did you mean 10.0.0.0/16?)"
        ]
    );
}

#[test]
fn overlapping_cidrs_between_clusters_and_within_one() {
    assert_eq!(
        check(&with("podCIDR: 10.1.0.0/16", "podCIDR: 10.0.128.0/17")),
        vec![
            "ledger.yaml:50:16: podCIDR 10.0.128.0/17 overlaps podCIDR 10.0.0.0/16 of cluster \"eu-prod-01\" (at 22:16)"
        ]
    );
    assert_eq!(
        check(&with(
            "serviceCIDR: 172.20.16.0/20",
            "serviceCIDR: 172.20.0.0/24"
        )),
        vec![
            "ledger.yaml:51:20: serviceCIDR 172.20.0.0/24 overlaps serviceCIDR 172.20.0.0/20 of cluster \"eu-prod-01\" (at 23:20)"
        ]
    );
    assert_eq!(
        check(&with(
            "serviceCIDR: 172.20.0.0/20",
            "serviceCIDR: 10.0.16.0/20"
        )),
        vec![
            "ledger.yaml:23:20: serviceCIDR 10.0.16.0/20 overlaps this cluster's own podCIDR 10.0.0.0/16"
        ]
    );
}

#[test]
fn malformed_dates_durations_and_windows() {
    assert_eq!(
        check(&with(
            "lastRestoreDrill: 2026-10-01",
            "lastRestoreDrill: 2026-13-01"
        )),
        vec![
            "ledger.yaml:26:25: backup.lastRestoreDrill \"2026-13-01\" is not a date (expected YYYY-MM-DD, e.g. 2026-12-31)"
        ]
    );
    assert_eq!(
        check(&with(
            "lastSuccess: 2026-11-28T02:00:00Z",
            "lastSuccess: yesterday"
        )),
        vec![
            "ledger.yaml:25:20: backup.lastSuccess \"yesterday\" is not a date or time (expected e.g. 2026-11-28T02:00:00Z)"
        ]
    );
    assert_eq!(
        check(&with("duration: 4h", "duration: 4 hours")),
        vec![
            "ledger.yaml:30:17: maintenanceWindow.duration: malformed duration \"4 hours\": expected a number followed by d, h, m or s, e.g. 1h30m"
        ]
    );
    assert_eq!(
        check(&with("start: \"02:00\"", "start: \"25:00\"")),
        vec![
            "ledger.yaml:29:14: maintenanceWindow.start \"25:00\" is not a time of day (expected HH:MM, e.g. 02:00)"
        ]
    );
    assert_eq!(
        check(&with("days: [Sat, Sun]", "days: [Sat, Sunday]")),
        vec![
            "ledger.yaml:28:19: maintenanceWindow.days \"Sunday\" is not one of Mon, Tue, Wed, Thu, Fri, Sat, Sun (did you mean \"Sun\"?)"
        ]
    );
    assert_eq!(
        check(&with("timezone: UTC", "timezone: Mars/Olympus")),
        vec![
            "ledger.yaml:31:17: maintenanceWindow.timezone \"Mars/Olympus\" is not a known time zone (e.g. UTC, Europe/Berlin)"
        ]
    );
    assert_eq!(
        check(&with("expires: 2027-06-30", "expires: 30/06/2027")),
        vec![
            "ledger.yaml:37:18: exception.expires \"30/06/2027\" is not a date (expected YYYY-MM-DD, e.g. 2026-12-31)"
        ]
    );
}

#[test]
fn exception_expiry() {
    assert_eq!(
        check(&with("expires: 2027-06-30", "expires: 2026-11-01")),
        vec![
            "ledger.yaml:37:18: exception \"old kernel\" expired on 2026-11-01 (28 days ago); renew it with a new date or remove it (owner: team-a)"
        ]
    );
    assert_eq!(
        check(&with("expires: 2027-06-30", "expires: 2026-12-13")),
        vec![
            "ledger.yaml:37:18: warning: exception \"old kernel\" expires on 2026-12-13 (in 14 days; owner: team-a)"
        ]
    );
    assert_eq!(
        check(&with("expires: 2027-06-30", "expires: 2026-12-14")),
        Vec::<String>::new()
    );
}

#[test]
fn production_or_critical_needs_an_owner() {
    assert_eq!(
        check(&with("    owner: team-a\n", "")),
        vec!["ledger.yaml:8:5: cluster \"eu-prod-01\" is production but has no owner"]
    );
    let critical_staging = with(
        "    tier: standard\n    owner: team-b\n",
        "    tier: critical\n",
    );
    assert_eq!(
        check(&critical_staging),
        vec!["ledger.yaml:38:5: cluster \"eu-stg-01\" is critical but has no owner"]
    );
}

#[test]
fn missing_required_fields_and_bad_enums() {
    assert_eq!(
        check(&with(
            "    region: eu-central\n    failureDomain: eu-fra-2\n",
            ""
        )),
        vec![
            "ledger.yaml:38:5: cluster is missing required field `failureDomain`",
            "ledger.yaml:38:5: cluster is missing required field `region`",
        ]
    );
    assert_eq!(
        check(&with(
            "lifecycle: running\n    labels",
            "lifecycle: runing\n    labels"
        )),
        vec![
            "ledger.yaml:18:16: lifecycle \"runing\" is not one of building, running, retiring (did you mean \"running\"?)"
        ]
    );
}

#[test]
fn header_and_syntax_errors() {
    assert_eq!(
        check(&with(
            "apiVersion: fleetdeck.dev/v1",
            "apiVersion: fleetdeck.dev/v2"
        )),
        vec![
            "ledger.yaml:1:13: apiVersion must be \"fleetdeck.dev/v1\", found \"fleetdeck.dev/v2\""
        ]
    );
    let broken = with("    env: staging", "    env: [staging");
    let out = check(&broken);
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("ledger.yaml:4"), "{out:?}");
    assert!(out[0].contains("YAML syntax error"), "{out:?}");
    assert_eq!(check(""), vec!["ledger.yaml:1:1: the file is empty"]);
    assert_eq!(
        check("- a\n- b\n"),
        vec!["ledger.yaml:1:1: ledger must be a mapping, found a list"]
    );
}

#[test]
fn shared_context_and_identity_are_refused() {
    let text = with("    context: eu-stg-01", "    context: eu-prod-01");
    assert_eq!(
        check(&text),
        vec![
            "ledger.yaml:39:14: context \"eu-prod-01\" is already used by cluster \"eu-prod-01\" (at 9:14)"
        ]
    );
}

#[test]
fn every_problem_is_reported_sorted_by_position() {
    let text = with("    env: staging", "    env: stagng")
        .replacen("podCIDR: 10.0.0.0/16", "podCIDR: bogus", 1)
        .replacen("ownr", "owner", 1)
        .replacen("kind: Ledger", "kind: Ledgr", 1);
    let out = check(&text);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].starts_with("ledger.yaml:2:7:"));
    assert!(out[1].starts_with("ledger.yaml:22:16:"));
    assert!(out[2].starts_with("ledger.yaml:43:10:"));
}

#[test]
fn a_blank_pinned_uid_is_refused() {
    let text = with(
        "kubeSystemUID: 11111111-1111-1111-1111-111111111111",
        "kubeSystemUID: \"\"",
    );
    let found = check(&text);
    assert!(
        found.contains(&"ledger.yaml:11:22: field `kubeSystemUID` must not be empty".to_string()),
        "{found:?}"
    );
}

#[test]
fn a_pinned_uid_that_is_not_a_uid_is_refused() {
    let text = with(
        "kubeSystemUID: 11111111-1111-1111-1111-111111111111",
        "kubeSystemUID: not-a-uid",
    );
    let found = check(&text);
    assert!(
        found.iter().any(|f| f.starts_with(
            "ledger.yaml:11:22: field `kubeSystemUID` \"not-a-uid\" is not a UID (8-4-4-4-12 hexadecimal digits"
        )),
        "{found:?}"
    );
}

#[test]
fn a_kubernetes_version_not_written_as_the_api_server_reports_it_is_refused() {
    let pinned = |version: &str| {
        with(
            "    lifecycle: running\n    labels:",
            &format!(
                "    lifecycle: running\n    versions:\n      kubernetes: \"{version}\"\n    labels:"
            ),
        )
    };
    for bad in ["1.32", "v1.32", "latest"] {
        let found = check(&pinned(bad));
        assert!(
            found.iter().any(|f| f.contains(&format!(
                "versions.kubernetes \"{bad}\" is not written as the API server reports it"
            ))),
            "{bad}: {found:?}"
        );
    }
    let good = check(&pinned("v1.32.3-gke.1200"));
    assert!(good.is_empty(), "{good:?}");
}

#[test]
fn a_file_of_another_kind_is_told_so_and_nothing_else() {
    let out = check(include_str!("../../../examples/maintenance.yaml"));
    assert_eq!(
        out,
        vec![
            "ledger.yaml:4:7: kind must be \"Ledger\", found \"Maintenance\"; nothing else in the file was checked"
        ]
    );
}

/// Diagnostics rendered in `lang`.
fn check_in(text: &str, lang: crate::i18n::Lang) -> Vec<String> {
    let report = read_ledger(
        text,
        &LedgerContext {
            today: date(2026, 11, 29),
            is_known_zone: &known_zone,
        },
    );
    report
        .diagnostics
        .iter()
        .map(|d| d.render_in("ledger.yaml", lang))
        .collect()
}

/// Broken ledgers covering the diagnostics of formats, networks, backups, windows,
/// owners and YAML syntax.
fn broken() -> Vec<String> {
    vec![
        with("podCIDR: 10.1.0.0/16", "podCIDR: 10.0.128.0/17"),
        with("serviceCIDR: 172.20.0.0/20", "serviceCIDR: 10.0.16.0/20"),
        with("podCIDR: 10.0.0.0/16", "podCIDR: 10.0.0.0/33"),
        with("podCIDR: 10.0.0.0/16", "podCIDR: 10.0.3.0/16"),
        with(
            "lastRestoreDrill: 2026-10-01",
            "lastRestoreDrill: 2026-13-01",
        ),
        with(
            "lastSuccess: 2026-11-28T02:00:00Z",
            "lastSuccess: yesterday\n      rpo: 0s\n      rto: 4 hours",
        ),
        with(
            "lastRestoreDrill: 2026-10-01",
            "lastRestoreDrillDuration: 1h",
        ),
        with("duration: 4h", "duration: 4 hours"),
        with("duration: 4h", "duration: 9d"),
        with("duration: 4h", "duration: 0s"),
        with("days: [Sat, Sun]", "days: []"),
        with("start: \"02:00\"", "start: \"25:00\""),
        with("timezone: UTC", "timezone: Mars/Olympus"),
        with("    owner: team-a\n", "    compliance: pci\n"),
        with(
            "apiVersion: fleetdeck.dev/v1",
            "apiVersion: fleetdeck.dev/v0",
        ),
        with("server: https://eu-prod-01:6443", "server: eu-prod-01:6443"),
        with("  compliance: [pci, none]", "  compliance: [pci, pci]"),
        with("      compliance: pci\n", "      complianc: pci\n"),
        with("clusters:", "clusters: {a: [b}\n"),
        with("clusters:", "clusters: *nowhere\n"),
        with(
            "kubeSystemUID: 11111111-1111-1111-1111-111111111111",
            "kubeSystemUID: from-kubectl",
        ),
    ]
}

#[test]
fn every_diagnostic_of_these_files_has_its_message_and_its_english_is_unchanged() {
    use crate::i18n::Lang;
    for text in broken() {
        let report = read_ledger(
            &text,
            &LedgerContext {
                today: date(2026, 11, 29),
                is_known_zone: &known_zone,
            },
        );
        assert!(!report.diagnostics.is_empty(), "nothing found in {text}");
        for d in &report.diagnostics {
            let Some(says) = &d.says else {
                panic!("no message for {:?}", d.message);
            };
            // Not for the YAML parser's own words, which only it knows.
            if says.id != "validate-yaml-syntax" {
                assert_eq!(says.text(Lang::En), d.message, "{}", says.id);
            }
            assert_ne!(d.message_in(Lang::ZhCn), d.message);
        }
    }
}

#[test]
fn overlaps_windows_and_syntax_errors_in_chinese_keep_their_positions() {
    use crate::i18n::Lang;
    let zh = |from: &str, to: &str| check_in(&with(from, to), Lang::ZhCn);
    assert_eq!(
        zh("podCIDR: 10.1.0.0/16", "podCIDR: 10.0.128.0/17"),
        vec![
            "ledger.yaml:50:16: podCIDR 10.0.128.0/17 与集群“eu-prod-01”的 podCIDR 10.0.0.0/16 重叠（位于 22:16）"
        ]
    );
    assert_eq!(
        zh("serviceCIDR: 172.20.0.0/20", "serviceCIDR: 10.0.16.0/20"),
        vec!["ledger.yaml:23:20: serviceCIDR 10.0.16.0/20 与本集群自己的 podCIDR 10.0.0.0/16 重叠"]
    );
    assert_eq!(
        zh("podCIDR: 10.0.0.0/16", "podCIDR: 10.0.3.0/16"),
        vec!["ledger.yaml:22:16: podCIDR 10.0.3.0/16 设置了主机位（是否想写 10.0.0.0/16？）"]
    );
    assert_eq!(
        zh("duration: 4h", "duration: 4 hours"),
        vec![
            "ledger.yaml:30:17: maintenanceWindow.duration：时长“4 hours”格式错误：应为数字加 d、h、m 或 s，例如 1h30m"
        ]
    );
    assert_eq!(
        zh("timezone: UTC", "timezone: Mars/Olympus"),
        vec![
            "ledger.yaml:31:17: maintenanceWindow.timezone“Mars/Olympus”不是已知时区（例如 UTC、Europe/Berlin）"
        ]
    );
    let syntax = zh("clusters:", "clusters: {a: [b}\n");
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert!(
        syntax[0].starts_with("ledger.yaml:7:") && syntax[0].contains(": YAML 语法错误："),
        "{syntax:?}"
    );
    // English is the model's own text, unchanged.
    assert_eq!(
        check_in(
            &with("podCIDR: 10.1.0.0/16", "podCIDR: 10.0.128.0/17"),
            Lang::En
        ),
        check(&with("podCIDR: 10.1.0.0/16", "podCIDR: 10.0.128.0/17"))
    );
}

#[test]
fn job_contexts_are_read_and_each_job_finds_its_context() {
    let text = with(
        "    context: eu-prod-01\n",
        "    context: eu-prod-01\n    jobContexts:\n      maintenance: eu-prod-01-maint\n",
    );
    assert_eq!(check(&text), Vec::<String>::new());
    let ledger = read_ledger(
        &text,
        &LedgerContext {
            today: date(2026, 11, 29),
            is_known_zone: &known_zone,
        },
    )
    .ledger
    .expect("usable");
    let prod = &ledger.clusters[0];
    use super::Job;
    assert_eq!(prod.context_for(Job::Read), "eu-prod-01");
    assert_eq!(prod.context_for(Job::Maintenance), "eu-prod-01-maint");
    assert_eq!(
        prod.context_for(Job::Release),
        "eu-prod-01",
        "none of its own"
    );
    assert_eq!(
        check(&with(
            "    context: eu-prod-01\n",
            "    context: eu-prod-01\n    jobContexts:\n      maintenence: x\n",
        )),
        vec![
            "ledger.yaml:11:7: unknown field `maintenence` in jobContexts (did you mean `maintenance`?)"
        ]
    );
}
