//! Scenario files (`scenarios/*.yaml`): groups of similar clusters, their nodes and
//! workloads, and per-cluster overrides (faults, blocking PDBs, ledger drift).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::auth::SimUser;
use super::error::SimError;
use super::faults::Faults;

/// A parsed scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    /// Scenario name.
    pub name: String,
    /// What it is for.
    #[serde(default)]
    pub description: String,
    /// Timing of simulated behaviour.
    #[serde(default)]
    pub settings: Settings,
    /// Groups of clusters.
    pub groups: Vec<ClusterGroup>,
    /// Per-cluster exceptions to their group.
    #[serde(default)]
    pub overrides: Vec<ClusterOverride>,
    /// Service degradations by version combination (e.g. clusters on kernel 5.4 degrade
    /// after a CNI upgrade).
    #[serde(default)]
    pub degradations: Vec<DegradationRule>,
    /// Users besides the built-in `admin`, `viewer` and `nobody`, with their tokens.
    #[serde(default)]
    pub users: Vec<SimUser>,
    /// The support matrix written into the ledger as it is (`supportMatrix`: the
    /// combinations of versions the platform validated).
    #[serde(default)]
    pub support_matrix: Vec<serde_json::Value>,
    /// When each Kubernetes minor leaves upstream support, written into the ledger.
    #[serde(default)]
    pub kubernetes_support: std::collections::BTreeMap<String, String>,
}

/// Clusters whose live versions start with every `when` value degrade as described
/// (unless an override gave them a degradation of their own).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DegradationRule {
    /// Version key (`kernel`, `cni`, `runtime`, …) → prefix of the cluster's version.
    pub when: std::collections::BTreeMap<String, String>,
    /// The degradation.
    #[serde(flatten)]
    pub degradation: super::faults::Degradation,
}

impl DegradationRule {
    /// Whether a cluster with these live versions is concerned.
    pub fn applies_to(&self, versions: &std::collections::BTreeMap<String, String>) -> bool {
        self.when.iter().all(|(key, prefix)| {
            versions
                .get(key)
                .is_some_and(|v| v.starts_with(prefix.as_str()))
        })
    }
}

/// Simulated durations (in simulated seconds) and store sizes.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// From binding to Running.
    pub pod_start_seconds: f64,
    /// From Running to Ready.
    pub pod_ready_seconds: f64,
    /// Longest time a deleted pod takes to terminate (capped by its grace period).
    pub termination_seconds: f64,
    /// How long a rebooted node stays NotReady.
    pub reboot_seconds: f64,
    /// Watch history kept per cluster (changes).
    pub history: usize,
    /// Interval between watch bookmarks, real seconds.
    pub bookmark_seconds: f64,
    /// How long a Job's pod runs before it succeeds.
    pub job_seconds: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pod_start_seconds: 1.0,
            pod_ready_seconds: 2.0,
            termination_seconds: 1.0,
            reboot_seconds: 30.0,
            history: super::store::DEFAULT_HISTORY,
            bookmark_seconds: 10.0,
            job_seconds: 2.0,
        }
    }
}

/// Candidate versions; each cluster picks one of each list (deterministically from the
/// seed), so a fleet has mixed versions.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct VersionChoices {
    /// e.g. `v1.31.4`.
    pub kubernetes: Vec<String>,
    /// etcd versions.
    pub etcd: Vec<String>,
    /// Container runtime (`containerd://1.7.22`).
    pub runtime: Vec<String>,
    /// Node kernels.
    pub kernel: Vec<String>,
    /// CNI (`cilium 1.16.3`).
    pub cni: Vec<String>,
    /// CSI driver.
    pub csi: Vec<String>,
    /// GPU driver (GPU clusters).
    pub gpu_driver: Vec<String>,
    /// GPU device plugin (GPU clusters).
    pub device_plugin: Vec<String>,
}

/// CPU nodes of each cluster.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NodePool {
    /// Nodes per cluster.
    pub count: usize,
    /// CPU cores per node.
    pub cpu: u32,
    /// Memory per node in GiB.
    pub memory_gi: u32,
    /// Max pods per node.
    pub pods: u32,
    /// Instance type label.
    pub instance_type: String,
}

impl Default for NodePool {
    fn default() -> Self {
        NodePool {
            count: 10,
            cpu: 16,
            memory_gi: 64,
            pods: 110,
            instance_type: "m6i.4xlarge".into(),
        }
    }
}

