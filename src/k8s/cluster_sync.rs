//! One cluster's sync loop: build its client from its own context, check its pinned
//! identity, then keep nodes, pods and PDBs watched, publishing a `ClusterSnapshot`
//! whenever something changed (at most every `publish_every`).
//!
//! Over 600 lines: the connect, identity and watch loop of one cluster. The watch loop's
//! per-resource bookkeeping moves out once the facts reader being added beside the watches
//! lands.

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Namespace;
use kube::Api;
use kube::config::Kubeconfig;
use tokio::sync::{Semaphore, mpsc};

use super::cluster_store::ClusterStore;
use super::connect::{ClusterClient, ConnectOptions, connect};
use super::credentials::{self, CredentialCell};
use super::findings::credentials::{ContextCredentials, context_credentials};
use super::findings::privilege::Identity;
use super::findings::{FactsOptions, FactsReader, run_facts};
use super::job_clients::{JobClient, job_clients_of};
use super::reflect::{Delta, Failure, ReflectOptions, describe_error, reflect};
use super::retry::{RetryPolicy, retry_read};
use super::slim::{Claims, ItemOf, Jobs, Nodes, Pdbs, Pods, ReplicaSets, SlimKind, Volumes};
use crate::model::fleet::ClusterView;
use crate::model::ledger::Cluster;
use crate::model::ledger::Job;
use crate::model::live::{
    ClusterSnapshot, ClusterStatus, ConnectionFacts, IdentityVerdict, ObservedIdentity, SyncPhase,
    classify, status_reason, verify_identity,
};

/// Settings for every cluster's loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SyncOptions {
    /// Client settings.
    pub connect: ConnectOptions,
    /// List and watch settings.
    pub reflect: ReflectOptions,
    /// Data older than this is not trusted (status Unknown).
    pub stale_after: Duration,
    /// Snapshots of one cluster are published at most this often.
    pub publish_every: Duration,
    /// How long to wait before trying again after a failed connection or identity check.
    pub reconnect_after: Duration,
    /// An identity read (kube-system namespace and `/version`, with its retries) not
    /// answered in this long is given up: the cluster is unreachable for now. The
    /// client's read timeout is sized for watches, so a hung server would otherwise keep
    /// the cluster `Connecting` for many minutes. Well inside `snapshot`'s default wait
    /// (30 s), so a hung cluster ends that wait with a verdict, not "not read yet".
    pub identity_timeout: Duration,
    /// Whether and how often the findings' facts are read (after the first lists, with
    /// the same client and budget); `None` reads none.
    pub findings: Option<FactsOptions>,
}

impl Default for SyncOptions {
    fn default() -> Self {
        SyncOptions {
            connect: ConnectOptions::default(),
            reflect: ReflectOptions::default(),
            stale_after: crate::model::live::STALE_AFTER,
            publish_every: Duration::from_millis(250),
            reconnect_after: Duration::from_secs(15),
            identity_timeout: IDENTITY_TIMEOUT,
            findings: Some(FactsOptions::default()),
        }
    }
}

/// How long an identity read may take by default: two small GETs, retries included. An
/// API server that cannot answer them in this long cannot be worked with either.
pub const IDENTITY_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest wait between two ticks of a quiet cluster's loop.
const QUIET_TICK: Duration = Duration::from_secs(1);

/// A newer sign of life (a bookmark) of a quiet cluster is published once it is this
/// share of the staleness limit newer than the one published (15 s of the 150 s limit):
/// the age readers see is the server's bookmark gap plus at most this, which leaves half
/// the limit as margin on a real server (bookmarks about once a minute). Each publish of
/// a quiet cluster costs a snapshot of it (no lists, no requests).
const HEARTBEAT_SHARE: u32 = 10;

/// A published update: the cluster's position in the ledger and its new snapshot.
pub type ClusterUpdate = (usize, Arc<ClusterSnapshot>);

