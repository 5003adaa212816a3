use super::*;
use crate::model::quantity::QuantityError;

fn read<'a, T>(json: &'a str, f: impl FnOnce(&mut Reader<'a>) -> Result<T>) -> T {
    let mut r = Reader::new(json);
    let value = f(&mut r).unwrap();
    r.end().unwrap();
    value
}

#[test]
fn resource_lists_become_amounts_and_skip_unmodelled_resources() {
    let q = read(
        r#"{"cpu": "1500m", "memory": "1Gi", "ephemeral-storage": "10Gi",
                "nvidia.com/mig-1g.5gb": "2", "pods": 110}"#,
        quantities,
    );
    let mut interner = Interner::new();
    let v = q.into_vector(&mut interner).unwrap();
    assert_eq!(v.cpu_millis(), 1500);
    assert_eq!(v.memory_bytes(), 1 << 30);
    assert_eq!(v.pods(), 110);
    assert_eq!(v.get(&Dimension::Mig("1g.5gb".into())), 2);
    assert_eq!(interner.len(), 1, "the MIG profile name is interned");
}

#[test]
fn a_malformed_quantity_is_kept_as_the_objects_error() {
    for json in [r#"{"cpu": "lots", "memory": "1Gi"}"#, r#"{"cpu": true}"#] {
        let q = read(json, quantities);
        let error = q.into_vector(&mut Interner::new()).unwrap_err();
        assert_eq!(error.resource, "cpu");
        assert!(
            matches!(error.source, QuantityError::Malformed(_)),
            "{json}"
        );
    }
}

#[test]
fn nulls_read_as_absent() {
    let pod = read(
        r#"{"metadata": {"name": "p", "labels": null, "ownerReferences": null, "annotations": null},
                "spec": {"containers": [{"resources": {"requests": null}, "restartPolicy": null}],
                         "tolerations": null, "nodeSelector": null, "overhead": null},
                "status": {"phase": null}}"#,
        pod,
    );
    assert!(pod.metadata.labels.is_empty());
    assert!(pod.metadata.controller.is_none());
    assert!(pod.phase.is_none());
    assert!(!pod.spec.containers[0].restarts_always);
}

#[test]
fn owner_references_reduce_to_the_controller_and_annotations_to_the_gpu_one() {
    let pod = read(
        r#"{"metadata": {"name": "p", "ownerReferences": [
                  {"kind": "Foo", "name": "a", "controller": false},
                  {"kind": "ReplicaSet", "name": "web-1", "controller": true}]}}"#,
        pod,
    );
    let owner = pod.metadata.controller.unwrap();
    assert_eq!((&*owner.kind, &*owner.name), ("ReplicaSet", "web-1"));
    let node = read(
        r#"{"metadata": {"name": "n", "annotations": {"a": "x", "nvidia.com/gpu.replicas": "4"}},
                "status": {"conditions": [{"type": "MemoryPressure", "status": "False"},
                                          {"type": "Ready", "status": "True"}]}}"#,
        node,
    );
    assert_eq!(node.metadata.gpu_replicas_annotation.as_deref(), Some("4"));
    assert_eq!(node.status.ready.as_deref(), Some("True"));
}

#[test]
fn a_pods_readiness_and_a_budgets_unhealthy_pod_policy_are_read() {
    let crashing = read(
        r#"{"status": {"phase": "Running", "conditions": [
                  {"type": "PodScheduled", "status": "True"},
                  {"type": "ContainersReady", "status": "False"},
                  {"type": "Ready", "status": "False", "reason": "ContainersNotReady"}]}}"#,
        pod,
    );
    assert_eq!(crashing.ready.as_deref(), Some("False"));
    let fresh = read(
        r#"{"status": {"phase": "Pending", "conditions": null}}"#,
        pod,
    );
    assert!(fresh.ready.is_none());
    let budget = read(
        r#"{"spec": {"unhealthyPodEvictionPolicy": "AlwaysAllow", "minAvailable": 2}}"#,
        pdb,
    );
    assert_eq!(
        budget.unhealthy_pod_eviction_policy.as_deref(),
        Some("AlwaysAllow")
    );
}

#[test]
fn a_wrong_shape_fails_with_the_place() {
    let mut r = Reader::new(r#"{"spec": {"unschedulable": "yes"}}"#);
    let error = node(&mut r).unwrap_err();
    assert_eq!(error.message, "expected a boolean");
    assert_eq!(error.offset, 27);
    let mut r = Reader::new(r#"{"status": {"expectedPods": 1e12}}"#);
    assert_eq!(pdb(&mut r).unwrap_err().message, "expected an integer");
}
