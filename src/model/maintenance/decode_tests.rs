use std::time::Duration;

use super::*;

fn example() -> String {
    include_str!("../../../examples/maintenance.yaml").to_string()
}

fn errors(text: &str) -> Vec<String> {
    read_maintenance(text)
        .diagnostics
        .iter()
        .map(|d| d.render("m.yaml"))
        .collect()
}

#[test]
fn the_example_is_valid_and_complete() {
    let report = read_maintenance(&example());
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let spec = report.spec.unwrap();
    assert_eq!(spec.cluster, ClusterId("cn-sh-prod-01".into()));
    assert!(matches!(&spec.nodes, NodeSelection::Names(n) if n.len() == 4));
    let MaintainAction::Exec(hook) = &spec.action else {
        panic!()
    };
    assert_eq!(hook.argv[0], "/usr/local/bin/patch-kernel");
    assert_eq!(hook.timeout, Duration::from_secs(40 * 60));
    assert!(!hook.idempotent);
    assert_eq!(spec.budgets.max_unavailable, 2);
    assert_eq!(spec.budgets.per_failure_domain, Some(1));
    assert_eq!(
        spec.budgets.per_label[0].label,
        "fleetdeck.dev/replica-group"
    );
    assert_eq!(
        spec.deadlines.of(Step::Maintain),
        Duration::from_secs(45 * 60)
    );
    assert_eq!(spec.drain.grace_period, Some(Duration::from_secs(60)));
    assert!(spec.drain.delete_empty_dir_data);
    assert_eq!(spec.verify.expected_versions["kubelet"], "v1.34.1");
    // The spec survives the trip through the journal's JSON.
    let json = serde_json::to_value(&spec).unwrap();
    assert_eq!(
        serde_json::from_value::<MaintenanceSpec>(json).unwrap(),
        spec
    );
}

#[test]
fn every_problem_is_reported_at_once_with_its_position() {
    let text = "\
apiVersion: fleetdeck.dev/v2
kind: Maintenance
name: x
cluster: c1
nodes:
  names: [a, b, a]
action:
  exec:
    argv: [/bin/true]
    timout: 5m
budgets:
  maxUnavailable: 0
  perLabel:
    - label: group
      maxUnavailable: two
deadlines:
  drian: 10m
  maintain: soon
drain:
  gracePeriod: 0s
verify:
  expectedVersions:
    kernal: 6.8
";
    let out = errors(text);
    let expected = [
        "m.yaml:1:13: apiVersion must be \"fleetdeck.dev/v1\", found \"fleetdeck.dev/v2\"",
        "m.yaml:6:17: node \"a\" is listed twice",
        "m.yaml:9:5: exec is missing required field `timeout`",
        "m.yaml:10:5: unknown field `timout` in exec (did you mean `timeout`?)",
        "m.yaml:12:19: field `maxUnavailable` must be at least 1, or nothing can ever be maintained",
        "m.yaml:15:23: field `maxUnavailable` must be a whole number, found \"two\"",
        "m.yaml:17:3: unknown step `drian` in deadlines (did you mean `drain`?); steps are precheck, cordon, drain, maintain, verifyNode, verifyWorkloads, uncordon",
        "m.yaml:18:13: field `deadlines.maintain`: malformed duration \"soon\": expected a number followed by d, h, m or s, e.g. 1h30m",
        "m.yaml:20:16: field `gracePeriod` must be longer than 0s",
        "m.yaml:23:5: unknown version `kernal` in expectedVersions (did you mean `kernel`?); known: kubelet, kernel, containerRuntime, osImage",
    ];
    assert_eq!(out, expected, "\n{}", out.join("\n"));
    assert!(read_maintenance(text).spec.is_none());
}

#[test]
fn node_and_action_choices_are_exclusive_and_required() {
    let base = "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: x\ncluster: c1\nbudgets: {maxUnavailable: 1}\n";
    let both = format!(
        "{base}nodes: {{names: [a], selector: 'pool=gpu'}}\naction: {{manual: {{instructions: do it}}, exec: {{argv: [x], timeout: 1m}}}}\n"
    );
    let out = errors(&both);
    assert!(
        out.iter()
            .any(|e| e.contains("either `names` or `selector`")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|e| e.contains("either `exec` or `manual`")),
        "{out:?}"
    );
    let neither = format!("{base}nodes: {{}}\naction: {{}}\n");
    let out = errors(&neither);
    assert!(
        out.iter().any(|e| e.contains("nodes needs `names`")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|e| e.contains("action needs `exec`")),
        "{out:?}"
    );
    let selector = format!(
        "{base}nodes: {{selector: 'pool in (a100'}}\naction: {{manual: {{instructions: reseat}}}}\n"
    );
    let out = errors(&selector);
    assert!(
        out.iter().any(|e| e.contains("invalid selector")),
        "{out:?}"
    );
    let good = format!(
        "{base}nodes: {{selector: 'pool=a100,!excluded'}}\naction: {{manual: {{instructions: reseat}}}}\n"
    );
    let report = read_maintenance(&good);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert_eq!(
        report.spec.unwrap().action,
        MaintainAction::Manual {
            instructions: "reseat".into()
        }
    );
}

