//! kubectl as a second client of the simulator: the simulator must satisfy a real,
//! independent Kubernetes client, not only kube-rs.
//!
//! Needs `kubectl` on PATH (Debian: `apt-get install -y kubernetes-client`). Without it
//! these tests fail with that message; they never skip silently.
//!
//! Over 600 lines: one subject, the simulator through kubectl, sharing the kubectl runner
//! and kubeconfig set-up at the top.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::support::sim::{Served, serve, small, small_with_postgres};
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::api::{Api, DeleteParams, ListParams};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

fn kubectl_cmd(s: &Served, context: &str, args: &[&str]) -> Command {
    kubectl_cmd_with(s, &s.kubeconfig, context, args)
}

fn kubectl_cmd_with(s: &Served, kubeconfig: &Path, context: &str, args: &[&str]) -> Command {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join("kubectl").is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "kubectl not found on PATH: install it (Debian: `apt-get install -y kubernetes-client`)"
    );
    let mut cmd = Command::new("kubectl");
    cmd.arg("--kubeconfig")
        .arg(kubeconfig)
        .arg("--context")
        .arg(context)
        .arg("--cache-dir")
        .arg(s.dir.path().join("kube-cache"))
        .arg("--request-timeout=20s")
        .args(args)
        .env("HOME", s.dir.path())
        .stdin(Stdio::null())
        .kill_on_drop(true);
    cmd
}

struct Out {
    ok: bool,
    stdout: String,
    stderr: String,
}

async fn kubectl(s: &Served, context: &str, args: &[&str]) -> Out {
    kubectl_with(s, &s.kubeconfig, context, args).await
}

