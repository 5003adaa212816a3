//! The simulated fleet: clusters, each with its objects behind its own lock, its
//! faults, and its control loop.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::apf::Classifier;
use super::auth::SimUser;
use super::clock::SimClock;
use super::error::SimError;
use super::faults::Faults;
use super::generate::{self, ClusterProfile};
use super::rbac::Policy;
use super::resource::{Kind, Registry};
use super::scenario::{Scenario, Settings};
use super::store::Store;

/// The mutable state of one cluster.
pub struct ClusterState {
    /// Objects, resourceVersions and watch history.
    pub store: Store,
    /// Nodes being rebooted, with the simulated second at which they come back.
    pub reboots: BTreeMap<String, f64>,
    /// The resource types the cluster serves (built-in and from established CRDs).
    pub registry: Arc<Registry>,
    /// Namespaces being terminated (the namespace controller empties them).
    pub terminating: BTreeSet<String>,
    /// Objects deleted in the foreground, waiting for their dependents.
    pub foreground: BTreeSet<(Kind, String, String)>,
    /// The RBAC policy parsed from the stored roles and bindings.
    pub policy: Option<Arc<Policy>>,
    /// The flow-control classifier parsed from the stored FlowSchemas.
    pub classifier: Option<Arc<Classifier>>,
}

impl ClusterState {
    /// A cluster's state around its generated objects.
    pub fn new(store: Store) -> ClusterState {
        ClusterState {
            store,
            reboots: BTreeMap::new(),
            registry: Arc::new(Registry::builtin()),
            terminating: BTreeSet::new(),
            foreground: BTreeSet::new(),
            policy: None,
            classifier: None,
        }
    }
}

/// One simulated cluster.
pub struct Cluster {
    /// Ledger facts.
    pub profile: ClusterProfile,
    /// Timing settings of the scenario.
    pub settings: Settings,
    /// The fleet's clock.
    pub clock: SimClock,
    state: Mutex<ClusterState>,
    faults: Mutex<Faults>,
    /// Wakes the control loop after a change.
    pub wake: Arc<Notify>,
    requests: Mutex<Vec<LoggedRequest>>,
    /// Service request counters behind `/sim/v1/metrics`.
    pub traffic: Mutex<super::metrics::Traffic>,
    /// The users whose tokens the cluster accepts.
    pub users: Arc<Vec<SimUser>>,
    /// The fleet's token issuer (tokens that expire and can be revoked).
    pub issuer: Arc<super::tokens::TokenIssuer>,
    /// Counter behind the `Audit-Id`s of the cluster's answers.
    pub audits: std::sync::atomic::AtomicU64,
}

/// A mutating request the cluster answered, for tests that must prove what a client did
/// (e.g. that no pod was evicted twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedRequest {
    /// HTTP method.
    pub method: String,
    /// Path within the cluster, e.g. `/api/v1/namespaces/shop/pods/web-1/eviction`.
    pub path: String,
    /// Status code answered.
    pub status: u16,
    /// The client's User-Agent, if it sent one.
    pub user_agent: Option<String>,
    /// The user the request authenticated as: the audit of who did what.
    pub user: String,
}

/// How long an issued token lives unless its request says otherwise.
pub const DEFAULT_TOKEN_TTL: std::time::Duration = std::time::Duration::from_secs(3600);

/// Mutating requests kept per cluster (oldest dropped beyond this).
const REQUEST_LOG_LIMIT: usize = 100_000;

