//! The simulator through the real kube client: in-process and over loopback TCP.
//!
//! Over 600 lines: one subject, the simulator through the kube client, with in-process and
//! TCP clients built once at the top.

use std::time::Duration;

use crate::support::sim::{api_status, serve, small, tcp_client};
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Node, Pod};
use k8s_openapi::api::policy::v1::PodDisruptionBudget;
use kube::api::{
    Api, DeleteParams, EvictParams, ListParams, Patch, PatchParams, PostParams, WatchEvent,
    WatchParams,
};
use kube::core::ObjectMeta;
use serde_json::json;

fn cm(name: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        data: Some([("k".to_string(), "v".to_string())].into()),
        ..Default::default()
    }
}

async fn paginate(pods: &Api<Pod>, limit: u32) -> (Vec<String>, usize) {
    let mut names = Vec::new();
    let mut pages = 0;
    let mut lp = ListParams::default().limit(limit);
    let mut first_rv = None;
    loop {
        let page = pods.list(&lp).await.expect("list page");
        pages += 1;
        let rv = page.metadata.resource_version.clone();
        assert!(rv.is_some(), "list has a resourceVersion");
        first_rv.get_or_insert(rv.clone());
        assert_eq!(
            first_rv.as_ref(),
            Some(&rv),
            "every page reports the first page's resourceVersion"
        );
        names.extend(page.items.iter().filter_map(|p| p.metadata.name.clone()));
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => lp = lp.continue_token(&c),
            _ => break,
        }
    }
    (names, pages)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paginated_list_and_selectors_in_process() {
    let fleet = small(1.0);
    let client = fleet.client("small-01").expect("client");
    let pods: Api<Pod> = Api::all(client.clone());
    let all = pods.list(&ListParams::default()).await.expect("list");
    let (names, pages) = paginate(&pods, 7).await;
    assert_eq!(names.len(), all.items.len());
    assert!(pages > 2, "{pages} pages");
    let mut sorted = names.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "no duplicates across pages");

    let node = all.items[0]
        .spec
        .as_ref()
        .and_then(|s| s.node_name.clone())
        .expect("bound");
    let on_node = pods
        .list(&ListParams::default().fields(&format!("spec.nodeName={node}")))
        .await
        .expect("fields");
    assert!(!on_node.items.is_empty());
    assert!(
        on_node
            .items
            .iter()
            .all(|p| p.spec.as_ref().and_then(|s| s.node_name.as_deref()) == Some(node.as_str()))
    );
    let running = pods
        .list(&ListParams::default().fields("status.phase=Running"))
        .await
        .expect("phase");
    assert_eq!(running.items.len(), all.items.len());
    let proxies = pods
        .list(&ListParams::default().labels("app=kube-proxy"))
        .await
        .expect("labels");
    assert_eq!(proxies.items.len(), 10, "one kube-proxy per node");
    let cached = pods
        .list(&ListParams::default().match_any())
        .await
        .expect("rv=0");
    assert_eq!(cached.items.len(), all.items.len());
    let err = pods
        .list(&ListParams::default().fields("spec.bogus=1"))
        .await
        .expect_err("bad field");
    assert_eq!(api_status(&err).map(|s| s.code), Some(400));

    let ns: Api<Namespace> = Api::all(client);
    let ks = ns.get("kube-system").await.expect("kube-system");
    assert_eq!(
        ks.metadata.uid,
        Some(fleet.kube_system_uid("small-01").expect("uid"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_resumes_from_a_resource_version_and_expires_with_410() {
    let fleet = small(1.0);
    let client = fleet.client("small-02").expect("client");
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    let list = cms.list(&ListParams::default()).await.expect("list");
    let rv = list.metadata.resource_version.clone().expect("rv");
    cms.create(&PostParams::default(), &cm("a"))
        .await
        .expect("create a");
    cms.patch(
        "a",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"k": "w"}})),
    )
    .await
    .expect("patch a");
    cms.delete("a", &DeleteParams::default())
        .await
        .expect("delete a");
    // Resume: the three changes after the list, in order.
    let stream = cms
        .watch(&WatchParams::default().timeout(1), &rv)
        .await
        .expect("watch");
    let events: Vec<_> = stream.take(3).try_collect().await.expect("events");
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            WatchEvent::Added(_) => "ADDED",
            WatchEvent::Modified(_) => "MODIFIED",
            WatchEvent::Deleted(_) => "DELETED",
            WatchEvent::Bookmark(_) => "BOOKMARK",
            WatchEvent::Error(_) => "ERROR",
        })
        .collect();
    assert_eq!(kinds, ["ADDED", "MODIFIED", "DELETED"]);

    // After a compaction the old version is gone: 200 with one ERROR event (410 Expired).
    fleet.compact("small-02").expect("compact");
    let mut stream = Box::pin(
        cms.watch(&WatchParams::default().timeout(1), &rv)
            .await
            .expect("watch answers 200"),
    );
    let first = stream.next().await.expect("one event");
    let status = match first {
        Ok(WatchEvent::Error(s)) => *s,
        Err(kube::Error::Api(s)) => *s,
        other => panic!("expected a 410 error event, got {other:?}"),
    };
    assert_eq!((status.code, status.reason.as_str()), (410, "Expired"));
    // Relist gives a fresh version to watch from.
    let relist = cms.list(&ListParams::default()).await.expect("relist");
    let fresh = relist.metadata.resource_version.expect("rv");
    let ok = cms
        .watch(&WatchParams::default().timeout(1), &fresh)
        .await
        .expect("watch");
    let evs: Vec<_> = ok.collect().await;
    assert!(evs.iter().all(|e| !matches!(e, Ok(WatchEvent::Error(_)))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bookmarks_and_streaming_list() {
    let fleet = small(1.0);
    let client = fleet.client("small-01").expect("client");
    let nodes: Api<Node> = Api::all(client.clone());
    let rv = nodes
        .list(&ListParams::default())
        .await
        .expect("list")
        .metadata
        .resource_version
        .expect("rv");
    let events: Vec<_> = nodes
        .watch(
            &WatchParams {
                bookmarks: true,
                ..WatchParams::default()
            }
            .timeout(2),
            &rv,
        )
        .await
        .expect("watch")
        .collect()
        .await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Ok(WatchEvent::Bookmark(_)))),
        "a bookmark within 2s"
    );

    let mut stream = Box::pin(
        nodes
            .watch(&WatchParams::streaming_lists().timeout(3), "")
            .await
            .expect("streaming list"),
    );
    let mut added = 0;
    loop {
        match stream.next().await {
            Some(Ok(WatchEvent::Added(_))) => added += 1,
            Some(Ok(WatchEvent::Bookmark(b))) => {
                assert_eq!(
                    b.metadata
                        .annotations
                        .get("k8s.io/initial-events-end")
                        .map(String::as_str),
                    Some("true")
                );
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(added, 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_patch_type_and_server_side_apply_conflicts() {
    let fleet = small(1.0);
    let client = fleet.client("small-stg-01").expect("client");
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    cms.create(&PostParams::default(), &cm("p"))
        .await
        .expect("create");
    let m = cms
        .patch(
            "p",
            &PatchParams::default(),
            &Patch::Merge(json!({"metadata": {"labels": {"a": "1"}}, "data": {"x": "1"}})),
        )
        .await
        .expect("merge");
    assert_eq!(
        m.data.as_ref().and_then(|d| d.get("x")).map(String::as_str),
        Some("1")
    );
    let s = cms
        .patch(
            "p",
            &PatchParams::default(),
            &Patch::Strategic(json!({"data": {"k": null}})),
        )
        .await
        .expect("strategic");
    assert!(s.data.as_ref().is_some_and(|d| !d.contains_key("k")));
    // JSON patch (RFC 6902), sent as kube sends it.
    let json_patch = |ops: serde_json::Value| {
        http::Request::patch("/api/v1/namespaces/default/configmaps/p")
            .header("content-type", "application/json-patch+json")
            .body(serde_json::to_vec(&ops).expect("ops"))
            .expect("request")
    };
    let j: ConfigMap = client
        .request(json_patch(
            json!([{"op": "add", "path": "/data/y", "value": "2"}]),
        ))
        .await
        .expect("json patch");
    assert_eq!(
        j.data.as_ref().and_then(|d| d.get("y")).map(String::as_str),
        Some("2")
    );
    let err = client
        .request::<ConfigMap>(json_patch(
            json!([{"op": "test", "path": "/data/y", "value": "9"}]),
        ))
        .await
        .expect_err("test op fails");
    assert_eq!(api_status(&err).map(|s| s.code), Some(422));

    // Strategic merge on a pod list merges containers by name.
    let deploys: Api<Deployment> = Api::namespaced(client.clone(), "shop");
    let d = deploys
        .patch("checkout", &PatchParams::default(), &Patch::Strategic(json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "registry.example.com/checkout:2.0.0"}]}}}})))
        .await
        .expect("strategic deployment");
    let containers = d
        .spec
        .and_then(|s| s.template.spec)
        .map(|s| s.containers)
        .unwrap_or_default();
    assert_eq!(containers.len(), 1);
    assert!(
        containers[0].resources.is_some(),
        "other container fields kept"
    );
    assert_eq!(d.metadata.generation, Some(2));

    // Server-side apply: upsert, managedFields, conflict, force.
    let apply = |replicas: i32| {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}})
    };
    let created = deploys
        .patch(
            "web",
            &PatchParams::apply("team-a"),
            &Patch::Apply(apply(2)),
        )
        .await
        .expect("apply creates");
    let mf = created.metadata.managed_fields.clone().unwrap_or_default();
    assert!(
        mf.iter()
            .any(|m| m.manager.as_deref() == Some("team-a")
                && m.operation.as_deref() == Some("Apply"))
    );
    let err = deploys
        .patch(
            "web",
            &PatchParams::apply("team-b"),
            &Patch::Apply(apply(5)),
        )
        .await
        .expect_err("conflict");
    let st = api_status(&err).expect("api error");
    assert_eq!((st.code, st.reason.as_str()), (409, "Conflict"));
    let causes = st
        .details
        .as_ref()
        .map(|d| d.causes.clone())
        .unwrap_or_default();
    assert!(
        causes
            .iter()
            .any(|c| c.reason == "FieldManagerConflict" && c.field == ".spec.replicas"),
        "{causes:?}"
    );
    let forced = deploys
        .patch(
            "web",
            &PatchParams::apply("team-b").force(),
            &Patch::Apply(apply(5)),
        )
        .await
        .expect("force");
    assert_eq!(forced.spec.and_then(|s| s.replicas), Some(5));
    let same = deploys
        .patch(
            "web",
            &PatchParams::apply("team-a"),
            &Patch::Apply(apply(5)),
        )
        .await;
    assert!(
        same.is_ok(),
        "same value from another manager is shared ownership"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lease_conflicts_and_unconditional_update() {
    let fleet = small(1.0);
    let client = fleet.client("small-01").expect("client");
    let leases: Api<Lease> = Api::namespaced(client, "kube-system");
    let lease: Lease = serde_json::from_value(json!({"metadata": {"name": "fleetdeck"}, "spec": {"holderIdentity": "a", "leaseDurationSeconds": 15}})).expect("lease");
    let created = leases
        .create(&PostParams::default(), &lease)
        .await
        .expect("create");
    let dup = leases
        .create(&PostParams::default(), &lease)
        .await
        .expect_err("exists");
    assert_eq!(
        api_status(&dup).map(|s| (s.code, s.reason.clone())),
        Some((409, "AlreadyExists".into()))
    );
    let mut mine = created.clone();
    mine.spec.as_mut().expect("spec").holder_identity = Some("b".into());
    leases
        .replace("fleetdeck", &PostParams::default(), &mine)
        .await
        .expect("update with current rv");
    let stale = leases
        .replace("fleetdeck", &PostParams::default(), &mine)
        .await
        .expect_err("stale rv");
    assert_eq!(
        api_status(&stale).map(|s| (s.code, s.reason.clone())),
        Some((409, "Conflict".into()))
    );
    let mut blind = mine.clone();
    blind.metadata.resource_version = None;
    let e = leases
        .replace("fleetdeck", &PostParams::default(), &blind)
        .await
        .expect_err("no rv");
    assert_eq!(
        api_status(&e).map(|s| (s.code, s.reason.clone())),
        Some((422, "Invalid".into()))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eviction_honours_disruption_budgets() {
    let fleet = small(5.0);
    let client = fleet.client("small-01").expect("client");
    let pods: Api<Pod> = Api::namespaced(client.clone(), "shop");
    let blocked = pods
        .list(&ListParams::default().labels("app=checkout"))
        .await
        .expect("list")
        .items;
    let name = blocked[0].metadata.name.clone().expect("name");
    let err = pods
        .evict(&name, &EvictParams::default())
        .await
        .expect_err("blocked");
    let st = api_status(&err).expect("api error");
    assert_eq!((st.code, st.reason.as_str()), (429, "TooManyRequests"));
    let cause = st
        .details
        .as_ref()
        .and_then(|d| d.causes.first())
        .cloned()
        .expect("cause");
    assert_eq!(cause.reason, "DisruptionBudget");
    assert_eq!(
        cause.message,
        "The disruption budget checkout-blocking needs 3 healthy pods and has 3 currently"
    );

    let pdbs: Api<PodDisruptionBudget> = Api::namespaced(client.clone(), "shop");
    let before = pdbs
        .get("payments")
        .await
        .expect("pdb")
        .status
        .expect("status");
    assert_eq!(before.disruptions_allowed, 1);
    // Two Running, Ready pods of the same budget, picked before the first eviction (a
    // replacement pod is Pending and would be evicted without a budget check).
    let payments: Vec<String> = pods
        .list(&ListParams::default().labels("app=payments"))
        .await
        .expect("list")
        .items
        .into_iter()
        .filter_map(|p| p.metadata.name)
        .collect();
    let (victim, other) = (payments[0].clone(), payments[1].clone());
    pods.evict(&victim, &EvictParams::default())
        .await
        .expect("evict allowed");
    let err = pods
        .evict(&other, &EvictParams::default())
        .await
        .expect_err("budget used up");
    assert_eq!(api_status(&err).map(|s| s.code), Some(429));
    // The ReplicaSet replaces the evicted pod; it becomes Ready and the budget recovers.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let st = pdbs
            .get("payments")
            .await
            .expect("pdb")
            .status
            .expect("status");
        let gone = pods.get_opt(&victim).await.expect("get").is_none();
        if gone && st.current_healthy == 3 && st.disruptions_allowed == 1 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "budget did not recover: {st:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tcp_kubeconfig_version_faults_and_refusal() {
    let served = serve(small(1.0)).await;
    let client = tcp_client(&served.kubeconfig, "small-02").await;
    let info = client.apiserver_version().await.expect("version");
    assert_eq!(
        (info.major.as_str(), info.git_version.as_str()),
        ("1", "v1.32.3")
    );
    let nodes: Api<Node> = Api::all(client.clone());
    assert_eq!(
        nodes
            .list(&ListParams::default().limit(4))
            .await
            .expect("nodes")
            .items
            .len(),
        4
    );

    served
        .fleet
        .update_faults("small-02", |f| {
            f.error_rate_429 = 1.0;
            f.retry_after_seconds = 3;
        })
        .expect("faults");
    let err = nodes.list(&ListParams::default()).await.expect_err("429");
    assert_eq!(
        api_status(&err).map(|s| (s.code, s.reason.clone())),
        Some((429, "TooManyRequests".into()))
    );
    served
        .fleet
        .update_faults("small-02", |f| {
            f.error_rate_429 = 0.0;
            f.error_rate_500 = 1.0;
        })
        .expect("faults");
    assert_eq!(
        api_status(&nodes.list(&ListParams::default()).await.expect_err("500")).map(|s| s.code),
        Some(500)
    );
    served
        .fleet
        .update_faults("small-02", |f| {
            f.error_rate_500 = 0.0;
            f.unreachable = Some(fleetdeck::sim::Unreachable::Refused);
        })
        .expect("faults");
    let refused = nodes
        .list(&ListParams::default())
        .await
        .expect_err("refused");
    assert!(
        api_status(&refused).is_none(),
        "a connection error, not an HTTP status: {refused}"
    );
    // Another cluster on the same port is unaffected.
    let other = tcp_client(&served.kubeconfig, "small-01").await;
    assert_eq!(
        Api::<Node>::all(other)
            .list(&ListParams::default())
            .await
            .expect("nodes")
            .items
            .len(),
        10
    );
    served.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reboot_and_zone_outage_change_node_readiness() {
    let fleet = small(20.0);
    let client = fleet.client("small-stg-01").expect("client");
    let nodes: Api<Node> = Api::all(client);
    let ready = |n: &Node| {
        n.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
            .map(|c| c.status.clone())
    };
    assert!(
        fleet.reboot_node("small-stg-01", "no-such-node").is_err(),
        "unknown node is refused"
    );
    let name = nodes
        .list(&ListParams::default())
        .await
        .expect("list")
        .items[0]
        .metadata
        .name
        .clone()
        .expect("name");
    fleet.reboot_node("small-stg-01", &name).expect("reboot");
    let mut saw_not_ready = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let n = nodes.get(&name).await.expect("node");
        match ready(&n).as_deref() {
            Some("False") => saw_not_ready = true,
            Some("True") if saw_not_ready => break,
            _ => {}
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "reboot did not finish"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let events: Api<k8s_openapi::api::core::v1::Event> =
        Api::namespaced(fleet.client("small-stg-01").expect("client"), "default");
    let about = events
        .list(&ListParams::default().fields(&format!("involvedObject.name={name}")))
        .await
        .expect("events");
    assert!(
        about
            .items
            .iter()
            .any(|e| e.reason.as_deref() == Some("Rebooted"))
    );
    fleet
        .update_faults("small-stg-01", |f| {
            f.zone_outage = Some(fleetdeck::sim::ZoneOutage {
                zone: "us-east-1b".into(),
                at_seconds: 0.0,
            })
        })
        .expect("faults");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let all = nodes
        .list(&ListParams::default())
        .await
        .expect("list")
        .items;
    let zone = |n: &Node| {
        n.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get("topology.kubernetes.io/zone").cloned())
    };
    for n in &all {
        let expect = if zone(n).as_deref() == Some("us-east-1b") {
            "Unknown"
        } else {
            "True"
        };
        assert_eq!(ready(n).as_deref(), Some(expect), "{:?}", n.metadata.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tcp_pagination_watch_patch_lease_and_eviction() {
    let served = serve(small(1.0)).await;
    let client = tcp_client(&served.kubeconfig, "small-01").await;
    // Paginated list.
    let pods: Api<Pod> = Api::all(client.clone());
    let all = pods.list(&ListParams::default()).await.expect("list");
    let (names, pages) = paginate(&pods, 6).await;
    assert_eq!((names.len(), pages > 2), (all.items.len(), true));
    // Watch resume, bookmarks, then 410 after compaction.
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    let rv = all.metadata.resource_version.clone().expect("rv");
    cms.create(&PostParams::default(), &cm("over-tcp"))
        .await
        .expect("create");
    let events: Vec<_> = cms
        .watch(
            &WatchParams {
                bookmarks: true,
                ..WatchParams::default()
            }
            .timeout(2),
            &rv,
        )
        .await
        .expect("watch")
        .collect()
        .await;
    assert!(
        matches!(events.first(), Some(Ok(WatchEvent::Added(_)))),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Ok(WatchEvent::Bookmark(_))))
    );
    served.fleet.compact("small-01").expect("compact");
    let mut expired = Box::pin(
        cms.watch(&WatchParams::default().timeout(1), &rv)
            .await
            .expect("watch"),
    );
    match expired.next().await {
        Some(Ok(WatchEvent::Error(s))) => assert_eq!(s.code, 410),
        Some(Err(kube::Error::Api(s))) => assert_eq!(s.code, 410),
        other => panic!("expected 410, got {other:?}"),
    }
    // Streaming list.
    let nodes: Api<Node> = Api::all(client.clone());
    let mut stream = Box::pin(
        nodes
            .watch(&WatchParams::streaming_lists().timeout(3), "")
            .await
            .expect("stream"),
    );
    let mut added = 0;
    while let Some(Ok(ev)) = stream.next().await {
        match ev {
            WatchEvent::Added(_) => added += 1,
            WatchEvent::Bookmark(b)
                if b.metadata
                    .annotations
                    .contains_key("k8s.io/initial-events-end") =>
            {
                break;
            }
            _ => {}
        }
    }
    assert_eq!(added, 10);
    // Patches and apply.
    cms.patch(
        "over-tcp",
        &PatchParams::default(),
        &Patch::Strategic(json!({"data": {"s": "1"}})),
    )
    .await
    .expect("strategic");
    cms.patch(
        "over-tcp",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"m": "1"}})),
    )
    .await
    .expect("merge");
    let applied = cms
        .patch("over-tcp", &PatchParams::apply("tcp-test"), &Patch::Apply(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "over-tcp"}, "data": {"a": "1"}})))
        .await
        .expect("apply");
    assert_eq!(applied.data.map(|d| d.len()), Some(4));
    // Lease conflict.
    let leases: Api<Lease> = Api::namespaced(client.clone(), "default");
    let lease: Lease =
        serde_json::from_value(json!({"metadata": {"name": "l"}, "spec": {"holderIdentity": "a"}}))
            .expect("lease");
    let created = leases
        .create(&PostParams::default(), &lease)
        .await
        .expect("create");
    let mut next = created.clone();
    next.spec.as_mut().expect("spec").holder_identity = Some("b".into());
    leases
        .replace("l", &PostParams::default(), &next)
        .await
        .expect("first update");
    let stale = leases
        .replace("l", &PostParams::default(), &next)
        .await
        .expect_err("stale");
    assert_eq!(api_status(&stale).map(|s| s.code), Some(409));
    // Eviction refused by the blocking budget: the first 429 reaches the caller.
    let shop: Api<Pod> = Api::namespaced(client, "shop");
    let victim = shop
        .list(&ListParams::default().labels("app=checkout"))
        .await
        .expect("list")
        .items[0]
        .metadata
        .name
        .clone()
        .expect("name");
    let err = shop
        .evict(&victim, &EvictParams::default())
        .await
        .expect_err("429");
    let st = api_status(&err).expect("status");
    assert_eq!(st.code, 429);
    assert_eq!(
        st.details
            .as_ref()
            .and_then(|d| d.causes.first())
            .map(|c| c.reason.as_str()),
        Some("DisruptionBudget")
    );
    served.server.shutdown().await;
}
