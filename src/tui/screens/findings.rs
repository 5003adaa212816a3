//! The Findings screen's decisions: every finding of the fleet as one row, filtered and
//! sorted like the ledger (worst first by default); its keys: moving through the
//! findings, sorting, opening the cluster, and suspending or resuming a GitOps object's
//! sync (a two-phase dialog). Drawing is `findings_view.rs`.

use std::cmp::Ordering;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::model::findings::{FLEET, Finding, GitOpsKind, RuleId, Severity};
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, Screen, is_motion, motion};
use crate::tui::dialog::{Dialog, Purpose};
use crate::tui::feed::GitOpsSyncRequest;
use crate::tui::filter::{Filter, Filterable};
use crate::tui::message::Overlay;

/// A column of the findings table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingColumn {
    /// How bad.
    Severity,
    /// The cluster.
    Cluster,
    /// The rule.
    Rule,
    /// Since when.
    Since,
    /// The one-line summary.
    Summary,
}

impl FindingColumn {
    /// Every column, in display order.
    pub const ALL: [FindingColumn; 5] = [
        FindingColumn::Severity,
        FindingColumn::Cluster,
        FindingColumn::Rule,
        FindingColumn::Since,
        FindingColumn::Summary,
    ];

    /// Header text in `lang`.
    pub fn title_in(self, lang: crate::i18n::Lang) -> String {
        match self {
            FindingColumn::Severity => crate::t!(lang, "fd-col-severity"),
            FindingColumn::Cluster => crate::t!(lang, "fd-col-cluster"),
            FindingColumn::Rule => crate::t!(lang, "fd-col-rule"),
            FindingColumn::Since => crate::t!(lang, "fd-col-since"),
            FindingColumn::Summary => crate::t!(lang, "fd-col-summary"),
        }
    }

    /// The column after (or before) this one, wrapping.
    pub fn step(self, forward: bool) -> FindingColumn {
        let all = FindingColumn::ALL;
        let i = all.iter().position(|c| *c == self).unwrap_or(0);
        let n = all.len();
        all[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

/// What the screen keeps between frames.
#[derive(Debug, Clone)]
pub struct FindingsState {
    /// The `/` filter.
    pub filter: Filter,
    /// The sort column.
    pub sort: FindingColumn,
    /// Ascending (otherwise worst, newest, last first).
    pub ascending: bool,
    /// The selected finding, by its problem key (stays on it while others come and go).
    pub selected: Option<String>,
}

impl Default for FindingsState {
    fn default() -> Self {
        FindingsState {
            filter: Filter::parse(""),
            sort: FindingColumn::Severity,
            ascending: false,
            selected: None,
        }
    }
}

impl Filterable for Finding {
    fn haystack(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.cluster,
            self.rule.name(),
            self.severity.label(),
            self.subject,
            self.summary
        )
    }

    fn field(&self, key: &str) -> Option<String> {
        match key {
            "cluster" | "id" => Some(self.cluster.to_string()),
            "rule" => Some(self.rule.name()),
            "severity" | "sev" => Some(Severity::NAMES[self.severity as usize].to_string()),
            "group" => Some(self.rule.group().to_string()),
            "subject" => Some(self.subject.clone()),
            _ => None,
        }
    }
}

/// The keys a findings filter term may name.
pub const FIELDS: &[&str] = &[
    "cluster", "id", "rule", "severity", "sev", "group", "subject",
];

fn compare(a: &Finding, b: &Finding, by: FindingColumn) -> Ordering {
    let tie = || {
        a.severity
            .cmp(&b.severity)
            .then_with(|| b.cluster.cmp(&a.cluster))
            .then_with(|| b.key.cmp(&a.key))
    };
    match by {
        FindingColumn::Severity => tie(),
        FindingColumn::Cluster => a.cluster.cmp(&b.cluster).then_with(tie),
        FindingColumn::Rule => a.rule.cmp(&b.rule).then_with(tie),
        // Unknown since sorts as oldest.
        FindingColumn::Since => b.since.cmp(&a.since).then_with(tie),
        FindingColumn::Summary => a.summary.cmp(&b.summary).then_with(tie),
    }
}

impl FindingsState {
    /// The findings the filter keeps, in the chosen order.
    pub fn rows<'a>(&self, findings: &'a [Finding]) -> Vec<&'a Finding> {
        let mut rows: Vec<&Finding> = findings
            .iter()
            .filter(|f| self.filter.matches(*f))
            .collect();
        rows.sort_by(|a, b| {
            let ord = compare(a, b, self.sort);
            if self.ascending { ord } else { ord.reverse() }
        });
        rows
    }

    /// Where the selection is in `rows` (the first row when it is gone).
    pub fn selected_pos(&self, rows: &[&Finding]) -> usize {
        self.selected
            .as_ref()
            .and_then(|key| rows.iter().position(|f| f.problem_key() == *key))
            .unwrap_or(0)
    }

    /// Filter keys that name no field, as `key (did you mean …?)`.
    pub fn unknown_keys(&self, lang: crate::i18n::Lang) -> Vec<String> {
        self.filter
            .keys()
            .filter(|k| !FIELDS.contains(k))
            .map(|k| match crate::yaml::suggest(k, FIELDS.iter().copied()) {
                Some(s) => crate::t!(lang, "fd-did-you-mean", key = k, suggestion = s),
                None => k.to_string(),
            })
            .collect()
    }
}

