//! The Findings screen's keys: moving through the findings, sorting, opening the
//! cluster, and suspending or resuming a GitOps object's sync (a two-phase dialog).

use std::sync::Arc;

use super::action::Action;
use super::app::{App, Command, Overlay};
use super::dialog::{Dialog, Purpose};
use super::feed::GitOpsSyncRequest;
use crate::model::findings::{FLEET, Finding, GitOpsKind, RuleId};

/// Handles `action` on the Findings screen; `None` when the screen does not use it.
pub(super) fn findings(app: &mut App, action: Action) -> Option<Vec<Command>> {
    let judged = Arc::clone(&app.findings.judged);
    let rows = app.findings_state.rows(&judged.findings);
    let pos = app.findings_state.selected_pos(&rows);
    let selected: Option<Finding> = rows.get(pos).map(|f| (*f).clone());
    match action {
        Action::Up
        | Action::Down
        | Action::PageUp
        | Action::PageDown
        | Action::Top
        | Action::Bottom => {
            let next = super::screen_keys::moved(pos, rows.len(), action, app.page());
            if next == pos.min(rows.len().saturating_sub(1)) {
                app.message = Some(super::silent_keys::stopped(action, rows.len()));
            }
            app.findings_state.selected = rows.get(next).map(|f| f.problem_key());
        }
        Action::SortNext | Action::SortPrev => {
            let state = &mut app.findings_state;
            state.sort = state.sort.step(action == Action::SortNext);
            state.selected = selected.map(|f| f.problem_key());
        }
        Action::SortReverse => {
            app.findings_state.ascending = !app.findings_state.ascending;
            app.findings_state.selected = selected.map(|f| f.problem_key());
        }
        Action::Open => match selected {
            Some(f) if f.cluster.0 != FLEET => {
                app.ledger_state.selected = Some(f.cluster.0.clone());
                app.open_cluster(&f.cluster.0, None);
            }
            Some(_) => app.message = Some("a fleet-wide finding has no one cluster to open".into()),
            None => app.message = Some("no finding to open here".into()),
        },
        Action::GitOpsSync => match selected {
            Some(f) => gitops_dialog(app, &f),
            None => app.message = Some("no finding selected".into()),
        },
        _ => return None,
    }
    Some(Vec::new())
}

/// The object a GitOps finding is about: kind, namespace and name from its key
/// (`gitOpsSuspended/Kustomization/flux-system/apps`).
fn gitops_object(f: &Finding) -> Option<(GitOpsKind, String, String)> {
    if !matches!(
        f.rule,
        RuleId::GitOpsOutOfSync | RuleId::GitOpsDegraded | RuleId::GitOpsSuspended
    ) {
        return None;
    }
    let mut parts = f.key.splitn(4, '/').skip(1);
    let kind = match parts.next()? {
        "Application" => GitOpsKind::ArgoApplication,
        "Kustomization" => GitOpsKind::FluxKustomization,
        "HelmRelease" => GitOpsKind::FluxHelmRelease,
        _ => return None,
    };
    Some((kind, parts.next()?.to_string(), parts.next()?.to_string()))
}

/// Opens the dialog that suspends the selected object's sync (or resumes it when it is
/// suspended), or says why it cannot.
fn gitops_dialog(app: &mut App, f: &Finding) {
    let Some((kind, namespace, name)) = gitops_object(f) else {
        let key = app
            .key_on(super::keymap::Context::Findings, Action::GitOpsSync)
            .unwrap_or_else(|| "gitops.sync".into());
        app.message = Some(format!(
            "{} is not about a GitOps object: {key} suspends or resumes the sync of an Application, Kustomization or HelmRelease",
            f.rule.name()
        ));
        return;
    };
    let suspend = f.rule != RuleId::GitOpsSuspended;
    let request = GitOpsSyncRequest {
        cluster: f.cluster.clone(),
        kind,
        namespace,
        name,
        suspend,
        reason: String::new(),
    };
    let title = format!("{} the sync of {}", request.verb(), request.object());
    let mut context = vec![format!("cluster {}", f.cluster), f.summary.clone()];
    context.push(if suspend {
        match kind {
            GitOpsKind::ArgoApplication => "its automated sync policy is kept aside (an annotation) and removed: Argo CD stops syncing it until resumed".to_string(),
            _ => "spec.suspend is set: Flux stops reconciling it until resumed".to_string(),
        }
    } else {
        "its sync is let go again (Argo CD's automated policy put back; Flux's spec.suspend false)".to_string()
    });
    // Only a cluster the ledger pins and that answers now is changed.
    if let Some(why) = app.snapshot.change_refusal(&f.cluster.0) {
        app.overlay = Some(Overlay::Dialog(Box::new(Dialog::refused(
            title,
            context,
            format!("{} may not be changed: {why}", f.cluster),
        ))));
        return;
    }
    app.overlay = Some(Overlay::Dialog(Box::new(Dialog::new(
        title,
        context,
        Purpose::GitOpsSync(Box::new(request)),
    ))));
}
