//! `fleetdeck maintenance plan | list | show`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use fleetdeck::journal::JournalStore;
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::maintenance::{
    NodeFacts, NodeSelection, PlannedOn, plan_on, read_maintenance, read_maintenance_for,
};
use fleetdeck::model::run::NodeName;
use serde::Serialize;

use fleetdeck::t;

use super::journal_cmd::open;
use super::output::{Table, emit};
use super::settings::Settings;

/// `fleetdeck maintenance …`
#[derive(Debug, Subcommand)]
pub enum MaintenanceCommand {
    /// Check a maintenance file and print its nodes, batches and prechecks (no cluster
    /// needed; exit 1 on errors)
    Plan {
        /// The maintenance file
        file: PathBuf,
        /// The cluster's nodes as `kubectl get nodes -o json` prints them, for labels
        /// (failure domains, replica groups) and selectors
        #[arg(long, value_name = "FILE")]
        nodes: Option<PathBuf>,
    },
    /// Plan a maintenance on its cluster (identity checked) and record the run; the
    /// executor (`fleetdeck run`) carries it out
    Start {
        /// The maintenance file
        file: PathBuf,
        /// Print nodes and batches, record nothing
        #[arg(long)]
        dry_run: bool,
        /// Start even though the cluster has an expired ledger exception (journaled)
        #[arg(long)]
        acknowledge_expired_exceptions: bool,
    },
    /// Hand a node's current step to a person; the engine leaves it alone
    Handoff {
        /// The run id
        run: String,
        /// The node
        #[arg(long)]
        node: String,
        /// Who takes it
        #[arg(long)]
        to: String,
        /// What they need to know
        #[arg(long)]
        note: String,
    },
    /// Claim a node's current step yourself
    Takeover {
        /// The run id
        run: String,
        /// The node
        #[arg(long)]
        node: String,
        /// Why
        #[arg(long)]
        note: String,
    },
    /// Give a handed-off step back: done (next step), retry (this step again), abort
    Return {
        /// The run id
        run: String,
        /// The node
        #[arg(long)]
        node: String,
        /// done | retry | abort
        #[arg(long, value_parser = parse_outcome)]
        outcome: fleetdeck::model::run::ReturnOutcome,
        /// What was done
        #[arg(long)]
        note: String,
    },
    /// Abort a run: no new step starts; nothing already done is undone
    Abort {
        /// The run id
        run: String,
        /// Why (`--reason` works too, as for a pause)
        #[arg(long, visible_alias = "reason")]
        note: String,
    },
    /// Runs in the journal, with their status
    List,
    /// One run: items, steps, hand-offs, open intents
    Show {
        /// The run id
        run: String,
    },
}

/// Dispatches `maintenance …`.
pub fn run(settings: &Settings, command: &MaintenanceCommand) -> anyhow::Result<ExitCode> {
    match command {
        MaintenanceCommand::Plan { file, nodes } => plan(settings, file, nodes.as_deref()),
        MaintenanceCommand::Start {
            file,
            dry_run,
            acknowledge_expired_exceptions,
        } => {
            super::maintenance_ops::start(settings, file, *dry_run, *acknowledge_expired_exceptions)
        }
        MaintenanceCommand::Handoff {
            run,
            node,
            to,
            note,
        } => super::maintenance_ops::operator(
            settings,
            run,
            node,
            note,
            super::maintenance_ops::Command::HandOff { to },
        ),
        MaintenanceCommand::Takeover { run, node, note } => super::maintenance_ops::operator(
            settings,
            run,
            node,
            note,
            super::maintenance_ops::Command::TakeOver,
        ),
        MaintenanceCommand::Return {
            run,
            node,
            outcome,
            note,
        } => super::maintenance_ops::operator(
            settings,
            run,
            node,
            note,
            super::maintenance_ops::Command::Return { outcome: *outcome },
        ),
        MaintenanceCommand::Abort { run, note } => {
            super::maintenance_ops::abort(settings, run, note)
        }
        MaintenanceCommand::List => list(settings),
        MaintenanceCommand::Show { run } => show(settings, run),
    }
}

