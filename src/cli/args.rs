//! The command line: every subcommand and flag, as clap derives them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use fleetdeck::config::OutputFormat;

/// Operate tens to hundreds of Kubernetes clusters from one terminal: the cluster ledger,
/// rollout batches, node maintenance and GPU-aware capacity.
#[derive(Debug, Parser)]
#[command(name = "fleetdeck", version, propagate_version = true)]
pub struct Cli {
    /// Flags every command understands.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do; without one, the console opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Flags every command understands.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Ledger file (default: `ledger` in config.toml)
    #[arg(long, global = true, value_name = "FILE", env = "FLEETDECK_LEDGER")]
    pub ledger: Option<PathBuf>,
    /// Kubeconfig file (default: $KUBECONFIG, merged like kubectl, else ~/.kube/config)
    #[arg(long, global = true, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// Journal database (default: journal.sqlite in the data directory)
    #[arg(long, global = true, value_name = "PATH", env = "FLEETDECK_JOURNAL")]
    pub journal: Option<PathBuf>,
    /// Who you are, as recorded in the journal (default: user@host)
    #[arg(long = "as", global = true, value_name = "NAME")]
    pub actor: Option<String>,
    /// Refuse every action that would change a cluster or the journal
    #[arg(long, global = true)]
    pub readonly: bool,
    /// Output format
    #[arg(short, long, global = true, value_enum)]
    pub output: Option<OutputFormat>,
    /// Prometheus for rollout gates and checks, e.g. http://127.0.0.1:9090
    #[arg(long, global = true, value_name = "URL", env = "FLEETDECK_PROMETHEUS")]
    pub prometheus: Option<String>,
    /// Configuration file (default: config.toml in the XDG config directory)
    #[arg(long, global = true, value_name = "FILE", env = "FLEETDECK_CONFIG")]
    pub config: Option<PathBuf>,
    /// Language of the interface: en or zh-CN (default: $FLEETDECK_LANG, `language` in
    /// config.toml, else LC_ALL / LC_MESSAGES / LANG, else en). Machine output (JSON,
    /// YAML), the journal and logs are never translated
    #[arg(long, global = true, value_name = "LANG")]
    pub lang: Option<String>,
    /// Never let an exec credential plugin prompt on this terminal; one that needs a login fails instead, naming it (the console never lets them: it has `:login`)
    #[arg(long, global = true)]
    pub no_interactive: bool,
}

