//! The ledger: every cluster the fleet has, as the operators declare it.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use ipnet::IpNet;
use jiff::Timestamp;
use jiff::civil::{Date, Time};
use serde::Serialize;

use crate::yaml::Pos;

/// The `apiVersion` every fleetdeck file carries.
pub const API_VERSION: &str = "fleetdeck.dev/v1";

pub use crate::model::identity::ClusterId;

/// The whole ledger file.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ledger {
    /// Always [`API_VERSION`].
    pub api_version: String,
    /// Always `Ledger`.
    pub kind: String,
    /// Controlled labels: key → allowed values.
    pub label_dictionary: BTreeMap<String, Vec<String>>,
    /// The combinations of versions the platform has validated (`supportMatrix`).
    #[serde(skip_serializing_if = "crate::model::upgrade::SupportMatrix::is_empty")]
    pub support_matrix: crate::model::upgrade::SupportMatrix,
    /// When each Kubernetes minor leaves upstream support (`kubernetesSupport`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub kubernetes_support: BTreeMap<crate::model::upgrade::Minor, Date>,
    /// Every cluster, in file order.
    pub clusters: Vec<Cluster>,
    /// Where each field was written, for diagnostics (not part of the data).
    #[serde(skip)]
    pub positions: Positions,
}

/// One cluster's record.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cluster {
    /// Stable id.
    pub id: ClusterId,
    /// Human name; defaults to the id.
    pub display_name: String,
    /// kubeconfig context that reaches it: what every read uses, and every job the
    /// ledger names no context of its own for.
    pub context: String,
    /// Contexts for the jobs that change the cluster (`jobContexts` in the file), so each
    /// job acts under an identity with only the rights it needs.
    #[serde(skip_serializing_if = "JobContexts::is_empty")]
    pub job_contexts: JobContexts,
    /// Pinned identity checked on every connection; absent for clusters still being built.
    pub identity: Option<Identity>,
    /// Environment (controlled label `env`).
    pub env: String,
    /// Region.
    pub region: String,
    /// Failure domain the whole cluster shares (e.g. a cloud zone or data-centre hall).
    pub failure_domain: String,
    /// Tier (controlled label `tier`).
    pub tier: String,
    /// Team or person accountable; required for production and critical clusters.
    pub owner: Option<String>,
    /// Where the cluster is in its life.
    pub lifecycle: Lifecycle,
    /// Further controlled labels.
    pub labels: BTreeMap<String, String>,
    /// Component versions: kubernetes, etcd, runtime, kernel, cni, csi, gpuDriver, … (open).
    pub versions: BTreeMap<String, String>,
    /// Address ranges.
    pub network: Option<Network>,
    /// Things the cluster depends on that other clusters share (DNS, registry, vault…).
    pub shared_dependencies: Vec<String>,
    /// Backup state.
    pub backup: Option<Backup>,
    /// When disruptive maintenance is allowed.
    pub maintenance_window: Option<MaintenanceWindow>,
    /// Documented deviations from the fleet standard.
    pub exceptions: Vec<Exception>,
}

/// What fleetdeck does to a cluster, each under an identity of its own when the ledger
/// names one: least privilege, and an audit that tells the jobs apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Job {
    /// Watching and reading what the views use.
    Read,
    /// Node maintenance: cordon, evict, node events.
    Maintenance,
    /// Rollouts: applying a release's manifests.
    Release,
}

impl Job {
    /// Every job, in the order they are listed.
    pub const ALL: [Job; 3] = [Job::Read, Job::Maintenance, Job::Release];

    /// Its name in files and output.
    pub fn name(self) -> &'static str {
        match self {
            Job::Read => "read",
            Job::Maintenance => "maintenance",
            Job::Release => "release",
        }
    }
}

/// The contexts of the jobs that change a cluster; a job without one uses `context`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobContexts {
    /// The context node maintenance acts through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maintenance: Option<String>,
    /// The context releases are applied through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
}

impl JobContexts {
    /// No job has a context of its own.
    pub fn is_empty(&self) -> bool {
        self.maintenance.is_none() && self.release.is_none()
    }
}

impl Cluster {
    /// The kubeconfig context `job` acts through.
    pub fn context_for(&self, job: Job) -> &str {
        let own = match job {
            Job::Read => None,
            Job::Maintenance => self.job_contexts.maintenance.as_deref(),
            Job::Release => self.job_contexts.release.as_deref(),
        };
        own.unwrap_or(&self.context)
    }
}

/// What pins a ledger entry to one real cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    /// UID of the `kube-system` namespace: survives DNS and kubeconfig changes.
    #[serde(rename = "kubeSystemUID")]
    pub kube_system_uid: String,
    /// API server URL.
    pub server: String,
}