fn parse_outcome(text: &str) -> Result<fleetdeck::model::run::ReturnOutcome, String> {
    use fleetdeck::model::run::ReturnOutcome;
    match text {
        "done" => Ok(ReturnOutcome::Done),
        "retry" => Ok(ReturnOutcome::Retry),
        "abort" => Ok(ReturnOutcome::Abort),
        other => Err(format!("expected done, retry or abort, found {other:?}")), // i18n: not for people (a value parser's error inside clap's, English like clap's)
    }
}

/// Nodes from a Kubernetes NodeList in JSON.
fn read_node_list(lang: fleetdeck::i18n::Lang, path: &Path) -> anyhow::Result<Vec<NodeFacts>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| t!(lang, "cannot-read", path = path.display().to_string()))?;
    // `kubectl get nodes -o json` says `kind: List`, not `NodeList`: read only the items.
    #[derive(serde::Deserialize)]
    struct Items {
        items: Vec<k8s_openapi::api::core::v1::Node>,
    }
    let list: Items = serde_json::from_str(&text)
        .with_context(|| t!(lang, "not-a-node-list", path = path.display().to_string()))?;
    Ok(list
        .items
        .iter()
        .map(fleetdeck::k8s::nodes::facts_of)
        .collect())
}

fn plan(settings: &Settings, file: &Path, nodes: Option<&Path>) -> anyhow::Result<ExitCode> {
    // Planned offline, but a ledger at hand still says whether the cluster exists.
    let ledger = match &settings.ledger {
        Some(path) => Some(super::ledger_findings::load(settings.lang, path)?),
        None => None,
    };
    let Some(spec) = super::spec_file::read_spec(settings.lang, file, |text| {
        read_maintenance_file(text, ledger.as_ref())
    })?
    else {
        return Ok(ExitCode::FAILURE);
    };
    let inventory = match nodes {
        Some(path) => read_node_list(settings.lang, path)?,
        None => match &spec.nodes {
            NodeSelection::Names(names) => {
                names.iter().map(|n| NodeFacts::named(n.clone())).collect()
            }
            NodeSelection::Selector(s) => {
                anyhow::bail!(t!(
                    settings.lang,
                    "maintenance-needs-nodes",
                    selector = s.to_string()
                ))
            }
        },
    };
    let PlannedOn {
        targets,
        missing,
        plan,
    } = plan_on(&spec.nodes, &spec.budgets, &inventory);
    #[derive(Serialize)]
    struct Out<'a> {
        name: &'a str,
        cluster: &'a str,
        nodes: Vec<&'a str>,
        missing: &'a [NodeName],
        plan: &'a fleetdeck::model::maintenance::Plan,
    }
    let out = Out {
        name: &spec.name,
        cluster: &spec.cluster.0,
        nodes: targets.iter().map(|n| n.name.as_str()).collect(),
        missing: &missing,
        plan: &plan,
    };
    emit(settings.output, &out, || {
        let lang = settings.lang;
        let mut s = t!(
            lang,
            "maintenance-plan-head",
            name = spec.name.clone(),
            cluster = spec.cluster.to_string(),
            count = targets.len().to_string()
        );
        s.push('\n');
        for m in &missing {
            s.push_str(&t!(lang, "maintenance-missing-node", node = m.to_string()));
            s.push('\n');
        }
        for w in &plan.warnings {
            s.push_str(&t!(lang, "rollout-warning", warning = w.to_string()));
            s.push('\n');
        }
        for (i, batch) in plan.batches.iter().enumerate() {
            let names: Vec<&str> = batch.iter().map(|n| n.as_str()).collect();
            s.push_str(&t!(
                lang,
                "rollout-batch",
                n = (i + 1).to_string(),
                ids = names.join(", ")
            ));
            s.push('\n');
        }
        for (node, why) in &plan.unplanned {
            s.push_str(&t!(
                lang,
                "maintenance-not-planned",
                node = node.to_string(),
                why = why.to_string()
            ));
            s.push('\n');
        }
        let mut table = Table::in_lang(settings.lang, vec!["NODE", "CHECK", "RESULT"]);
        for (node, checks) in &plan.prechecks {
            for (check, outcome) in checks {
                let result = match outcome {
                    fleetdeck::model::maintenance::CheckOutcome::Pass => "pass".to_string(),
                    // i18n: not for people (a check's result is a value, like pass)
                    fleetdeck::model::maintenance::CheckOutcome::Fail(w) => format!("FAIL: {w}"),
                    fleetdeck::model::maintenance::CheckOutcome::Unknown(w) => {
                        format!("unknown: {w}") // i18n: not for people (a value, like pass)
                    }
                };
                table.row(vec![node.to_string(), check.clone(), result]);
            }
        }
        s.push_str(&table.render());
        s
    })?;
    Ok(if plan.unplanned.is_empty() && missing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn list(settings: &Settings) -> anyhow::Result<ExitCode> {
    let projection = open(settings)?.projection()?;
    // Rollouts have their own list (`rollout list`).
    let runs: Vec<_> = projection
        .runs
        .values()
        .filter(|run| !run.is_rollout())
        .collect();
    emit(settings.output, &runs, || {
        let mut table = Table::in_lang(
            settings.lang,
            vec![
                "RUN",
                "TITLE",
                "CLUSTER",
                "STATUS",
                "ITEMS",
                "CREATED-BY",
                "CREATED",
            ],
        );
        for run in &runs {
            table.row(vec![
                run.id.0.clone(),
                run.title.clone(),
                run.cluster.as_ref().map_or("-".into(), |c| c.to_string()),
                projection.effective_status(run).to_string(),
                run.items.len().to_string(),
                run.created_by.0.clone(),
                run.created_at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            ]);
        }
        table.render()
    })?;
    Ok(ExitCode::SUCCESS)
}

fn show(settings: &Settings, id: &str) -> anyhow::Result<ExitCode> {
    let projection = open(settings)?.projection()?;
    let run = super::journal_cmd::run_view(&projection, id)?;
    emit(settings.output, run, || {
        let lang = settings.lang;
        let mut s = t!(
            lang,
            "maintenance-show-head",
            run = run.id.to_string(),
            title = run.title.clone(),
            status = projection.effective_status(run).to_string()
        );
        s.push('\n');
        if let Some(p) = projection.pause_for(run) {
            s.push_str(&t!(
                lang,
                "maintenance-paused",
                scope = p.scope.to_string(),
                by = p.by.to_string(),
                since = p.since.to_string(),
                reason = p.reason.clone()
            ));
            s.push('\n');
        }
        let mut table = Table::in_lang(
            settings.lang,
            vec![
                "ITEM",
                "STEP",
                "STATUS",
                "SINCE",
                "BY",
                "HANDED-TO",
                "OPEN-INTENTS",
            ],
        );
        for item_id in &run.order {
            let Some(item) = run.items.get(item_id) else {
                continue;
            };
            let current = item
                .current
                .as_ref()
                .and_then(|s| item.steps.get(s).map(|v| (s, v)));
            table.row(vec![
                item_id.0.clone(),
                current.map_or("-".into(), |(s, _)| s.0.clone()),
                current.map_or("pending".into(), |(_, v)| v.status.to_string()),
                current.map_or("-".into(), |(_, v)| {
                    v.since.strftime("%H:%M:%S").to_string()
                }),
                current.map_or("-".into(), |(_, v)| v.by.0.clone()),
                item.handoff.as_ref().map_or("-".into(), |h| h.to.0.clone()),
                item.open_intents
                    .values()
                    .map(|i| i.action.clone())
                    .collect::<Vec<_>>()
                    .join(","),
            ]);
        }
        s.push_str(&table.render());
        // What a running step waits for (a PDB that would refuse, capacity, a cluster
        // that may not be changed), in full: nothing sits without a reason.
        for item_id in &run.order {
            if let Some(waiting) = run.items.get(item_id).and_then(|i| i.waiting.as_ref()) {
                s.push_str(&format!(
                    "  {}\n",
                    t!(
                        lang,
                        "maintenance-waits",
                        item = item_id.to_string(),
                        why = waiting.why.to_string()
                    )
                ));
            }
        }
        s
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A maintenance file's text read into its spec and diagnostics; with a ledger, its
/// cluster must be one of the ledger's (`maintenance plan` and `start` alike).
pub fn read_maintenance_file(
    text: &str,
    ledger: Option<&Ledger>,
) -> (
    Option<fleetdeck::model::maintenance::MaintenanceSpec>,
    Vec<fleetdeck::yaml::Diagnostic>,
) {
    let report = match ledger {
        Some(ledger) => read_maintenance_for(text, ledger),
        None => read_maintenance(text),
    };
    (report.spec, report.diagnostics)
}
