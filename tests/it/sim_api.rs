//! The simulator answers as a real kube-apiserver does, proven over loopback HTTPS with
//! the kube client: users, tokens, 401/403 and self-reviews; health endpoints and the
//! Audit-Id / priority-and-fairness headers; the new kinds' validation;
//! CustomResourceDefinitions and their custom resources; scenario-declared objects.
//! Deletion and eviction are in `sim_deletion.rs`.
//!
//! Over 600 lines: one subject, the simulator's API surface beyond the core kinds, with the
//! raw-request helpers shared by every case.

use crate::support::sim::{causes, eventually, raw, serve, small, tcp_client, tcp_client_as};
use serde_json::{Value, json};

const JSON: &str = "application/json";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn users_tokens_and_self_reviews() {
    let s = serve(small(1.0)).await;
    let admin = tcp_client(&s.kubeconfig, "small-01").await;
    let viewer = tcp_client_as(&s, "small-01", "viewer").await;
    let nobody = tcp_client_as(&s, "small-01", "nobody").await;
    let pods = "/api/v1/namespaces/default/pods";
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"containers": [{"name": "c", "image": "i"}]}});

    let (code, _, _) = raw(&viewer, "GET", pods, JSON, None).await;
    assert_eq!(code, 200, "viewer may list");
    let (code, _, body) = raw(&viewer, "POST", pods, JSON, Some(pod.clone())).await;
    assert_eq!((code, body["reason"].as_str()), (403, Some("Forbidden")));
    assert_eq!(
        body["message"],
        "pods is forbidden: User \"viewer\" cannot create resource \"pods\" in API group \"\" in the namespace \"default\""
    );
    assert_eq!(body["details"], json!({"kind": "pods"}));
    let (code, _, body) = raw(&nobody, "GET", "/apis/apps/v1/deployments", JSON, None).await;
    assert_eq!(code, 403);
    assert_eq!(
        body["message"],
        "deployments.apps is forbidden: User \"nobody\" cannot list resource \"deployments\" in API group \"apps\" at the cluster scope"
    );
    let (code, _, _) = raw(&nobody, "GET", "/version", JSON, None).await;
    assert_eq!(code, 200, "every authenticated user may read /version");
    let (code, _, body) = raw(&admin, "POST", pods, JSON, Some(pod)).await;
    assert_eq!(code, 201, "{body}");

    // Unknown and missing tokens: 401 exactly as a real server words it.
    let dir = s.dir.path().join("bad");
    let text = std::fs::read_to_string(&s.kubeconfig)
        .expect("kubeconfig")
        .replace("fleetdeck-sim-token", "not-a-token");
    std::fs::write(&dir, text).expect("write");
    let stranger = tcp_client(&dir, "small-01").await;
    let (code, headers, body) = raw(&stranger, "GET", pods, JSON, None).await;
    assert_eq!(
        (code, body),
        (
            401,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "Unauthorized", "reason": "Unauthorized", "code": 401})
        )
    );
    assert!(headers.contains_key("audit-id"));
    assert!(!headers.contains_key("x-kubernetes-pf-flowschema-uid"));
    let anonymous = s.fleet.client_as("small-01", "anonymous").expect("client");
    let (code, _, _) = raw(&anonymous, "GET", "/api", JSON, None).await;
    assert_eq!(code, 401);

    // kubectl auth can-i / whoami.
    let review = |verb: &str| {
        json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": {"namespace": "default", "verb": verb, "resource": "pods"}}})
    };
    let ssar = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    let (code, _, body) = raw(&viewer, "POST", ssar, JSON, Some(review("list"))).await;
    assert_eq!((code, &body["status"]["allowed"]), (201, &json!(true)));
    let (_, _, body) = raw(&viewer, "POST", ssar, JSON, Some(review("delete"))).await;
    assert_eq!(body["status"], json!({"allowed": false}));
    let (_, _, body) = raw(&admin, "POST", ssar, JSON, Some(review("delete"))).await;
    assert_eq!(
        body["status"]["reason"],
        "RBAC: allowed by ClusterRoleBinding \"fleetdeck-sim:admin\" of ClusterRole \"cluster-admin\" to User \"admin\""
    );
    let ssr = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"});
    let (code, _, body) = raw(
        &nobody,
        "POST",
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        JSON,
        Some(ssr),
    )
    .await;
    assert_eq!(code, 201);
    assert_eq!(body["status"]["userInfo"]["username"], "nobody");
    assert_eq!(
        body["status"]["userInfo"]["groups"],
        json!(["system:authenticated"])
    );

    // A RoleBinding grants nobody what it names, in its namespace only.
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": "nobody-reads"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "fleetdeck-sim:read-only"},
        "subjects": [{"kind": "User", "name": "nobody"}]});
    let (code, _, body) = raw(
        &admin,
        "POST",
        "/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings",
        JSON,
        Some(binding),
    )
    .await;
    assert_eq!(code, 201, "{body}");
    let (code, _, _) = raw(&nobody, "GET", "/api/v1/namespaces/shop/pods", JSON, None).await;
    assert_eq!(code, 200);
    let (code, _, _) = raw(&nobody, "GET", pods, JSON, None).await;
    assert_eq!(code, 403);

    // The forbiddenResources fault still refuses, with the same message shape.
    s.fleet
        .update_faults("small-01", |f| {
            f.forbidden_resources = vec!["poddisruptionbudgets".into()]
        })
        .expect("faults");
    let (code, _, body) = raw(
        &admin,
        "GET",
        "/apis/policy/v1/poddisruptionbudgets",
        JSON,
        None,
    )
    .await;
    assert_eq!(code, 403);
    assert!(
        body["message"].as_str().is_some_and(|m| m
            .starts_with("poddisruptionbudgets.policy is forbidden: User \"admin\" cannot list")),
        "{body}"
    );
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_endpoints_audit_ids_and_flow_schemas() {
    let s = serve(small(1.0)).await;
    let admin = tcp_client(&s.kubeconfig, "small-02").await;
    let text = admin
        .request_text(
            http::Request::get("/readyz?verbose")
                .body(Vec::new())
                .expect("request"),
        )
        .await
        .expect("readyz");
    assert!(
        text.starts_with("[+]ping ok\n[+]log ok\n[+]etcd ok\n"),
        "{text}"
    );
    assert!(text.ends_with("readyz check passed\n"), "{text}");
    s.fleet
        .update_faults("small-02", |f| {
            f.failing_health_checks = vec!["etcd".into()]
        })
        .expect("faults");
    let (code, _, _) = raw(&admin, "GET", "/livez", JSON, None).await;
    assert_eq!(code, 500);
    let (code, _, _) = raw(&admin, "GET", "/livez?exclude=etcd", JSON, None).await;
    assert_eq!(code, 200);

    // Our requests land in global-default until a FlowSchema for our user says otherwise.
    let schemas: Vec<Value> = {
        let (_, _, body) = raw(
            &admin,
            "GET",
            "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas",
            JSON,
            None,
        )
        .await;
        body["items"].as_array().cloned().unwrap_or_default()
    };
    let uid_of = |name: &str| {
        schemas
            .iter()
            .find(|f| f["metadata"]["name"] == name)
            .map(|f| f["metadata"]["uid"].clone())
            .unwrap_or(Value::Null)
    };
    for name in [
        "exempt",
        "probes",
        "system-nodes",
        "workload-leader-election",
        "global-default",
        "catch-all",
    ] {
        assert!(!uid_of(name).is_null(), "{name} is bootstrapped");
    }
    let (_, headers, _) = raw(&admin, "GET", "/api/v1/namespaces", JSON, None).await;
    let header = |h: &http::HeaderMap, k: &str| {
        h.get(k)
            .and_then(|v| v.to_str().ok())
            .map(|v| json!(v))
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        header(&headers, "x-kubernetes-pf-flowschema-uid"),
        uid_of("global-default")
    );
    assert!(!header(&headers, "x-kubernetes-pf-prioritylevel-uid").is_null());
    assert!(!header(&headers, "audit-id").is_null());
    let ours = json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
        "metadata": {"name": "fleetdeck"},
        "spec": {"priorityLevelConfiguration": {"name": "workload-low"}, "matchingPrecedence": 1000,
            "distinguisherMethod": {"type": "ByUser"},
            "rules": [{"subjects": [{"kind": "User", "user": {"name": "admin"}}],
                "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"], "clusterScope": true}]}]}});
    let (code, _, created) = raw(
        &admin,
        "POST",
        "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas",
        JSON,
        Some(ours),
    )
    .await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["status"]["conditions"][0]["type"], "Dangling");
    assert_eq!(created["status"]["conditions"][0]["status"], "False");
    let (_, headers, _) = raw(&admin, "GET", "/api/v1/namespaces", JSON, None).await;
    assert_eq!(
        header(&headers, "x-kubernetes-pf-flowschema-uid"),
        created["metadata"]["uid"]
    );
    let (code, _, body) = raw(
        &admin,
        "POST",
        "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas",
        JSON,
        Some(json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
            "metadata": {"name": "bad"}, "spec": {"matchingPrecedence": 20000, "priorityLevelConfiguration": {"name": ""}}})),
    )
    .await;
    assert_eq!(code, 422);
    let c = causes(&body);
    assert!(
        c.contains(&(
            "spec.priorityLevelConfiguration.name".into(),
            "FieldValueRequired".into()
        )),
        "{c:?}"
    );
    assert!(
        c.contains(&("spec.matchingPrecedence".into(), "FieldValueInvalid".into())),
        "{c:?}"
    );
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_kinds_are_served_and_validated() {
    let s = serve(small(4.0)).await;
    let c = tcp_client(&s.kubeconfig, "small-01").await;
    let post = |path: &'static str, body: Value| {
        let c = c.clone();
        async move { raw(&c, "POST", path, JSON, Some(body)).await }
    };
    let svc = "/api/v1/namespaces/shop/services";
    let (code, _, body) = post(
        svc,
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
        "spec": {"selector": {"app": "checkout"}}}),
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        causes(&body),
        [("spec.ports".to_string(), "FieldValueRequired".to_string())]
    );
    assert_eq!(
        body["message"],
        "Service \"web\" is invalid: spec.ports: Required value"
    );
    let (code, _, body) = post(
        svc,
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "checkout"},
        "spec": {"selector": {"app": "checkout"}, "ports": [{"port": 80, "targetPort": 8080}]}}),
    )
    .await;
    assert_eq!(code, 201, "{body}");
    assert!(body["spec"]["clusterIP"].is_string());
    assert_eq!(body["spec"]["ports"][0]["protocol"], "TCP");
    eventually("endpoints list the ready checkout pods", 10, || async {
        let (_, _, ep) = raw(
            &c,
            "GET",
            "/api/v1/namespaces/shop/endpoints/checkout",
            JSON,
            None,
        )
        .await;
        ep["subsets"][0]["addresses"]
            .as_array()
            .is_some_and(|a| a.len() == 3)
    })
    .await;
    let (code, _, body) = post(
        "/api/v1/namespaces/shop/secrets",
        json!({"apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "creds"}, "stringData": {"password": "hunter2"}}),
    )
    .await;
    assert_eq!(
        (code, &body["data"]["password"], &body["type"]),
        (201, &json!("aHVudGVyMg=="), &json!("Opaque"))
    );
    let (code, _, body) = post(
        "/api/v1/namespaces/shop/secrets",
        json!({"apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "tls"}, "type": "kubernetes.io/tls", "data": {"tls.crt": "eA=="}}),
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        causes(&body),
        [(
            "data[tls.key]".to_string(),
            "FieldValueRequired".to_string()
        )]
    );
    let (code, _, _) = post(
        "/api/v1/namespaces/shop/serviceaccounts",
        json!({"apiVersion": "v1", "kind": "ServiceAccount",
        "metadata": {"name": "deployer"}}),
    )
    .await;
    assert_eq!(code, 201);
    let (code, _, body) = post(
        "/apis/rbac.authorization.k8s.io/v1/namespaces/shop/roles",
        json!({
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "r"},
        "rules": [{"apiGroups": [""], "resources": ["pods"]}]}),
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        causes(&body),
        [(
            "rules[0].verbs".to_string(),
            "FieldValueRequired".to_string()
        )]
    );
    let (code, _, body) = post(
        "/apis/batch/v1/namespaces/shop/jobs",
        json!({"apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "migrate"}, "spec": {"template": {"spec": {"restartPolicy": "Always",
            "containers": [{"name": "m", "image": "migrate:1"}]}}}}),
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        causes(&body),
        [(
            "spec.template.spec.restartPolicy".to_string(),
            "FieldValueNotSupported".to_string()
        )]
    );
    let (code, _, body) = post("/apis/batch/v1/namespaces/shop/jobs", json!({"apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "migrate"}, "spec": {"template": {"spec": {"restartPolicy": "Never",
            "containers": [{"name": "m", "image": "migrate:1", "resources": {"requests": {"cpu": "10m"}}}]}}}})).await;
    assert_eq!(code, 201, "{body}");
    eventually("job complete", 20, || async {
        let (_, _, job) = raw(
            &c,
            "GET",
            "/apis/batch/v1/namespaces/shop/jobs/migrate",
            JSON,
            None,
        )
        .await;
        job["status"]["succeeded"] == 1
            && job["status"]["conditions"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|x| x["type"] == "Complete"))
    })
    .await;
    let (code, _, body) = post("/apis/batch/v1/namespaces/shop/cronjobs", json!({"apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"name": "nightly"}, "spec": {"schedule": "61 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
            "restartPolicy": "OnFailure", "containers": [{"name": "n", "image": "n:1"}]}}}}}})).await;
    assert_eq!(code, 422);
    assert_eq!(
        causes(&body),
        [("spec.schedule".to_string(), "FieldValueInvalid".to_string())]
    );
    let (code, _, body) = post("/apis/networking.k8s.io/v1/namespaces/shop/ingresses", json!({
        "apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "shop"},
        "spec": {"rules": [{"host": "shop.example.com", "http": {"paths": [{"path": "/", "pathType": "Prefix",
            "backend": {"service": {"name": "checkout", "port": {"number": 80}}}}]}}]}})).await;
    assert_eq!(code, 201, "{body}");
    // A webhook that fails closed on kube-system, its service without ready endpoints.
    let (code, _, body) = post("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
        "metadata": {"name": "policy"}, "webhooks": [{"name": "check.policy.example.com",
            "clientConfig": {"service": {"name": "policy", "namespace": "kube-system"}},
            "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}],
            "sideEffects": "None", "admissionReviewVersions": ["v1"]}]})).await;
    assert_eq!(code, 201, "{body}");
    assert_eq!(body["webhooks"][0]["failurePolicy"], "Fail");
    assert_eq!(body["webhooks"][0]["timeoutSeconds"], 10);
    let (code, _, body) = post("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
        "metadata": {"name": "bad"}, "webhooks": [{"name": "short", "clientConfig": {"url": "https://x"},
            "admissionReviewVersions": ["v1"]}]})).await;
    assert_eq!(code, 422);
    let cs = causes(&body);
    assert!(
        cs.contains(&("webhooks[0].name".into(), "FieldValueInvalid".into())),
        "{cs:?}"
    );
    assert!(
        cs.contains(&(
            "webhooks[0].sideEffects".into(),
            "FieldValueRequired".into()
        )),
        "{cs:?}"
    );
    let (code, _, body) = post("/apis/apiregistration.k8s.io/v1/apiservices", json!({
        "apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": {"name": "v1beta1.metrics.k8s.io"},
        "spec": {"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": 100, "versionPriority": 100,
            "service": {"name": "metrics-server", "namespace": "kube-system"}}})).await;
    assert_eq!(code, 201, "{body}");
    eventually(
        "extension API unavailable without its service",
        10,
        || async {
            let (_, _, a) = raw(
                &c,
                "GET",
                "/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io",
                JSON,
                None,
            )
            .await;
            a["status"]["conditions"][0]["reason"] == "ServiceNotFound"
                && a["status"]["conditions"][0]["status"] == "False"
        },
    )
    .await;
    s.server.shutdown().await;
}