/// Per-resource progress of the watches.
#[derive(Debug, Default, Clone)]
struct ResourceState {
    listed_once: bool,
    relisting: bool,
    failing: Option<bool>,
    /// When the server last answered for this resource (data, a bookmark, a list done).
    last_ok: Option<Timestamp>,
    /// Why the server refuses to serve this optional resource (403, 404), while it does.
    refused: Option<String>,
    /// The same in a few words (`persistentvolumes cannot be read (forbidden)`), for the
    /// view: what the capacity model cannot know without it.
    unreadable: Option<String>,
}

/// What the view loses when the server refuses to serve a watched resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Nothing can be known without it: its failure is the cluster's.
    Required,
    /// Pins pods to their volumes' domains: refused, the cluster stays usable but reads
    /// Degraded, and moves of pods that mount claims are unknown.
    VolumePins,
    /// Names what pods are instances of (a ReplicaSet's Deployment, a Job's CronJob):
    /// refused, pods are named by their own controller; nothing else changes.
    Naming,
}

/// The watched resources, in the order of the sync loop's channels, and what each is
/// needed for.
const RESOURCES: [(&str, Need); 7] = [
    ("nodes", Need::Required),
    ("pods", Need::Required),
    ("poddisruptionbudgets", Need::Required),
    ("persistentvolumeclaims", Need::VolumePins),
    ("persistentvolumes", Need::VolumePins),
    ("replicasets", Need::Naming),
    ("jobs", Need::Naming),
];

struct Loop {
    index: usize,
    cluster: Cluster,
    options: SyncOptions,
    updates: mpsc::Sender<ClusterUpdate>,
    facts: ConnectionFacts,
    identity: Option<ObservedIdentity>,
    verdict: Option<IdentityVerdict>,
    server_version: Option<String>,
    last_error: Option<String>,
    requests: Option<super::budget::RequestCounter>,
    /// The findings' facts as last read on the current connection.
    findings: Option<Arc<crate::model::findings::ClusterFacts>>,
    /// What the context's kubeconfig entries hold that can expire.
    credentials: ContextCredentials,
    /// The kubeconfig user's name and the credential it reaches the cluster with.
    credential: Option<(String, Arc<CredentialCell>)>,
}

impl Loop {
    /// A loop that has not connected yet.
    fn new(
        index: usize,
        cluster: Cluster,
        options: SyncOptions,
        updates: mpsc::Sender<ClusterUpdate>,
    ) -> Loop {
        Loop {
            index,
            cluster,
            options,
            updates,
            facts: ConnectionFacts::connecting(),
            identity: None,
            verdict: None,
            server_version: None,
            last_error: None,
            requests: None,
            findings: None,
            credentials: ContextCredentials::default(),
            credential: None,
        }
    }

    fn snapshot(&self, store: Option<&mut ClusterStore>) -> Arc<ClusterSnapshot> {
        let now = Timestamp::now();
        let id: Arc<str> = Arc::from(self.cluster.id.as_str());
        // Until every resource has listed once the view is partial (all nodes and no pods
        // reads as an empty cluster): it is not published. The status says Connecting, or
        // Unknown if a first list fails. Not sharing it also spares the next page a copy
        // of every object already stored (copy on write) and a re-link of pods to PDBs.
        let unreadable = store.as_ref().map_or(0, |s| s.unreadable());
        let store = store.filter(|_| self.facts.listed);
        let (view, kubelets, kernels, runtimes, gpu_drivers) = match store {
            Some(store) => {
                let view = store.view();
                let kubelets =
                    ClusterSnapshot::count_versions(view.nodes.iter().map(|n| &n.kubelet_version));
                let gpu_drivers: Vec<Arc<str>> = view
                    .nodes
                    .iter()
                    .filter_map(|n| n.gpu_driver_version())
                    .collect();
                let gpu_drivers = ClusterSnapshot::count_versions(gpu_drivers.iter());
                let kernels = ClusterSnapshot::count_versions(
                    store.node_versions().iter().map(|v| &v.kernel),
                );
                let runtimes = ClusterSnapshot::count_versions(
                    store.node_versions().iter().map(|v| &v.runtime),
                );
                (view, kubelets, kernels, runtimes, gpu_drivers)
            }
            None => (
                Arc::new(ClusterView::empty(crate::model::fleet::ClusterId(
                    Arc::clone(&id),
                ))),
                Vec::new(),
                Vec::new(),
                Vec::new(),
                Vec::new(),
            ),
        };
        let mut facts = self.facts.clone();
        facts.unreadable_objects = unreadable;
        facts.credentials = self.credential.as_ref().and_then(|(_, c)| c.problem());
        Arc::new(ClusterSnapshot {
            id,
            status: classify(&facts, now, self.options.stale_after),
            identity: self.identity.clone(),
            identity_verdict: self.verdict.clone(),
            server_version: self.server_version.clone(),
            error: self.last_error.clone(),
            last_error: status_reason(
                &facts,
                self.last_error.as_deref(),
                now,
                self.options.stale_after,
            ),
            facts,
            kubelet_versions: kubelets,
            kernel_versions: kernels,
            runtime_versions: runtimes,
            gpu_driver_versions: gpu_drivers,
            requests_sent: self.requests.as_ref().map_or(0, |r| r.get()),
            credential: self.credential.as_ref().map(|(user, c)| c.report(user)),
            findings: self.findings.clone(),
            view,
        })
    }

