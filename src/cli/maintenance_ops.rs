//! `fleetdeck maintenance start | handoff | takeover | return | abort` and `fleetdeck run`:
//! starting runs, the operator's hand-off commands (journal events with the actor), and
//! the headless executor.

use std::path::Path;
use std::process::ExitCode;

use fleetdeck::t;

use super::journal_cmd::record_command;
use anyhow::Context;
use fleetdeck::engine::executor::{Executor, ExecutorOptions};
use fleetdeck::engine::operator::record_refusals;
use fleetdeck::engine::start::{node_facts, plan, record_run};
use fleetdeck::k8s::connect::ConnectOptions;
use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::k8s::verified::verified_client;
use fleetdeck::model::run::{Actor, ClusterRefusal, ItemId, OperatorCommand, ReturnOutcome, RunId};
use fleetdeck::model::shard::{Ownership, Shard};
use jiff::Timestamp;

use super::exit::Refused;
use super::journal_cmd::open;
use super::output::outln;
use super::settings::Settings;

/// Refuses in read-only mode; `what` is the message naming what was refused.
fn refuse_readonly(settings: &Settings, what: &str) -> anyhow::Result<()> {
    let what = fleetdeck::i18n::text(settings.lang, what, &[]);
    if settings.readonly {
        return Err(Refused(t!(settings.lang, "maintenance-readonly", what = what)).into());
    }
    Ok(())
}

