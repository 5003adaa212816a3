use super::*;

fn messages(text: &str) -> Vec<String> {
    read_rollout(text)
        .diagnostics
        .iter()
        .map(|d| d.render("r.yaml"))
        .collect()
}

const GOOD: &str = "\
apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: r1
  bundle: {cni: cilium-1.17.2}
  action:
    exec: {argv: [helm, upgrade], timeout: 10m}
  checks:
    - nodesReady: {minRatio: 0.9}
    - workloadsReady: {selector: app=web}
    - prometheus: {query: up, threshold: 1, comparison: atLeast}
targets: env=production
stages:
  - {name: canary, count: 1, batchSize: 1, soak: 1h, approval: required, pick: representative}
  - {name: wave, percent: 50, batchSize: 5, approval: auto}
  - {name: rest, batchSize: 10}
budgets: {maxInFlight: 10, perRegion: 2}
stopWhen:
  failedClusters: 5%
  sloBurnRate: {objective: 99.9, window: 1h, maxBurn: 14.4}
approvals: {distinctApprover: true}
";

#[test]
fn the_examples_read_without_errors() {
    for text in [
        include_str!("../../../examples/rollout.yaml"),
        include_str!("../../../examples/rollout-300.yaml"),
    ] {
        let report = read_rollout(text);
        assert!(report.spec.is_some(), "{:?}", report.diagnostics);
    }
}

#[test]
fn a_full_file_reads_into_typed_data() {
    let report = read_rollout(GOOD);
    let spec = report.spec.expect("valid");
    assert_eq!(spec.stages.len(), 3);
    assert_eq!(spec.stages[0].pick, Pick::Representative);
    assert_eq!(spec.stages[1].size, StageSize::Percent(50.0));
    assert_eq!(spec.stages[1].pick, Pick::Ordered);
    assert_eq!(spec.stages[2].size, StageSize::Rest);
    assert_eq!(
        spec.stages[2].approval,
        Approval::Required,
        "silence means a person decides"
    );
    assert_eq!(spec.budgets.per_region, Some(2));
    assert_eq!(spec.stop_when.failed_clusters, FailedLimit::Percent(5.0));
    assert_eq!(spec.stop_when.unknown_metrics, UnknownMetrics::Stop);
    let burn = spec.stop_when.slo_burn_rate.expect("burn");
    assert!((burn.objective - 0.999).abs() < 1e-12);
    assert_eq!(spec.approvals, ApprovalPolicy::DistinctFromAuthor);
    assert_eq!(
        spec.release.checks[1],
        Check::WorkloadsReady(WorkloadScope::Selector("app=web".into()))
    );
}

