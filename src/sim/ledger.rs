//! Files the simulator writes: a kubeconfig with one context per cluster, and the
//! matching ledger (`apiVersion: fleetdeck.dev/v1`, `kind: Ledger`).

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::Path;

use serde_json::{Value, json};

use super::error::SimError;
use super::fleet::SimFleet;
use super::server::cluster_url;

fn write_file(path: &Path, text: &str) -> Result<(), SimError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| SimError::Io {
            path: dir.into(),
            source,
        })?;
    }
    std::fs::write(path, text).map_err(|source| SimError::Io {
        path: path.into(),
        source,
    })
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The kubeconfig text for a fleet served at `addr`: one cluster, one context (named by
/// the cluster id) per cluster, one token user (`fleetdeck-sim`, who is `admin`).
pub fn kubeconfig(fleet: &SimFleet, addr: SocketAddr) -> String {
    kubeconfig_text(fleet, addr, "fleetdeck-sim", super::auth::ADMIN_TOKEN)
}

/// The kubeconfig text for a fleet served at `addr` whose contexts authenticate as
/// `user` (see [`SimFleet::users`]); None for a user the fleet does not have.
pub fn kubeconfig_for(fleet: &SimFleet, addr: SocketAddr, user: &str) -> Option<String> {
    let token = fleet.token(user)?;
    Some(kubeconfig_text(
        fleet,
        addr,
        &format!("fleetdeck-sim-{user}"),
        &token,
    ))
}

/// Writes the kubeconfig of `user` to `path` (see [`kubeconfig_for`]).
pub fn write_kubeconfig_for(
    fleet: &SimFleet,
    path: &Path,
    addr: SocketAddr,
    user: &str,
) -> Result<(), SimError> {
    let text =
        kubeconfig_for(fleet, addr, user).ok_or_else(|| SimError::UnknownUser(user.to_string()))?;
    write_file(path, &text)
}

/// How the contexts of a written kubeconfig authenticate.
#[derive(Debug, Clone, PartialEq)]
pub enum KubeconfigAuth {
    /// One user with the static token of `admin` (the default).
    Token,
    /// Users that run an exec plugin (`fleetdeck __sim-plugin`) for short-lived tokens
    /// from the simulator's issuer, as managed fleets authenticate.
    Exec(ExecAuth),
}

/// The exec plugin a written kubeconfig's users run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecAuth {
    /// The fleetdeck binary (it is the plugin, in a hidden sub-mode).
    pub program: std::path::PathBuf,
    /// The simulator user the tokens are for.
    pub user: String,
    /// Token lifetime in seconds (the issuer's default of an hour without).
    pub ttl_seconds: Option<f64>,
    /// The plugin's state folder (`behaviour.json`, `runs.log`), if any.
    pub state: Option<std::path::PathBuf>,
    /// One kubeconfig user per cluster (each a credential of its own), rather than one
    /// user shared by every context.
    pub per_cluster: bool,
}

/// The kubeconfig text for a fleet served at `addr` whose contexts authenticate as
/// `auth` says.
pub fn kubeconfig_with(fleet: &SimFleet, addr: SocketAddr, auth: &KubeconfigAuth) -> String {
    match auth {
        KubeconfigAuth::Token => kubeconfig(fleet, addr),
        KubeconfigAuth::Exec(exec) => {
            let user_of = |id: &str| {
                if exec.per_cluster {
                    format!("fleetdeck-sim-exec-{id}")
                } else {
                    "fleetdeck-sim-exec".to_string()
                }
            };
            let mut text = contexts_text(fleet, addr, &user_of);
            text.push_str("users:\n");
            let ids: Vec<String> = if exec.per_cluster {
                fleet.cluster_ids()
            } else {
                vec![String::new()]
            };
            for id in &ids {
                let mut args = vec![
                    "__sim-plugin".to_string(),
                    "--issuer".to_string(),
                    addr.to_string(),
                    "--user".to_string(),
                    exec.user.clone(),
                ];
                if let Some(ttl) = exec.ttl_seconds {
                    args.extend(["--ttl".to_string(), ttl.to_string()]);
                }
                if let Some(state) = &exec.state {
                    args.extend(["--state".to_string(), state.display().to_string()]);
                }
                let env = if exec.per_cluster {
                    // Each cluster's user is its own credential, as with one role per
                    // account on a managed fleet.
                    format!(
                        "      env:\n      - name: FLEETDECK_SIM_CLUSTER\n        value: {}\n",
                        quote(id)
                    )
                } else {
                    String::new()
                };
                text.push_str(&format!(
                    "- name: {}\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {}\n      args: [{}]\n{env}      interactiveMode: IfAvailable\n      provideClusterInfo: false\n",
                    quote(&user_of(id)),
                    quote(&exec.program.display().to_string()),
                    args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(", "),
                ));
            }
            text
        }
    }
}