    /// Sends a snapshot; its status, or `None` when nobody listens any more.
    async fn publish(&self, store: Option<&mut ClusterStore>) -> Option<ClusterStatus> {
        let snapshot = self.snapshot(store);
        let status = snapshot.status;
        self.updates.send((self.index, snapshot)).await.ok()?;
        Some(status)
    }

    fn fail(&mut self, error: String, unreachable: bool) {
        tracing::warn!(cluster = %self.cluster.id, %error, "cluster failing");
        self.facts.phase = SyncPhase::Failing { unreachable };
        self.last_error = Some(error);
    }

    /// Waits `after` before the next attempt, or less: a new credential (a login, a
    /// rotated token file) is worth trying at once.
    async fn pause(&self, after: Duration) {
        let Some((_, cell)) = &self.credential else {
            tokio::time::sleep(after).await;
            return;
        };
        let mut changes = cell.subscribe();
        changes.mark_unchanged();
        let before = cell.problem();
        let deadline = tokio::time::Instant::now() + after;
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(deadline) => return,
                changed = changes.changed() => {
                    if changed.is_err() {
                        tokio::time::sleep_until(deadline).await;
                        return;
                    }
                    // A problem that went away (or a new credential) is the signal; a
                    // problem recorded anew is not.
                    if before.is_some() && cell.problem().is_none() {
                        return;
                    }
                }
            }
        }
    }
}