impl Cluster {
    /// Locks the cluster's state. A panic while holding the lock does not make the
    /// simulator unusable: the state is still consistent at store granularity.
    pub fn lock(&self) -> MutexGuard<'_, ClusterState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A fresh `Audit-Id` (UUID-shaped, unique per cluster), without taking the lock.
    pub fn audit_id(&self) -> String {
        let n = self.audits.fetch_add(1, Ordering::Relaxed);
        let h = super::generate::fnv(&format!("{}/{n}", self.profile.id));
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            h >> 32,
            (h >> 16) & 0xffff,
            h & 0xfff,
            0x8000 | (n & 0x3fff),
            (n >> 14) & 0xffff_ffff_ffff
        )
    }

    /// The current faults.
    pub fn faults(&self) -> Faults {
        self.faults
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Replaces the faults and wakes the control loop (node readiness may change).
    pub fn set_faults(&self, faults: Faults) {
        *self.faults.lock().unwrap_or_else(|p| p.into_inner()) = faults;
        self.kick();
    }

    /// Whether this list request is one of the next ones the faults say to fail (and
    /// counts it).
    pub fn take_list_failure(&self) -> bool {
        let mut faults = self.faults.lock().unwrap_or_else(|p| p.into_inner());
        if faults.fail_next_lists == 0 {
            return false;
        }
        faults.fail_next_lists -= 1;
        true
    }

    /// Tells the control loop that something changed.
    pub fn kick(&self) {
        self.wake.notify_one();
    }

    /// Records a mutating request and its answer.
    pub fn log_request(&self, request: LoggedRequest) {
        let mut log = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        if log.len() >= REQUEST_LOG_LIMIT {
            log.remove(0);
        }
        log.push(request);
    }

    /// Every mutating request answered so far, oldest first.
    pub fn request_log(&self) -> Vec<LoggedRequest> {
        self.requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

struct FleetInner {
    issuer: Arc<super::tokens::TokenIssuer>,
    /// What the written ledger carries besides its clusters (the support matrix).
    ledger_extras: serde_json::Map<String, serde_json::Value>,
    scenario: String,
    seed: u64,
    clock: SimClock,
    clusters: Vec<Arc<Cluster>>,
    controllers_started: AtomicBool,
}

/// A simulated fleet of Kubernetes clusters. Cheap to clone (shared).
#[derive(Clone)]
pub struct SimFleet {
    inner: Arc<FleetInner>,
}

impl SimFleet {
    /// Generates the fleet of a scenario. `seed` makes names, UIDs, versions and
    /// placement deterministic; `speed` multiplies simulated time.
    pub fn from_scenario(scenario: &Scenario, seed: u64, speed: f64) -> Result<SimFleet, SimError> {
        let clock = SimClock::new(speed);
        let users = Arc::new(scenario.users()?);
        let issuer = Arc::new(super::tokens::TokenIssuer::new(DEFAULT_TOKEN_TTL));
        let clusters: Vec<Arc<Cluster>> = generate::build(scenario, seed, &clock, &users)?
            .into_iter()
            .map(|g| {
                Arc::new(Cluster {
                    profile: g.profile,
                    settings: scenario.settings.clone(),
                    clock,
                    state: Mutex::new(ClusterState::new(g.store)),
                    faults: Mutex::new(g.faults),
                    requests: Mutex::new(Vec::new()),
                    traffic: Mutex::new(super::metrics::Traffic::default()),
                    wake: Arc::new(Notify::new()),
                    users: users.clone(),
                    issuer: Arc::clone(&issuer),
                    audits: std::sync::atomic::AtomicU64::new(0),
                })
            })
            .collect();
        for c in &clusters {
            super::declared::apply(scenario, c)?;
        }
        Ok(SimFleet {
            inner: Arc::new(FleetInner {
                issuer,
                ledger_extras: {
                    let mut extras = serde_json::Map::new();
                    if !scenario.support_matrix.is_empty() {
                        extras.insert(
                            "supportMatrix".into(),
                            serde_json::Value::Array(scenario.support_matrix.clone()),
                        );
                    }
                    if !scenario.kubernetes_support.is_empty() {
                        extras.insert(
                            "kubernetesSupport".into(),
                            serde_json::json!(scenario.kubernetes_support),
                        );
                    }
                    extras
                },
                scenario: scenario.name.clone(),
                seed,
                clock,
                clusters,
                controllers_started: AtomicBool::new(false),
            }),
        })
    }

    /// Loads a scenario by name or path and generates it.
    pub fn load(scenario: &str, seed: u64, speed: f64) -> Result<SimFleet, SimError> {
        SimFleet::from_scenario(&Scenario::load(scenario)?, seed, speed)
    }

    /// The users the fleet's clusters accept (built-in and the scenario's).
    pub fn users(&self) -> Vec<SimUser> {
        self.inner
            .clusters
            .first()
            .map(|c| c.users.as_ref().clone())
            .unwrap_or_else(SimUser::builtins)
    }

    /// The fleet's token issuer.
    pub fn issuer(&self) -> &super::tokens::TokenIssuer {
        &self.inner.issuer
    }

    /// The bearer token of a user (`admin`, `viewer`, `nobody`, or a scenario's user).
    pub fn token(&self, user: &str) -> Option<String> {
        self.users()
            .into_iter()
            .find(|u| u.name == user)
            .map(|u| u.token)
    }

    /// What the written ledger carries besides its clusters (the support matrix).
    pub fn ledger_extras(&self) -> &serde_json::Map<String, serde_json::Value> {
        &self.inner.ledger_extras
    }

    /// Scenario name.
    pub fn scenario(&self) -> &str {
        &self.inner.scenario
    }

    /// The seed the fleet was generated with.
    pub fn seed(&self) -> u64 {
        self.inner.seed
    }

    /// The fleet's clock.
    pub fn clock(&self) -> SimClock {
        self.inner.clock
    }

    /// Cluster ids in scenario order.
    pub fn cluster_ids(&self) -> Vec<String> {
        self.inner
            .clusters
            .iter()
            .map(|c| c.profile.id.clone())
            .collect()
    }

    /// The serving certificates of clusters that have their own (by TLS server name).
    pub(crate) fn serving_certificates(
        &self,
    ) -> Result<Vec<(String, Arc<rustls::sign::CertifiedKey>)>, String> {
        self.inner
            .clusters
            .iter()
            .filter_map(|c| {
                let days = c.profile.serving_certificate_days?;
                let id = &c.profile.id;
                Some(
                    super::serving_cert::issue(id, days)
                        .map(|key| (super::serving_cert::server_name(id), key)),
                )
            })
            .collect()
    }

    /// All clusters.
    pub(crate) fn clusters(&self) -> &[Arc<Cluster>] {
        &self.inner.clusters
    }

    /// One cluster.
    pub(crate) fn cluster(&self, id: &str) -> Result<&Arc<Cluster>, SimError> {
        self.inner
            .clusters
            .iter()
            .find(|c| c.profile.id == id)
            .ok_or_else(|| SimError::UnknownCluster(id.to_string()))
    }

    /// The profile (ledger facts) of a cluster.
    pub fn profile(&self, id: &str) -> Result<ClusterProfile, SimError> {
        Ok(self.cluster(id)?.profile.clone())
    }

    /// Starts every cluster's control loop on the current tokio runtime (once). Called
    /// by [`SimFleet::router`]; without it the fleet is a static snapshot.
    pub fn start_controllers(&self) {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::warn!("no tokio runtime: simulated controllers not started");
            return;
        }
        if self.inner.controllers_started.swap(true, Ordering::SeqCst) {
            return;
        }
        for c in &self.inner.clusters {
            super::controllers::spawn(c);
            // Clusters that start with faults need a first pass (e.g. a zone outage).
            if c.faults() != Faults::default() {
                c.kick();
            }
        }
    }

    /// The current faults of a cluster.
    pub fn faults(&self, id: &str) -> Result<Faults, SimError> {
        Ok(self.cluster(id)?.faults())
    }

    /// Replaces the faults of a cluster (takes effect immediately).
    pub fn set_faults(&self, id: &str, faults: Faults) -> Result<(), SimError> {
        self.cluster(id)?.set_faults(faults);
        Ok(())
    }

    /// Changes the faults of a cluster with a closure.
    pub fn update_faults(&self, id: &str, f: impl FnOnce(&mut Faults)) -> Result<Faults, SimError> {
        let c = self.cluster(id)?;
        let mut faults = c.faults();
        f(&mut faults);
        c.set_faults(faults.clone());
        Ok(faults)
    }

    /// Reboots a node: NotReady for the scenario's `rebootSeconds`, then Ready again.
    pub fn reboot_node(&self, id: &str, node: &str) -> Result<(), SimError> {
        let c = self.cluster(id)?;
        {
            let mut st = c.lock();
            if st.store.get(Kind::NODE, "", node).is_none() {
                return Err(SimError::UnknownNode {
                    cluster: id.into(),
                    node: node.into(),
                });
            }
            let until = c.clock.elapsed_secs() + c.settings.reboot_seconds;
            st.reboots.insert(node.to_string(), until);
        }
        c.kick();
        Ok(())
    }

    /// Forgets a cluster's watch history (like an etcd compaction): watches and continue
    /// tokens from before now get 410 Expired.
    pub fn compact(&self, id: &str) -> Result<(), SimError> {
        self.cluster(id)?.lock().store.compact();
        Ok(())
    }

    /// Cuts a cluster's open watches and forgets its watch history (an API server
    /// restart that lost its watch cache): watches resuming from before get 410 Expired
    /// and must list again.
    pub fn cut_watches(&self, id: &str) -> Result<(), SimError> {
        let c = self.cluster(id)?;
        c.lock().store.restart_history();
        c.kick();
        Ok(())
    }

    /// Makes a cluster look rebuilt behind the same address, as one torn down and created
    /// again under the same name (or a load balancer failed over to another) would: a new
    /// kube-system namespace UID, open watches cut, and the watch history forgotten, so
    /// watches resuming from before get 410 Expired. Returns the new UID.
    pub fn rebuild_identity(&self, id: &str) -> Result<String, SimError> {
        let c = self.cluster(id)?;
        let uid = {
            let mut st = c.lock();
            let mut namespace = st
                .store
                .get_value(Kind::NAMESPACE, "", "kube-system")
                .unwrap_or_else(|| serde_json::json!({"metadata": {"name": "kube-system"}}));
            let uid = st.store.new_uid();
            namespace["metadata"]["uid"] = serde_json::Value::String(uid.clone());
            st.store.put(Kind::NAMESPACE, namespace);
            st.store.restart_history();
            uid
        };
        c.kick();
        Ok(uid)
    }

    /// The current resourceVersion of a cluster.
    pub fn resource_version(&self, id: &str) -> Result<u64, SimError> {
        Ok(self.cluster(id)?.lock().store.rv())
    }

    /// Every mutating request cluster `id` answered so far, oldest first.
    pub fn request_log(&self, id: &str) -> Result<Vec<LoggedRequest>, SimError> {
        Ok(self.cluster(id)?.request_log())
    }

    /// The live kube-system namespace UID of a cluster.
    pub fn kube_system_uid(&self, id: &str) -> Result<String, SimError> {
        Ok(self.cluster(id)?.profile.kube_system_uid.clone())
    }

    /// Object counts over the fleet: `(clusters, nodes, pods)`.
    pub fn totals(&self) -> (usize, usize, usize) {
        let mut nodes = 0;
        let mut pods = 0;
        for c in &self.inner.clusters {
            let st = c.lock();
            nodes += st.store.count(Kind::NODE);
            pods += st.store.count(Kind::POD);
        }
        (self.inner.clusters.len(), nodes, pods)
    }
}
