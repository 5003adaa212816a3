//! kubectl as a second client of the simulator: the simulator must satisfy a real,
//! independent Kubernetes client, not only kube-rs.
//!
//! Needs `kubectl` on PATH (Debian: `apt-get install -y kubernetes-client`). Without it
//! these tests fail with that message; they never skip silently.

mod sim_support;

use std::process::Stdio;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Node, Pod};
use kube::api::{Api, DeleteParams, ListParams};
use sim_support::{Served, serve, small, small_with_postgres};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

fn kubectl_cmd(s: &Served, context: &str, args: &[&str]) -> Command {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join("kubectl").is_file()))
        .unwrap_or(false);
    assert!(
        found,
        "kubectl not found on PATH: install it (Debian: `apt-get install -y kubernetes-client`)"
    );
    let mut cmd = Command::new("kubectl");
    cmd.arg("--kubeconfig")
        .arg(&s.kubeconfig)
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
    let out = kubectl_cmd(s, context, args)
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
