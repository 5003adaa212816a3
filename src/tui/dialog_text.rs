//! What a dialog says it will do, in the console's language. The command sent (and so the
//! journal) is the same in every language; only what the person reads changes. English
//! is the model's own sentence ([`OperatorCommand::describe`]).

use super::feed::ConsoleCommand;
use crate::i18n::{Lang, Msg};
use crate::model::maintenance::{NodeSelection, Step};
use crate::model::run::{OperatorCommand, PauseScope, ReturnOutcome};
use crate::t;

/// Exactly what sending `command` will do, for the confirmation phase.
pub fn what_happens(lang: Lang, command: &ConsoleCommand) -> String {
    match command {
        ConsoleCommand::Operator(op) => describe(lang, op),
        ConsoleCommand::StartMaintenance { spec, inventory } => {
            let nodes = match &spec.nodes {
                NodeSelection::Names(names) => names
                    .iter()
                    .map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                NodeSelection::Selector(s) => {
                    t!(lang, "will-nodes-matching", selector = s.to_string())
                }
            };
            t!(
                lang,
                "will-start-maintenance",
                name = &spec.name,
                cluster = spec.cluster.to_string(),
                nodes = nodes,
                known = inventory.len().to_string(),
                deadline = crate::model::duration::format_duration(spec.deadlines.of(Step::Drain))
            )
        }
        ConsoleCommand::Refused(_) | ConsoleCommand::RefusedByRules(_) => {
            t!(lang, "will-refusal")
        }
        ConsoleCommand::Quit => t!(lang, "will-quit"),
        ConsoleCommand::GitOpsSync(r) => t!(
            lang,
            "will-gitops",
            verb = gitops_verb(lang, r),
            object = r.object(),
            cluster = r.cluster.to_string()
        ),
    }
}

/// `suspend` or `resume`, in `lang`.
pub fn gitops_verb(lang: Lang, r: &super::feed::GitOpsSyncRequest) -> String {
    if r.suspend {
        t!(lang, "gitops-verb-suspend")
    } else {
        t!(lang, "gitops-verb-resume")
    }
}

/// A pause's scope as a dialog names it (`run r-1`, `集群 eu-1`).
pub fn scope(lang: Lang, scope: &PauseScope) -> String {
    match scope {
        PauseScope::Fleet => t!(lang, "scope-fleet"),
        PauseScope::Cluster { cluster } => t!(lang, "scope-cluster", cluster = cluster.to_string()),
        PauseScope::Run { run } => t!(lang, "scope-run", run = run.to_string()),
        PauseScope::FailureDomain { cluster, domain } => t!(
            lang,
            "scope-domain",
            cluster = cluster.to_string(),
            domain = domain.to_string()
        ),
    }
}

/// `(note: …)` with its leading space (Chinese needs none), or nothing for an empty note.
fn noted(lang: Lang, note: &str) -> String {
    if note.trim().is_empty() {
        String::new()
    } else {
        format!("{}{}", lang.word_gap(), t!(lang, "will-noted", note = note))
    }
}

/// What an operator command will do, in one sentence.
fn describe(lang: Lang, op: &OperatorCommand) -> String {
    if lang == Lang::En {
        return op.describe();
    }
    match op {
        OperatorCommand::Pause { scope: s, reason } => {
            t!(lang, "will-pause", scope = scope(lang, s), reason = reason)
        }
        OperatorCommand::Resume { scope: s, note } => t!(
            lang,
            "will-resume",
            scope = scope(lang, s),
            noted = noted(lang, note)
        ),
        OperatorCommand::HandOff {
            run,
            item,
            to,
            note,
        } => t!(
            lang,
            "will-hand-off",
            item = item.to_string(),
            run = run.to_string(),
            to = to.to_string(),
            noted = noted(lang, note)
        ),
        OperatorCommand::TakeOver { run, item, note } => t!(
            lang,
            "will-take-over",
            item = item.to_string(),
            run = run.to_string(),
            noted = noted(lang, note)
        ),
        OperatorCommand::Return {
            run,
            item,
            outcome,
            note,
        } => {
            let (item, run, noted) = (item.to_string(), run.to_string(), noted(lang, note));
            let (will, name) = match outcome {
                ReturnOutcome::Done => {
                    (Msg::new("will-return-done"), Msg::new("outcome-name-done"))
                }
                ReturnOutcome::Retry => (
                    Msg::new("will-return-retry"),
                    Msg::new("outcome-name-retry"),
                ),
                ReturnOutcome::Abort => (
                    Msg::new("will-return-abort"),
                    Msg::new("outcome-name-abort"),
                ),
            };
            will.arg("item", item)
                .arg("run", run)
                .arg("outcome", name)
                .arg("noted", noted)
                .text(lang)
        }
        OperatorCommand::Abort { run, note } => t!(
            lang,
            "will-abort",
            run = run.to_string(),
            noted = noted(lang, note)
        ),
        OperatorCommand::Approve { run, batch, note } => match batch {
            Some(b) => t!(
                lang,
                "will-approve-batch",
                batch = (b + 1).to_string(),
                run = run.to_string(),
                noted = noted(lang, note)
            ),
            None => t!(
                lang,
                "will-approve-waiting",
                run = run.to_string(),
                noted = noted(lang, note)
            ),
        },
        OperatorCommand::Note { text, .. } => t!(lang, "will-note", text = text),
        OperatorCommand::Acknowledge {
            title,
            extent,
            note,
            ..
        } => {
            let stands = if extent.0.is_empty() {
                String::new()
            } else {
                t!(lang, "will-acknowledge-stands", extent = extent.summary())
            };
            t!(
                lang,
                "will-acknowledge",
                title = crate::model::text::one_line(title),
                stands = stands,
                noted = noted(lang, note)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::run::{Actor, ItemId, RunId};

    fn every_command() -> Vec<OperatorCommand> {
        let (run, item) = (RunId("r-1".into()), ItemId("n1".into()));
        let mut out = vec![
            OperatorCommand::Pause {
                scope: PauseScope::Fleet,
                reason: "incident".into(),
            },
            OperatorCommand::Resume {
                scope: PauseScope::Run { run: run.clone() },
                note: "fixed".into(),
            },
            OperatorCommand::HandOff {
                run: run.clone(),
                item: item.clone(),
                to: Actor("erin@ops".into()),
                note: "PDB".into(),
            },
            OperatorCommand::TakeOver {
                run: run.clone(),
                item: item.clone(),
                note: String::new(),
            },
            OperatorCommand::Abort {
                run: run.clone(),
                note: "bad".into(),
            },
            OperatorCommand::Approve {
                run: run.clone(),
                batch: Some(1),
                note: String::new(),
            },
        ];
        for outcome in [
            ReturnOutcome::Done,
            ReturnOutcome::Retry,
            ReturnOutcome::Abort,
        ] {
            out.push(OperatorCommand::Return {
                run: run.clone(),
                item: item.clone(),
                outcome,
                note: "ok".into(),
            });
        }
        out
    }

    #[test]
    fn english_is_the_models_sentence_and_chinese_names_the_same_values() {
        for op in every_command() {
            let command = ConsoleCommand::Operator(op.clone());
            assert_eq!(what_happens(Lang::En, &command), op.describe());
            let zh = what_happens(Lang::ZhCn, &command);
            assert!(!zh.is_ascii(), "{zh}");
            for value in ["r-1", "n1"] {
                if op.describe().contains(value) {
                    assert!(zh.contains(value), "{value} in {zh}");
                }
            }
        }
    }
}