/// GPU nodes grouped in NVLink/rack blocks.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GpuPool {
    /// GPU nodes per cluster.
    pub count: usize,
    /// GPUs per node.
    pub gpus_per_node: u32,
    /// Nodes per NVLink clique / rack.
    pub nodes_per_block: usize,
    /// `nvidia.com/gpu.product`.
    pub product: String,
    /// GPU jobs already running, as GPUs per pod; placed so that free GPUs are
    /// fragmented across nodes.
    pub jobs: Vec<u32>,
}

impl Default for GpuPool {
    fn default() -> Self {
        GpuPool {
            count: 0,
            gpus_per_node: 8,
            nodes_per_block: 4,
            product: "NVIDIA-H100-80GB-HBM3".into(),
            jobs: Vec::new(),
        }
    }
}

/// Services running in each cluster.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Workloads {
    /// Namespaces the deployments are spread over.
    pub namespaces: Vec<String>,
    /// Deployments per cluster.
    pub deployments: usize,
    /// Replicas per deployment.
    pub replicas: i32,
    /// CPU request per pod in millicores.
    pub cpu_millis: u32,
    /// Memory request per pod in MiB.
    pub memory_mi: u32,
    /// Give every deployment a PDB with `maxUnavailable: 1`.
    pub pdbs: bool,
    /// DaemonSets in kube-system (one pod per node).
    pub daemon_sets: Vec<String>,
    /// StatefulSets whose pods each hold a zonal persistent volume (none by default).
    pub stateful_sets: Option<StatefulSets>,
}

/// StatefulSets in the first workload namespace. Each pod claims a volume that lives in
/// one zone, so the pod can only ever run in that zone.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct StatefulSets {
    /// StatefulSets per cluster.
    pub count: usize,
    /// Replicas (ordinal pods) per StatefulSet.
    pub replicas: i32,
    /// CPU request per pod in millicores.
    pub cpu_millis: u32,
    /// Memory request per pod in MiB.
    pub memory_mi: u32,
    /// Size of each pod's volume in GiB.
    pub storage_gi: u32,
    /// Volumes replicated in two zones (the pod's and the next), so a pod may move to
    /// the other when its zone is lost; zonal (one zone) when false.
    pub regional: bool,
}

impl Default for StatefulSets {
    fn default() -> Self {
        StatefulSets {
            count: 1,
            replicas: 3,
            cpu_millis: 500,
            memory_mi: 1024,
            storage_gi: 20,
            regional: false,
        }
    }
}

impl Default for Workloads {
    fn default() -> Self {
        Workloads {
            namespaces: vec!["apps".into()],
            deployments: 4,
            replicas: 3,
            cpu_millis: 250,
            memory_mi: 256,
            pdbs: true,
            daemon_sets: vec!["kube-proxy".into()],
            stateful_sets: None,
        }
    }
}

/// A group of similar clusters named `{prefix}-01`, `{prefix}-02`, …
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterGroup {
    /// Cluster id prefix.
    pub prefix: String,
    /// Number of clusters.
    pub count: usize,
    /// `production` or `staging`.
    pub env: String,
    /// Region.
    pub region: String,
    /// Zone suffixes (`a` → `{region}a`).
    #[serde(default = "default_zones")]
    pub zones: Vec<String>,
    /// `critical`, `standard` or `best-effort`.
    #[serde(default = "default_tier")]
    pub tier: String,
    /// Owning team.
    #[serde(default = "default_owner")]
    pub owner: String,
    /// `building`, `running` or `retiring`.
    #[serde(default = "default_lifecycle")]
    pub lifecycle: String,
    /// Extra ledger labels (keys must be in the dictionary the ledger declares).
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// Version choices.
    #[serde(default)]
    pub versions: VersionChoices,
    /// CPU nodes.
    #[serde(default)]
    pub nodes: NodePool,
    /// GPU nodes.
    #[serde(default)]
    pub gpu: Option<GpuPool>,
    /// Workloads.
    #[serde(default)]
    pub workloads: Workloads,
    /// Shared dependencies (ledger).
    #[serde(default)]
    pub shared_dependencies: Vec<String>,
    /// Extra objects created in every cluster of the group, in order, as a client would
    /// create them (CustomResourceDefinitions first, then their custom resources).
    #[serde(default)]
    pub objects: Vec<serde_json::Value>,
}

fn default_zones() -> Vec<String> {
    vec!["a".into(), "b".into(), "c".into()]
}
fn default_tier() -> String {
    "standard".into()
}
fn default_owner() -> String {
    "team-platform".into()
}
fn default_lifecycle() -> String {
    "running".into()
}