async fn kubectl_with(s: &Served, kubeconfig: &Path, context: &str, args: &[&str]) -> Out {
    let out = kubectl_cmd_with(s, kubeconfig, context, args)
        .output()
        .await
        .expect("run kubectl");
    Out {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

async fn pods_on(s: &Served, cluster: &str, node: &str) -> Vec<Pod> {
    let pods: Api<Pod> = Api::all(s.fleet.client(cluster).expect("client"));
    pods.list(&ListParams::default().fields(&format!("spec.nodeName={node}")))
        .await
        .expect("list")
        .items
}

fn app(p: &Pod) -> String {
    p.metadata
        .labels
        .as_ref()
        .and_then(|l| l.get("app").cloned())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_get_nodes_wide_cordon_uncordon() {
    let s = serve(small(1.0)).await;
    let out = kubectl(&s, "small-02", &["get", "nodes", "-o", "wide"]).await;
    assert!(out.ok, "{}", out.stderr);
    assert!(out.stdout.contains("KERNEL-VERSION"), "{}", out.stdout);
    assert!(
        out.stdout.contains("small-02-n000") && out.stdout.contains("Ready"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.stdout.lines().count(),
        11,
        "header and ten nodes:\n{}",
        out.stdout
    );

    let nodes: Api<Node> = Api::all(s.fleet.client("small-02").expect("client"));
    let out = kubectl(&s, "small-02", &["cordon", "small-02-n003"]).await;
    assert!(
        out.ok && out.stdout.contains("cordoned"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    let n = nodes.get("small-02-n003").await.expect("node");
    assert_eq!(n.spec.and_then(|s| s.unschedulable), Some(true));
    let out = kubectl(&s, "small-02", &["get", "nodes", "small-02-n003"]).await;
    assert!(out.stdout.contains("SchedulingDisabled"), "{}", out.stdout);
    let out = kubectl(&s, "small-02", &["uncordon", "small-02-n003"]).await;
    assert!(
        out.ok && out.stdout.contains("uncordoned"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    let n = nodes.get("small-02-n003").await.expect("node");
    assert_ne!(n.spec.and_then(|s| s.unschedulable), Some(true));
    let out = kubectl(
        &s,
        "small-02",
        &["scale", "-n", "shop", "deploy/search", "--replicas=4"],
    )
    .await;
    assert!(
        out.ok && out.stdout.contains("scaled"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    let out = kubectl(&s, "small-02", &["get", "pdb", "-n", "shop"]).await;
    assert!(
        out.ok && out.stdout.contains("ALLOWED DISRUPTIONS"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_drain_succeeds_unless_a_blocking_budget_protects_a_pod() {
    let s = serve(small(4.0)).await;
    let cluster = "small-01";
    let pods: Api<Pod> = Api::all(s.fleet.client(cluster).expect("client"));
    let all = pods.list(&ListParams::default()).await.expect("pods").items;
    let node_of = |p: &Pod| {
        p.spec
            .as_ref()
            .and_then(|s| s.node_name.clone())
            .unwrap_or_default()
    };
    let blocked_nodes: Vec<String> = all
        .iter()
        .filter(|p| app(p) == "checkout")
        .map(node_of)
        .collect();
    let free = all
        .iter()
        .filter(|p| app(p) != "kube-proxy" && !blocked_nodes.contains(&node_of(p)))
        .map(node_of)
        .next()
        .expect("a node with evictable pods only");
    let out = kubectl(
        &s,
        cluster,
        &["drain", &free, "--ignore-daemonsets", "--timeout=60s"],
    )
    .await;
    assert!(
        out.ok,
        "drain of {free} failed:\n{}\n{}",
        out.stdout, out.stderr
    );
    // kubectl 1.20 (Debian bookworm) reports the finished drain as "node/… evicted".
    assert!(
        out.stdout.contains(&format!("node/{free} drained"))
            || out.stdout.contains(&format!("node/{free} evicted")),
        "{}",
        out.stdout
    );
    let left = pods_on(&s, cluster, &free).await;
    assert!(
        left.iter().all(|p| app(p) == "kube-proxy"),
        "only the DaemonSet pod stays: {:?}",
        left.iter().map(app).collect::<Vec<_>>()
    );

    let blocked = &blocked_nodes[0];
    let out = kubectl(
        &s,
        cluster,
        &["drain", blocked, "--ignore-daemonsets", "--timeout=6s"],
    )
    .await;
    assert!(!out.ok, "drain of {blocked} must time out:\n{}", out.stdout);
    assert!(out.stderr.contains("disruption budget"), "{}", out.stderr);
    assert!(out.stderr.contains("global timeout"), "{}", out.stderr);
    assert!(
        pods_on(&s, cluster, blocked)
            .await
            .iter()
            .any(|p| app(p) == "checkout")
    );
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_get_pods_watch_sees_a_change() {
    let s = serve(small(4.0)).await;
    let cluster = "small-02";
    let pods: Api<Pod> = Api::namespaced(s.fleet.client(cluster).expect("client"), "shop");
    let victim = pods.list(&ListParams::default()).await.expect("pods").items[0]
        .metadata
        .name
        .clone()
        .expect("name");
    let mut child = kubectl_cmd(&s, cluster, &["get", "pods", "-n", "shop", "--watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kubectl");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut seen = 0;
    let mut deleted = false;
    let result = tokio::time::timeout(Duration::from_secs(20), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(&victim) {
                seen += 1;
                if !deleted {
                    pods.delete(&victim, &DeleteParams::default())
                        .await
                        .expect("delete");
                    deleted = true;
                } else if line.contains("Terminating") {
                    return true;
                }
            }
        }
        false
    })
    .await;
    let _ = child.kill().await;
    assert_eq!(
        result,
        Ok(true),
        "kubectl --watch did not show the pod terminating (seen {seen} lines)"
    );
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_gets_statefulsets_claims_and_volumes_by_short_name() {
    let s = serve(small_with_postgres(1.0)).await;
    let out = kubectl(&s, "small-02", &["get", "sts", "-n", "shop"]).await;
    assert!(out.ok, "{}", out.stderr);
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("postgres "))
        .unwrap_or_default();
    assert!(line.contains("3/3"), "{}", out.stdout);

    let out = kubectl(&s, "small-02", &["get", "pvc", "-n", "shop"]).await;
    assert!(out.ok, "{}", out.stderr);
    for ordinal in 0..3 {
        let line = out
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("data-postgres-{ordinal} ")))
            .unwrap_or_default();
        assert!(
            line.contains("Bound")
                && line.contains("pvc-")
                && line.contains("10Gi")
                && line.contains("RWO")
                && line.contains("gp3"),
            "{}",
            out.stdout
        );
    }

    let out = kubectl(&s, "small-02", &["get", "pv"]).await;
    assert!(out.ok, "{}", out.stderr);
    assert_eq!(
        out.stdout.lines().filter(|l| l.starts_with("pvc-")).count(),
        3,
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("shop/data-postgres-0") && out.stdout.contains("Delete"),
        "{}",
        out.stdout
    );

    // A volume by name, as YAML: pinned to its zone.
    let name = out
        .stdout
        .lines()
        .find_map(|l| {
            l.split_whitespace()
                .next()
                .filter(|n| n.starts_with("pvc-"))
        })
        .unwrap_or_default()
        .to_string();
    let out = kubectl(&s, "small-02", &["get", "pv", &name, "-o", "yaml"]).await;
    assert!(
        out.ok && out.stdout.contains("topology.kubernetes.io/zone"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_auth_can_i_whoami_and_forbidden_users() {
    let s = serve(small(1.0)).await;
    let out = kubectl(&s, "small-01", &["auth", "whoami"]).await;
    assert!(out.ok, "{}", out.stderr);
    assert!(
        out.stdout.contains("Username") && out.stdout.contains("admin"),
        "{}",
        out.stdout
    );
    let out = kubectl(&s, "small-01", &["auth", "can-i", "delete", "nodes"]).await;
    assert_eq!((out.ok, out.stdout.trim()), (true, "yes"), "{}", out.stderr);
    let viewer = s.dir.path().join("viewer.kubeconfig");
    fleetdeck::sim::write_kubeconfig_for(&s.fleet, &viewer, s.addr, "viewer").expect("kubeconfig");
    let out = kubectl_with(
        &s,
        &viewer,
        "small-01",
        &["auth", "can-i", "list", "pods", "-n", "shop"],
    )
    .await;
    assert_eq!((out.ok, out.stdout.trim()), (true, "yes"), "{}", out.stderr);
    let out = kubectl_with(
        &s,
        &viewer,
        "small-01",
        &["auth", "can-i", "create", "deployments"],
    )
    .await;
    assert_eq!((out.ok, out.stdout.trim()), (false, "no"), "{}", out.stderr);
    let out = kubectl_with(
        &s,
        &viewer,
        "small-01",
        &[
            "auth",
            "whoami",
            "-o",
            "jsonpath={.status.userInfo.username}",
        ],
    )
    .await;
    assert_eq!(out.stdout, "viewer", "{}", out.stderr);
    let out = kubectl_with(
        &s,
        &viewer,
        "small-01",
        &["delete", "pod", "-n", "shop", "nope"],
    )
    .await;
    assert!(!out.ok);
    assert!(
        out.stderr.contains(
            "pods \"nope\" is forbidden: User \"viewer\" cannot delete resource \"pods\" in API group \"\" in the namespace \"shop\""
        ),
        "{}",
        out.stderr
    );
    let nobody = s.dir.path().join("nobody.kubeconfig");
    fleetdeck::sim::write_kubeconfig_for(&s.fleet, &nobody, s.addr, "nobody").expect("kubeconfig");
    let out = kubectl_with(&s, &nobody, "small-01", &["get", "nodes"]).await;
    assert!(
        !out.ok && out.stderr.contains("Forbidden"),
        "{}",
        out.stderr
    );
    // `get --raw` takes a path from the server's root, where the simulator serves every
    // cluster under `/clusters/<id>`.
    let out = kubectl(
        &s,
        "small-01",
        &["get", "--raw", "/clusters/small-01/readyz?verbose"],
    )
    .await;
    assert!(out.ok, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("[+]ping ok")
            && out.stdout.contains("[+]etcd-readiness ok")
            && out.stdout.trim_end().ends_with("readyz check passed"),
        "{}",
        out.stdout
    );
    s.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_delete_namespace_waits_for_its_termination() {
    let s = serve(small(4.0)).await;
    // kubectl's typed `create` commands send protobuf, which the simulator does not
    // read; apply sends JSON.
    let manifest = s.dir.path().join("scratch.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: scratch}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: scratch}\ndata: {a: b}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: scratch}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: web:1, resources: {requests: {cpu: 10m}}}]}\n",
    )
    .expect("manifest");
    let path = manifest.to_string_lossy().to_string();
    let out = kubectl(&s, "small-02", &["apply", "--server-side", "-f", &path]).await;
    assert!(out.ok, "{} {}", out.stdout, out.stderr);
    let out = kubectl(
        &s,
        "small-02",
        &["delete", "namespace", "scratch", "--timeout=60s"],
    )
    .await;
    assert!(out.ok, "{} {}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("namespace \"scratch\" deleted"),
        "{}",
        out.stdout
    );
    let out = kubectl(&s, "small-02", &["get", "namespace", "scratch"]).await;
    assert!(
        !out.ok && out.stderr.contains("NotFound"),
        "gone once kubectl returns: {}",
        out.stderr
    );
    s.server.shutdown().await;
}

const RELEASE: &[(&str, &str)] = &[
    ("00-crd.yaml", "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: kustomizations.kustomize.toolkit.fluxcd.io
spec:
  group: kustomize.toolkit.fluxcd.io
  scope: Namespaced
  names: {plural: kustomizations, singular: kustomization, kind: Kustomization, shortNames: [ks]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [interval, path]
            properties:
              interval: {type: string}
              path: {type: string}
              prune: {type: boolean}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
"),
    ("10-app.yaml", "apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: checkout}
  ports: [{name: http, port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Secret
metadata: {name: web-creds, namespace: shop}
stringData: {token: s3cret}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web, namespace: shop}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: web, namespace: shop}
rules: [{apiGroups: [\"\"], resources: [configmaps], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: web, namespace: shop}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: web}
subjects: [{kind: ServiceAccount, name: web, namespace: shop}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: web-migrate, namespace: shop}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: registry.example.com/web-migrate:1.0, resources: {requests: {cpu: 10m}}}]
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: web, namespace: shop}
spec: {interval: 5m, path: ./deploy/web, prune: true}
"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_server_side_apply_of_a_release_with_a_crd_and_its_custom_resource() {
    let s = serve(small(4.0)).await;
    let release = s.dir.path().join("release");
    std::fs::create_dir_all(&release).expect("dir");
    for (name, text) in RELEASE {
        std::fs::write(release.join(name), text).expect("write");
    }
    let dir = release.to_string_lossy().to_string();
    let apply = [
        "apply",
        "--server-side",
        "--field-manager=release",
        "-f",
        dir.as_str(),
    ];
    // As on a real server, a custom resource needs its CRD established before kubectl
    // can map its kind: the CRD goes first, then the whole release.
    let crd = release.join("00-crd.yaml").to_string_lossy().to_string();
    let out = kubectl(
        &s,
        "small-01",
        &["apply", "--server-side", "-f", crd.as_str()],
    )
    .await;
    assert!(
        out.ok && out.stdout.contains("customresourcedefinition.apiextensions.k8s.io/kustomizations.kustomize.toolkit.fluxcd.io serverside-applied"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    let out = kubectl(
        &s,
        "small-01",
        &[
            "wait",
            "--for=condition=Established",
            "crd/kustomizations.kustomize.toolkit.fluxcd.io",
            "--timeout=20s",
        ],
    )
    .await;
    assert!(out.ok, "{} {}", out.stdout, out.stderr);
    let again = kubectl(&s, "small-01", &apply).await;
    assert!(again.ok, "{} {}", again.stdout, again.stderr);
    for line in [
        "service/web serverside-applied",
        "secret/web-creds serverside-applied",
        "serviceaccount/web serverside-applied",
        "role.rbac.authorization.k8s.io/web serverside-applied",
        "rolebinding.rbac.authorization.k8s.io/web serverside-applied",
        "job.batch/web-migrate serverside-applied",
        "kustomization.kustomize.toolkit.fluxcd.io/web serverside-applied",
    ] {
        assert!(again.stdout.contains(line), "{line}: {}", again.stdout);
    }
    let out = kubectl(
        &s,
        "small-01",
        &[
            "get",
            "ks",
            "-n",
            "shop",
            "web",
            "-o",
            "jsonpath={.spec.path}",
        ],
    )
    .await;
    assert_eq!(out.stdout, "./deploy/web", "{}", out.stderr);
    let out = kubectl(
        &s,
        "small-01",
        &[
            "wait",
            "--for=condition=Complete",
            "job/web-migrate",
            "-n",
            "shop",
            "--timeout=30s",
        ],
    )
    .await;
    assert!(out.ok, "{} {}", out.stdout, out.stderr);
    let out = kubectl(
        &s,
        "small-01",
        &[
            "get",
            "secret",
            "web-creds",
            "-n",
            "shop",
            "-o",
            "jsonpath={.data.token}",
        ],
    )
    .await;
    assert_eq!(out.stdout, "czNjcmV0", "{}", out.stderr);
    let out = kubectl(&s, "small-01", &["get", "endpoints", "web", "-n", "shop"]).await;
    assert!(
        out.ok && out.stdout.contains(":8080"),
        "{} {}",
        out.stdout,
        out.stderr
    );
    s.server.shutdown().await;
}