#[test]
fn every_problem_is_reported_at_once_with_positions_and_suggestions() {
    let text = "\
apiVersion: fleetdeck.dev/v1
kind: Rolout
release:
  name: r1
  bundel: {}
  action: {apply: {directory: m}, exec: {argv: [x], timeout: 1m}}
targets: env in (a
stages:
  - {name: a, batchSize: 0, pick: representitive}
  - {name: a, count: 2, percent: 3, batchSize: 1}
budgets: {maxInFlight: x}
stopWhen:
  sloBurnRate: {objective: 100, window: 1h, maxBurn: 0}
  unknownMetrics: maybe
";
    let out = messages(text);
    let expect = [
        "r.yaml:2:7: kind must be \"Rollout\", found \"Rolout\"",
        "r.yaml:4:3: release is missing required field `bundle`",
        "r.yaml:5:3: unknown field `bundel` in release (did you mean `bundle`?)",
        "r.yaml:6:41: action takes either `apply` or `exec`, not both",
        "r.yaml:7:10: invalid selector \"env in (a\": unbalanced '('",
        "r.yaml:9:5: stage needs `count` or `percent` (only the last stage may leave it out and take the rest)",
        "r.yaml:9:26: field `batchSize` must be at least 1",
        "r.yaml:9:35: field `pick` must be one of representative, ordered, lowestTierFirst, found \"representitive\" (did you mean \"representative\"?)",
        "r.yaml:10:34: a stage takes either `count` or `percent`, not both",
        "r.yaml:11:24: field `maxInFlight` must be a whole number, found \"x\"",
        "r.yaml:13:28: field `objective` must be below 100%: a 100% objective has no error budget",
        "r.yaml:13:54: field `maxBurn` must be above 0",
        "r.yaml:14:19: field `unknownMetrics` must be one of stop, ignore, found \"maybe\"",
    ];
    for e in expect {
        assert!(out.iter().any(|m| m == e), "missing {e:?} in {out:#?}");
    }
}

#[test]
fn every_problem_of_a_rollout_file_says_its_english_as_a_message_and_in_chinese() {
    use crate::i18n::Lang;
    let text = "\
apiVersion: fleetdeck.dev/v1
kind: Rollout
release:
  name: Bad_Name
  bundle: {}
  action: {apply: {directory: m}, exec: {argv: [x], timeout: 1m}}
  checks:
    - {nodesReady: {minRatio: 2}, exec: {argv: [], timeout: 0s}}
    - {workloadsReady: {namespace: a, selector: b}}
    - {}
targets: env in (a
stages:
  - {name: a, batchSize: 0}
  - {name: a, count: 2, percent: 3, batchSize: 1}
budgets: {maxInFlight: 1}
stopWhen:
  sloBurnRate: {objective: 100, window: 1h, maxBurn: 0, shortMaxBurn: 0, query: q}
  unknownMetrics: ignore
";
    let report = read_rollout(text);
    assert!(report.diagnostics.len() >= 12, "{:#?}", report.diagnostics);
    for d in &report.diagnostics {
        let Some(says) = &d.says else {
            panic!("no message for {:?}", d.message);
        };
        assert_eq!(says.text(Lang::En), d.message, "{}", says.id);
        assert_ne!(d.message_in(Lang::ZhCn), d.message);
    }
    let zh: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| d.render_in("r.yaml", Lang::ZhCn))
        .collect();
    assert!(
        zh.iter()
            .any(|l| l == "r.yaml:11:10: 无效的选择算符 \"env in (a\"：unbalanced '('"),
        "{zh:#?}"
    );
}

#[test]
fn garbage_never_panics() {
    for text in [
        "",
        "[",
        "a: [",
        "release: 3",
        "stages: {}",
        "- 1\n- 2",
        "\t",
    ] {
        let report = read_rollout(text);
        assert!(report.spec.is_none());
        assert!(!report.diagnostics.is_empty());
    }
}

#[test]
fn the_burn_rate_query_is_read_and_checked_for_cluster() {
    let with = GOOD.replace(
        "maxBurn: 14.4}",
        "maxBurn: 14.4, query: 'sum(rate(errors{cluster=\"$cluster\"}[$window]))'}",
    );
    let report = read_rollout(&with);
    let spec = report.spec.expect("valid");
    let slo = spec.stop_when.slo_burn_rate.clone().expect("slo");
    assert_eq!(
        slo.error_ratio_query.as_deref(),
        Some("sum(rate(errors{cluster=\"$cluster\"}[$window]))")
    );
    assert_eq!(
        read_rollout(GOOD)
            .spec
            .and_then(|s| s.stop_when.slo_burn_rate)
            .map(|s| s.error_ratio_query),
        Some(None)
    );
    // The spec as journaled keeps the query with the SLO, and also beside `sloBurnRate`
    // where earlier releases read it (a standby executor may still run one); a run
    // journaled before the query moved (only beside it) decodes the same.
    let journaled = serde_json::to_value(&spec.stop_when).expect("json");
    assert_eq!(
        journaled["sloBurnRate"]["errorRatioQuery"],
        serde_json::json!(slo.error_ratio_query)
    );
    assert_eq!(
        journaled["errorRatioQuery"],
        serde_json::json!(slo.error_ratio_query)
    );
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct AsEarlierReleasesReadIt {
        error_ratio_query: Option<String>,
    }
    let earlier_reader: AsEarlierReleasesReadIt =
        serde_json::from_value(journaled.clone()).expect("earlier reader");
    assert_eq!(earlier_reader.error_ratio_query, slo.error_ratio_query);
    let mut earlier = journaled.clone();
    earlier["sloBurnRate"]
        .as_object_mut()
        .and_then(|o| o.remove("errorRatioQuery"))
        .expect("query");
    let decoded: crate::model::rollout::spec::StopWhen =
        serde_json::from_value(earlier).expect("earlier journal");
    assert_eq!(decoded, spec.stop_when);
    let decoded: crate::model::rollout::spec::StopWhen =
        serde_json::from_value(journaled).expect("journal");
    assert_eq!(decoded, spec.stop_when);
    let default_query = read_rollout(GOOD).spec.expect("spec").stop_when;
    let journaled = serde_json::to_value(&default_query).expect("json");
    assert!(journaled.get("errorRatioQuery").is_none());
    assert!(journaled["sloBurnRate"].get("errorRatioQuery").is_none());
    let fleetwide = GOOD.replace(
        "maxBurn: 14.4}",
        "maxBurn: 14.4, query: 'sum(rate(errors[5m]))'}",
    );
    let said = messages(&fleetwide);
    assert!(
        said.iter()
            .any(|m| m.contains("the query has no `$cluster`")),
        "{said:?}"
    );
}

#[test]
fn the_release_name_must_be_fit_for_run_ids() {
    let out = messages(&GOOD.replace("name: r1", "name: \"R1 / hotfix\""));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with(
            "r.yaml:4:9: field `name` \"R1 / hotfix\" must be lowercase letters, digits, '-' and '.'"
        ),
        "{out:?}"
    );
}