/// The Findings screen: moving through the findings, sorting, opening a finding's
/// cluster, and the GitOps sync dialog.
impl Screen for FindingsState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let rows = self.rows(&ctx.findings.judged.findings);
        let pos = self.selected_pos(&rows);
        let selected: Option<&Finding> = rows.get(pos).copied();
        let effects = match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, rows.len(), a, ctx);
                self.selected = rows.get(next).map(|f| f.problem_key());
                said
            }
            Action::SortNext | Action::SortPrev => {
                self.sort = self.sort.step(action == Action::SortNext);
                self.selected = selected.map(|f| f.problem_key());
                Vec::new()
            }
            Action::SortReverse => {
                self.ascending = !self.ascending;
                self.selected = selected.map(|f| f.problem_key());
                Vec::new()
            }
            Action::Open => vec![match selected {
                Some(f) if f.cluster.as_str() != FLEET => {
                    Effect::OpenCluster(f.cluster.to_string(), None)
                }
                Some(_) => Effect::Say(crate::t!(ctx.config.lang, "fd-fleet-wide-no-cluster")),
                None => Effect::Say(crate::t!(ctx.config.lang, "fd-none-to-open")),
            }],
            Action::GitOpsSync => vec![match selected {
                Some(f) => gitops_dialog(ctx, f),
                None => Effect::Say(crate::t!(ctx.config.lang, "fd-none-selected")),
            }],
            _ => return None,
        };
        Some(effects)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::findings_view::draw(self, ctx, area, buf);
    }

    fn filter(&self) -> Option<&Filter> {
        Some(&self.filter)
    }

    fn filter_mut(&mut self) -> Option<&mut Filter> {
        Some(&mut self.filter)
    }
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

/// The dialog that suspends the selected object's sync (or resumes it when it is
/// suspended), or why it cannot be opened.
fn gitops_dialog(ctx: &Context, f: &Finding) -> Effect {
    use crate::t;
    let lang = ctx.config.lang;
    let Some((kind, namespace, name)) = gitops_object(f) else {
        let key = ctx
            .key_on(crate::tui::keymap::Context::Findings, Action::GitOpsSync)
            .unwrap_or_else(|| "gitops.sync".into());
        return Effect::Say(crate::t!(
            lang,
            "gitops-not-about",
            rule = f.rule.name().to_string(),
            key = key.to_string()
        ));
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
    let title = t!(
        lang,
        "gitops-title",
        verb = crate::tui::dialog_text::gitops_verb(lang, &request),
        object = request.object()
    );
    let mut context = vec![
        t!(lang, "gitops-cluster", cluster = f.cluster.to_string()),
        f.summary.clone(),
    ];
    context.push(if suspend {
        match kind {
            GitOpsKind::ArgoApplication => t!(lang, "gitops-argo-suspend"),
            _ => t!(lang, "gitops-flux-suspend"),
        }
    } else {
        t!(lang, "gitops-resume")
    });
    // Only a cluster the ledger pins and that answers now is changed.
    let dialog = match ctx.snapshot.change_refusal(&f.cluster.0) {
        Some(why) => Dialog::refused(
            title,
            context,
            t!(
                lang,
                "gitops-refused",
                cluster = f.cluster.to_string(),
                why = why
            ),
        ),
        None => Dialog::new(title, context, Purpose::GitOpsSync(Box::new(request))),
    };
    Effect::Overlay(Overlay::Dialog(Box::new(dialog.in_lang(lang))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::findings::RuleId;
    use crate::model::ledger::ClusterId;

    fn finding(cluster: &str, rule: RuleId, severity: Severity) -> Finding {
        Finding {
            summary_msg: None,
            silence_msg: None,
            cluster: ClusterId(cluster.into()),
            rule,
            severity,
            key: rule.name(),
            subject: "x".into(),
            summary: format!("{} on {cluster}", rule.name()),
            evidence: Vec::new(),
            measure: None,
            since: None,
            severity_since: None,
            silence: String::new(),
        }
    }

    #[test]
    fn worst_first_then_filtered_by_field_or_words() {
        let all = vec![
            finding("b", RuleId::ApfCatchAll, Severity::Warning),
            finding("a", RuleId::CertificateExpiry, Severity::Critical),
            finding("a", RuleId::GitOpsOutOfSync, Severity::Info),
        ];
        let mut state = FindingsState::default();
        let order: Vec<&str> = state
            .rows(&all)
            .iter()
            .map(|f| f.cluster.as_str())
            .collect();
        assert_eq!(order, vec!["a", "b", "a"]);
        state.filter = Filter::parse("severity=critical");
        assert_eq!(state.rows(&all).len(), 1);
        state.filter = Filter::parse("catchall");
        assert_eq!(state.rows(&all)[0].rule, RuleId::ApfCatchAll);
        state.filter = Filter::parse("sevrity=x");
        assert_eq!(
            state.unknown_keys(crate::i18n::Lang::En),
            vec!["sevrity (did you mean severity?)"]
        );
        state.filter = Filter::parse("");
        state.sort = FindingColumn::Cluster;
        state.ascending = true;
        let order: Vec<&str> = state
            .rows(&all)
            .iter()
            .map(|f| f.cluster.as_str())
            .collect();
        assert_eq!(order, vec!["a", "a", "b"]);
    }
}