/// Lifecycle of a cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lifecycle {
    /// Not yet serving.
    Building,
    /// Serving.
    Running,
    /// Being drained of tenants.
    Retiring,
}

impl Lifecycle {
    /// The spellings accepted in files.
    pub const NAMES: [&'static str; 3] = ["building", "running", "retiring"];

    /// Reads a lifecycle name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "building" => Some(Lifecycle::Building),
            "running" => Some(Lifecycle::Running),
            "retiring" => Some(Lifecycle::Retiring),
            _ => None,
        }
    }

    /// The name as written in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Lifecycle::Building => "building",
            Lifecycle::Running => "running",
            Lifecycle::Retiring => "retiring",
        }
    }
}

/// Pod and service address ranges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Network {
    /// Pod CIDR.
    #[serde(rename = "podCIDR")]
    pub pod_cidr: Option<IpNet>,
    /// Service CIDR.
    #[serde(rename = "serviceCIDR")]
    pub service_cidr: Option<IpNet>,
}

/// Backup location and the last evidence that backups work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Backup {
    /// Where backups go.
    pub location: Option<String>,
    /// Last successful backup.
    pub last_success: Option<Timestamp>,
    /// Last time a restore was actually rehearsed.
    pub last_restore_drill: Option<Date>,
    /// How long that rehearsed restore took, end to end (compared with `rto`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_optional_duration"
    )]
    pub last_restore_drill_duration: Option<Duration>,
    /// Recovery point objective: the most data (as time) a restore may lose, so the
    /// longest a last successful backup may be old.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_optional_duration"
    )]
    pub rpo: Option<Duration>,
    /// Recovery time objective: how long a restore may take.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_optional_duration"
    )]
    pub rto: Option<Duration>,
}

/// Day of the week, as written in maintenance windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Weekday {
    /// Monday.
    Mon,
    /// Tuesday.
    Tue,
    /// Wednesday.
    Wed,
    /// Thursday.
    Thu,
    /// Friday.
    Fri,
    /// Saturday.
    Sat,
    /// Sunday.
    Sun,
}

impl Weekday {
    /// Spellings accepted in files.
    pub const NAMES: [&'static str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

    /// Reads `Mon`…`Sun` (case-insensitive, three letters).
    pub fn parse(text: &str) -> Option<Self> {
        let all = [
            Weekday::Mon,
            Weekday::Tue,
            Weekday::Wed,
            Weekday::Thu,
            Weekday::Fri,
            Weekday::Sat,
            Weekday::Sun,
        ];
        Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(text))
            .map(|i| all[i])
    }
}

/// A weekly window in which disruptive maintenance may start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MaintenanceWindow {
    /// Days on which the window opens.
    pub days: Vec<Weekday>,
    /// Local start time.
    #[serde(serialize_with = "serialize_hh_mm")]
    pub start: Time,
    /// How long it stays open.
    #[serde(serialize_with = "serialize_duration")]
    pub duration: Duration,
    /// IANA time zone name, or `UTC`.
    pub timezone: String,
}

/// `HH:MM`, as the ledger writes it (jiff would add the seconds).
fn serialize_hh_mm<S: serde::Serializer>(t: &Time, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{:02}:{:02}", t.hour(), t.minute()))
}

fn serialize_duration<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::model::duration::format_duration(*d))
}

fn serialize_optional_duration<S: serde::Serializer>(
    d: &Option<Duration>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => serialize_duration(d, s),
        None => s.serialize_none(),
    }
}

/// A documented deviation from the fleet standard, with an end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Exception {
    /// What deviates.
    pub what: String,
    /// Why it is accepted.
    pub reason: String,
    /// Who answers for it.
    pub owner: String,
    /// What must be true to remove it.
    pub exit_criteria: String,
    /// When it stops being accepted.
    pub expires: Date,
}

/// Source positions of ledger fields, keyed by a path such as `clusters.3.network.podCIDR`.
#[derive(Debug, Clone, Default)]
pub struct Positions(HashMap<String, Pos>);

impl Positions {
    /// Remembers where `path` was written.
    pub fn record(&mut self, path: String, pos: Pos) {
        self.0.insert(path, pos);
    }

    /// Where `path` was written, or where its nearest recorded parent was.
    pub fn at(&self, path: &str) -> Pos {
        let mut key = path;
        loop {
            if let Some(pos) = self.0.get(key) {
                return *pos;
            }
            match key.rfind('.') {
                Some(i) => key = &key[..i],
                None => return Pos { line: 1, col: 1 },
            }
        }
    }
}

impl Ledger {
    /// The cluster with this id.
    pub fn cluster(&self, id: &str) -> Option<&Cluster> {
        self.clusters.iter().find(|c| c.id.as_str() == id)
    }
}
