//! The controllers that finish deletions: the namespace controller (empties a
//! terminating namespace, then removes its `kubernetes` finalizer and the namespace) and
//! the garbage collector's foreground part (an owner waiting with `foregroundDeletion`
//! goes once its blocking dependents are gone).

use serde_json::{Value, json};

use super::delete::{
    DeleteOptions, FOREGROUND, NAMESPACE_FINALIZER, Propagation, collect_garbage, delete_object,
    dependents_of,
};
use super::fleet::{Cluster, ClusterState};
use super::objects::{deleting, set_condition};
use super::resource::Kind;

/// Runs both controllers once. Returns whether anything changed.
pub fn reconcile(cluster: &Cluster, st: &mut ClusterState) -> bool {
    let a = foreground(cluster, st);
    let b = namespaces(cluster, st);
    a || b
}

fn remove_finalizer(obj: &mut Value, finalizer: &str) {
    if let Some(list) = obj
        .pointer_mut("/metadata/finalizers")
        .and_then(Value::as_array_mut)
    {
        list.retain(|f| f != finalizer);
        if list.is_empty()
            && let Some(m) = obj["metadata"].as_object_mut()
        {
            m.remove("finalizers");
        }
    }
}

/// Owners deleted in the foreground: delete their dependents (in the foreground again
/// when they have dependents of their own), and let the owner go once no dependent
/// with `blockOwnerDeletion` is left.
fn foreground(cluster: &Cluster, st: &mut ClusterState) -> bool {
    let mut changed = false;
    let waiting: Vec<(Kind, String, String)> = st.foreground.iter().cloned().collect();
    for (slot, ns, name) in waiting {
        let Some(mut owner) = st.store.get_value(slot, &ns, &name) else {
            st.foreground.remove(&(slot, ns, name));
            continue;
        };
        let uid = super::store::str_at(&owner, "/metadata/uid");
        let mut blocking = 0;
        for (dslot, key) in dependents_of(st, &owner) {
            let Some(dep) = st.store.get_value(dslot, &key.0, &key.1) else {
                continue;
            };
            let blocks = dep
                .pointer("/metadata/ownerReferences")
                .and_then(Value::as_array)
                .is_some_and(|refs| {
                    refs.iter().any(|r| {
                        r.get("uid").and_then(Value::as_str) == Some(uid.as_str())
                            && r.get("blockOwnerDeletion").and_then(Value::as_bool) == Some(true)
                    })
                });
            if blocks {
                blocking += 1;
            }
            if !deleting(&dep) {
                let propagation = if dependents_of(st, &dep).is_empty() {
                    Propagation::Background
                } else {
                    Propagation::Foreground
                };
                let opts = DeleteOptions {
                    propagation,
                    ..DeleteOptions::background()
                };
                // A dependent that vanished meanwhile is fine.
                let _ = delete_object(cluster, st, dslot, &key.0, &key.1, &opts);
                changed = true;
            }
        }
        if blocking == 0 {
            remove_finalizer(&mut owner, FOREGROUND);
            st.foreground.remove(&(slot, ns.clone(), name.clone()));
            let finalizers_left = owner
                .pointer("/metadata/finalizers")
                .and_then(Value::as_array)
                .is_some_and(|f| !f.is_empty());
            if finalizers_left {
                st.store.put(slot, owner);
            } else {
                st.store.remove(slot, &ns, &name);
                collect_garbage(cluster, st, &owner);
            }
            changed = true;
        }
    }
    changed
}

