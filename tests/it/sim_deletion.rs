//! Deletion and eviction as a real kube-apiserver does them, proven over loopback HTTPS
//! with the kube client: namespace termination, finalizers, the propagation policies
//! (Foreground, Background, Orphan), eviction dry runs, and budgets that count only Ready
//! pods, with readiness faults that stay until lifted.

use std::time::Duration;

use crate::support::sim::{eventually, raw, serve, small, tcp_client};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Pod};
use k8s_openapi::api::policy::v1::PodDisruptionBudget;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

const JSON: &str = "application/json";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namespace_termination_and_propagation_policies() {
    let s = serve(small(4.0)).await;
    let client = tcp_client(&s.kubeconfig, "small-01").await;
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "doomed"}});
    let (code, _, _) = raw(&client, "POST", "/api/v1/namespaces", JSON, Some(ns)).await;
    assert_eq!(code, 201);
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "doomed");
    let mut cm: ConfigMap = serde_json::from_value(
        json!({"metadata": {"name": "held", "finalizers": ["example.com/hold"]}}),
    )
    .expect("configmap");
    cms.create(&PostParams::default(), &cm)
        .await
        .expect("create");
    let (code, _, body) = raw(&client, "DELETE", "/api/v1/namespaces/doomed", JSON, None).await;
    assert_eq!(code, 200);
    assert_eq!(body["status"]["phase"], "Terminating");
    assert!(body["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(body["spec"]["finalizers"], json!(["kubernetes"]));
    let (code, _, body) = raw(
        &client,
        "POST",
        "/api/v1/namespaces/doomed/configmaps",
        JSON,
        Some(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "late"}})),
    )
    .await;
    assert_eq!((code, body["reason"].as_str()), (403, Some("Forbidden")));
    assert_eq!(
        body["message"],
        "configmaps \"late\" is forbidden: unable to create new content in namespace doomed because it is being terminated"
    );
    assert_eq!(
        body["details"]["causes"][0]["reason"],
        "NamespaceTerminating"
    );
    // The finalizer holds the namespace; once removed, it goes.
    eventually("held configmap marked deleted", 10, || async {
        cms.get("held")
            .await
            .is_ok_and(|c| c.metadata.deletion_timestamp.is_some())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        namespaces.get("doomed").await.is_ok(),
        "waits for the finalizer"
    );
    cm = cms.get("held").await.expect("held");
    cm.metadata.finalizers = None;
    cms.replace("held", &PostParams::default(), &cm)
        .await
        .expect("remove finalizer");
    eventually("namespace gone", 10, || async {
        namespaces
            .get_opt("doomed")
            .await
            .is_ok_and(|n| n.is_none())
    })
    .await;

    // Foreground: the Deployment waits, with the finalizer, for its ReplicaSet and pods.
    // The pods are held in Terminating (as by a kubelet that has not reported them
    // gone yet), so the wait is observed whatever the machine's speed.
    s.fleet
        .update_faults("small-01", |f| f.stuck_terminating = true)
        .expect("faults");
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), "shop");
    let (code, _, body) = raw(
        &client,
        "DELETE",
        "/apis/apps/v1/namespaces/shop/deployments/search",
        JSON,
        Some(
            json!({"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Foreground"}),
        ),
    )
    .await;
    assert_eq!(code, 200);
    assert_eq!(
        body["metadata"]["finalizers"],
        json!(["foregroundDeletion"])
    );
    assert!(body["metadata"]["deletionTimestamp"].is_string());
    assert!(
        deployments.get("search").await.is_ok(),
        "still there while pods exist"
    );
    s.fleet
        .update_faults("small-01", |f| f.stuck_terminating = false)
        .expect("faults");
    let pods: Api<Pod> = Api::namespaced(client.clone(), "shop");
    eventually("deployment and its pods gone", 20, || async {
        let left = pods
            .list(&ListParams::default().labels("app=search"))
            .await
            .map(|l| l.items.len())
            .unwrap_or(1);
        left == 0
            && deployments
                .get_opt("search")
                .await
                .is_ok_and(|d| d.is_none())
    })
    .await;

    // Orphan: the owner goes, its dependent stays without the reference; Background:
    // the dependent goes after its owner (the garbage collector works for every kind).
    for (policy, dependent_stays) in [("Orphan", true), ("Background", false)] {
        let owner = cms_in(&client, "shop", "owner", None).await;
        let uid = owner["metadata"]["uid"].clone();
        let dep = cms_in(
            &client,
            "shop",
            "dependent",
            Some(json!([{"apiVersion": "v1", "kind": "ConfigMap",
            "name": "owner", "uid": uid, "blockOwnerDeletion": true}])),
        )
        .await;
        assert_eq!(dep["metadata"]["ownerReferences"][0]["uid"], uid);
        let (code, _, _) = raw(
            &client,
            "DELETE",
            &format!("/api/v1/namespaces/shop/configmaps/owner?propagationPolicy={policy}"),
            JSON,
            None,
        )
        .await;
        assert_eq!(code, 200);
        let shop: Api<ConfigMap> = Api::namespaced(client.clone(), "shop");
        eventually("owner gone", 10, || async {
            shop.get_opt("owner").await.is_ok_and(|o| o.is_none())
        })
        .await;
        let left = shop.get_opt("dependent").await.expect("get");
        assert_eq!(left.is_some(), dependent_stays, "{policy}");
        if let Some(d) = left {
            assert!(d.metadata.owner_references.is_none(), "{policy}");
            shop.delete("dependent", &Default::default())
                .await
                .expect("clean up");
        }
    }
    s.server.shutdown().await;
}

