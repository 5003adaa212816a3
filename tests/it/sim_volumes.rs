//! StatefulSets on zonal persistent volumes, through the kube client: each pod's claim
//! is bound to a volume in the zone of the pod's node, a pod that is evicted or deleted
//! comes back under its name in that zone, and stays Pending when that zone has no room.

use std::time::Duration;

use crate::support::sim::{eventually, pinned_zone, small_with_postgres, zones};
use k8s_openapi::api::apps::v1::StatefulSet;
use k8s_openapi::api::core::v1::{Event, Node, PersistentVolume, PersistentVolumeClaim, Pod};
use kube::api::{Api, DeleteParams, EvictParams, ListParams, Patch, PatchParams};
use serde_json::json;

fn node_of(p: &Pod) -> Option<String> {
    p.spec.as_ref()?.node_name.clone()
}

fn uid(p: &Pod) -> String {
    p.metadata.uid.clone().unwrap_or_default()
}

fn running_and_ready(p: &Pod) -> bool {
    let status = p.status.as_ref();
    status.and_then(|s| s.phase.as_deref()) == Some("Running")
        && status
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

fn unschedulable(p: &Pod) -> bool {
    node_of(p).is_none()
        && p.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|c| {
                c.iter().any(|c| {
                    c.type_ == "PodScheduled"
                        && c.status == "False"
                        && c.reason.as_deref() == Some("Unschedulable")
                })
            })
}