/// The ledger deliberately disagreeing with the live cluster (for drift demos).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LedgerDrift {
    /// The ledger pins this kube-system UID instead of the live one.
    #[serde(rename = "kubeSystemUID")]
    pub kube_system_uid: Option<String>,
    /// The ledger records this Kubernetes version instead of the live one.
    pub kubernetes: Option<String>,
    /// The ledger records this GPU driver version instead of the live one.
    pub gpu_driver: Option<String>,
    /// The cluster is served and in the kubeconfig but missing from the ledger (an
    /// unregistered context).
    pub unregistered: bool,
    /// Fields written over the ledger's generated `backup` (`rpo`, `rto`, …).
    pub backup: Option<serde_json::Value>,
    /// The last restore drill this many days before the simulator started.
    pub restore_drill_days_ago: Option<i64>,
    /// The maintenance window opens this many hours after the simulator started (and
    /// stays open two hours, once a week): closed now.
    pub window_opens_in_hours: Option<i64>,
}

/// Exceptions to a group for one cluster.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterOverride {
    /// Cluster id.
    pub cluster: String,
    /// Faults active from the start.
    pub faults: Option<Faults>,
    /// Add a PDB with `maxUnavailable: 0` over the cluster's first deployment, so any
    /// eviction of its pods is refused.
    pub blocking_pdb: bool,
    /// Ledger drift.
    pub ledger: LedgerDrift,
    /// Live Kubernetes version pin.
    pub kubernetes: Option<String>,
    /// Documented exceptions written to the ledger (objects passed through).
    pub exceptions: Vec<serde_json::Value>,
    /// Extra objects created in this cluster (after its group's), in order.
    pub objects: Vec<serde_json::Value>,
    /// The API server's certificate expires this many days after the simulator started
    /// (negative: already expired); the cluster is then reached under its own TLS
    /// server name, which its kubeconfig entry names.
    pub serving_certificate_days: Option<i64>,
    /// Requests for deprecated APIs the cluster's clients make, as its `/metrics` counts
    /// them (`apiserver_requested_deprecated_apis`).
    pub deprecated_api_requests: Vec<DeprecatedApiRequest>,
    /// The first nodes run an older kubelet than the control plane.
    pub old_kubelets: Option<OldKubelets>,
}

/// A deprecated API some client of the cluster requests.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeprecatedApiRequest {
    /// API group.
    pub group: String,
    /// Version.
    pub version: String,
    /// Resource.
    pub resource: String,
    /// Subresource ("" for none).
    #[serde(default)]
    pub subresource: String,
    /// The release it is removed in (`1.32`), as the server labels it.
    pub removed_release: String,
}

/// Nodes whose kubelet lags the control plane.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OldKubelets {
    /// How many of the first nodes.
    pub nodes: usize,
    /// Their kubelet version.
    pub version: String,
}

const SMALL: &str = include_str!("../../scenarios/small.yaml");
const DEMO: &str = include_str!("../../scenarios/demo.yaml");
const LARGE: &str = include_str!("../../scenarios/large.yaml");
const FINDINGS: &str = include_str!("../../scenarios/findings.yaml");

impl Scenario {
    /// Loads a built-in scenario (`small`, `demo`, `large`, `findings`) or a YAML file.
    pub fn load(name_or_path: &str) -> Result<Scenario, SimError> {
        let text = match name_or_path {
            "small" => SMALL.to_string(),
            "demo" => DEMO.to_string(),
            "large" => LARGE.to_string(),
            "findings" => FINDINGS.to_string(),
            path => std::fs::read_to_string(Path::new(path)).map_err(|source| SimError::Io {
                path: path.into(),
                source,
            })?,
        };
        Scenario::parse(name_or_path, &text)
    }

    /// What the scenario is for, in `lang`: the built-in scenarios' descriptions are
    /// messages (`scenario-demo`, …); a scenario file's own is shown as written.
    pub fn description_in(&self, lang: crate::i18n::Lang) -> String {
        use crate::i18n::{Lang, text};
        let id = match self.name.as_str() {
            "small" => "scenario-small",
            "demo" => "scenario-demo",
            "large" => "scenario-large",
            "findings" => "scenario-findings",
            _ => return self.description.clone(),
        };
        // A file may take a built-in's name: only the built-in's own words are translated.
        if text(Lang::En, id, &[]) == self.description {
            text(lang, id, &[])
        } else {
            self.description.clone()
        }
    }

