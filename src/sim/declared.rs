//! The extra objects a scenario declares for a cluster (`groups[].objects` and
//! `overrides[].objects`): created in order through the same create path as a POST
//! (defaults, validation, namespace lifecycle), so a scenario cannot hold an object a
//! real server would refuse. An object named a second time is updated, as applying the
//! scenario again would (a CRD that stopped serving a version it still stores, say). A
//! CustomResourceDefinition is established at once, so the custom resources after it in
//! the list can be created.

use serde_json::Value;

use super::error::SimError;
use super::fleet::Cluster;
use super::scenario::Scenario;
use super::store::str_at;

/// Creates the scenario's objects for `cluster`, then forgets the history (nobody
/// watched the cluster being built).
pub fn apply(scenario: &Scenario, cluster: &Cluster) -> Result<(), SimError> {
    let id = &cluster.profile.id;
    let group = scenario
        .group_of(id)
        .map(|g| g.objects.as_slice())
        .unwrap_or_default();
    let own = scenario
        .overrides
        .iter()
        .filter(|o| o.cluster == *id)
        .flat_map(|o| o.objects.iter());
    let declared: Vec<(String, &Value)> = group
        .iter()
        .enumerate()
        .map(|(i, o)| (format!("groups[].objects[{i}]"), o))
        .chain(
            own.enumerate()
                .map(|(i, o)| (format!("overrides[{id}].objects[{i}]"), o)),
        )
        .collect();
    if declared.is_empty() {
        return Ok(());
    }
    let mut st = cluster.lock();
    for (place, obj) in declared {
        let err = |message: String| SimError::Scenario {
            name: scenario.name.clone(),
            message: format!("cluster {id}, {place}: {message}"),
        };
        let api_version = str_at(obj, "/apiVersion");
        let kind = str_at(obj, "/kind");
        let rt = st.registry.by_kind(&api_version, &kind).ok_or_else(|| {
            err(format!(
                "the cluster serves no kind {kind:?} in {api_version:?}"
            ))
        })?;
        let ns = if rt.namespaced {
            let ns = str_at(obj, "/metadata/namespace");
            if ns.is_empty() {
                "default".to_string()
            } else {
                ns
            }
        } else {
            String::new()
        };
        let exists = st
            .store
            .get_value(rt.slot, &ns, &str_at(obj, "/metadata/name"))
            .is_some();
        if exists {
            super::write::update_object(cluster, &mut st, &rt, &ns, obj.clone(), "fleetdeck-sim")
        } else {
            super::write::create_object(cluster, &mut st, &rt, &ns, obj.clone(), "fleetdeck-sim")
        }
        .map_err(|e| err(e.message.clone()))?;
        if rt.slot == super::resource::Kind::CUSTOM_RESOURCE_DEFINITION {
            super::crd::reconcile(cluster, &mut st);
        }
    }
    st.store.compact();
    Ok(())
}