/// Terminating namespaces: delete what is in them; once empty, drop the `kubernetes`
/// finalizer and the namespace.
fn namespaces(cluster: &Cluster, st: &mut ClusterState) -> bool {
    let mut changed = false;
    let names: Vec<String> = st.terminating.iter().cloned().collect();
    for name in names {
        let Some(mut ns) = st.store.get_value(Kind::NAMESPACE, "", &name) else {
            st.terminating.remove(&name);
            continue;
        };
        let registry = st.registry.clone();
        let mut remaining: Vec<(String, usize)> = Vec::new();
        let mut with_finalizers = 0;
        for slot in st.store.used_slots() {
            let Some(rt) = registry.of_slot(slot).next().cloned() else {
                continue;
            };
            if !rt.namespaced {
                continue;
            }
            let keys: Vec<String> = st
                .store
                .iter(slot, Some(&name), None)
                .map(|(k, _)| k.1.clone())
                .collect();
            if keys.is_empty() {
                continue;
            }
            remaining.push((rt.qualified(), keys.len()));
            for key in keys {
                let Some(obj) = st.store.get_value(slot, &name, &key) else {
                    continue;
                };
                if obj
                    .pointer("/metadata/finalizers")
                    .and_then(Value::as_array)
                    .is_some_and(|f| !f.is_empty())
                {
                    with_finalizers += 1;
                }
                if !deleting(&obj) {
                    let _ =
                        delete_object(cluster, st, slot, &name, &key, &DeleteOptions::background());
                    changed = true;
                }
            }
        }
        let now = cluster.clock.now_rfc3339();
        let before = ns.clone();
        set_condition(
            &mut ns,
            "NamespaceDeletionDiscoveryFailure",
            "False",
            "ResourcesDiscovered",
            "All resources successfully discovered",
            &now,
        );
        set_condition(
            &mut ns,
            "NamespaceDeletionGroupVersionParsingFailure",
            "False",
            "ParsedGroupVersions",
            "All legacy kube types successfully parsed",
            &now,
        );
        set_condition(
            &mut ns,
            "NamespaceDeletionContentFailure",
            "False",
            "ContentDeleted",
            "All content successfully deleted, may be waiting on finalization",
            &now,
        );
        if remaining.is_empty() {
            set_condition(
                &mut ns,
                "NamespaceContentRemaining",
                "False",
                "ContentRemoved",
                "All content successfully removed",
                &now,
            );
        } else {
            let what: Vec<String> = remaining
                .iter()
                .map(|(r, n)| format!("{r} has {n} resource instances"))
                .collect();
            set_condition(
                &mut ns,
                "NamespaceContentRemaining",
                "True",
                "SomeResourcesRemain",
                &format!("Some resources are remaining: {}", what.join(", ")),
                &now,
            );
        }
        if with_finalizers == 0 {
            set_condition(
                &mut ns,
                "NamespaceFinalizersRemaining",
                "False",
                "ContentHasNoFinalizers",
                "All content-preserving finalizers finished",
                &now,
            );
        } else {
            set_condition(
                &mut ns,
                "NamespaceFinalizersRemaining",
                "True",
                "SomeFinalizersRemain",
                &format!(
                    "Some content in the namespace has finalizers remaining: {with_finalizers} resource instances"
                ),
                &now,
            );
        }
        for c in ns["status"]["conditions"]
            .as_array_mut()
            .into_iter()
            .flatten()
        {
            if let Some(o) = c.as_object_mut() {
                o.remove("lastHeartbeatTime");
            }
        }
        if remaining.is_empty() {
            if let Some(list) = ns
                .pointer_mut("/spec/finalizers")
                .and_then(Value::as_array_mut)
            {
                list.retain(|f| f != NAMESPACE_FINALIZER);
            }
            let metadata_finalizers = ns
                .pointer("/metadata/finalizers")
                .and_then(Value::as_array)
                .is_some_and(|f| !f.is_empty());
            if metadata_finalizers {
                ns["spec"]["finalizers"] = json!([]);
                st.store.put(Kind::NAMESPACE, ns);
            } else {
                st.store.remove(Kind::NAMESPACE, "", &name);
                st.terminating.remove(&name);
            }
            changed = true;
        } else if ns != before {
            st.store.put(Kind::NAMESPACE, ns);
            changed = true;
        }
    }
    changed
}