    /// Parses scenario YAML text.
    pub fn parse(name: &str, text: &str) -> Result<Scenario, SimError> {
        let err = |message: String| SimError::Scenario {
            name: name.to_string(),
            message,
        };
        let value = super::yaml::parse(text).map_err(err)?;
        let scenario: Scenario = serde_json::from_value(value).map_err(|e| err(e.to_string()))?;
        if scenario
            .groups
            .iter()
            .any(|g| g.env != "production" && g.env != "staging")
        {
            return Err(err("env must be production or staging".into()));
        }
        Ok(scenario)
    }

    /// The users every cluster accepts: the built-in ones, then the scenario's. A name
    /// or token used twice is an error.
    pub fn users(&self) -> Result<Vec<SimUser>, SimError> {
        let mut users = SimUser::builtins();
        for u in &self.users {
            if users.iter().any(|x| x.name == u.name || x.token == u.token) {
                return Err(SimError::Scenario {
                    name: self.name.clone(),
                    message: format!(
                        "users: {:?} repeats the name or token of another user",
                        u.name
                    ),
                });
            }
            if u.token.trim().is_empty() {
                return Err(SimError::Scenario {
                    name: self.name.clone(),
                    message: format!("users: {:?} has an empty token", u.name),
                });
            }
            users.push(u.clone());
        }
        Ok(users)
    }

    /// The group a cluster id belongs to.
    pub fn group_of(&self, id: &str) -> Option<&ClusterGroup> {
        self.groups.iter().find(|g| {
            id.strip_prefix(&format!("{}-", g.prefix))
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| n >= 1 && n <= g.count)
        })
    }

    /// Total clusters.
    pub fn cluster_count(&self) -> usize {
        self.groups.iter().map(|g| g.count).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_scenarios_say_what_they_are_for_in_both_languages() {
        use crate::i18n::Lang;
        for name in ["small", "demo", "large", "findings"] {
            let s = Scenario::load(name).expect("built in");
            assert_eq!(s.description_in(Lang::En), s.description, "{name}");
            let zh = s.description_in(Lang::ZhCn);
            assert_ne!(zh, s.description, "{name}");
            assert!(!zh.is_empty(), "{name}");
        }
        let mut file = Scenario::load("demo").expect("built in");
        file.description = "my own fleet".into();
        assert_eq!(file.description_in(Lang::ZhCn), "my own fleet");
    }

    #[test]
    fn builtin_scenarios_parse() {
        for (name, clusters) in [("small", 3), ("demo", 40), ("large", 300)] {
            let s = Scenario::load(name);
            assert_eq!(
                s.as_ref().map(Scenario::cluster_count).ok(),
                Some(clusters),
                "{name}: {:?}",
                s.err()
            );
        }
    }

    #[test]
    fn statefulsets_only_where_a_scenario_asks_for_them() {
        let groups_with = |name: &str| -> Vec<String> {
            Scenario::load(name)
                .map(|s| s.groups)
                .unwrap_or_default()
                .into_iter()
                .filter(|g| g.workloads.stateful_sets.is_some())
                .map(|g| g.prefix)
                .collect()
        };
        assert_eq!(groups_with("demo"), ["prod-use1", "prod-euw1"]);
        assert!(groups_with("large").is_empty());
        let sets = Scenario::load("demo")
            .ok()
            .and_then(|s| s.groups[0].workloads.stateful_sets.clone());
        assert_eq!(
            sets.map(|s| (s.count, s.replicas, s.cpu_millis, s.memory_mi, s.storage_gi)),
            Some((1, 3, 1000, 2048, 100))
        );
    }

    #[test]
    fn the_demo_degrades_calico_clusters_on_kernel_6_1_0_31_after_the_cni_release() {
        let fleet = crate::sim::SimFleet::load("demo", 1, 1.0).expect("demo");
        let degraded: Vec<String> = fleet
            .clusters()
            .iter()
            .filter(|c| c.faults().degradation.is_some())
            .map(|c| c.profile.id.clone())
            .collect();
        for id in ["stg-apse1-01", "stg-apse1-02", "stg-apse1-03"] {
            assert!(degraded.contains(&id.to_string()), "{id}: {degraded:?}");
        }
        assert!(!degraded.iter().any(|id| id.starts_with("stg-use1")));
        let rule = DegradationRule {
            when: [("kernel".to_string(), "5.4".to_string())].into(),
            degradation: crate::sim::Degradation {
                error_ratio: 0.1,
                after_release: None,
            },
        };
        let on =
            |kernel: &str| rule.applies_to(&[("kernel".to_string(), kernel.to_string())].into());
        assert!(on("5.4.0-1103-aws"));
        assert!(!on("6.1.0-31-cloud-amd64"));
        assert!(
            !rule.applies_to(&Default::default()),
            "no kernel known: not concerned"
        );
    }
}
