//! What the operator keys open: each builds a dialog that names its target and what will
//! happen, or says why it cannot be done. Nothing here writes; the dialog's second
//! `enter` sends the command, and the journal's answer comes back as a notice.

use std::sync::Arc;

use super::app::{App, Command, Overlay};
use super::dialog::{Dialog, Purpose};
use super::feed::ConsoleCommand;
use super::nav::Route;
use super::screens::{maintenance, rollouts};
use crate::model::handover::HandoverItem;
use crate::model::ledger::ClusterId;
use crate::model::maintenance::{
    Budgets, DEFAULT_FAILURE_DOMAIN_LABEL, Deadlines, DrainOptions, MaintainAction,
    MaintenanceSpec, NodeFacts, NodeSelection, PlannedOn, VerifyOptions, plan_on,
};
use crate::model::rollout::check_batch_can_act;
use crate::model::run::{
    Actor, ClusterRefusal, CommandRefusal, NodeName, PauseScope, RunView, StepStatus,
    approval_target, check_approve,
};

fn open(app: &mut App, dialog: Dialog) {
    app.overlay = Some(Overlay::Dialog(Box::new(dialog)));
}

/// `P`: pause all automation (asks why) or, when paused, resume it (asks to confirm).
pub fn pause_all(app: &mut App) {
    let projection = Arc::clone(&app.activity.journal.projection);
    let active = projection
        .runs
        .values()
        .filter(|r| !r.status.is_final())
        .count();
    match projection.pauses.get(&PauseScope::Fleet) {
        Some(p) => {
            // Only runs no other switch holds start again when the fleet's is cleared.
            let freed = projection
                .runs
                .values()
                .filter(|r| !r.status.is_final() && projection.pauses_for(r).len() == 1)
                .count();
            let held = active - freed;
            open(
                app,
                Dialog::new(
                    "resume all automation",
                    vec![
                        format!(
                            "All automation is paused by {} since {}: {}",
                            p.by,
                            p.since.strftime("%H:%M UTC"),
                            p.reason
                        ),
                        format!("Resuming lets {freed} unfinished run(s) start new steps again."),
                        format!(
                            "Other pauses (per run, cluster or failure domain) stay in force: they still hold {held} run(s)."
                        ),
                    ],
                    Purpose::Resume(PauseScope::Fleet),
                ),
            )
        }
        None => open(
            app,
            Dialog::new(
                "pause all automation",
                vec![
                    "No run anywhere in the fleet starts a new step until someone resumes.".into(),
                    "Steps already in flight finish and are recorded; nothing is undone.".into(),
                    format!("{active} unfinished run(s) are affected."),
                ],
                Purpose::Pause(PauseScope::Fleet),
            ),
        ),
    }
}

/// The run the current screen has selected.
fn selected_run(app: &App) -> Option<RunView> {
    let projection = &app.activity.journal.projection;
    match app.nav.current() {
        Route::Rollouts => rollouts::selected(&app.rollouts_state, projection).cloned(),
        Route::Maintenance => maintenance::selected(&app.maintenance_state, projection)
            .and_then(|(r, _)| projection.runs.get(&r).cloned()),
        _ => None,
    }
}

/// What `p` does to the selected run, for the footer: a paused or halted run is resumed.
pub(crate) fn pause_run_hint(app: &App) -> &'static str {
    let resumes = selected_run(app).is_some_and(|run| {
        run.rollout.halted.is_some()
            || app
                .activity
                .journal
                .projection
                .pauses
                .contains_key(&PauseScope::Run {
                    run: run.id.clone(),
                })
    });
    if resumes { "resume run" } else { "pause run" }
}

/// What `P` does, for the footer: automation paused fleet-wide is resumed.
pub(crate) fn pause_all_hint(app: &App) -> &'static str {
    if app
        .activity
        .journal
        .projection
        .pauses
        .contains_key(&PauseScope::Fleet)
    {
        "resume all"
    } else {
        "pause all"
    }
}