/// Runs the loop for `cluster` until the receiver of `updates` is dropped.
/// `initial_lists` bounds how many clusters run their first lists at once.
pub async fn run_cluster(
    index: usize,
    cluster: Cluster,
    kubeconfig: Arc<Kubeconfig>,
    options: SyncOptions,
    initial_lists: Arc<Semaphore>,
    updates: mpsc::Sender<ClusterUpdate>,
) {
    let mut state = Loop::new(index, cluster, options, updates);
    state.credentials = context_credentials(&kubeconfig, &state.cluster.context);
    state.credential = credentials::store().for_context(&kubeconfig, &state.cluster.context);
    if state.publish(None).await.is_none() {
        return;
    }
    loop {
        // A new connection starts with nothing listed, and no facts read through it.
        state.facts.listed = false;
        state.findings = None;
        let permit = initial_lists.clone().acquire_owned().await.ok();
        let client = match connect(&state.cluster, &kubeconfig, &state.options.connect).await {
            Ok(client) => client,
            Err(error) => {
                state.fail(describe_error(&error), true);
                drop(permit);
                if state.publish(None).await.is_none() {
                    return;
                }
                state.pause(state.options.reconnect_after).await;
                continue;
            }
        };
        state.requests = Some(client.requests.clone());
        state.credentials.credential = Some(Arc::clone(&client.credential));
        // The credential first, on its own clock (the plugin's timeout): the identity
        // read's time starts once it is in hand, so a slow plugin never makes a cluster
        // look unreachable, and a failing one names itself.
        if let Err(problem) = client.credential.get().await {
            state.fail(problem.reason(), false);
            drop(permit);
            if state.publish(None).await.is_none() {
                return;
            }
            state.pause(state.options.reconnect_after).await;
            continue;
        }
        let read = read_identity(
            client.client.clone(),
            client.server.clone(),
            state.options.identity_timeout,
        )
        .await;
        match read.map(|read| state.judge_identity(read)) {
            Ok(true) => {}
            Ok(false) => {
                // An impostor is neither watched nor acted on; look again later.
                drop(permit);
                if state.publish(None).await.is_none() {
                    return;
                }
                tokio::time::sleep(state.options.reconnect_after * 4).await;
                continue;
            }
            Err(error) => {
                // Only an answer with a status (403, 404, 500) says the server is there;
                // anything else (no connection, no answer) means it could not be reached.
                // A credential's failure is the credential's (its status says so).
                let unreachable = !matches!(error, kube::Error::Api(_))
                    && !super::reflect::is_credential_failure(&error);
                state.fail(
                    format!("identity check: {}", describe_error(&error)),
                    unreachable,
                );
                drop(permit);
                if state.publish(None).await.is_none() {
                    return;
                }
                state.pause(state.options.reconnect_after).await;
                continue;
            }
        }
        // Who fleetdeck acts as here: each job's own identity, and the read one, which
        // also does every job without a context of its own.
        let mut identities = Vec::new();
        let mut read_jobs = vec![Job::Read];
        for (job, own) in job_clients_of(&state.cluster, &client.server, &kubeconfig).await {
            if let JobClient::Ready(own) = own {
                identities.push(Identity {
                    jobs: vec![job],
                    user: own.user,
                    client: own.client,
                });
            }
        }
        for job in [Job::Maintenance, Job::Release] {
            if state.cluster.context_for(job) == state.cluster.context {
                read_jobs.push(job);
            }
        }
        identities.insert(
            0,
            Identity {
                jobs: read_jobs,
                user: client.user.clone(),
                client: client.client.clone(),
            },
        );
        if !watch(&mut state, &client, identities, permit).await {
            return;
        }
    }
}

/// What the cluster says it is: its kube-system UID and server, and its `/version`.
struct IdentityRead {
    observed: ObservedIdentity,
    version: String,
}

/// Reads the kube-system UID and `/version` (with read retries), giving up after
/// `timeout`. Needs nothing of the loop, so the watch loop can run it on a task of its own.
async fn read_identity(
    client: kube::Client,
    server: String,
    timeout: Duration,
) -> Result<IdentityRead, kube::Error> {
    let read = async {
        let reads = RetryPolicy::default();
        let namespaces: Api<Namespace> = Api::all(client.clone());
        let kube_system = retry_read(reads, || namespaces.get("kube-system")).await?;
        let version = retry_read(reads, || client.apiserver_version()).await?;
        Ok(IdentityRead {
            observed: ObservedIdentity {
                kube_system_uid: kube_system.metadata.uid.unwrap_or_default(),
                server,
            },
            version: version.git_version,
        })
    };
    tokio::time::timeout(timeout, read)
        .await
        .unwrap_or_else(|_| {
            Err(kube::Error::Service(
                format!("no answer in {}s", timeout.as_secs()).into(),
            ))
        })
}

impl Loop {
    /// Judges what the cluster said it is against the ledger's pin; whether it is
    /// acceptable (not a mismatch).
    fn judge_identity(&mut self, read: IdentityRead) -> bool {
        let verdict = verify_identity(self.cluster.identity.as_ref(), &read.observed);
        self.facts.identity_mismatch = verdict.is_mismatch();
        if let IdentityVerdict::Mismatch { reason } = &verdict {
            tracing::error!(cluster = %self.cluster.id, %reason, "identity mismatch");
            self.last_error = Some(reason.clone());
        }
        let acceptable = !verdict.is_mismatch();
        self.identity = Some(read.observed);
        self.verdict = Some(verdict);
        // An impostor's version is another cluster's: nothing may read it as this one's.
        self.server_version = acceptable.then_some(read.version);
        self.facts.last_ok = Some(Timestamp::now());
        acceptable
    }
}