/// Writes the kubeconfig of `auth` to `path` (see [`kubeconfig_with`]).
pub fn write_kubeconfig_with(
    fleet: &SimFleet,
    path: &Path,
    addr: SocketAddr,
    auth: &KubeconfigAuth,
) -> Result<(), SimError> {
    write_file(path, &kubeconfig_with(fleet, addr, auth))
}

fn kubeconfig_text(fleet: &SimFleet, addr: SocketAddr, user: &str, token: &str) -> String {
    let mut s = contexts_text(fleet, addr, &|_| user.to_string());
    s.push_str(&format!(
        "users:\n- name: {}\n  user:\n    token: {}\n",
        quote(user),
        quote(token)
    ));
    s
}

/// Everything of a kubeconfig but its users: the clusters (one per simulated cluster,
/// with the CA that signed its serving certificate) and a context per cluster naming the
/// user `user_of` gives for it.
fn contexts_text(fleet: &SimFleet, addr: SocketAddr, user_of: &dyn Fn(&str) -> String) -> String {
    let ca = super::base64::encode(super::tls::CA_PEM.as_bytes());
    let ids = fleet.cluster_ids();
    let mut s = String::from("apiVersion: v1\nkind: Config\npreferences: {}\n");
    s.push_str(&format!(
        "current-context: {}\n",
        quote(ids.first().map(String::as_str).unwrap_or(""))
    ));
    s.push_str("clusters:\n");
    for c in fleet.clusters() {
        let id = &c.profile.id;
        // A cluster with its own serving certificate is reached under its own name and
        // trusts the runtime CA that signed it (beside the built-in one).
        let own = c
            .profile
            .serving_certificate_days
            .and_then(|_| super::serving_cert::ca_pem().ok());
        let (ca, name) = match own {
            Some(runtime) => (
                super::base64::encode(format!("{}{runtime}", super::tls::CA_PEM).as_bytes()),
                format!(
                    "    tls-server-name: {}\n",
                    super::serving_cert::server_name(id)
                ),
            ),
            None => (ca.clone(), String::new()),
        };
        s.push_str(&format!(
            "- name: {}\n  cluster:\n    server: {}\n    certificate-authority-data: {}\n{name}",
            quote(id),
            quote(&cluster_url(addr, id)),
            ca
        ));
    }
    s.push_str("contexts:\n");
    for id in &ids {
        s.push_str(&format!(
            "- name: {}\n  context:\n    cluster: {}\n    user: {}\n    namespace: default\n",
            quote(id),
            quote(id),
            quote(&user_of(id))
        ));
    }
    s
}

/// Writes the kubeconfig to `path`.
pub fn write_kubeconfig(fleet: &SimFleet, path: &Path, addr: SocketAddr) -> Result<(), SimError> {
    write_file(path, &kubeconfig(fleet, addr))
}