/// `p`: pause or resume the selected run.
pub fn pause_run(app: &mut App) {
    let Some(run) = selected_run(app) else {
        app.message = Some("no run selected".into());
        return;
    };
    let scope = PauseScope::Run {
        run: run.id.clone(),
    };
    toggle(app, scope, &run);
}

/// `f`: pause or resume every run on the selected run's cluster (a freeze).
pub fn pause_cluster(app: &mut App) {
    let Some(run) = selected_run(app) else {
        app.message = Some("no run selected".into());
        return;
    };
    let Some(cluster) = run.cluster.clone() else {
        app.message = Some(format!("{} works on no single cluster", run.id));
        return;
    };
    toggle(app, PauseScope::Cluster { cluster }, &run);
}

fn toggle(app: &mut App, scope: PauseScope, run: &RunView) {
    let projection = Arc::clone(&app.activity.journal.projection);
    let halted = matches!(scope, PauseScope::Run { .. }) && run.rollout.halted.is_some();
    let dialog = match projection.pauses.get(&scope) {
        // A halted rollout is resumed the way `rollout resume` does it: a resume of
        // the run, after which the executor evaluates the stop conditions again.
        None if halted => Dialog::new(
            format!("resume halted {}", run.id),
            vec![
                format!(
                    "{} halted: {}",
                    run.id,
                    run.rollout
                        .halted
                        .as_ref()
                        .map_or(String::new(), ToString::to_string)
                ),
                "Resuming lets the executor go on; the stop conditions are evaluated again.".into(),
            ],
            Purpose::Resume(scope),
        ),
        Some(p) => Dialog::new(
            format!("resume {scope}"),
            vec![
                format!(
                    "Paused by {} since {}: {}",
                    p.by,
                    p.since.strftime("%H:%M UTC"),
                    p.reason
                ),
                format!(
                    "Run {} ({}) may start new steps again unless another pause holds it.",
                    run.id, run.title
                ),
            ],
            Purpose::Resume(scope),
        ),
        None => {
            Dialog::new(
                format!("pause {scope}"),
                vec![
                format!("Run {} ({}) is {}.", run.id, run.title, projection.effective_status(run)),
                "No new step starts under this pause; steps in flight finish; nothing is undone."
                    .into(),
            ],
                Purpose::Pause(scope),
            )
        }
    };
    open(app, dialog);
}

/// `X`: abort the selected run, typing its name to confirm.
pub fn abort(app: &mut App) {
    let Some(run) = selected_run(app) else {
        app.message = Some("no run selected".into());
        return;
    };
    if run.status.is_final() {
        app.message = Some(format!("{} is already {}", run.id, run.status));
        return;
    }
    let name = run.id.0.clone();
    let status = app.activity.journal.projection.effective_status(&run);
    let mut lines = vec![
        format!("{} · {status} · started by {}", run.title, run.created_by),
        "No new step of this run will ever start. Nothing already done is undone.".into(),
    ];
    if crate::model::rollout::rollout_of(&run.spec).is_some() {
        lines.push("A rollback is a separate rollout of the previous release.".into());
    } else {
        lines.push(
            "A node it cordoned stays cordoned until someone uncordons it (kubectl uncordon)."
                .into(),
        );
    }
    lines.push(format!("Type {name} to confirm."));
    open(
        app,
        Dialog::new(
            format!("abort {name}"),
            lines,
            Purpose::Abort(run.id.clone(), name),
        ),
    );
}