async fn cms_in(client: &kube::Client, ns: &str, name: &str, owners: Option<Value>) -> Value {
    let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
    if let Some(o) = owners {
        cm["metadata"]["ownerReferences"] = o;
    }
    let (code, _, body) = raw(
        client,
        "POST",
        &format!("/api/v1/namespaces/{ns}/configmaps"),
        JSON,
        Some(cm),
    )
    .await;
    assert_eq!(code, 201, "{body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eviction_dry_run_and_budgets_that_count_ready_pods() {
    let s = serve(small(4.0)).await;
    let client = tcp_client(&s.kubeconfig, "small-02").await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), "shop");
    let pdbs: Api<PodDisruptionBudget> = Api::namespaced(client.clone(), "shop");
    let search = pods
        .list(&ListParams::default().labels("app=search"))
        .await
        .expect("pods")
        .items;
    let victim = search[0].metadata.name.clone().unwrap_or_default();
    let allowed = |p: &PodDisruptionBudget| p.status.as_ref().map(|s| s.disruptions_allowed);
    let before = pdbs.get("search").await.expect("pdb");
    let evict = |name: String, body: Value, query: &'static str| {
        let client = client.clone();
        async move {
            raw(
                &client,
                "POST",
                &format!("/api/v1/namespaces/shop/pods/{name}/eviction{query}"),
                JSON,
                Some(body),
            )
            .await
        }
    };
    let eviction = |name: &str| json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name}});
    let (code, _, _) = evict(victim.clone(), eviction(&victim), "?dryRun=All").await;
    assert_eq!(code, 201);
    let mut with_options = eviction(&victim);
    with_options["deleteOptions"] = json!({"dryRun": ["All"]});
    let (code, _, _) = evict(victim.clone(), with_options, "").await;
    assert_eq!(code, 201);
    let pod = pods.get(&victim).await.expect("still there");
    assert!(
        pod.metadata.deletion_timestamp.is_none(),
        "a dry run deletes nothing"
    );
    assert_eq!(
        allowed(&pdbs.get("search").await.expect("pdb")),
        allowed(&before)
    );

    // Two of three pods fail their readiness probe: only the Ready one counts.
    let names: Vec<String> = search
        .iter()
        .filter_map(|p| p.metadata.name.clone())
        .collect();
    s.fleet
        .update_faults("small-02", |f| {
            f.not_ready_pods = names[..2]
                .iter()
                .map(|n| fleetdeck::sim::PodSelector {
                    namespace: Some("shop".into()),
                    name: Some(n.clone()),
                    label_selector: None,
                })
                .collect();
        })
        .expect("faults");
    eventually("budget sees one healthy pod", 10, || async {
        pdbs.get("search")
            .await
            .ok()
            .and_then(|p| p.status)
            .is_some_and(|st| {
                st.current_healthy == 1 && st.desired_healthy == 2 && st.disruptions_allowed == 0
            })
    })
    .await;
    let (code, _, body) = evict(names[0].clone(), eviction(&names[0]), "").await;
    assert_eq!(
        (code, body["reason"].as_str()),
        (429, Some("TooManyRequests"))
    );
    assert_eq!(
        body["message"],
        "Cannot evict pod as it would violate the pod's disruption budget."
    );
    assert_eq!(body["details"]["causes"][0]["reason"], "DisruptionBudget");
    assert_eq!(
        body["details"]["causes"][0]["message"],
        "The disruption budget search needs 2 healthy pods and has 1 currently"
    );
    // The readiness fault stays: the kubelet does not make those pods Ready again.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let still = pods.get(&names[1]).await.expect("pod");
    let ready = |p: &Pod| {
        p.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .and_then(|c| c.iter().find(|c| c.type_ == "Ready"))
            .map(|c| c.status.clone())
    };
    assert_eq!(ready(&still).as_deref(), Some("False"));
    pdbs.patch(
        "search",
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"unhealthyPodEvictionPolicy": "AlwaysAllow"}})),
    )
    .await
    .expect("policy");
    eventually("budget observed", 10, || async {
        pdbs.get("search").await.ok().is_some_and(|p| {
            p.status.as_ref().and_then(|s| s.observed_generation) == p.metadata.generation
        })
    })
    .await;
    let (code, _, body) = evict(names[0].clone(), eviction(&names[0]), "").await;
    assert_eq!(code, 201, "{body}");
    // Lifting the fault makes the other pod Ready again.
    s.fleet
        .update_faults("small-02", |f| f.not_ready_pods.clear())
        .expect("faults");
    eventually("pod Ready again", 10, || async {
        pods.get(&names[1])
            .await
            .is_ok_and(|p| ready(&p).as_deref() == Some("True"))
    })
    .await;
    s.server.shutdown().await;
}
