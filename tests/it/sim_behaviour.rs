//! Simulated behaviour through the kube client: scheduling, owners, readiness,
//! finalizers, and the faults that affect objects and streams.

use std::time::Duration;

use crate::support::sim::{eventually, small};
use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams, WatchParams};
use serde_json::json;

fn phase(p: &Pod) -> String {
    p.status
        .as_ref()
        .and_then(|s| s.phase.clone())
        .unwrap_or_default()
}

fn ready(p: &Pod) -> bool {
    p.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|c| c.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheduler_places_feasible_pods_and_reports_unschedulable_ones() {
    let fleet = small(10.0);
    let pods: Api<Pod> = Api::namespaced(fleet.client("small-02").expect("client"), "default");
    let pod = |name: &str, gpus: u32| -> Pod {
        let mut limits = json!({"cpu": "100m", "memory": "64Mi"});
        if gpus > 0 {
            limits["nvidia.com/gpu"] = json!(gpus.to_string());
        }
        serde_json::from_value(json!({"metadata": {"name": name}, "spec": {"containers": [{"name": "c", "image": "busybox", "resources": {"limits": limits}}]}}))
            .expect("pod")
    };
    pods.create(&PostParams::default(), &pod("plain", 0))
        .await
        .expect("create");
    pods.create(&PostParams::default(), &pod("gpu", 1))
        .await
        .expect("create gpu");
    eventually("plain pod Running and Ready", 10, || async {
        pods.get("plain").await.is_ok_and(|p| {
            phase(&p) == "Running"
                && ready(&p)
                && p.spec.as_ref().is_some_and(|s| s.node_name.is_some())
        })
    })
    .await;
    eventually("gpu pod Unschedulable", 5, || async {
        pods.get("gpu").await.is_ok_and(|p| {
            p.status
                .as_ref()
                .and_then(|s| s.conditions.as_ref())
                .is_some_and(|c| {
                    c.iter().any(|c| {
                        c.type_ == "PodScheduled"
                            && c.status == "False"
                            && c.reason.as_deref() == Some("Unschedulable")
                    })
                })
        })
    })
    .await;
    let events: Api<k8s_openapi::api::core::v1::Event> =
        Api::namespaced(fleet.client("small-02").expect("client"), "default");
    let about_gpu = events
        .list(&ListParams::default().fields("involvedObject.name=gpu,involvedObject.kind=Pod"))
        .await
        .expect("events");
    let all: Vec<_> = events
        .list(&ListParams::default())
        .await
        .expect("all")
        .items;
    let summary: Vec<_> = all
        .iter()
        .map(|e| (e.involved_object.name.clone(), e.reason.clone()))
        .collect();
    let failed = |e: &k8s_openapi::api::core::v1::Event| {
        e.reason.as_deref() == Some("FailedScheduling") && e.type_.as_deref() == Some("Warning")
    };
    assert!(about_gpu.items.iter().any(failed), "{summary:?}");
    let about_plain = events
        .list(&ListParams::default().fields("involvedObject.name=plain"))
        .await
        .expect("events");
    assert!(
        about_plain
            .items
            .iter()
            .any(|e| e.reason.as_deref() == Some("Scheduled"))
    );
    // A bare pod deleted without a grace period is gone at once.
    pods.delete(
        "plain",
        &DeleteParams {
            grace_period_seconds: Some(0),
            ..DeleteParams::default()
        },
    )
    .await
    .expect("delete");
    assert!(pods.get_opt("plain").await.expect("get").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owners_scale_and_recreate_pods() {
    let fleet = small(10.0);
    let client = fleet.client("small-02").expect("client");
    let deploys: Api<Deployment> = Api::namespaced(client.clone(), "shop");
    let pods: Api<Pod> = Api::namespaced(client, "shop");
    deploys
        .patch(
            "search",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 5}})),
        )
        .await
        .expect("scale");
    eventually("five ready search replicas", 10, || async {
        deploys.get("search").await.is_ok_and(|d| {
            let s = d.status.unwrap_or_default();
            s.ready_replicas == Some(5) && s.observed_generation == Some(2)
        })
    })
    .await;
    let victim = pods
        .list(&ListParams::default().labels("app=search"))
        .await
        .expect("list")
        .items[0]
        .metadata
        .name
        .clone()
        .expect("name");
    pods.delete(&victim, &DeleteParams::default())
        .await
        .expect("delete");
    eventually("replacement pod", 10, || async {
        pods.list(&ListParams::default().labels("app=search"))
            .await
            .is_ok_and(|l| {
                l.items
                    .iter()
                    .filter(|p| p.metadata.deletion_timestamp.is_none() && ready(p))
                    .count()
                    == 5
                    && l.items
                        .iter()
                        .all(|p| p.metadata.name.as_deref() != Some(victim.as_str()))
            })
    })
    .await;
    // Deleting the deployment cascades to its ReplicaSet and pods.
    deploys
        .delete("search", &DeleteParams::default())
        .await
        .expect("delete deployment");
    eventually("pods gone", 10, || async {
        pods.list(&ListParams::default().labels("app=search"))
            .await
            .is_ok_and(|l| l.items.is_empty())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finalizers_hold_deletion_until_removed() {
    let fleet = small(1.0);
    let cms: Api<ConfigMap> = Api::namespaced(fleet.client("small-01").expect("client"), "default");
    let cm: ConfigMap = serde_json::from_value(
        json!({"metadata": {"name": "held", "finalizers": ["example.com/hold"]}}),
    )
    .expect("cm");
    cms.create(&PostParams::default(), &cm)
        .await
        .expect("create");
    cms.delete("held", &DeleteParams::default())
        .await
        .expect("delete");
    let still = cms.get("held").await.expect("still there");
    assert!(still.metadata.deletion_timestamp.is_some());
    cms.patch(
        "held",
        &PatchParams::default(),
        &Patch::Merge(json!({"metadata": {"finalizers": null}})),
    )
    .await
    .expect("remove finalizer");
    assert!(cms.get_opt("held").await.expect("get").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stuck_terminating_hanging_and_dropped_watches() {
    let fleet = small(10.0);
    let pods: Api<Pod> = Api::namespaced(fleet.client("small-01").expect("client"), "shop");
    fleet
        .update_faults("small-01", |f| f.stuck_terminating = true)
        .expect("faults");
    let victim = pods
        .list(&ListParams::default().labels("app=payments"))
        .await
        .expect("list")
        .items[0]
        .metadata
        .name
        .clone()
        .expect("name");
    pods.delete(&victim, &DeleteParams::default())
        .await
        .expect("delete");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let p = pods.get(&victim).await.expect("never finishes terminating");
    assert!(p.metadata.deletion_timestamp.is_some());
    fleet
        .update_faults("small-01", |f| f.stuck_terminating = false)
        .expect("faults");
    eventually("termination resumes", 5, || async {
        pods.get_opt(&victim).await.is_ok_and(|p| p.is_none())
    })
    .await;

    // Dropped watch connections: the stream ends long before its timeout.
    fleet
        .update_faults("small-01", |f| f.drop_watches_after_seconds = Some(0.3))
        .expect("faults");
    let started = tokio::time::Instant::now();
    let stream = pods
        .watch(&WatchParams::default().timeout(30), "0")
        .await
        .expect("watch");
    let _ = stream.collect::<Vec<_>>().await;
    assert!(started.elapsed() < Duration::from_secs(5));

    // Hanging: no answer; the client's own timeout fires.
    fleet
        .update_faults("small-01", |f| {
            f.unreachable = Some(fleetdeck::sim::Unreachable::Hanging)
        })
        .expect("faults");
    let hung = tokio::time::timeout(
        Duration::from_millis(500),
        pods.list(&ListParams::default()),
    )
    .await;
    assert!(hung.is_err(), "a hanging cluster never answers");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zone_outage_evicts_pods_after_their_toleration() {
    // 300 simulated seconds (the default not-ready/unreachable toleration) pass in 1 s.
    let fleet = small(300.0);
    let client = fleet.client("small-02").expect("client");
    let pods: Api<Pod> = Api::all(client.clone());
    let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(client);
    let zone_b: Vec<String> = nodes
        .list(&ListParams::default())
        .await
        .expect("nodes")
        .items
        .into_iter()
        .filter(|n| {
            n.metadata
                .labels
                .as_ref()
                .and_then(|l| l.get("topology.kubernetes.io/zone"))
                .map(String::as_str)
                == Some("us-east-1b")
        })
        .filter_map(|n| n.metadata.name)
        .collect();
    fleet
        .update_faults("small-02", |f| {
            f.zone_outage = Some(fleetdeck::sim::ZoneOutage {
                zone: "us-east-1b".into(),
                at_seconds: 0.0,
            })
        })
        .expect("faults");
    let on_b = |p: &Pod| {
        p.spec
            .as_ref()
            .and_then(|s| s.node_name.as_ref())
            .is_some_and(|n| zone_b.contains(n))
    };
    eventually(
        "workload pods in the dark zone marked for deletion and replaced",
        10,
        || async {
            let all = pods
                .list(&ListParams::default())
                .await
                .map(|l| l.items)
                .unwrap_or_default();
            // Deployment pods are replaced elsewhere; a StatefulSet's pod is bound to a
            // volume in its zone and waits for it (`sim_volumes`).
            let workload = |p: &&Pod| {
                p.metadata.namespace.as_deref() == Some("shop")
                    && p.metadata
                        .owner_references
                        .iter()
                        .flatten()
                        .any(|o| o.kind == "ReplicaSet")
            };
            let stranded = all
                .iter()
                .filter(workload)
                .filter(|p| on_b(p))
                .all(|p| p.metadata.deletion_timestamp.is_some());
            let healthy_elsewhere = all
                .iter()
                .filter(workload)
                .filter(|p| !on_b(p) && ready(p) && p.metadata.deletion_timestamp.is_none())
                .count();
            let daemons_stay = all
                .iter()
                .filter(|p| p.metadata.namespace.as_deref() == Some("kube-system") && on_b(p))
                .all(|p| p.metadata.deletion_timestamp.is_none());
            stranded && healthy_elsewhere == 9 && daemons_stay
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simulator_control_endpoints() {
    use tower::ServiceExt;
    let fleet = small(20.0);
    let call = |method: &str, path: &str, body: &str| {
        let mut req = http::Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", "application/json");
        // The cluster API needs a token; the simulator's own endpoints do not.
        if path.starts_with("/clusters/") && !path.ends_with("/anonymous/version") {
            req = req.header(
                "authorization",
                format!("Bearer {}", fleetdeck::sim::ADMIN_TOKEN),
            );
        }
        let path = path.replace("/anonymous/version", "/version");
        let req = req
            .uri(path)
            .body(axum::body::Body::from(body.to_string()))
            .expect("request");
        let router = fleet.router();
        async move {
            let resp = router.oneshot(req).await.expect("infallible");
            let status = resp.status().as_u16();
            let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
                .await
                .expect("body");
            (
                status,
                serde_json::from_slice::<serde_json::Value>(&bytes).unwrap_or_default(),
            )
        }
    };
    let (code, body) = call(
        "PUT",
        "/sim/v1/clusters/small-01/faults",
        r#"{"latencyMs": 5, "errorRate429": 0.5}"#,
    )
    .await;
    assert_eq!((code, body["latencyMs"].as_u64()), (200, Some(5)));
    let (_, body) = call(
        "PATCH",
        "/sim/v1/clusters/small-01/faults",
        r#"{"errorRate429": 0}"#,
    )
    .await;
    assert_eq!(
        (body["latencyMs"].as_u64(), body["errorRate429"].as_f64()),
        (Some(5), Some(0.0))
    );
    assert_eq!(fleet.faults("small-01").expect("faults").latency_ms, 5);
    let (code, _) = call(
        "POST",
        "/sim/v1/clusters/small-01/nodes/small-01-n001/reboot",
        "",
    )
    .await;
    assert_eq!(code, 202);
    let (code, _) = call("POST", "/sim/v1/clusters/small-01/nodes/nope/reboot", "").await;
    assert_eq!(code, 404);
    let (code, body) = call("GET", "/sim/v1/clusters", "").await;
    assert_eq!(
        (code, body["clusters"].as_array().map(Vec::len)),
        (200, Some(3))
    );
    let (code, body) = call("GET", "/clusters/small-02/version", "").await;
    assert_eq!((code, body["gitVersion"].as_str()), (200, Some("v1.32.3")));
    let (code, body) = call("GET", "/clusters/nope/version", "").await;
    assert_eq!((code, body["reason"].as_str()), (404, Some("NotFound")));
    let (code, body) = call("GET", "/clusters/small-02/anonymous/version", "").await;
    assert_eq!((code, body["reason"].as_str()), (401, Some("Unauthorized")));
}