#[test]
fn targets_with_an_empty_term_are_refused() {
    let out = messages(&GOOD.replace("targets: env=production", "targets: env=production,,"));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("r.yaml:12:10: invalid selector \"env=production,,\": empty term"),
        "{out:?}"
    );
}

#[test]
fn a_maintenance_file_is_told_it_is_not_a_rollout_and_nothing_else() {
    let out = messages(include_str!("../../../examples/maintenance.yaml"));
    assert_eq!(out.len(), 1, "{out:#?}");
    assert!(
        out[0].ends_with(
            "kind must be \"Rollout\", found \"Maintenance\"; nothing else in the file was checked"
        ),
        "{out:?}"
    );
}

#[test]
fn a_short_window_makes_the_burn_rate_condition_two_windowed() {
    let two = GOOD.replace("maxBurn: 14.4}", "maxBurn: 14.4, shortWindow: 5m}");
    let slo = read_rollout(&two)
        .spec
        .and_then(|s| s.stop_when.slo_burn_rate)
        .expect("valid");
    assert_eq!(
        slo.short,
        Some(ShortWindow {
            window: Duration::from_secs(300),
            max_burn: 14.4
        }),
        "the short window's maximum is the long one's unless given"
    );
    let own = GOOD.replace(
        "maxBurn: 14.4}",
        "maxBurn: 14.4, shortWindow: 5m, shortMaxBurn: 20}",
    );
    let slo = read_rollout(&own)
        .spec
        .and_then(|s| s.stop_when.slo_burn_rate)
        .expect("valid");
    assert_eq!(slo.short.map(|s| s.max_burn), Some(20.0));
    assert_eq!(
        messages(&GOOD.replace("maxBurn: 14.4}", "maxBurn: 14.4, shortWindow: 2h}")),
        vec![
            "r.yaml:20:74: field `shortWindow` (2h) must be shorter than `window` (1h)".to_string()
        ]
    );
    assert_eq!(
        messages(&GOOD.replace("maxBurn: 14.4}", "maxBurn: 14.4, shortMaxBurn: 3}")),
        vec!["r.yaml:20:75: field `shortMaxBurn` needs `shortWindow`: the short window it is the maximum of".to_string()]
    );
}
