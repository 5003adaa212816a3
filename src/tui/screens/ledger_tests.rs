use super::*;
use crate::fixtures::console as fixtures;

#[test]
fn rows_carry_status_drift_and_unknowns() {
    let app = fixtures::app();
    let row = |id: &str| app.rows.iter().find(|r| r.id == id).unwrap();
    assert_eq!(row("eu-fra-prod-02").status, Some(ClusterStatus::Degraded));
    assert!(row("eu-fra-prod-02").version_drift);
    assert!(!row("eu-fra-prod-01").version_drift);
    assert_eq!(row("eu-fra-prod-01").gpus, Some((13, 32)));
    assert_eq!(
        row("us-east-prod-03").gpus,
        None,
        "unreachable: GPU figures unknown"
    );
    assert_eq!(row("us-east-prod-03").nodes.0, 0, "unknown is not ready");
}

#[test]
fn status_sort_puts_the_worst_first() {
    let app = fixtures::app();
    let state = LedgerState::default();
    let order: Vec<Option<ClusterStatus>> = state
        .visible(&app.rows)
        .iter()
        .map(|i| app.rows[*i].status)
        .collect();
    assert_eq!(
        order,
        vec![
            Some(ClusterStatus::IdentityMismatch),
            Some(ClusterStatus::Unreachable),
            Some(ClusterStatus::Unknown),
            Some(ClusterStatus::Connecting),
            Some(ClusterStatus::Degraded),
            Some(ClusterStatus::Synced),
            Some(ClusterStatus::Synced),
        ]
    );
}

#[test]
fn grouping_keeps_sort_inside_groups() {
    let app = fixtures::app();
    let state = LedgerState {
        grouping: Grouping::Region,
        sort: Column::Id,
        ..LedgerState::default()
    };
    let lines = state.lines(&app.rows);
    assert_eq!(lines[0], Line::Group("ap-southeast".into(), 2));
    assert_eq!(
        lines
            .iter()
            .filter(|l| matches!(l, Line::Group(..)))
            .count(),
        4
    );
    assert!(matches!(lines[1], Line::Row(i) if app.rows[i].id == "ap-sg-prod-01"));
}

#[test]
fn versions_sort_numerically() {
    assert!(version_key(Some("v1.9.0")) < version_key(Some("v1.10.0")));
    assert!(version_key(None) < version_key(Some("v0.1")));
}

#[test]
fn label_filters_reach_fields() {
    let app = fixtures::app();
    let state = LedgerState {
        filter: Filter::parse("status=unknown"),
        ..LedgerState::default()
    };
    let ids: Vec<&str> = state
        .visible(&app.rows)
        .iter()
        .map(|i| app.rows[*i].id.as_str())
        .collect();
    assert_eq!(ids, ["us-west-dev-01"]);
}

#[test]
fn the_cluster_a_filter_names_exactly_comes_first_and_opens() {
    let mut app = fixtures::app();
    // A rival the fuzzy words also match, sorted first by status.
    let mut rival = app.rows[0].clone();
    rival.id = "eu-fra-prod-011".into();
    rival.status = Some(ClusterStatus::IdentityMismatch);
    app.rows.push(rival);
    let state = LedgerState {
        filter: Filter::parse("eu-fra-prod-01"),
        ..LedgerState::default()
    };
    let visible = state.visible(&app.rows);
    assert!(visible.len() > 1, "the fuzzy words match others too");
    assert_eq!(app.rows[visible[0]].id, "eu-fra-prod-01");
    // Typed on the screen: `enter` closes the filter, the next opens the named cluster,
    // even when the cursor was on another row.
    crate::tui::tests::press(&mut app, "j j /");
    crate::tui::tests::typed(&mut app, "eu-fra-prod-01");
    crate::tui::tests::press(&mut app, "enter enter");
    assert_eq!(
        app.nav.current(),
        &crate::tui::nav::Route::Cluster("eu-fra-prod-01".into())
    );
}

#[test]
fn clusters_with_fresh_data_sort_by_nodes_ready_not_by_their_last_heartbeat() {
    let app = fixtures::app();
    let synced = app
        .rows
        .iter()
        .find(|r| r.status == Some(ClusterStatus::Synced))
        .expect("a synced row")
        .clone();
    let now = jiff::Timestamp::now();
    let row = |id: &str, ready: usize, seconds_ago: i64| LedgerRow {
        id: id.into(),
        nodes: (ready, 8),
        last_ok: Some(now - jiff::SignedDuration::from_secs(seconds_ago)),
        ..synced.clone()
    };
    let (a, b, c) = (row("a", 8, 30), row("b", 8, 1), row("c", 5, 1));
    // c has a zone down: first, though heard from as recently as b.
    assert_eq!(compare(&c, &a, Column::Status), Ordering::Less);
    // a and b are alike: by id, whatever their heartbeats.
    assert_eq!(compare(&a, &b, Column::Status), Ordering::Less);
    assert_eq!(compare(&b, &a, Column::Status), Ordering::Greater);
}
