//! A simulated fleet whose kubeconfig users run the simulator's exec plugin (the
//! `fleetdeck` binary in its `__sim-plugin` mode), as an EKS, GKE or OIDC fleet's do; and
//! kubeconfigs in which some clusters use plugins that behave differently.

use std::path::{Path, PathBuf};

use fleetdeck::sim::{ExecAuth, KubeconfigAuth, SimFleet, SimServer};
use kube::config::Kubeconfig;

/// A fleet served on loopback with an exec kubeconfig and its ledger in `dir`.
pub struct ExecFleet {
    pub fleet: SimFleet,
    pub server: SimServer,
    pub addr: std::net::SocketAddr,
    /// The plugin's state folder (`behaviour.json`, `runs.log`).
    pub state: PathBuf,
    pub kubeconfig: PathBuf,
    pub ledger: PathBuf,
}

/// Serves `scenario` with every context's user running the plugin (one user for all,
/// or one per cluster), its tokens living `ttl` seconds, behaving as `behaviour` says.
pub async fn exec_fleet(
    dir: &Path,
    scenario: &str,
    behaviour: &str,
    ttl: Option<f64>,
    per_cluster: bool,
) -> ExecFleet {
    let fleet = SimFleet::load(scenario, 1, 1.0).expect("scenario");
    let (addr, server) = fleetdeck::sim::start_on_loopback(fleet.clone(), 0)
        .await
        .expect("serve");
    let state = dir.join("plugin");
    std::fs::create_dir_all(&state).expect("state dir");
    std::fs::write(state.join("behaviour.json"), behaviour).expect("behaviour");
    let kubeconfig = dir.join("kubeconfig");
    let ledger = dir.join("ledger.yaml");
    fleetdeck::sim::write_kubeconfig_with(
        &fleet,
        &kubeconfig,
        addr,
        &KubeconfigAuth::Exec(ExecAuth {
            program: PathBuf::from(super::cli::binary()),
            user: "admin".into(),
            ttl_seconds: ttl,
            state: Some(state.clone()),
            per_cluster,
        }),
    )
    .expect("kubeconfig");
    fleetdeck::sim::write_ledger(&fleet, &ledger, addr).expect("ledger");
    ExecFleet {
        fleet,
        server,
        addr,
        state,
        kubeconfig,
        ledger,
    }
}

impl ExecFleet {
    /// The ledger and kubeconfig as fleetdeck reads them.
    pub fn read(&self) -> (fleetdeck::model::ledger::Ledger, Kubeconfig) {
        let ledger = fleetdeck::config::ledger_file::load(&self.ledger).expect("ledger");
        let kubeconfig = Kubeconfig::read_from(&self.kubeconfig).expect("kubeconfig");
        (ledger, kubeconfig)
    }

    /// Gives `contexts` a user of their own whose plugin keeps its state in `state` (and
    /// so behaves as that folder's `behaviour.json` says); rewrites the kubeconfig.
    pub fn split_off(&self, user: &str, contexts: &[&str], state: &Path, behaviour: &str) {
        std::fs::create_dir_all(state).expect("state dir");
        std::fs::write(state.join("behaviour.json"), behaviour).expect("behaviour");
        let mut config = Kubeconfig::read_from(&self.kubeconfig).expect("kubeconfig");
        let mut named = config.auth_infos[0].clone();
        named.name = user.to_string();
        if let Some(exec) = named.auth_info.as_mut().and_then(|a| a.exec.as_mut()) {
            let args = exec.args.get_or_insert_with(Vec::new);
            if let Some(i) = args.iter().position(|a| a == "--state") {
                args[i + 1] = state.display().to_string();
            }
        }
        config.auth_infos.push(named);
        for context in &mut config.contexts {
            if contexts.contains(&context.name.as_str())
                && let Some(c) = context.context.as_mut()
            {
                c.user = Some(user.to_string());
            }
        }
        // JSON is YAML: kubeconfig readers take it as it is.
        std::fs::write(
            &self.kubeconfig,
            serde_json::to_string_pretty(&config).expect("kubeconfig as JSON"),
        )
        .expect("write kubeconfig");
    }

    /// Asks the simulator (over plain HTTP on its port) and returns the JSON answer.
    pub async fn control(&self, method: &str, path: &str, body: Option<&str>) -> serde_json::Value {
        control(self.addr, method, path, body).await
    }
}

/// A request to the simulator's `/sim/v1/…` endpoints over plain HTTP.
pub async fn control(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> serde_json::Value {
    use http_body_util::BodyExt;
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .expect("handshake");
    tokio::spawn(connection);
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::HOST, addr.to_string())
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(http_body_util::Full::new(bytes::Bytes::from(
            body.unwrap_or_default().to_string(),
        )))
        .expect("request");
    let response = sender.send_request(request).await.expect("response");
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null)
}

/// The plugin's runs recorded in `state/runs.log`, in the order they started.
pub fn runs(state: &Path) -> Vec<fleetdeck::sim::PluginRun> {
    fleetdeck::sim::runs_in(state)
}

/// The most runs that were under way at one moment.
pub fn most_at_once(runs: &[fleetdeck::sim::PluginRun]) -> usize {
    fleetdeck::sim::most_at_once(runs)
}