/// An identity read on a task of its own, stopped when dropped (the watch loop that
/// started it returned).
struct PendingIdentityRead(tokio::task::JoinHandle<Result<IdentityRead, kube::Error>>);

impl Drop for PendingIdentityRead {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts the reflector of `K` on a task of its own; its deltas arrive on the channel.
fn spawn_reflector<K: SlimKind>(
    client: &ClusterClient,
    options: ReflectOptions,
) -> (
    tokio::task::JoinHandle<()>,
    mpsc::Receiver<Delta<ItemOf<K>>>,
) {
    let (tx, rx) = mpsc::channel(64);
    let task = tokio::spawn(reflect::<K>(client.client.clone(), options, tx));
    (task, rx)
}

/// Watches the seven resources (nodes, pods, PDBs, claims, volumes, and the ReplicaSets
/// and Jobs that name what pods belong to) until the consumer goes away (returns false).
async fn watch(
    state: &mut Loop,
    client: &ClusterClient,
    identities: Vec<Identity>,
    mut permit: Option<tokio::sync::OwnedSemaphorePermit>,
) -> bool {
    let options = state.options.reflect;
    let (nodes, mut node_rx) = spawn_reflector::<Nodes>(client, options);
    let (pods, mut pod_rx) = spawn_reflector::<Pods>(client, options);
    let (pdbs, mut pdb_rx) = spawn_reflector::<Pdbs>(client, options);
    let (claims, mut claim_rx) = spawn_reflector::<Claims>(client, options);
    let (volumes, mut volume_rx) = spawn_reflector::<Volumes>(client, options);
    let naming = naming_options(options);
    let (replica_sets, mut replica_set_rx) = spawn_reflector::<ReplicaSets>(client, naming);
    let (jobs, mut job_rx) = spawn_reflector::<Jobs>(client, naming);
    let tasks = [nodes, pods, pdbs, claims, volumes, replica_sets, jobs];
    // Abort the reflectors whenever this function returns.
    struct AbortOnDrop<const N: usize>([tokio::task::JoinHandle<()>; N]);
    impl<const N: usize> Drop for AbortOnDrop<N> {
        fn drop(&mut self) {
            for task in &self.0 {
                task.abort();
            }
        }
    }
    let _guard = AbortOnDrop(tasks);
    // The findings' facts are read once the first lists are done (they would only
    // compete with them before), beside the watches and through the same budget.
    let (facts_tx, mut facts_rx) = mpsc::channel::<Arc<crate::model::findings::ClusterFacts>>(1);
    let mut facts_tx = state.options.findings.map(|options| (facts_tx, options));
    let mut _facts_task: Option<AbortOnDrop<1>> = None;

    let mut store = ClusterStore::new(&state.cluster.id.0);
    let mut resources: [ResourceState; RESOURCES.len()] = Default::default();
    let mut dirty = true;
    // The tick publishes what changed (at most every `publish_every`), ages the status and
    // starts identity re-reads. While nothing changed it comes once a second at most: a
    // fleet of quiet clusters should cost its operator's laptop nothing to watch, and the
    // status it ages changes over minutes.
    let publish_every = state.options.publish_every;
    let quiet_every = (state.options.stale_after / 10)
        .min(QUIET_TICK)
        .max(publish_every);
    let mut tick = std::pin::pin!(tokio::time::sleep_until(tokio::time::Instant::now()));
    let mut last_published_status = None;
    let mut last_published_ok = None;
    // When set, the cluster's identity is to be read again from then on: a watch failed
    // or had to list again, which is also what a cluster rebuilt (or a load balancer
    // failed over) behind the same address looks like. Until it is read again, nothing
    // vouches for it and no change is made to it. Costs one read per disruption, none
    // while the watches run.
    let mut identity_suspect: Option<tokio::time::Instant> = None;
    // The read itself runs beside the loop, so the watches' events keep being applied
    // while a slow server takes its time answering it.
    let mut identity_read: Option<PendingIdentityRead> = None;
    // Readers judge the published facts against their own clock (the console ages a
    // snapshot nobody replaces): a quiet cluster's bookmarks must reach them well within
    // the staleness limit, or it would read Unknown while it is fine. A real API server
    // bookmarks an idle watch about once a minute, so the data's true age already cycles
    // up to a minute; what readers see is that plus how long a newer sign of life waits to
    // be published. Publishing it once it is a tenth of the limit newer keeps the age
    // readers see under ~60 s + 15 s against the 150 s limit (see `HEARTBEAT_SHARE`).
    let heartbeat = jiff::SignedDuration::try_from(state.options.stale_after / HEARTBEAT_SHARE)
        .unwrap_or(jiff::SignedDuration::from_secs(15));
    // A renewed or refused credential changes what the cluster's page says of it.
    let mut credential_changes = state.credential.as_ref().map(|(_, c)| c.subscribe());
    loop {
        if dirty {
            let soon = tokio::time::Instant::now() + publish_every;
            if tick.deadline() > soon {
                tick.as_mut().reset(soon);
            }
        }
        let (which, changed, progress) = tokio::select! {
            Some(delta) = node_rx.recv() => { let p = progress_of(&delta); (0, store.apply_node(delta), p) }
            Some(delta) = pod_rx.recv() => { let p = progress_of(&delta); (1, store.apply_pod(delta), p) }
            Some(delta) = pdb_rx.recv() => { let p = progress_of(&delta); (2, store.apply_pdb(delta), p) }
            Some(delta) = claim_rx.recv() => { let p = progress_of(&delta); (3, store.apply_claim(delta), p) }
            Some(delta) = volume_rx.recv() => { let p = progress_of(&delta); (4, store.apply_volume(delta), p) }
            Some(facts) = facts_rx.recv() => {
                state.findings = Some(facts);
                dirty = true;
                continue;
            }
            () = credential_changed(&mut credential_changes) => {
                dirty = true;
                continue;
            }
            Some(delta) = replica_set_rx.recv() => { let p = progress_of(&delta); (5, store.apply_replica_set(delta), p) }
            Some(delta) = job_rx.recv() => { let p = progress_of(&delta); (6, store.apply_job(delta), p) }
            read = async {
                match identity_read.as_mut() {
                    Some(pending) => (&mut pending.0).await,
                    None => std::future::pending().await,
                }
            } => {
                identity_read = None;
                match read {
                    Ok(Ok(read)) => {
                        if !state.judge_identity(read) {
                            // Another cluster answers now: stop watching it, connect anew.
                            return true;
                        }
                        identity_suspect = None;
                    }
                    Ok(Err(_)) | Err(_) => {
                        identity_suspect =
                            Some(tokio::time::Instant::now() + state.options.reconnect_after);
                    }
                }
                dirty = true;
                continue;
            }
            () = &mut tick => {
                if identity_read.is_none()
                    && identity_suspect.is_some_and(|at| tokio::time::Instant::now() >= at)
                {
                    identity_read = Some(PendingIdentityRead(tokio::spawn(read_identity(
                        client.client.clone(),
                        client.server.clone(),
                        state.options.identity_timeout,
                    ))));
                }
                // Cheap check first: a quiet cluster only needs its status re-derived (data
                // ages into Unknown); the full snapshot is built only when something changed.
                let mut facts = state.facts.clone();
                facts.unreadable_objects = store.unreadable();
                let status = classify(&facts, Timestamp::now(), state.options.stale_after);
                let status_changed = last_published_status != Some(status);
                let heartbeat_due = match (facts.last_ok, last_published_ok) {
                    (Some(seen), Some(published)) => seen.duration_since(published) >= heartbeat,
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                if dirty || status_changed || heartbeat_due {
                    let Some(published) = state.publish(Some(&mut store)).await else {
                        return false;
                    };
                    last_published_status = Some(published);
                    last_published_ok = facts.last_ok;
                    dirty = false;
                }
                let next = if identity_suspect.is_some() { publish_every } else { quiet_every };
                tick.as_mut().reset(tokio::time::Instant::now() + next);
                continue;
            }
            else => return true,
        };
        dirty |= changed;
        let progress = match progress {
            // An optional resource the server will not serve (no RBAC to read it, an API
            // it does not offer) counts as listed and empty: the cluster stays usable and
            // reads Degraded, naming what is missing. It is still retried, in case the
            // role is fixed.
            Progress::Failed {
                error,
                failure: Failure::Refused,
            } if RESOURCES[which].1 != Need::Required => {
                let resource = &mut resources[which];
                let unreadable = format!("{} cannot be read ({error})", RESOURCES[which].0);
                let consequence = match RESOURCES[which].1 {
                    Need::Naming => "pods are named by their own controller",
                    _ => "pods are not pinned to their volumes' domains",
                };
                resource.refused = Some(format!("{unreadable}: {consequence}"));
                resource.unreadable = Some(unreadable);
                if RESOURCES[which].1 == Need::Naming {
                    tracing::info!(cluster = %state.cluster.id, %error, "{}", RESOURCES[which].0);
                }
                Progress::ListDone
            }
            Progress::ListDone => {
                resources[which].refused = None;
                resources[which].unreadable = None;
                Progress::ListDone
            }
            // Its retries are not news: no relist, no doubt about the identity.
            Progress::ListStarted if resources[which].refused.is_some() => Progress::Data,
            other => other,
        };
        // Only missing volume data makes the view partial: without a ReplicaSet's owner
        // a pod is still counted and placed, only named by its ReplicaSet.
        let volume_data = || {
            resources
                .iter()
                .zip(RESOURCES)
                .filter(|(_, (_, need))| *need == Need::VolumePins)
        };
        state.facts.partial = volume_data().find_map(|(r, _)| r.refused.clone());
        // The view says which volume data it lacks: a pod mounting a claim can then not
        // be judged free to move.
        if RESOURCES[which].1 == Need::VolumePins {
            let unreadable = volume_data().find_map(|(r, _)| r.unreadable.as_deref());
            dirty |= store.set_volumes_unreadable(unreadable);
        }
        // The data is as old as its oldest part: a pods watch that keeps failing to list
        // again must not be hidden by the nodes' bookmarks. A list about to start is the
        // reflector's own word, not the server's; a refused optional resource has no age,
        // and the resources that only name workloads are not the data health is judged on.
        if !matches!(progress, Progress::Failed { .. } | Progress::ListStarted) {
            resources[which].last_ok = Some(Timestamp::now());
            let oldest = judged(&resources)
                .filter(|r| r.refused.is_none())
                .map(|r| r.last_ok)
                .min()
                .flatten();
            if let Some(oldest) = oldest {
                state.facts.last_ok = Some(oldest);
            }
        }
        let resource = &mut resources[which];
        let relist = matches!(progress, Progress::ListStarted) && resource.listed_once;
        if (relist || matches!(progress, Progress::Failed { .. })) && identity_suspect.is_none() {
            identity_suspect = Some(tokio::time::Instant::now());
            state.verdict = None;
            dirty = true;
        }
        match progress {
            Progress::ListStarted => resource.relisting = true,
            Progress::ListDone => {
                resource.listed_once = true;
                resource.relisting = false;
                resource.failing = None;
            }
            Progress::Ok => resource.failing = None,
            Progress::Failed { error, failure } => {
                resource.failing = Some(failure == Failure::Unreachable);
                if RESOURCES[which].1 == Need::Naming {
                    // Names wait; the cluster's status does not depend on them.
                    tracing::debug!(cluster = %state.cluster.id, %error, "{}", RESOURCES[which].0);
                } else {
                    state.last_error = Some(error);
                }
            }
            Progress::Data => {}
        }
        // A view is published, and its status judged, on what capacity and health need:
        // without its ReplicaSets a pod is still counted, only named by its ReplicaSet.
        let all_listed = judged(&resources).all(|r| r.listed_once);
        state.facts.listed = all_listed;
        if all_listed && let Some((tx, options)) = facts_tx.take() {
            let reader = FactsReader::new(
                client.client.clone(),
                client.log.clone(),
                state.credentials.clone(),
                identities.clone(),
                options,
            );
            _facts_task = Some(AbortOnDrop([tokio::spawn(run_facts(
                reader,
                options.interval,
                tx,
            ))]));
        }
        if all_listed || judged(&resources).any(|r| r.failing.is_some()) {
            // First lists done, or one of them failed (it is retried with backoff, which
            // may take long, or never succeed: no RBAC, no such API): let another cluster
            // start its lists.
            permit.take();
        }
        let failing: Vec<bool> = judged(&resources).filter_map(|r| r.failing).collect();
        let phase = if !failing.is_empty() {
            SyncPhase::Failing {
                unreachable: failing.iter().all(|u| *u),
            }
        } else if all_listed {
            SyncPhase::Watching {
                complete: judged(&resources).all(|r| !r.relisting),
            }
        } else {
            SyncPhase::Connecting
        };
        if phase != state.facts.phase {
            if failing.is_empty() {
                state.last_error = None;
            }
            state.facts.phase = phase;
            // A phase change (lists complete, failing, recovered) is what an operator
            // waits for: publish it now rather than at the next tick. Phases change a
            // few times per cluster, so this adds no meaningful work.
            let Some(published) = state.publish(Some(&mut store)).await else {
                return false;
            };
            last_published_status = Some(published);
            dirty = false;
        }
    }
}

/// Returns when the credential changed; pending forever without one.
async fn credential_changed(changes: &mut Option<tokio::sync::watch::Receiver<u64>>) {
    if let Some(rx) = changes
        && rx.changed().await.is_ok()
    {
        return;
    }
    std::future::pending().await
}

/// The resources a cluster's status is judged on: all but those that only name workloads.
fn judged(resources: &[ResourceState]) -> impl Iterator<Item = &ResourceState> {
    resources
        .iter()
        .zip(RESOURCES)
        .filter(|(_, (_, need))| *need != Need::Naming)
        .map(|(r, _)| r)
}

/// How the resources that only name workloads (ReplicaSets, Jobs) are read: as the others,
/// but one that fails (a server that refuses it: no RBAC) is asked again after up to half
/// a minute at first and up to five minutes later, rather than within a second and every
/// half minute: a name is not worth a steady trickle of requests.
fn naming_options(
    mut options: crate::k8s::reflect::ReflectOptions,
) -> crate::k8s::reflect::ReflectOptions {
    options.backoff.base = options.backoff.base.max(NAMING_RETRY_FIRST);
    options.backoff.max = options.backoff.max.max(NAMING_RETRY_MAX);
    options
}

/// The longest first wait before asking again for a naming resource that failed.
const NAMING_RETRY_FIRST: Duration = Duration::from_secs(30);

/// The longest wait before asking again for a naming resource the server refused.
const NAMING_RETRY_MAX: Duration = Duration::from_secs(300);

/// What a delta says about the watch's health, separately from the data it carries.
enum Progress {
    ListStarted,
    ListDone,
    Ok,
    Data,
    Failed { error: String, failure: Failure },
}

fn progress_of<K>(delta: &Delta<K>) -> Progress {
    match delta {
        Delta::ListStarted => Progress::ListStarted,
        Delta::ListDone => Progress::ListDone,
        Delta::Page(_) | Delta::Applied(_) | Delta::Deleted(_) => Progress::Data,
        Delta::Alive => Progress::Ok,
        Delta::Failed { error, failure } => Progress::Failed {
            error: error.clone(),
            failure: *failure,
        },
    }
}

#[cfg(test)]
#[path = "cluster_sync_tests.rs"]
mod tests;