/// The claims a pod mounts.
fn claims_of(p: &Pod) -> Vec<String> {
    p.spec
        .as_ref()
        .and_then(|s| s.volumes.as_ref())
        .map(|vs| {
            vs.iter()
                .filter_map(|v| Some(v.persistent_volume_claim.as_ref()?.claim_name.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// The zone of the volume bound to claim `name` in `shop`.
async fn claim_zone(client: &kube::Client, name: &str) -> String {
    let claim = Api::<PersistentVolumeClaim>::namespaced(client.clone(), "shop")
        .get(name)
        .await
        .expect("claim");
    let volume = claim
        .spec
        .and_then(|s| s.volume_name)
        .expect("the claim is bound");
    let pv = Api::<PersistentVolume>::all(client.clone())
        .get(&volume)
        .await
        .expect("volume");
    pinned_zone(&pv).expect("the volume is zonal")
}

/// Waits until pod `name` is back (a new object, not `before`) and unschedulable, and
/// checks it is still waiting ten simulated seconds later.
async fn recreated_and_still_pending(pods: &Api<Pod>, name: &str, before: &Pod) {
    eventually(
        &format!("{name} recreated and Unschedulable"),
        15,
        || async {
            pods.get_opt(name)
                .await
                .ok()
                .flatten()
                .is_some_and(|p| uid(&p) != uid(before) && unschedulable(&p))
        },
    )
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let waiting = pods.get(name).await.expect("pod");
    assert!(unschedulable(&waiting), "{:?}", waiting.status);
}

async fn set_unschedulable(client: &kube::Client, node: &str, on: bool) {
    Api::<Node>::all(client.clone())
        .patch(
            node,
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"unschedulable": on}})),
        )
        .await
        .expect("cordon");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claims_are_bound_to_volumes_in_the_zone_of_their_pods_node() {
    let fleet = small_with_postgres(1.0);
    let client = fleet.client("small-02").expect("client");
    let zone_of = zones(&client).await;
    let sts = Api::<StatefulSet>::namespaced(client.clone(), "shop")
        .get("postgres")
        .await
        .expect("statefulset");
    let status = sts.status.expect("status");
    assert_eq!(
        (status.replicas, status.ready_replicas),
        (3, Some(3)),
        "{status:?}"
    );
    let pods = Api::<Pod>::namespaced(client.clone(), "shop")
        .list(&ListParams::default().labels("app=postgres"))
        .await
        .expect("pods")
        .items;
    let mut names: Vec<String> = pods
        .iter()
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    names.sort();
    assert_eq!(names, ["postgres-0", "postgres-1", "postgres-2"]);
    let claims = Api::<PersistentVolumeClaim>::namespaced(client.clone(), "shop")
        .list(&ListParams::default())
        .await
        .expect("claims")
        .items;
    assert_eq!(claims.len(), 3);
    let volumes = Api::<PersistentVolume>::all(client.clone())
        .list(&ListParams::default())
        .await
        .expect("volumes")
        .items;
    assert_eq!(volumes.len(), 3);
    let mut used_zones = Vec::new();
    for pod in &pods {
        assert!(running_and_ready(pod), "{:?}", pod.metadata.name);
        let owner = pod
            .metadata
            .owner_references
            .iter()
            .flatten()
            .find(|o| o.controller == Some(true))
            .expect("a controller");
        assert_eq!(
            (owner.kind.as_str(), owner.api_version.as_str()),
            ("StatefulSet", "apps/v1")
        );
        let node_zone = node_of(pod)
            .and_then(|n| zone_of.get(&n).cloned())
            .expect("the pod runs on a zoned node");
        let [claim_name] = claims_of(pod).try_into().expect("one claim per pod");
        assert_eq!(
            claim_name,
            format!("data-{}", pod.metadata.name.clone().unwrap_or_default())
        );
        let claim = claims
            .iter()
            .find(|c| c.metadata.name.as_deref() == Some(claim_name.as_str()))
            .expect("the claim exists");
        let claim_status = claim.status.clone().expect("claim status");
        assert_eq!(claim_status.phase.as_deref(), Some("Bound"));
        assert_eq!(
            claim_status
                .capacity
                .and_then(|c| c.get("storage").cloned())
                .map(|q| q.0),
            Some("10Gi".to_string())
        );
        let volume_name = claim.spec.as_ref().and_then(|s| s.volume_name.clone());
        let pv = volumes
            .iter()
            .find(|v| v.metadata.name == volume_name)
            .expect("the bound volume exists");
        assert_eq!(pinned_zone(pv), Some(node_zone.clone()), "{volume_name:?}");
        let claim_ref = pv
            .spec
            .as_ref()
            .and_then(|s| s.claim_ref.clone())
            .expect("claimRef");
        assert_eq!(claim_ref.name, Some(claim_name.clone()));
        assert_eq!(claim_ref.uid, claim.metadata.uid);
        assert_eq!(
            pv.spec
                .as_ref()
                .and_then(|s| s.csi.as_ref())
                .map(|c| c.driver.as_str()),
            Some("ebs.csi.aws.com")
        );
        assert_eq!(
            pv.status.as_ref().and_then(|s| s.phase.as_deref()),
            Some("Bound")
        );
        used_zones.push(node_zone);
    }
    used_zones.sort();
    used_zones.dedup();
    assert_eq!(used_zones.len(), 3, "replicas spread over the zones");

    // A group without StatefulSets has no volumes.
    let staging = fleet.client("small-stg-01").expect("client");
    let none = Api::<PersistentVolume>::all(staging)
        .list(&ListParams::default())
        .await
        .expect("volumes");
    assert!(none.items.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evicted_or_deleted_pods_return_under_their_name_in_their_zone() {
    let fleet = small_with_postgres(10.0);
    let client = fleet.client("small-02").expect("client");
    let zone_of = zones(&client).await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), "shop");
    for (ordinal, evict) in [(0, true), (1, false)] {
        let name = format!("postgres-{ordinal}");
        let before = pods.get(&name).await.expect("pod");
        let node = node_of(&before).expect("placed");
        let zone = zone_of[&node].clone();
        assert_eq!(claim_zone(&client, &format!("data-{name}")).await, zone);
        // Its node no longer takes pods: the pod has to move, and may only move
        // within its zone.
        set_unschedulable(&client, &node, true).await;
        if evict {
            pods.evict(&name, &EvictParams::default())
                .await
                .expect("evict");
        } else {
            pods.delete(&name, &DeleteParams::default())
                .await
                .expect("delete");
        }
        eventually(&format!("{name} back, Ready"), 15, || async {
            pods.get_opt(&name).await.ok().flatten().is_some_and(|p| {
                uid(&p) != uid(&before)
                    && running_and_ready(&p)
                    && p.metadata.deletion_timestamp.is_none()
            })
        })
        .await;
        let after = pods.get(&name).await.expect("pod");
        let moved_to = node_of(&after).expect("placed");
        assert_ne!(moved_to, node, "not on the cordoned node");
        assert_eq!(zone_of[&moved_to], zone, "{name} stayed in {zone}");
        assert_eq!(claims_of(&after), vec![format!("data-{name}")]);
        assert_eq!(claim_zone(&client, &format!("data-{name}")).await, zone);
    }

    // Scaling down keeps the claim; scaling up brings the pod back to its volume.
    let sets: Api<StatefulSet> = Api::namespaced(client.clone(), "shop");
    let last = pods.get("postgres-2").await.expect("pod");
    let zone = zone_of[&node_of(&last).expect("placed")].clone();
    let scale = |n: i32| {
        let sets = sets.clone();
        async move {
            sets.patch(
                "postgres",
                &PatchParams::default(),
                &Patch::Merge(json!({"spec": {"replicas": n}})),
            )
            .await
            .expect("scale")
        }
    };
    scale(2).await;
    eventually("postgres-2 gone", 15, || async {
        pods.get_opt("postgres-2").await.ok().flatten().is_none()
    })
    .await;
    assert_eq!(claim_zone(&client, "data-postgres-2").await, zone);
    scale(3).await;
    eventually("three ready replicas", 15, || async {
        sets.get("postgres").await.is_ok_and(|s| {
            let s = s.status.unwrap_or_default();
            s.ready_replicas == Some(3) && s.observed_generation == Some(3)
        })
    })
    .await;
    let back = pods.get("postgres-2").await.expect("pod");
    assert_ne!(uid(&back), uid(&last));
    assert_eq!(zone_of[&node_of(&back).expect("placed")], zone);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pod_whose_zone_has_no_room_stays_pending() {
    let fleet = small_with_postgres(10.0);
    let client = fleet.client("small-02").expect("client");
    let zone_of = zones(&client).await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), "shop");
    let in_zone = |zone: &str| -> Vec<String> {
        zone_of
            .iter()
            .filter(|(_, z)| z.as_str() == zone)
            .map(|(n, _)| n.clone())
            .collect()
    };

    // Every node of the zone cordoned: the pod comes back but cannot be placed, although
    // the other zones have room.
    let before = pods.get("postgres-0").await.expect("pod");
    let zone = zone_of[&node_of(&before).expect("placed")].clone();
    for node in in_zone(&zone) {
        set_unschedulable(&client, &node, true).await;
    }
    pods.delete("postgres-0", &DeleteParams::default())
        .await
        .expect("delete");
    // Ten simulated seconds after it is recreated it is still waiting.
    recreated_and_still_pending(&pods, "postgres-0", &before).await;
    let events = Api::<Event>::namespaced(client.clone(), "shop")
        .list(
            &ListParams::default().fields("involvedObject.name=postgres-0,reason=FailedScheduling"),
        )
        .await
        .expect("events")
        .items;
    assert!(
        events.iter().any(|e| e
            .message
            .as_deref()
            .is_some_and(|m| m.contains("volume node affinity conflict"))),
        "{events:?}"
    );
    let sets: Api<StatefulSet> = Api::namespaced(client.clone(), "shop");
    eventually("status counts two ready of three", 10, || async {
        sets.get("postgres").await.is_ok_and(|s| {
            let s = s.status.unwrap_or_default();
            s.replicas == 3 && s.ready_replicas == Some(2)
        })
    })
    .await;
    // Room in the zone again: it is placed there.
    let reopened = in_zone(&zone).remove(0);
    set_unschedulable(&client, &reopened, false).await;
    eventually("postgres-0 Running on the reopened node", 15, || async {
        pods.get("postgres-0").await.is_ok_and(|p| {
            running_and_ready(&p) && node_of(&p).as_deref() == Some(reopened.as_str())
        })
    })
    .await;

    // Every node of the zone NotReady (the zone is out): the same.
    let before = pods.get("postgres-1").await.expect("pod");
    let zone = zone_of[&node_of(&before).expect("placed")].clone();
    fleet
        .update_faults("small-02", |f| {
            f.zone_outage = Some(fleetdeck::sim::ZoneOutage {
                zone: zone.clone(),
                at_seconds: 0.0,
            })
        })
        .expect("faults");
    let nodes: Api<Node> = Api::all(client.clone());
    eventually("the zone's nodes NotReady", 10, || async {
        let mut all_down = true;
        for node in in_zone(&zone) {
            let ready = nodes.get(&node).await.ok().and_then(|n| {
                n.status?
                    .conditions?
                    .into_iter()
                    .find(|c| c.type_ == "Ready")
                    .map(|c| c.status)
            });
            all_down &= ready.as_deref() != Some("True");
        }
        all_down
    })
    .await;
    // Its node is unreachable, so it is forced out, as an operator would.
    pods.delete(
        "postgres-1",
        &DeleteParams {
            grace_period_seconds: Some(0),
            ..DeleteParams::default()
        },
    )
    .await
    .expect("force delete");
    recreated_and_still_pending(&pods, "postgres-1", &before).await;
}

/// A replica that fails is deleted and recreated under its name, on its volume; deleting
/// a claim takes its dynamically provisioned volume with it (reclaim policy `Delete`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_replica_is_replaced_and_a_deleted_claim_takes_its_volume() {
    let fleet = small_with_postgres(10.0);
    let client = fleet.client("small-02").expect("client");
    let zone_of = zones(&client).await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), "shop");
    let before = pods.get("postgres-1").await.expect("pod");
    let zone = zone_of[&node_of(&before).expect("placed")].clone();
    pods.patch_status(
        "postgres-1",
        &PatchParams::default(),
        &Patch::Merge(json!({"status": {"phase": "Failed", "reason": "Evicted"}})),
    )
    .await
    .expect("fail the pod");
    eventually("postgres-1 replaced, Ready", 15, || async {
        pods.get_opt("postgres-1")
            .await
            .ok()
            .flatten()
            .is_some_and(|p| uid(&p) != uid(&before) && running_and_ready(&p))
    })
    .await;
    let after = pods.get("postgres-1").await.expect("pod");
    assert_eq!(zone_of[&node_of(&after).expect("placed")], zone);

    // Scaled down to two, postgres-2's claim is left; deleting it deletes its volume.
    let claims: Api<PersistentVolumeClaim> = Api::namespaced(client.clone(), "shop");
    let volumes: Api<PersistentVolume> = Api::all(client.clone());
    Api::<StatefulSet>::namespaced(client.clone(), "shop")
        .patch(
            "postgres",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 2}})),
        )
        .await
        .expect("scale");
    eventually("postgres-2 gone", 15, || async {
        pods.get_opt("postgres-2").await.ok().flatten().is_none()
    })
    .await;
    let volume = claims
        .get("data-postgres-2")
        .await
        .expect("claim kept")
        .spec
        .and_then(|s| s.volume_name)
        .expect("bound");
    assert!(volumes.get_opt(&volume).await.expect("read").is_some());
    claims
        .delete("data-postgres-2", &DeleteParams::default())
        .await
        .expect("delete claim");
    assert!(
        volumes.get_opt(&volume).await.expect("read").is_none(),
        "{volume} deleted with its claim"
    );
}