#[test]
fn shell_hooks_and_useless_budgets_are_warned_about() {
    let text = "apiVersion: fleetdeck.dev/v1\nkind: Maintenance\nname: x\ncluster: c1\nnodes: {names: [a]}\naction: {exec: {argv: [sh, -c, 'reboot'], timeout: 2h}}\nbudgets: {maxUnavailable: 1, perFailureDomain: 3}\n";
    let report = read_maintenance(text);
    let out: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| d.render("m.yaml"))
        .collect();
    assert!(
        report.spec.is_some(),
        "warnings keep the file usable: {out:?}"
    );
    assert!(
        out.iter()
            .any(|w| w.contains("warning: argv runs a shell script")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|w| w.contains("longer than the Maintain deadline")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|w| w.contains("perFailureDomain (3) is larger")),
        "{out:?}"
    );
}

#[test]
fn garbage_never_panics() {
    for text in [
        "",
        "[]",
        "a: [",
        "kind: Maintenance\nnodes: 3\naction: [1]\nbudgets: x\ndeadlines: [1]\ndrain: 1\nverify: {expectedVersions: 1}\n",
    ] {
        let report = read_maintenance(text);
        assert!(report.spec.is_none());
        assert!(!report.diagnostics.is_empty());
    }
}

const SMALL: &str = "\
apiVersion: fleetdeck.dev/v1
kind: Maintenance
name: patch
cluster: c1
nodes: {names: [n1]}
action: {exec: {argv: [\"true\"], timeout: 5m}}
budgets: {maxUnavailable: 1}
";

#[test]
fn the_name_must_be_fit_for_run_ids() {
    assert!(read_maintenance(SMALL).spec.is_some());
    let out = errors(&SMALL.replace("name: patch", "name: \"Bad Name! / x\""));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with(
            "m.yaml:3:7: field `name` \"Bad Name! / x\" must be lowercase letters, digits, '-' and '.'"
        ),
        "{out:?}"
    );
    assert!(
        out[0].ends_with("it has 'B', ' ', 'N', '!', '/'"),
        "{out:?}"
    );
    let long = format!("name: {}", "a".repeat(64));
    let out = errors(&SMALL.replace("name: patch", &long));
    assert!(out[0].contains("it has 64 characters"), "{out:?}");
}

#[test]
fn an_empty_failure_domain_label_is_refused() {
    let out = errors(&SMALL.replace(
        "budgets: {maxUnavailable: 1}",
        "budgets: {maxUnavailable: 1, failureDomainLabel: \"\"}",
    ));
    assert_eq!(
        out,
        vec![
            "m.yaml:7:50: field `failureDomainLabel` must not be empty: name a node label, or leave the field out for topology.kubernetes.io/zone"
        ]
    );
}

#[test]
fn a_node_selector_with_an_empty_term_is_refused() {
    let out = errors(&SMALL.replace("nodes: {names: [n1]}", "nodes: {selector: \"pool=gpu,,\"}"));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("empty term"), "{out:?}");
}

#[test]
fn with_a_ledger_the_cluster_must_be_one_of_its_clusters() {
    let ledger = crate::model::ledger::one_cluster_ledger("");
    assert!(read_maintenance_for(SMALL, &ledger).spec.is_some());
    let report = read_maintenance_for(&SMALL.replace("cluster: c1", "cluster: C1"), &ledger);
    assert!(report.spec.is_none());
    let out: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| d.render("m.yaml"))
        .collect();
    assert_eq!(
        out,
        vec![
            "m.yaml:4:10: field `cluster` \"C1\" is not a cluster of the ledger (did you mean \"c1\"?)"
        ]
    );
}

#[test]
fn a_maintenance_files_problems_say_their_english_as_messages_and_in_chinese() {
    use crate::i18n::Lang;
    let ledger = crate::model::ledger::one_cluster_ledger("");
    let report = read_maintenance_for(&SMALL.replace("cluster: c1", "cluster: C1"), &ledger);
    let zh: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| d.render_in("m.yaml", Lang::ZhCn))
        .collect();
    assert_eq!(
        zh,
        vec!["m.yaml:4:10: 字段 `cluster`“C1”不是台账中的集群（是否想写“c1”？）"]
    );
    for d in &report.diagnostics {
        let says = d.says.as_ref().expect("a message");
        assert_eq!(says.text(Lang::En), d.message);
    }
}

#[test]
fn a_rollout_file_is_told_it_is_not_a_maintenance_and_nothing_else() {
    let out = errors(include_str!("../../../examples/rollout.yaml"));
    assert_eq!(out.len(), 1, "{out:#?}");
    assert!(
        out[0].ends_with(
            "kind must be \"Maintenance\", found \"Rollout\"; nothing else in the file was checked"
        ),
        "{out:?}"
    );
}