const CRD: &str = r#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "applications.argoproj.io"},
  "spec": {"group": "argoproj.io", "scope": "Namespaced",
    "names": {"plural": "applications", "singular": "application", "kind": "Application", "shortNames": ["app"]},
    "versions": [{"name": "v1alpha1", "served": true, "storage": true, "subresources": {"status": {}},
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "required": ["project"], "properties": {
          "project": {"type": "string"}, "replicas": {"type": "integer", "minimum": 0}}},
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_resource_definitions_serve_validated_kinds() {
    let s = serve(small(4.0)).await;
    let c = tcp_client(&s.kubeconfig, "small-01").await;
    let crd: Value = serde_json::from_str(CRD).expect("crd");
    let (code, _, body) = raw(
        &c,
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        JSON,
        Some(crd),
    )
    .await;
    assert_eq!(code, 201, "{body}");
    eventually("CRD established", 10, || async {
        let (_, _, crd) = raw(
            &c,
            "GET",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.argoproj.io",
            JSON,
            None,
        )
        .await;
        crd["status"]["conditions"].as_array().is_some_and(|cs| {
            cs.iter()
                .any(|x| x["type"] == "Established" && x["status"] == "True")
        })
    })
    .await;
    let (code, _, list) = raw(&c, "GET", "/apis/argoproj.io/v1alpha1", JSON, None).await;
    assert_eq!(code, 200);
    assert_eq!(list["resources"][0]["name"], "applications");
    let (_, _, groups) = raw(&c, "GET", "/apis", JSON, None).await;
    assert!(
        groups["groups"]
            .as_array()
            .is_some_and(|g| g.iter().any(|x| x["name"] == "argoproj.io"))
    );
    let apps = "/apis/argoproj.io/v1alpha1/namespaces/shop/applications";
    let app = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Application", "metadata": {"name": "shop"},
        "spec": {"project": "default", "extra": true}, "status": {"sync": {"status": "Synced"}}});
    let (code, _, body) = raw(&c, "POST", apps, JSON, Some(app)).await;
    assert_eq!(code, 201, "{body}");
    assert_eq!(
        body["spec"],
        json!({"project": "default"}),
        "unknown fields are pruned"
    );
    assert!(
        body.get("status").is_none(),
        "status is the status subresource's"
    );
    let (code, _, body) = raw(
        &c,
        "POST",
        apps,
        JSON,
        Some(json!({"apiVersion": "argoproj.io/v1alpha1",
        "kind": "Application", "metadata": {"name": "bad"}, "spec": {"replicas": "two"}})),
    )
    .await;
    assert_eq!(code, 422);
    assert_eq!(
        body["message"]
            .as_str()
            .map(|m| m.starts_with("Application.argoproj.io \"bad\" is invalid: [")),
        Some(true)
    );
    let cs = causes(&body);
    assert!(
        cs.contains(&("spec.project".into(), "FieldValueRequired".into())),
        "{cs:?}"
    );
    assert!(
        cs.contains(&("spec.replicas".into(), "FieldValueTypeInvalid".into())),
        "{cs:?}"
    );
    let (code, _, body) = raw(
        &c,
        "PATCH",
        &format!("{apps}/shop/status"),
        "application/merge-patch+json",
        Some(json!({"status": {"health": {"status": "Degraded"}}})),
    )
    .await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(body["status"]["health"]["status"], "Degraded");
    let (code, _, _) = raw(
        &c,
        "PATCH",
        &format!("{apps}/shop"),
        "application/strategic-merge-patch+json",
        Some(json!({"spec": {"project": "x"}})),
    )
    .await;
    assert_eq!(code, 415, "no strategic merge for custom resources");
    let (code, _, _) = raw(
        &c,
        "DELETE",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.argoproj.io",
        JSON,
        None,
    )
    .await;
    assert_eq!(code, 200);
    eventually("kind withdrawn", 10, || async {
        raw(&c, "GET", apps, JSON, None).await.0 == 404
    })
    .await;
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenarios_declare_objects_crds_and_custom_resources() {
    let text = format!(
        "name: gitops\ngroups:\n- prefix: g\n  count: 1\n  env: production\n  region: eu-west-1\n  nodes: {{count: 2}}\n  workloads: {{deployments: 1, replicas: 1, namespaces: [argocd]}}\n  objects:\n  - {crd}\n  - {{apiVersion: argoproj.io/v1alpha1, kind: Application, metadata: {{name: shop, namespace: argocd}}, spec: {{project: default}}}}\n  - {{apiVersion: flowcontrol.apiserver.k8s.io/v1, kind: FlowSchema, metadata: {{name: fleetdeck}}, spec: {{priorityLevelConfiguration: {{name: workload-low}}, matchingPrecedence: 500, rules: [{{subjects: [{{kind: User, user: {{name: admin}}}}], nonResourceRules: [{{verbs: ['*'], nonResourceURLs: ['*']}}]}}]}}}}\nusers:\n- {{name: ci, token: ci-token, access: read}}\n",
        crd = CRD.replace('\n', " ")
    );
    let scenario = fleetdeck::sim::Scenario::parse("gitops", &text).expect("scenario parses");
    let fleet = fleetdeck::sim::SimFleet::from_scenario(&scenario, 1, 1.0).expect("fleet");
    assert_eq!(fleet.token("ci").as_deref(), Some("ci-token"));
    let c = fleet.client_as("g-01", "ci").expect("client");
    let (code, _, app) = raw(
        &c,
        "GET",
        "/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/shop",
        JSON,
        None,
    )
    .await;
    assert_eq!((code, &app["spec"]["project"]), (200, &json!("default")));
    let (code, _, _) = raw(
        &c,
        "DELETE",
        "/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/shop",
        JSON,
        None,
    )
    .await;
    assert_eq!(code, 403, "ci reads only");
    let bad = text.replace("project: default", "replicas: 1");
    let err = fleetdeck::sim::Scenario::parse("gitops", &bad)
        .and_then(|s| fleetdeck::sim::SimFleet::from_scenario(&s, 1, 1.0))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("cluster g-01, groups[].objects[1]")
            && err.contains("spec.project: Required value"),
        "{err}"
    );
}
