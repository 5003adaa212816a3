//! `m` in the drill-down and `:start FILE`: start a node maintenance, showing its plan
//! against the nodes as last seen first.

use super::{journal_refusals, open};
use crate::i18n::Lang;
use crate::model::maintenance::{
    Budgets, DEFAULT_FAILURE_DOMAIN_LABEL, Deadlines, DrainOptions, MaintainAction,
    MaintenanceSpec, NodeSelection, PlannedOn, VerifyOptions, inventory, plan_on,
};
use crate::model::run::{ClusterRefusal, NodeName};
use crate::t;
use crate::tui::app::{App, Command};
use crate::tui::dialog::{Dialog, Purpose};

/// `m` in the drill-down: start a maintenance on the marked nodes (or the selected one),
/// showing the planned batches first.
pub fn start_maintenance(app: &mut App) -> Vec<Command> {
    let Some((id, names)) = app.chosen_nodes() else {
        return Vec::new();
    };
    let lang = app.config.lang;
    // Nothing marked yet: what the cluster allows comes before which nodes (marking nodes
    // of a cluster that takes no change would be wasted). With nodes marked, the request
    // is real and its refusal goes to the journal below.
    if names.is_empty()
        && let Some(why) = app.snapshot.change_refusal(&id)
    {
        app.message = Some(t!(
            lang,
            "msg-takes-no-change",
            id = id.to_string(),
            why = why
        ));
        return Vec::new();
    }
    if app.data.cluster(&id).is_none() {
        app.message = Some(t!(lang, "msg-no-data", id = id.to_string()));
        return Vec::new();
    }
    if names.is_empty() {
        let mark = app.key_on(app.context(), crate::tui::action::Action::Mark);
        app.message = Some(match mark {
            Some(key) => t!(lang, "msg-mark-with", key = key.to_string()),
            None => t!(lang, "msg-mark-first"),
        });
        return Vec::new();
    }
    let spec = MaintenanceSpec {
        name: default_run_name(&names[0]),
        cluster: crate::model::ledger::ClusterId::from(id.clone()),
        nodes: NodeSelection::Names(
            names
                .iter()
                .map(|n| NodeName::from(n.to_string()))
                .collect(),
        ),
        action: MaintainAction::Manual {
            // i18n: not for people (the spec's instructions are journaled, in English)
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
/// reducer reads no file: it asks the event loop to ([`Command::ReadMaintenanceFile`]),
/// whose answer comes back to [`start_from_text`].
pub fn start_from_file(path: &std::path::Path) -> Vec<Command> {
    vec![Command::ReadMaintenanceFile(path.to_path_buf())]
}

/// The maintenance file `name` as read (its text, or why it could not be read): its plan
/// in the start dialog, or its problems as `file:line:col`.
pub fn start_from_text(app: &mut App, name: &str, text: Result<String, String>) -> Vec<Command> {
    let lang = app.config.lang;
    let title = t!(lang, "start-from-title", name = name);
    let text = match text {
        Ok(text) => text,
        Err(error) => {
            open(
                app,
                Dialog::refused(
                    title,
                    Vec::new(),
                    t!(lang, "start-cannot-read", name = name, error = error),
                ),
            );
            return Vec::new();
        }
    };
    let report = crate::model::maintenance::read_maintenance(&text);
    let problems: Vec<String> = report.diagnostics.iter().map(|d| d.render(name)).collect();
    match report.spec {
        Some(spec) => maintenance_dialog(app, spec),
        None => {
            open(
                app,
                Dialog::refused(title, problems, t!(lang, "start-has-errors", name = name)),
            );
            Vec::new()
        }
    }
}

/// The two-phase dialog for starting `spec`: the plan against the nodes as last seen,
/// then name and drain deadline, then what will happen. Only a cluster that allows changes
/// (Synced or Degraded, identity confirmed) allows it.
fn maintenance_dialog(app: &mut App, spec: MaintenanceSpec) -> Vec<Command> {
    let lang = app.config.lang;
    let id = spec.cluster.0.clone();
    let title = t!(lang, "start-title", id = id.to_string());
    let on = |lang: Lang| {
        t!(
            lang,
            "start-maintenance-on",
            name = &spec.name,
            id = id.to_string()
        )
    };
    // A cluster the ledger does not have is a typo in the file, not a refusal for the
    // audit trail.
    if app.ledger.cluster(&id).is_none() {
        let hint = crate::yaml::suggest(&id, app.ledger.clusters.iter().map(|c| c.id.as_str()))
            .map(|close| format!(" {}", t!(lang, "start-did-you-mean", close = close)))
            .unwrap_or_default();
        open(
            app,
            Dialog::refused(
                title,
                vec![on(lang)],
                t!(lang, "start-no-cluster", id = id.to_string(), hint = hint),
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
        let why = refusal.unwrap_or_else(|| t!(lang, "start-no-data"));
        open(
            app,
            Dialog::refused(
                title,
                vec![on(lang)],
                t!(
                    lang,
                    "start-refused-cluster",
                    id = id.to_string(),
                    why = why
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
        t!(
            lang,
            "start-nodes",
            n = targets.len().to_string(),
            id = id.to_string(),
            max = spec.budgets.max_unavailable.to_string()
        ),
        t!(lang, "start-steps"),
    ];
    for (i, b) in plan.batches.iter().enumerate() {
        let list: Vec<&str> = b.iter().map(|n| n.as_str()).collect();
        context.push(t!(
            lang,
            "start-batch",
            batch = (i + 1).to_string(),
            nodes = list.join(", ")
        ));
    }
    // Each node's reason and each warning in the reader's language when the plan says
    // them as messages (as written otherwise).
    let unplanned_in: Vec<String> = plan
        .unplanned
        .iter()
        .enumerate()
        .map(|(i, (_, why))| match plan.unplanned_said.get(i) {
            Some(said) if lang != Lang::En && plan.unplanned_said.len() == plan.unplanned.len() => {
                said.text(lang)
            }
            _ => why.clone(),
        })
        .collect();
    for ((n, _), why) in plan.unplanned.iter().zip(&unplanned_in) {
        context.push(t!(
            lang,
            "start-not-planned",
            node = n.to_string(),
            why = why
        ));
    }
    for n in &missing {
        context.push(t!(
            lang,
            "start-not-found",
            id = id.to_string(),
            node = n.to_string()
        ));
    }
    let said = lang != Lang::En && plan.warnings_said.len() == plan.warnings.len();
    context.extend(plan.warnings.iter().enumerate().map(|(i, w)| {
        let warning = match plan.warnings_said.get(i) {
            Some(msg) if said => msg.text(lang),
            _ => w.clone(),
        };
        t!(lang, "start-warning", warning = warning)
    }));
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
        .map(|e| t!(lang, "start-ledger", exception = e.to_string())),
    );
    if let Some(refusal) = refusal {
        open(
            app,
            Dialog::refused(
                title,
                context,
                t!(
                    lang,
                    "start-refused-plan",
                    why = plan_refusal_text(&refusal, &plan.unplanned, &unplanned_in, lang)
                ),
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
    let nodes: Vec<crate::model::fleet::NodeName> =
        targets.iter().map(|n| n.name.clone()).collect();
    let warnings = drain_warnings(
        lang,
        &crate::model::capacity::budgets_blocking_drain(&facts.view, &nodes),
    );
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
fn drain_warnings(lang: Lang, blocking: &[crate::model::capacity::BlockingBudget]) -> Vec<String> {
    blocking
        .iter()
        .map(|b| {
            let pods = match lang {
                Lang::En => crate::tui::format::counted(i64::from(b.pods), "pod"),
                Lang::ZhCn => format!("{} 个 Pod", b.pods),
            };
            t!(
                lang,
                "start-drain-waits",
                namespace = b.namespace.to_string(),
                name = b.name.to_string(),
                pods = pods,
                healthy = b.current_healthy.to_string(),
                needs = b.desired_healthy.to_string()
            )
        })
        .collect()
}

/// Why the plan may not start, in `lang`: a plan with no node within the budgets names
/// each node with its reason in the reader's language.
fn plan_refusal_text(
    refusal: &crate::model::maintenance::PlanRefusal,
    unplanned: &[(NodeName, String)],
    reasons_in: &[String],
    lang: Lang,
) -> String {
    use crate::model::maintenance::PlanRefusal;
    match refusal {
        PlanRefusal::NothingPlannable(_) if lang != Lang::En => {
            let named: Vec<String> = unplanned
                .iter()
                .zip(reasons_in)
                .map(|((n, _), why)| format!("{n}: {why}"))
                .collect();
            t!(
                lang,
                "reason-plan-nothing-plannable",
                why = named.join("; ")
            )
        }
        other => other.msg().text(lang),
    }
}
