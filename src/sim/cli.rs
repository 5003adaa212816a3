//! The `fleetdeck sim` command line: flags and the serve-until-Ctrl-C entry point.

use std::io::Write;
use std::path::PathBuf;

use super::error::SimError;
use super::fleet::SimFleet;
use super::ledger::{write_kubeconfig, write_ledger};
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
    write_kubeconfig(&fleet, &args.write_kubeconfig, addr)?;
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