/// `a` on the rollouts screen: approve the waiting batch, listing its clusters, budgets
/// and gates; a `distinctApprover` refusal, or clusters of the batch that cannot take
/// actions (their live status), say why instead.
pub fn approve(app: &mut App) -> Vec<Command> {
    let projection = Arc::clone(&app.activity.journal.projection);
    let Some(run) = rollouts::selected(&app.rollouts_state, &projection) else {
        app.message = Some("no rollout selected".into());
        return Vec::new();
    };
    let Ok((batch, _)) = approval_target(run, None) else {
        app.message = Some(format!("no batch of {} is awaiting approval", run.id));
        return Vec::new();
    };
    let spec = rollouts::spec(run);
    let clusters: Vec<&str> = run
        .batches
        .get(batch)
        .map(|b| b.iter().map(|c| c.as_str()).collect())
        .unwrap_or_default();
    let mut context = vec![
        format!("{} · {} · started by {}", run.id, run.title, run.created_by),
        format!(
            "batch {} of {}: {} cluster(s)",
            batch + 1,
            run.batches.len(),
            clusters.len()
        ),
        format!("  {}", clusters.join(", ")),
    ];
    if let Some(spec) = &spec {
        let b = &spec.budgets;
        context.push(format!(
            "budgets: {} in flight at once{}{}",
            b.max_in_flight,
            b.per_region
                .map(|n| format!(", {n} per region"))
                .unwrap_or_default(),
            b.per_failure_domain
                .map(|n| format!(", {n} per failure domain"))
                .unwrap_or_default()
        ));
    }
    for (_, gate) in rollouts::gates(run, spec.as_ref()) {
        context.push(format!("gate: {gate}"));
    }
    if let Some(p) = projection.pause_for(run) {
        context.push(format!(
            "the run is paused ({}: {}, by {}): the batch starts once it is resumed",
            p.scope, p.reason, p.by
        ));
    }
    let actor = Actor(app.config.actor.clone());
    // Every cluster of the batch must be able to take actions, as last seen live, by the
    // one rule every change goes through (`change_refusal`): fresh data and a confirmed
    // identity. Each refused cluster is named with that rule's reason.
    let seen: Vec<(ClusterId, Option<String>)> = clusters
        .iter()
        .map(|c| (ClusterId((*c).to_string()), app.snapshot.change_refusal(c)))
        .collect();
    let checked = check_approve(run, &actor, Some(batch))
        .and_then(|b| check_batch_can_act(b, &seen).map(|_| b).map_err(Into::into));
    let title = format!("approve batch {} of {}", batch + 1, run.id);
    match checked {
        Ok(_) => {
            open(
                app,
                Dialog::new(title, context, Purpose::Approve(run.id.clone(), batch)),
            );
            Vec::new()
        }
        Err(why) => {
            // Refused, the approval is in the audit trail as it is when `rollout approve`
            // refuses it: per cluster that cannot act, or as the rules refused it.
            let refusals = match &why {
                CommandRefusal::Approval(refusal) => ClusterRefusal::of_approval(&run.id, refusal),
                _ => Vec::new(),
            };
            open(
                app,
                Dialog::refused(title, context, format!("refused: {why}")),
            );
            if refusals.is_empty() && why.is_audited() && !app.config.readonly {
                let command = crate::model::run::OperatorCommand::Approve {
                    run: run.id.clone(),
                    batch: Some(batch),
                    note: String::new(),
                };
                return vec![Command::Send(ConsoleCommand::RefusedByRules(command))];
            }
            journal_refusals(app, refusals)
        }
    }
}

/// Journals the refusals the console made before sending anything (clusters that cannot
/// take actions); nothing in read-only mode, which writes nothing.
fn journal_refusals(app: &App, refusals: Vec<ClusterRefusal>) -> Vec<Command> {
    if app.config.readonly || refusals.is_empty() {
        return Vec::new();
    }
    vec![Command::Send(ConsoleCommand::Refused(refusals))]
}

/// The selected node card and its run.
fn selected_card(app: &App) -> Option<(RunView, crate::model::run::ItemId)> {
    let projection = &app.activity.journal.projection;
    let (run, item) = maintenance::selected(&app.maintenance_state, projection)?;
    Some((projection.runs.get(&run)?.clone(), item))
}

fn card_context(run: &RunView, item: &crate::model::run::ItemId) -> Vec<String> {
    let mut out = vec![format!("{item} in {} ({})", run.id, run.title)];
    if let Some(view) = run.items.get(item)
        && let Some((step, s)) = view.current_step()
    {
        out.push(format!("step {step}: {}", view.status_word(&s.status)));
        if let StepStatus::Blocked { reason } = &s.status {
            for r in maintenance::reasons(reason) {
                out.push(format!("  • {r}"));
            }
        }
        if let StepStatus::HandedOff { to, note } = &s.status {
            out.push(format!("owner: {to} · note: {note}"));
        }
    }
    out
}