/// `maintenance start FILE [--dry-run]`.
pub fn start(
    settings: &Settings,
    file: &Path,
    dry_run: bool,
    acknowledge_expired: bool,
) -> anyhow::Result<ExitCode> {
    if !dry_run {
        refuse_readonly(settings, "maintenance-what-start")?;
    }
    let ledger = super::ledger_findings::load(settings.lang, &settings.ledger_path()?)?;
    let Some(spec) = super::spec_file::read_spec(settings.lang, file, |text| {
        super::maintenance_cmd::read_maintenance_file(text, Some(&ledger))
    })?
    else {
        let file = file.display().to_string();
        return Err(Refused(t!(settings.lang, "not-started", file = file)).into());
    };
    let cluster = ledger
        .cluster(&spec.cluster.0)
        .with_context(|| {
            t!(
                settings.lang,
                "cluster-not-in-ledger",
                cluster = spec.cluster.to_string()
            )
        })?
        .clone();
    // A dry run changes nothing: it needs no acknowledgement, and says what a start would.
    let acknowledged = super::ledger_findings::acknowledge(
        &ledger,
        std::slice::from_ref(&cluster.id),
        acknowledge_expired || dry_run,
        settings.lang,
        &t!(
            settings.lang,
            "ack-what-maintenance",
            cluster = cluster.id.to_string()
        ),
    )?;
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig)?;
    let plan = super::runtime()?.block_on(async {
        // Never plan against a cluster that is not the one the ledger pins. A real start
        // refused here is journaled; a dry run records nothing, refused or not.
        let client = match verified_client(&cluster, &kubeconfig, &ConnectOptions::default()).await
        {
            Ok(client) => client,
            Err(why) => {
                if !dry_run {
                    let refusal = ClusterRefusal::start_maintenance(
                        &spec.name,
                        cluster.id.clone(),
                        &why.detailed(),
                    );
                    record_refusals(
                        &mut open(settings)?,
                        &[refusal],
                        &Actor(settings.actor.clone()),
                        super::journal_cmd::mode(settings),
                        Timestamp::now(),
                    );
                }
                return Err(anyhow::Error::new(why).context(t!(
                    settings.lang,
                    "maintenance-refusing-plan",
                    cluster = cluster.id.to_string()
                )));
            }
        };
        let inventory = node_facts(&client.client, &cluster.id.0).await?;
        anyhow::Ok(plan(&spec, &inventory)?)
    })?;
    for (i, batch) in plan.batches.iter().enumerate() {
        let names: Vec<&str> = batch.iter().map(|n| n.as_str()).collect();
        let (n, ids) = ((i + 1).to_string(), names.join(", "));
        outln!("{}", t!(settings.lang, "rollout-batch", n = n, ids = ids))?;
    }
    for (node, why) in &plan.unplanned {
        let (node, why) = (node.to_string(), why.to_string());
        outln!(
            "{}",
            t!(
                settings.lang,
                "maintenance-not-planned",
                node = node,
                why = why
            )
        )?;
    }
    for warning in &plan.warnings {
        let warning = warning.to_string();
        outln!(
            "{}",
            t!(settings.lang, "rollout-warning", warning = warning)
        )?;
    }
    if dry_run {
        outln!("{}", t!(settings.lang, "maintenance-dry-run"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut store = open(settings)?;
    let run = record_run(
        &mut store,
        &Actor(settings.actor.clone()),
        &spec,
        &plan,
        Timestamp::now(),
    )?;
    if let Some(text) = super::ledger_findings::acknowledgement_note(&acknowledged) {
        record_command(
            settings,
            &OperatorCommand::Note {
                run: Some(run.clone()),
                item: None,
                cluster: Some(cluster.id.clone()),
                text,
            },
        )?;
    }
    outln!(
        "{}",
        t!(settings.lang, "maintenance-started", run = run.to_string())
    )?;
    Ok(ExitCode::SUCCESS)
}

/// What an operator says about one node of a run.
pub enum Command<'a> {
    /// Give the item to someone.
    HandOff { to: &'a str },
    /// Claim the item.
    TakeOver,
    /// Give it back with an outcome.
    Return { outcome: ReturnOutcome },
}

/// `maintenance handoff|takeover|return RUN --node N …`.
pub fn operator(
    settings: &Settings,
    run: &str,
    node: &str,
    note: &str,
    command: Command<'_>,
) -> anyhow::Result<ExitCode> {
    let (run, item, note) = (
        RunId(run.to_string()),
        ItemId(node.to_string()),
        note.to_string(),
    );
    let command = match command {
        Command::HandOff { to } => OperatorCommand::HandOff {
            run: run.clone(),
            item,
            to: Actor(to.to_string()),
            note,
        },
        Command::TakeOver => OperatorCommand::TakeOver {
            run: run.clone(),
            item,
            note,
        },
        Command::Return { outcome } => OperatorCommand::Return {
            run: run.clone(),
            item,
            outcome,
            note,
        },
    };
    record_command(settings, &command)?;
    outln!(
        "{}",
        t!(
            settings.lang,
            "maintenance-recorded",
            verb = command.verb(),
            node = node.to_string(),
            run = run.to_string(),
            actor = settings.actor.clone()
        )
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `maintenance abort RUN --note …`: no new step starts; nothing is undone.
pub fn abort(settings: &Settings, run: &str, note: &str) -> anyhow::Result<ExitCode> {
    let command = OperatorCommand::Abort {
        run: RunId(run.to_string()),
        note: note.to_string(),
    };
    record_command(settings, &command)?;
    outln!(
        "{}",
        t!(
            settings.lang,
            "maintenance-aborted",
            run = run,
            actor = settings.actor.clone()
        )
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `fleetdeck run`: the headless executor. A second one waits as a standby and takes over
/// when the lease expires; SIGTERM/Ctrl-C finish the call in flight, record it, and give
/// the lease back.
pub fn execute(settings: &Settings, args: &super::args::RunArgs) -> anyhow::Result<ExitCode> {
    refuse_readonly(settings, "maintenance-what-executor")?;
    // An expired exception is said, and changes nothing for runs already started.
    let ledger_path = settings.ledger_path()?;
    let full_ledger = super::ledger_findings::load(settings.lang, &ledger_path)?;
    let ownership = match &args.shard {
        Some(text) => {
            let shard = Shard::parse(text)?;
            shard.check(&full_ledger)?;
            Ownership::shard(shard, &full_ledger)
        }
        None => Ownership::fleet(),
    };
    // A shard's executor watches and reaches its own clusters only.
    let mut ledger = full_ledger;
    ledger.clusters.retain(|c| ownership.owns(&c.id));
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig)?;
    let store = open(settings)?;
    super::runtime()?.block_on(async move {
        let mut sync = FleetSync::start(&ledger, kubeconfig.clone(), settings.sync);
        // Prechecks read the fleet view: let every cluster reach a verdict first.
        sync.wait_settled(std::time::Duration::from_secs(30)).await;
        let port =
            super::engine_port::kube_port(settings, &ledger, &kubeconfig, sync.snapshots.clone())
                .await;
        let actor = Actor::executor_for(&settings.actor);
        let mut options = ExecutorOptions::new(actor.clone());
        options.lease_ttl = args.lease_ttl;
        options.guard_domain_label = settings.capacity.failure_domain_key.to_string();
        let acting_for = match ownership.shard_name() {
            Some(shard) => t!(
                settings.lang,
                "run-acting-for-shard",
                shard = shard.to_string(),
                count = ledger.clusters.len().to_string()
            ),
            None => t!(settings.lang, "run-acting-for-fleet"),
        };
        options.ownership = ownership.clone();
        options.rollout = fleetdeck::engine::executor::RolloutOptions {
            verify_timeout: args.verify_timeout,
            evidence_interval: args.evidence_interval,
        };
        let (notices, mut heard) = tokio::sync::mpsc::unbounded_channel::<String>();
        let fleet = sync.snapshots.clone();
        // Ledger edits are followed from here on (the sync in force lives with them), for
        // the clusters this executor owns.
        let reloads = super::ledger_reload::spawn(settings.clone(), ledger_path, sync, ownership);
        let mut executor = Executor::new(store, port, options)
            .with_fleet(fleet)
            .with_windows(fleetdeck::engine::windows::MaintenanceWindows::from_ledger(&ledger))
            .with_notices(notices)
            .with_reloads(reloads);
        // What needs a person's eye goes to the executor's output as it happens.
        tokio::spawn(async move {
            while let Some(line) = heard.recv().await {
                eprintln!("fleetdeck run: {} {line}", jiff::Timestamp::now().strftime("%H:%M:%SZ")); // i18n: not for people (the program name and a time before a translated line)
            }
        });
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending::<()>().await } } => {}
            }
            let _ = stop_tx.send(true);
        });
        eprintln!(
            "fleetdeck run: {}", // i18n: not for people (the program name before a translated line)
            t!(
                settings.lang,
                "run-started",
                actor = actor.to_string(),
                acting_for = acting_for,
                journal = settings.journal.describe().to_string()
            )
        );
        executor.run_until(stop_rx).await
    })?;
    Ok(ExitCode::SUCCESS)
}