/// `fleetdeck run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// How long the executor's lease lives without renewal; a standby takes over
    /// this long after the holder dies
    #[arg(long, value_name = "DURATION", default_value = "15s", value_parser = super::live::parse_wait)]
    pub lease_ttl: std::time::Duration,
    /// How long a cluster's rollout checks may say "not yet" before the verdict is final
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = super::live::parse_wait)]
    pub verify_timeout: std::time::Duration,
    /// How often SLO evidence is queried while a rollout batch is active
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = super::live::parse_wait)]
    pub evidence_interval: std::time::Duration,
    /// Act only for one shard of the fleet, KEY=VALUE over a ledger field or label (e.g.
    /// `region=us-east`): executors of other shards of the same key act beside this one,
    /// a standby of the same shard takes over when it dies
    #[arg(long, value_name = "KEY=VALUE")]
    pub shard: Option<String>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read, check and query the cluster ledger
    Ledger {
        /// Ledger subcommand.
        #[command(subcommand)]
        command: LedgerCommand,
    },
    /// Sync every ledger cluster once and print status, identity, versions and capacity
    Snapshot {
        /// How long to wait for every cluster to reach a verdict
        #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = super::live::parse_wait)]
        wait_synced: std::time::Duration,
    },
    /// Headroom per cluster and dimension, GPU shape, N−1, what-if and gang fits
    Capacity {
        /// Only this cluster
        #[arg(long, value_name = "ID")]
        cluster: Option<String>,
        /// Lose something: `zone=Z`, `node=N,…` or `cluster=C`
        #[arg(long, value_name = "WHAT")]
        what_if: Option<String>,
        /// Check whether a gang fits on one node, e.g. `8xnvidia.com/gpu`
        #[arg(long, value_name = "GANG")]
        gang: Option<String>,
        /// With `--what-if cluster=C`: the clusters that would take C's pods, as a ledger
        /// selector (default: C's environment and region, serving clusters)
        #[arg(long, value_name = "SELECTOR")]
        siblings: Option<String>,
        /// How long to wait for every cluster to reach a verdict
        #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = super::live::parse_wait)]
        wait_synced: std::time::Duration,
    },
    /// The console on an embedded simulated fleet (no cluster needed)
    Demo(super::demo_cmd::DemoArgs),
    /// Serve a simulated fleet on loopback for demos and tests (runs until Ctrl-C)
    Sim(fleetdeck::sim::SimArgs),
    /// Show fleetdeck's own configuration
    Config {
        /// Config subcommand.
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Read the journal: what the engine and the operators did
    Journal(super::journal_cmd::JournalArgs),
    /// Shift handover: pauses, waiting approvals, stuck and handed-off steps, halted
    /// rollouts, troubled clusters, expiring exceptions and notes (`-o markdown` for a report)
    Handover(super::handover_cmd::HandoverArgs),
    /// Fleet findings: expiring certificates, risky webhooks, our priority level, failing
    /// health checks, stale restore drills, GitOps sync, maintenance windows, burn rates
    Findings(super::findings_cmd::FindingsArgs),
    /// Maintenance windows: each cluster's, and overriding one (journaled)
    Window {
        /// Window subcommand.
        #[command(subcommand)]
        command: super::window_cmd::WindowCommand,
    },
    /// Suspend or resume a GitOps object's sync during an incident (journaled)
    Gitops {
        /// GitOps subcommand.
        #[command(subcommand)]
        command: super::gitops_cmd::GitOpsCommand,
    },
    /// Plan and inspect node maintenance
    Maintenance {
        /// Maintenance subcommand.
        #[command(subcommand)]
        command: super::maintenance_cmd::MaintenanceCommand,
    },
    /// The headless executor: carries out runs from the journal (a second one stands by)
    Run(RunArgs),
    /// Plan and operate rollouts across clusters
    Rollout {
        /// Rollout subcommand.
        #[command(subcommand)]
        command: super::rollout_cmd::RolloutCommand,
    },
    /// Pause automation: no new step starts (nothing is undone)
    Pause(super::pause_cmd::PauseArgs),
    /// Resume paused automation
    Resume(super::pause_cmd::ResumeArgs),
    /// Upgrade readiness across the fleet
    Upgrade {
        /// Upgrade subcommand.
        #[command(subcommand)]
        command: super::upgrade_cmd::UpgradeCommand,
    },
    /// Print the ClusterRoles each of fleetdeck's jobs needs (read, maintenance, release), and bindings to the accounts that do them, to apply with kubectl
    Rbac(super::rbac_cmd::RbacArgs),
    /// The simulator's exec credential plugin (what `sim --auth exec` kubeconfigs run)
    #[command(name = "__sim-plugin", hide = true)]
    SimPlugin(fleetdeck::sim::PluginArgs),
    /// Append to a journal until killed (crash-consistency tests)
    #[command(name = "__journal-stress", hide = true)]
    JournalStress {
        /// The database.
        db: PathBuf,
    },
    /// Print a shell completion script (e.g. `fleetdeck completions bash > /etc/bash_completion.d/fleetdeck`)
    Completions {
        /// The shell to generate completions for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// `fleetdeck ledger …`
#[derive(Debug, Subcommand)]
pub enum LedgerCommand {
    /// Check a ledger and report every problem as FILE:LINE:COL (exit 1 on errors)
    Validate {
        /// Ledger file (default: --ledger)
        file: Option<PathBuf>,
        /// Judge exception expiry as of this date (YYYY-MM-DD; default: today)
        #[arg(long, value_name = "DATE")]
        now: Option<jiff::civil::Date>,
    },
    /// List clusters, optionally selected (e.g. `--selector env=production,tier=critical`)
    Show {
        /// Label-selector grammar over fields (id, env, region, failureDomain, tier, owner,
        /// lifecycle, context) and labels: `k=v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`
        #[arg(short = 'l', long, value_name = "SELECTOR")]
        selector: Option<String>,
    },
    /// Map ledger clusters to kubeconfig contexts; list contexts not in the ledger
    Contexts,
    /// Compare the ledger with the live fleet: identity, versions, reachability, contexts
    Reconcile {
        /// Print the ledger edits that would make it true (the file is never changed)
        #[arg(long)]
        suggest: bool,
        /// How long to wait for every cluster to reach a verdict
        #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = super::live::parse_wait)]
        wait_synced: std::time::Duration,
    },
}

/// `fleetdeck config …`
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Where the config, data, journal and log files live, and the settings in effect
    Paths,
}
