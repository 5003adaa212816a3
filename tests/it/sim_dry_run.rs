//! Dry runs through the real kube client: `dryRun=All` on create, replace, patch and
//! delete answers as if done, stores nothing and sends no watch event.

use std::time::Duration;

use crate::support::sim::{api_status, serve, small, tcp_client};
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{
    Api, DeleteParams, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams,
};
use kube::core::ObjectMeta;
use serde_json::json;

fn cm(name: &str, value: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        data: Some([("k".to_string(), value.to_string())].into()),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_runs_store_nothing_and_send_no_watch_event() {
    let served = serve(small(1.0)).await;
    let client = tcp_client(&served.kubeconfig, "small-01").await;
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), "default");
    cms.create(&PostParams::default(), &cm("kept", "1"))
        .await
        .expect("create");
    let rv = cms
        .list(&ListParams::default())
        .await
        .expect("list")
        .metadata
        .resource_version
        .expect("list rv");
    let mut events = cms
        .watch(&WatchParams::default().timeout(10), &rv)
        .await
        .expect("watch")
        .boxed();

    let dry = PostParams {
        dry_run: true,
        ..Default::default()
    };
    let answered = cms
        .create(&dry, &cm("ghost", "x"))
        .await
        .expect("dry create");
    assert_eq!(answered.metadata.name.as_deref(), Some("ghost"));
    let mut kept = cms.get("kept").await.expect("get");
    kept.data = Some([("k".to_string(), "2".to_string())].into());
    let replaced = cms.replace("kept", &dry, &kept).await.expect("dry replace");
    assert_eq!(
        replaced
            .data
            .unwrap_or_default()
            .get("k")
            .map(String::as_str),
        Some("2")
    );
    let patched = cms
        .patch(
            "kept",
            &PatchParams::default().dry_run(),
            &Patch::Merge(json!({"data": {"k": "3"}})),
        )
        .await
        .expect("dry patch");
    assert_eq!(
        patched
            .data
            .unwrap_or_default()
            .get("k")
            .map(String::as_str),
        Some("3")
    );
    cms.delete(
        "kept",
        &DeleteParams {
            dry_run: true,
            ..Default::default()
        },
    )
    .await
    .expect("dry delete");

    let err = cms
        .get("ghost")
        .await
        .expect_err("a dry-run create stores nothing");
    assert_eq!(api_status(&err).map(|s| s.code), Some(404));
    let stored = cms.get("kept").await.expect("still there");
    assert_eq!(
        stored.data.unwrap_or_default().get("k").map(String::as_str),
        Some("1")
    );

    // The first event after the dry runs is the real create that follows them.
    cms.create(&PostParams::default(), &cm("real", "1"))
        .await
        .expect("real create");
    let first = tokio::time::timeout(Duration::from_secs(5), events.try_next())
        .await
        .expect("an event within 5 s")
        .expect("watch stream")
        .expect("an event");
    match first {
        WatchEvent::Added(o) => assert_eq!(o.metadata.name.as_deref(), Some("real")),
        other => panic!("expected ADDED real, got {other:?}"),
    }
    served.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_deployment_leaves_no_pods_and_a_dry_run_one_neither() {
    let served = serve(small(1.0)).await;
    let client = tcp_client(&served.kubeconfig, "small-01").await;
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), "default");
    let pods: Api<Pod> = Api::namespaced(client.clone(), "default");
    let deployment = |name: &str, template_app: &str| -> Deployment {
        serde_json::from_value(json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": name}},
                "template": {"metadata": {"labels": {"app": template_app}},
                    "spec": {"containers": [{"name": "app", "image": "nginx"}]}}}
        }))
        .expect("deployment")
    };
    let err = deployments
        .create(&PostParams::default(), &deployment("mismatch", "other"))
        .await
        .expect_err("a selector that does not match the template is refused");
    let status = api_status(&err).expect("a Status");
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
    let dry = PostParams {
        dry_run: true,
        ..Default::default()
    };
    deployments
        .create(&dry, &deployment("dry", "dry"))
        .await
        .expect("a valid dry-run deployment is answered");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for app in ["mismatch", "other", "dry"] {
        let found = pods
            .list(&ListParams::default().labels(&format!("app={app}")))
            .await
            .expect("list pods");
        assert!(
            found.items.is_empty(),
            "pods for app={app}: {:?}",
            found.items.len()
        );
    }
    served.server.shutdown().await;
}
