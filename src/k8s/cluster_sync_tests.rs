use super::*;
use crate::k8s::slim::decode_object;
use crate::model::fleet::Interner;

fn state() -> Loop {
    let cluster = crate::model::ledger::one_cluster_ledger("").clusters[0].clone();
    let (updates, _) = mpsc::channel(1);
    let mut state = Loop::new(0, cluster, SyncOptions::default(), updates);
    state.facts.last_ok = Some(Timestamp::now());
    state
}

fn node(json: &str) -> ItemOf<Nodes> {
    decode_object::<Nodes>(json, &mut Interner::new())
        .unwrap()
        .0
}

#[test]
fn partial_views_are_not_published_until_every_resource_has_listed() {
    let mut state = state();
    let mut store = ClusterStore::new("c1");
    store.apply_node(Delta::ListStarted);
    store.apply_node(Delta::Page(vec![
            node(r#"{"metadata": {"name": "n1"}, "status": {"conditions": [{"type": "Ready", "status": "True"}]}}"#),
            node(r#"{"metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "lots"}}}"#),
        ]));
    let connecting = state.snapshot(Some(&mut store));
    assert_eq!(connecting.status, ClusterStatus::Connecting);
    assert!(connecting.view.nodes.is_empty());
    assert_eq!(connecting.facts.unreadable_objects, 1, "still counted");

    // Nodes are listed, but the pod list fails: still nothing to show or count (all
    // nodes and no pods would read as an empty cluster).
    store.apply_node(Delta::ListDone);
    state.facts.phase = SyncPhase::Failing { unreachable: false };
    let failing = state.snapshot(Some(&mut store));
    assert_eq!(failing.status, ClusterStatus::Unknown);
    assert!(!failing.status.data_usable());
    assert!(failing.view.nodes.is_empty());

    state.facts.listed = true;
    state.facts.phase = SyncPhase::Watching { complete: true };
    let synced = state.snapshot(Some(&mut store));
    assert_eq!(synced.view.nodes.len(), 1);
    assert_eq!(synced.facts.unreadable_objects, 1);
}