/// A changed pod template rolls through the set as the StatefulSet controller rolls it:
/// highest ordinal first, one at a time, each pod back on its own claim before the next
/// goes; the status counts updated replicas and names both revisions until all run the
/// new one. A partition keeps the ordinals below it on the old template.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_template_rolls_highest_ordinal_first_and_stops_at_the_partition() {
    let fleet = small_with_postgres(10.0);
    let client = fleet.client("small-02").expect("client");
    let sets = Api::<StatefulSet>::namespaced(client.clone(), "shop");
    let pods = Api::<Pod>::namespaced(client.clone(), "shop");
    let before = sets.get("postgres").await.expect("statefulset");
    let old = before
        .status
        .as_ref()
        .and_then(|s| s.update_revision.clone())
        .expect("a revision");
    assert_eq!(
        before
            .status
            .as_ref()
            .and_then(|s| s.current_revision.clone()),
        Some(old.clone())
    );
    let claims_before: Vec<Vec<String>> = {
        let mut list = pods
            .list(&ListParams::default().labels("app=postgres"))
            .await
            .expect("pods")
            .items;
        list.sort_by_key(|p| p.metadata.name.clone());
        list.iter().map(claims_of).collect()
    };
    let image = |tag: &str| {
        json!({"spec": {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 1}},
            "template": {"metadata": {"annotations": {"release": tag}}}}})
    };
    sets.patch(
        "postgres",
        &PatchParams::default(),
        &Patch::Merge(image("v2")),
    )
    .await
    .expect("patch");
    let revision_of = |p: &Pod| {
        p.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("controller-revision-hash").cloned())
            .unwrap_or_default()
    };
    // Ordinal 2 goes first; 1 only once 2 is back and Ready; 0 stays (partition 1).
    let mut order: Vec<String> = Vec::new();
    let rolled = eventually("ordinals 1 and 2 on the new template", 60, || async {
        let Ok(list) = pods
            .list(&ListParams::default().labels("app=postgres"))
            .await
        else {
            return false;
        };
        let set = sets.get("postgres").await.ok();
        let new = set
            .as_ref()
            .and_then(|s| s.status.as_ref())
            .and_then(|s| s.update_revision.clone())
            .unwrap_or_default();
        let on_new = |name: &str| {
            list.items.iter().any(|p| {
                p.metadata.name.as_deref() == Some(name)
                    && revision_of(p) == new
                    && running_and_ready(p)
            })
        };
        on_new("postgres-2") && on_new("postgres-1")
    });
    // While it rolls, record which ordinal took the new template first.
    let watch_order = async {
        for _ in 0..600 {
            if let Ok(list) = pods
                .list(&ListParams::default().labels("app=postgres"))
                .await
            {
                for p in &list.items {
                    let name = p.metadata.name.clone().unwrap_or_default();
                    if revision_of(p) != old && !order.contains(&name) {
                        order.push(name);
                    }
                }
            }
            if order.len() >= 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::join!(rolled, watch_order);
    assert_eq!(
        order,
        vec!["postgres-2", "postgres-1"],
        "highest ordinal first"
    );
    let status = sets
        .get("postgres")
        .await
        .expect("statefulset")
        .status
        .expect("status");
    assert_eq!(status.updated_replicas, Some(2), "{status:?}");
    assert_eq!(
        status.current_revision,
        Some(old.clone()),
        "not all updated yet"
    );
    assert_ne!(status.update_revision, Some(old.clone()));
    let zero = pods.get("postgres-0").await.expect("postgres-0");
    assert_eq!(revision_of(&zero), old, "the partition keeps ordinal 0");

    // Lifting the partition finishes the update; every pod kept its claim.
    sets.patch(
        "postgres",
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"updateStrategy": {"rollingUpdate": {"partition": 0}}}})),
    )
    .await
    .expect("patch");
    eventually("every replica on the new revision", 60, || async {
        sets.get("postgres").await.is_ok_and(|s| {
            let s = s.status.unwrap_or_default();
            s.updated_replicas == Some(3)
                && s.ready_replicas == Some(3)
                && s.current_revision == s.update_revision
        })
    })
    .await;
    let mut after = pods
        .list(&ListParams::default().labels("app=postgres"))
        .await
        .expect("pods")
        .items;
    after.sort_by_key(|p| p.metadata.name.clone());
    let claims_after: Vec<Vec<String>> = after.iter().map(claims_of).collect();
    assert_eq!(claims_after, claims_before);
}