/// `h`: hand the selected node's step to a person, with a note.
pub fn hand_off(app: &mut App) {
    let Some((run, item)) = selected_card(app) else {
        app.message = Some("no node selected".into());
        return;
    };
    let mut context = card_context(&run, &item);
    context.push("The engine leaves the node alone until the assignee returns it.".into());
    open(
        app,
        Dialog::new(
            format!("hand off {item}"),
            context,
            Purpose::HandOff(run.id.clone(), item),
        ),
    );
}

/// `t`: take the selected node's step over.
pub fn take_over(app: &mut App) {
    let Some((run, item)) = selected_card(app) else {
        app.message = Some("no node selected".into());
        return;
    };
    let mut context = card_context(&run, &item);
    context.push(format!(
        "It becomes {}'s; the engine leaves it alone until it is returned.",
        app.config.actor
    ));
    open(
        app,
        Dialog::new(
            format!("take over {item}"),
            context,
            Purpose::TakeOver(run.id.clone(), item),
        ),
    );
}

/// `r`: return the selected node's step with an outcome.
pub fn return_item(app: &mut App) {
    let Some((run, item)) = selected_card(app) else {
        app.message = Some("no node selected".into());
        return;
    };
    let handed = run
        .items
        .get(&item)
        .and_then(maintenance::current_status)
        .is_some_and(|s| matches!(s, StepStatus::HandedOff { .. }));
    if !handed {
        app.message = Some(format!(
            "{item} is not in a person's hands: hand it off (h) or take it over (t) first"
        ));
        return;
    }
    let mut context = card_context(&run, &item);
    context.push(
        "outcome (choose one): d done (the engine goes on) · r retry the step · a abort the node"
            .into(),
    );
    // Whatever is chosen, the engine acts on it only once the run may start steps again.
    if let Some(p) = app.activity.journal.projection.pause_for(&run) {
        context.push(format!(
            "the run is paused ({}: {}): done or retry takes effect once it is resumed",
            p.scope, p.reason
        ));
    }
    open(
        app,
        Dialog::new(
            format!("return {item}"),
            context,
            Purpose::Return(run.id.clone(), item),
        ),
    );
}

/// The nodes of a cluster view as the maintenance planner needs them.
pub fn inventory(view: &crate::model::fleet::ClusterView) -> Vec<NodeFacts> {
    view.nodes
        .iter()
        .map(|n| NodeFacts {
            name: NodeName(n.name.0.to_string()),
            labels: n
                .labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            unavailable: n.readiness != crate::model::fleet::Readiness::Ready
                || n.schedulability == crate::model::fleet::Schedulability::Cordoned,
        })
        .collect()
}

/// `m` in the drill-down: start a maintenance on the marked nodes (or the selected one),
/// showing the planned batches first.
pub fn start_maintenance(app: &mut App) -> Vec<Command> {
    let Some((id, names)) = app.chosen_nodes() else {
        return Vec::new();
    };
    // Nothing marked yet: what the cluster allows comes before which nodes (marking nodes
    // of a cluster that takes no change would be wasted). With nodes marked, the request
    // is real and its refusal goes to the journal below.
    if names.is_empty()
        && let Some(why) = app.snapshot.change_refusal(&id)
    {
        app.message = Some(format!(
            "{id} takes no change (only a Synced or Degraded cluster whose identity is confirmed does): {why}"
        ));
        return Vec::new();
    }
    if app.data.cluster(&id).is_none() {
        app.message = Some(format!("no data for {id} yet"));
        return Vec::new();
    }
    if names.is_empty() {
        let mark = app.key_on(app.context(), crate::tui::action::Action::Mark);
        app.message = Some(match mark {
            Some(key) => format!("mark nodes with {key} first"),
            None => "mark nodes first".to_string(),
        });
        return Vec::new();
    }
    let spec = MaintenanceSpec {
        name: default_run_name(&names[0]),
        cluster: crate::model::ledger::ClusterId(id.clone()),
        nodes: NodeSelection::Names(names.iter().map(|n| NodeName(n.to_string())).collect()),
        action: MaintainAction::Manual {
            instructions:
                "started from the console: do the work, then return the Maintain step as done (r)"
                    .into(),
        },
        budgets: Budgets {
            max_unavailable: 1,
            failure_domain_label: DEFAULT_FAILURE_DOMAIN_LABEL.into(),
            per_failure_domain: None,
            per_label: Vec::new(),
        },
        deadlines: Deadlines::default(),
        drain: DrainOptions::default(),
        verify: VerifyOptions::default(),
    };
    maintenance_dialog(app, spec)
}

