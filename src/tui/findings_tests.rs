//! Snapshot and behaviour tests of the Findings screen, the ledger's FINDINGS column and
//! the drill-down's findings panel, on the fixture fleet's findings facts
//! (`src/fixtures/findings.rs`).

use super::app::Command;
use super::feed::{ConsoleCommand, GitOpsSyncRequest};
use super::fixtures;
use super::nav::Route;
use super::tests::{press, render, typed};
use crate::model::findings::{GitOpsKind, RuleId, Severity};
use crate::model::ledger::ClusterId;

#[test]
fn findings_screen_worst_first_with_the_selected_ones_evidence() {
    let mut app = fixtures::operator_app();
    press(&mut app, "6");
    assert_eq!(app.nav.current(), &Route::Findings);
    // The serving certificate: second critical, with its evidence and how to clear it.
    press(&mut app, "j");
    let screen = render(&app, 160, 45);
    assert!(
        screen.contains("19 of 19 findings · 7 critical · 12 warning"),
        "{screen}"
    );
    assert!(
        screen.contains("API server serving certificate expires in 5 days (2026-12-03)"),
        "{screen}"
    );
    assert!(screen.contains("to clear it:"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn findings_filter_and_sort_like_the_ledger() {
    let mut app = fixtures::operator_app();
    press(&mut app, "6 /");
    typed(&mut app, "severity=critical cluster=eu-fra-prod-01");
    press(&mut app, "enter");
    let screen = render(&app, 160, 45);
    assert!(screen.contains("3 of 19 findings"), "{screen}");
    assert!(!screen.contains("eu-fra-prod-02"), "{screen}");
    // Sorting by cluster keeps the selection on the finding it was on.
    press(&mut app, "j");
    let before = app.findings_state.selected.clone();
    assert!(before.is_some());
    press(&mut app, "s");
    assert_eq!(
        app.findings_state.sort,
        super::screens::findings::FindingColumn::Cluster
    );
    assert_eq!(app.findings_state.selected, before);
    // A filter key that names nothing says so, with the nearest one.
    app.findings_state.filter = super::filter::Filter::parse("sevrity=warning");
    assert!(
        render(&app, 160, 45).contains("filter: sevrity (did you mean severity?)"),
        "{}",
        render(&app, 160, 45)
    );
}

#[test]
fn the_ledger_column_shows_the_worst_severity_and_the_count() {
    let app = fixtures::app();
    let row = |id: &str| {
        app.rows
            .iter()
            .find(|r| r.id == id)
            .and_then(|r| r.findings)
            .map(|f| (f.worst, f.total()))
    };
    // A failing etcd check, a stale backup, our requests in global-default, an
    // Application out of sync.
    assert_eq!(row("eu-fra-prod-02"), Some((Some(Severity::Critical), 4)));
    assert_eq!(row("us-east-stg-01"), Some((Some(Severity::Warning), 1)));
    let screen = render(&app, 160, 45);
    let line = screen
        .lines()
        .find(|l| l.contains("eu-fra-prod-02"))
        .unwrap_or_default();
    assert!(line.contains("CRIT 4"), "{screen}");
    let line = screen
        .lines()
        .find(|l| l.contains("us-east-stg-01"))
        .unwrap_or_default();
    assert!(line.contains("warn 1"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn enter_opens_the_cluster_of_the_finding_whose_panel_lists_it() {
    let mut app = fixtures::operator_app();
    press(&mut app, "6 j enter");
    assert_eq!(app.nav.current(), &Route::Cluster("eu-fra-prod-01".into()));
    let wide = render(&app, 160, 45);
    assert!(wide.contains("Findings (3 findings)"), "{wide}");
    assert!(
        wide.contains("CRIT certificateExpiry API server serving"),
        "{wide}"
    );
    assert!(
        wide.contains("Recent journal events"),
        "three panels: {wide}"
    );
    // Too narrow for three panels: a line of the head says how many and the worst.
    let narrow = render(&app, 80, 24);
    assert!(narrow.contains("3 findings, worst CRITICAL"), "{narrow}");
}

#[test]
fn p_suspends_or_resumes_a_gitops_objects_sync_and_says_why_not_elsewhere() {
    let mut app = fixtures::operator_app();
    // g and G still move to the first and last finding here.
    press(&mut app, "6 G");
    assert_ne!(app.findings_state.selected, None);
    press(&mut app, "g");
    let first = app.findings_state.rows(&app.findings.judged.findings)[0].problem_key();
    assert_eq!(app.findings_state.selected, Some(first));
    press(&mut app, "p");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("is not about a GitOps object")),
        "{:?}",
        app.message
    );
    app.findings_state.filter = super::filter::Filter::parse("rule=gitOpsSuspended");
    press(&mut app, "p");
    typed(&mut app, "incident 4411 is over");
    assert!(press(&mut app, "enter").is_empty(), "asks to confirm first");
    let commands = press(&mut app, "enter");
    let sent = commands.iter().find_map(|c| match c {
        Command::Send(ConsoleCommand::GitOpsSync(r)) => Some(r.clone()),
        _ => None,
    });
    assert_eq!(
        sent,
        Some(GitOpsSyncRequest {
            cluster: ClusterId("us-east-stg-01".into()),
            kind: GitOpsKind::FluxKustomization,
            namespace: "flux-system".into(),
            name: "apps".into(),
            suspend: false,
            reason: "incident 4411 is over".into(),
        })
    );
    // An Application out of sync on a Degraded cluster: suspending is offered, and
    // refused while the cluster may not be changed.
    app.findings_state.filter = super::filter::Filter::parse("rule=gitOpsOutOfSync");
    press(&mut app, "p");
    let screen = render(&app, 160, 45);
    assert!(
        screen.contains("suspend the sync of Application argocd/shop"),
        "{screen}"
    );
    let _ = RuleId::GitOpsOutOfSync;
}

#[test]
fn read_only_refuses_the_sync_change_and_says_why() {
    let mut app = fixtures::app();
    app.findings_state.filter = super::filter::Filter::parse("rule=gitOpsSuspended");
    press(&mut app, "6 p");
    assert!(app.overlay.is_none(), "no dialog in read-only");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("read-only")),
        "{:?}",
        app.message
    );
}