/// The ledger of a fleet served at `addr`. Deliberate drift from the scenario
/// (`overrides[].ledger`) is applied here: the ledger then disagrees with the cluster.
pub fn ledger(fleet: &SimFleet, addr: SocketAddr) -> Value {
    let mut dictionary: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for k in ["env", "tier"] {
        dictionary.entry(k.into()).or_default();
    }
    dictionary
        .entry("env".into())
        .or_default()
        .extend(["production".to_string(), "staging".to_string()]);
    dictionary
        .entry("tier".into())
        .or_default()
        .extend(["critical", "standard", "best-effort"].map(String::from));
    // Relative to the fleet's start, not to now: the same fleet writes the same ledger
    // whenever it is asked.
    let now = fleet.clock().started();
    let mut clusters = Vec::new();
    for c in fleet.clusters() {
        let p = &c.profile;
        if p.drift.unregistered {
            continue;
        }
        for (k, v) in &p.labels {
            dictionary.entry(k.clone()).or_default().insert(v.clone());
        }
        let mut versions = p.versions.clone();
        if let Some(v) = &p.drift.kubernetes {
            versions.insert("kubernetes".into(), v.clone());
        }
        if let Some(v) = &p.drift.gpu_driver {
            versions.insert("gpuDriver".into(), v.clone());
        }
        for k in ["gpuDriver", "devicePlugin"] {
            versions.entry(k.into()).or_insert_with(|| "none".into());
        }
        let uid = p
            .drift
            .kube_system_uid
            .clone()
            .unwrap_or_else(|| p.kube_system_uid.clone());
        let hours = 2 + (p.index % 20) as i64;
        let backup = now
            .checked_sub(jiff::SignedDuration::from_hours(hours))
            .unwrap_or(now);
        let drill = now
            .checked_sub(jiff::SignedDuration::from_hours(
                24 * (10 + (p.index % 50) as i64),
            ))
            .unwrap_or(now);
        let mut entry = json!({
            "id": p.id,
            "displayName": p.display_name,
            "context": p.id,
            "identity": {"kubeSystemUID": uid, "server": cluster_url(addr, &p.id)},
            "env": p.env,
            "region": p.region,
            "failureDomain": p.region,
            "tier": p.tier,
            "owner": p.owner,
            "lifecycle": p.lifecycle,
            "labels": p.labels,
            "versions": versions,
            "network": {"podCIDR": p.pod_cidr, "serviceCIDR": p.service_cidr},
            "sharedDependencies": p.shared_dependencies,
            "backup": {"location": format!("s3://fleet-backups/{}/{}", p.region, p.id),
                "lastSuccess": super::clock::rfc3339(backup), "lastRestoreDrill": drill.strftime("%Y-%m-%d").to_string()},
            // Open around the clock: fleetdeck enforces windows, and a simulated fleet
            // is there to be changed whenever the demo or a test runs.
            "maintenanceWindow": {"days": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], "start": "00:00", "duration": "24h", "timezone": "UTC"},
        });
        if !p.exceptions.is_empty() {
            entry["exceptions"] = Value::Array(p.exceptions.clone());
        }
        apply_recovery_and_window(&mut entry, &p.drift, now);
        clusters.push(entry);
    }
    let mut ledger =
        json!({"apiVersion": "fleetdeck.dev/v1", "kind": "Ledger", "labelDictionary": dictionary});
    for (key, value) in fleet.ledger_extras() {
        ledger[key] = value.clone();
    }
    ledger["clusters"] = json!(clusters);
    ledger
}

/// The scenario's word on a cluster's backup (`overrides[].ledger.backup`,
/// `restoreDrillDaysAgo`) and window (`windowOpensInHours`: a two-hour weekly window
/// opening that many hours after `now`, on the hour, so it is closed now).
fn apply_recovery_and_window(
    entry: &mut Value,
    drift: &super::scenario::LedgerDrift,
    now: jiff::Timestamp,
) {
    if let Some(days) = drift.restore_drill_days_ago
        && let Ok(drill) =
            now.checked_sub(jiff::SignedDuration::from_hours(24 * days.clamp(0, 36_500)))
    {
        entry["backup"]["lastRestoreDrill"] = json!(drill.strftime("%Y-%m-%d").to_string());
    }
    if let Some(Value::Object(fields)) = &drift.backup {
        for (k, v) in fields {
            entry["backup"][k] = v.clone();
        }
    }
    if let Some(hours) = drift.window_opens_in_hours
        && let Ok(opens) =
            now.checked_add(jiff::SignedDuration::from_hours(hours.clamp(1, 24 * 6) + 1))
    {
        let opens = opens.to_zoned(jiff::tz::TimeZone::UTC);
        let day = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            [usize::try_from(opens.weekday().to_monday_zero_offset()).unwrap_or(0)];
        entry["maintenanceWindow"] = json!({"days": [day], "start": format!("{:02}:00", opens.hour()),
            "duration": "2h", "timezone": "UTC"});
    }
}

/// Writes the ledger to `path`.
pub fn write_ledger(fleet: &SimFleet, path: &Path, addr: SocketAddr) -> Result<(), SimError> {
    write_file(path, &super::yaml::render(&ledger(fleet, addr)))
}