/// `console-NODE`, cut to the longest run name and to end with a letter or digit.
pub(crate) fn default_run_name(node: &str) -> String {
    let name: String = format!("console-{node}")
        .chars()
        .take(crate::model::run::RUN_NAME_MAX)
        .collect();
    name.trim_end_matches(['-', '.']).to_string()
}

/// `:start FILE`: start the maintenance a file describes, showing its plan first. The
/// file is read here, on the operator's request (`~/` is `$HOME/`, as a shell reads it);
/// problems are shown as `file:line:col`.
pub fn start_from_file(app: &mut App, path: &std::path::Path) -> Vec<Command> {
    let path = crate::config::expand_home(path);
    let name = path.display().to_string();
    let title = format!("start maintenance from {name}");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            open(
                app,
                Dialog::refused(title, Vec::new(), format!("cannot read {name}: {error}")),
            );
            return Vec::new();
        }
    };
    let report = crate::model::maintenance::read_maintenance(&text);
    let problems: Vec<String> = report.diagnostics.iter().map(|d| d.render(&name)).collect();
    match report.spec {
        Some(spec) => maintenance_dialog(app, spec),
        None => {
            open(
                app,
                Dialog::refused(
                    title,
                    problems,
                    format!("{name} has errors: nothing was started"),
                ),
            );
            Vec::new()
        }
    }
}

