//! The `fleetdeck sim` command line: flags and the serve-until-Ctrl-C entry point.

use std::io::Write;
use std::path::PathBuf;

use super::error::SimError;
use super::fleet::SimFleet;
use super::ledger::{ExecAuth, KubeconfigAuth, write_kubeconfig_with, write_ledger};
use super::scenario::Scenario;
use super::server::start_on_loopback;

/// Flags of `fleetdeck sim`.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// Scenario: small, demo, large, or a path to a scenario YAML file.
    #[arg(long, default_value = "small")]
    pub scenario: String,
    /// Seed for names, UIDs, versions and placement.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Simulated time speed factor (60 = one simulated minute per second).
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// Write a kubeconfig with one context per cluster to this path.
    #[arg(long)]
    pub write_kubeconfig: PathBuf,
    /// Write the matching ledger to this path.
    #[arg(long)]
    pub write_ledger: Option<PathBuf>,
    /// How the kubeconfig's users authenticate: `token` (one static token) or `exec` (an exec plugin, this program, fetching short-lived tokens from the simulator as EKS, GKE and OIDC fleets do)
    #[arg(long, value_enum, default_value = "token")]
    pub auth: AuthMode,
    /// With `--auth exec`: lifetime of the tokens the plugin gets, in seconds
    #[arg(long, value_name = "SECONDS")]
    pub token_ttl: Option<f64>,
    /// With `--auth exec`: the plugin's state folder (`behaviour.json` makes it slow, chatty, failing, hanging or ask for a login; `runs.log` counts its runs)
    #[arg(long, value_name = "DIR")]
    pub plugin_state: Option<PathBuf>,
    /// With `--auth exec`: one kubeconfig user per cluster, each its own credential
    #[arg(long)]
    pub exec_user_per_cluster: bool,
}

/// How a written kubeconfig's users authenticate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AuthMode {
    /// A static bearer token.
    Token,
    /// An exec credential plugin.
    Exec,
}

impl SimArgs {
    /// What the kubeconfig's users run, by these flags.
    pub fn kubeconfig_auth(&self) -> Result<KubeconfigAuth, SimError> {
        Ok(match self.auth {
            AuthMode::Token => KubeconfigAuth::Token,
            AuthMode::Exec => KubeconfigAuth::Exec(ExecAuth {
                program: std::env::current_exe().map_err(|source| SimError::Io {
                    path: PathBuf::from("/proc/self/exe"),
                    source,
                })?,
                user: "admin".into(),
                ttl_seconds: self.token_ttl,
                state: self.plugin_state.clone(),
                per_cluster: self.exec_user_per_cluster,
            }),
        })
    }
}

/// Runs `fleetdeck sim`: generates the fleet, serves it on loopback, writes the
/// kubeconfig (and ledger), prints the address, and runs until Ctrl-C.
pub async fn serve_from_cli(args: SimArgs) -> Result<(), SimError> {
    let started = std::time::Instant::now();
    let scenario = Scenario::load(&args.scenario)?;
    let fleet = SimFleet::from_scenario(&scenario, args.seed, args.speed)?;
    let (clusters, nodes, pods) = fleet.totals();
    tracing::info!(
        clusters,
        nodes,
        pods,
        secs = started.elapsed().as_secs_f64(),
        "fleet generated"
    );
    let (addr, server) = start_on_loopback(fleet.clone(), args.port).await?;
    write_kubeconfig_with(
        &fleet,
        &args.write_kubeconfig,
        addr,
        &args.kubeconfig_auth()?,
    )?;
    if let Some(path) = &args.write_ledger {
        write_ledger(&fleet, path, addr)?;
    }
    // The one line a user needs: where the fleet is. A reader that went away changes
    // nothing: the fleet is served until Ctrl-C either way.
    let _ = writeln!(
        std::io::stdout().lock(),
        "fleetdeck sim: scenario {} ({clusters} clusters, {nodes} nodes, {pods} pods) serving on https://{addr}/clusters/<id>; kubeconfig {}",
        scenario.name,
        args.write_kubeconfig.display()
    );
    tokio::signal::ctrl_c()
        .await
        .map_err(|source| SimError::Serve {
            addr: addr.to_string(),
            source,
        })?;
    server.shutdown().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        sim: SimArgs,
    }

    #[test]
    fn flags_parse() {
        let cli = Cli::try_parse_from([
            "sim",
            "--scenario",
            "demo",
            "--seed",
            "9",
            "--port",
            "8080",
            "--speed",
            "60",
            "--write-kubeconfig",
            "/tmp/k",
            "--write-ledger",
            "/tmp/l",
        ]);
        let args = cli.map(|c| c.sim).ok();
        assert_eq!(
            args.as_ref()
                .map(|a| (a.scenario.as_str(), a.seed, a.port, a.speed)),
            Some(("demo", 9, 8080, 60.0))
        );
        assert!(
            Cli::try_parse_from(["sim"]).is_err(),
            "--write-kubeconfig is required"
        );
    }
}
