//! PodDisruptionBudgets: status computation (as the disruption controller does) and the
//! lookup the eviction subresource uses.

use serde_json::{Value, json};

use super::controllers::Pass;
use super::objects::{controller_of, deleting, pod_ready};
use super::resource::Kind;
use super::scheduler::parse_quantity;
use super::selector::LabelSelector;
use super::store::{Index, Store, str_at};

/// Resolves an int-or-percent against `expected` (percentages round up, as the
/// disruption controller does).
fn scaled(v: &Value, expected: i64) -> i64 {
    match v {
        Value::Number(n) => n.as_i64().unwrap_or(0),
        Value::String(s) if s.ends_with('%') => {
            let pct = parse_quantity(s.trim_end_matches('%')).unwrap_or(0.0);
            (pct * expected as f64 / 100.0).ceil() as i64
        }
        Value::String(s) => s.parse().unwrap_or(0),
        _ => 0,
    }
}

/// The status of a PDB with `spec`, given healthy and expected pod counts.
pub fn pdb_status(
    spec: &Value,
    current_healthy: i64,
    expected: i64,
    generation: i64,
    now: &str,
    old: Option<&Value>,
) -> Value {
    let desired = if let Some(min) = spec.get("minAvailable") {
        scaled(min, expected)
    } else if let Some(max) = spec.get("maxUnavailable") {
        (expected - scaled(max, expected)).max(0)
    } else {
        0
    };
    let allowed = (current_healthy - desired).max(0);
    let (status, reason) = if allowed > 0 {
        ("True", "SufficientPods")
    } else {
        ("False", "InsufficientPods")
    };
    // Keep the transition time when the condition does not change, so an unchanged
    // budget produces no write.
    let ts = old
        .and_then(|o| o.pointer("/conditions/0"))
        .filter(|c| c.get("status").and_then(Value::as_str) == Some(status))
        .and_then(|c| c.get("lastTransitionTime").cloned())
        .unwrap_or(json!(now));
    json!({
        "currentHealthy": current_healthy, "desiredHealthy": desired, "disruptionsAllowed": allowed,
        "expectedPods": expected, "observedGeneration": generation,
        "conditions": [{"type": "DisruptionAllowed", "status": status, "reason": reason, "message": "",
            "lastTransitionTime": ts, "observedGeneration": generation}]
    })
}

/// What the disruption controller needs of a pod, read once per pass.
struct PodFacts {
    ns: String,
    labels: Vec<(String, String)>,
    replica_set: Option<String>,
    deleting: bool,
    healthy: bool,
}

/// Keeps every PDB's status current.
pub fn reconcile(pass: &mut Pass) {
    if pass.st.store.count(Kind::POD_DISRUPTION_BUDGET) == 0 {
        return;
    }
    let facts: Vec<PodFacts> = pass
        .pods
        .iter()
        .map(|p| PodFacts {
            ns: str_at(p, "/metadata/namespace"),
            labels: Index::of(p).labels,
            replica_set: controller_of(p)
                .filter(|(k, _, _)| k == "ReplicaSet")
                .map(|(_, n, _)| n),
            deleting: deleting(p),
            healthy: !deleting(p) && pod_ready(p),
        })
        .collect();
    for pdb in pass.st.store.values(Kind::POD_DISRUPTION_BUDGET, None) {
        let ns = str_at(&pdb, "/metadata/namespace");
        let sel = LabelSelector::from_object(pdb.pointer("/spec/selector").unwrap_or(&Value::Null));
        let matching: Vec<&PodFacts> = facts
            .iter()
            .filter(|f| f.ns == ns && sel.matches(&f.labels))
            .collect();
        let healthy = matching.iter().filter(|f| f.healthy).count() as i64;
        // Expected pods come from the owners' scale (as the real controller reads it).
        let mut owners: Vec<&str> = matching
            .iter()
            .filter_map(|f| f.replica_set.as_deref())
            .collect();
        owners.sort();
        owners.dedup();
        let expected = if owners.is_empty() {
            matching.iter().filter(|f| !f.deleting).count() as i64
        } else {
            owners
                .iter()
                .filter_map(|n| pass.st.store.get_value(Kind::REPLICA_SET, &ns, n))
                .map(|rs| {
                    rs.pointer("/spec/replicas")
                        .and_then(Value::as_i64)
                        .unwrap_or(0)
                })
                .sum()
        };
        let generation = pdb
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(1);
        let status = pdb_status(
            pdb.get("spec").unwrap_or(&Value::Null),
            healthy,
            expected,
            generation,
            &pass.now,
            pdb.get("status"),
        );
        if pdb.get("status") != Some(&status) {
            let mut pdb = pdb;
            pdb["status"] = status;
            pass.put(Kind::POD_DISRUPTION_BUDGET, pdb);
        }
    }
}

/// The PDBs in the pod's namespace whose selector matches the pod (an empty selector
/// matches every pod, as in policy/v1).
pub fn matching_pdbs(store: &Store, ns: &str, labels: &[(String, String)]) -> Vec<Value> {
    store
        .iter(Kind::POD_DISRUPTION_BUDGET, Some(ns), None)
        .map(|(_, s)| s.value())
        .filter(|pdb| {
            LabelSelector::from_object(pdb.pointer("/spec/selector").unwrap_or(&Value::Null))
                .matches(labels)
        })
        .collect()
}