/// The two-phase dialog for starting `spec`: the plan against the nodes as last seen,
/// then name and drain deadline, then what will happen. Only a cluster that allows changes
/// (Synced or Degraded, identity confirmed) allows it.
fn maintenance_dialog(app: &mut App, spec: MaintenanceSpec) -> Vec<Command> {
    let id = spec.cluster.0.clone();
    let title = format!("start maintenance on {id}");
    // A cluster the ledger does not have is a typo in the file, not a refusal for the
    // audit trail.
    if app.ledger.cluster(&id).is_none() {
        let hint = crate::yaml::suggest(&id, app.ledger.clusters.iter().map(|c| c.id.0.as_str()))
            .map(|close| format!(" (did you mean {close}?)"))
            .unwrap_or_default();
        open(
            app,
            Dialog::refused(
                title,
                vec![format!("maintenance {} on {id}", spec.name)],
                format!("the ledger has no cluster {id}{hint}: nothing was sent"),
            ),
        );
        return Vec::new();
    }
    // The rule every change obeys (`ClusterSnapshot::change_refusal`): a Synced or
    // Degraded cluster whose pinned identity is confirmed.
    let refusal = app.snapshot.change_refusal(&id);
    let facts = app.data.cluster(&id).cloned();
    let (None, Some(facts)) = (&refusal, facts) else {
        // A cluster that cannot take actions is the audit trail's; the console merely not
        // having its nodes yet is not.
        let refused = refusal
            .as_deref()
            .map(|why| ClusterRefusal::start_maintenance(&spec.name, spec.cluster.clone(), why));
        let why = refusal.unwrap_or_else(|| "no data for it yet".to_owned());
        open(
            app,
            Dialog::refused(
                title,
                vec![format!("maintenance {} on {id}", spec.name)],
                format!(
                    "refused: only a Synced or Degraded cluster whose identity is confirmed allows actions; {id}: {why}"
                ),
            ),
        );
        return journal_refusals(app, refused.into_iter().collect());
    };
    let inventory = inventory(&facts.view);
    let planned = plan_on(&spec.nodes, &spec.budgets, &inventory);
    let refusal = planned.check(&spec.nodes).err();
    let PlannedOn {
        targets,
        missing,
        plan,
    } = planned;
    let mut context = vec![
        format!(
            "{} node(s) on {id}, at most {} unavailable at once",
            targets.len(),
            spec.budgets.max_unavailable
        ),
        "each: Precheck → Cordon → Drain (Eviction API, PDBs respected) → Maintain → VerifyNode → VerifyWorkloads → Uncordon".into(),
    ];
    for (i, b) in plan.batches.iter().enumerate() {
        let list: Vec<&str> = b.iter().map(|n| n.as_str()).collect();
        context.push(format!("batch {}: {}", i + 1, list.join(", ")));
    }
    for (n, why) in &plan.unplanned {
        context.push(format!("not planned: {n}: {why}"));
    }
    for n in &missing {
        context.push(format!("not found on {id}: {n}"));
    }
    context.extend(plan.warnings.iter().map(|w| format!("warning: {w}")));
    // An expired ledger exception does not stop the start; confirming is the person's
    // acknowledgement of it (the CLI asks for --acknowledge-expired-exceptions).
    let today = app.now.to_zoned(app.config.local_tz.clone()).date();
    context.extend(
        crate::model::ledger::unacknowledged(
            &app.ledger,
            std::slice::from_ref(&spec.cluster),
            today,
        )
        .iter()
        .map(|e| format!("LEDGER: {e}: confirming acknowledges it")),
    );
    if let Some(refusal) = refusal {
        open(
            app,
            Dialog::refused(
                title,
                context,
                format!("refused: {refusal}; nothing would run"),
            ),
        );
        return Vec::new();
    }
    let name = spec.name.clone();
    let deadline = crate::model::duration::format_duration(
        spec.deadlines.of(crate::model::maintenance::Step::Drain),
    );
    // What the node page judges per pod, said before anything is confirmed: a budget
    // that refuses an eviction now holds the drain (it is never forced).
    let nodes: Vec<crate::model::fleet::NodeName> = targets
        .iter()
        .map(|n| crate::model::fleet::NodeName::from(n.name.0.as_str()))
        .collect();
    let warnings = drain_warnings(&crate::model::capacity::budgets_blocking_drain(
        &facts.view,
        &nodes,
    ));
    open(
        app,
        Dialog::new(
            title,
            context,
            Purpose::StartMaintenance(Box::new(spec), inventory),
        )
        .with_text(0, &name)
        .with_text(1, &deadline)
        .with_warnings(warnings),
    );
    Vec::new()
}

/// The warning a maintenance start gives for each budget that would refuse, now, to evict
/// a pod of the nodes it drains.
fn drain_warnings(blocking: &[crate::model::capacity::BlockingBudget]) -> Vec<String> {
    blocking
        .iter()
        .map(|b| {
            format!(
                "warning: the drain will wait: PDB {}/{} ({} on these nodes; has {} healthy, needs {}) allows no eviction now; the Drain step is stuck until it does, then waits for a person (nothing is forced)",
                b.namespace,
                b.name,
                crate::tui::format::counted(i64::from(b.pods), "pod"),
                b.current_healthy,
                b.desired_healthy
            )
        })
        .collect()
}

/// `a` in the handover walkthrough: acknowledge the item, as it stands, with a note.
pub fn acknowledge(app: &mut App, item: &HandoverItem) {
    let mut context = vec![item.title.clone()];
    context.extend(item.details.iter().map(|d| format!("  {d}")));
    context.push(
        "Journaled with your name for everyone; it holds until the problem gets worse or \
         another one appears there."
            .into(),
    );
    open(
        app,
        Dialog::new(
            "acknowledge",
            context,
            Purpose::Acknowledge(Box::new(item.clone())),
        ),
    );
}
