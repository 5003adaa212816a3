//! Dialogs for operator actions, in two phases as gitui does: first the operator fills in
//! what is needed (reason, assignee, note, outcome) and sees what the target is; then the
//! dialog says exactly what will happen and waits for a second `enter`. Nothing is sent
//! before that. A refusal known in advance (read-only, `distinctApprover`) is shown
//! instead of a form.
//!
//! Over 600 lines: the dialog's state, its keys and its drawing belong to one two-phase
//! form; the per-command builders are in `tui/operator/`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::feed::ConsoleCommand;
use crate::i18n::Lang;
use crate::model::handover::HandoverItem;
use crate::model::maintenance::{MaintenanceSpec, NodeFacts};
use crate::model::run::{Actor, ItemId, OperatorCommand, PauseScope, ReturnOutcome, RunId};
use crate::t;

/// What a return without a chosen outcome is told (in English).
#[cfg(test)]
pub const CHOOSE_OUTCOME: &str = "choose an outcome: d done, r retry or a abort";

/// One text input.
#[derive(Debug, Clone)]
pub struct Field {
    /// What it asks for.
    pub label: &'static str,
    /// The text.
    pub area: TextArea<'static>,
    /// Whether it may be left empty.
    pub required: bool,
    /// Whether `alt-enter` inserts a line break (notes).
    pub multiline: bool,
}

impl Field {
    fn new(label: &'static str, required: bool, multiline: bool) -> Field {
        let mut area = TextArea::default();
        area.set_cursor_line_style(ratatui::style::Style::new());
        Field {
            label,
            area,
            required,
            multiline,
        }
    }

    /// What it asks for, in `lang`.
    pub fn label_in(&self, lang: Lang) -> String {
        let id = match self.label {
            "reason" => "dialog-field-reason",
            "note" => "dialog-field-note",
            "assignee" => "dialog-field-assignee",
            "why" => "dialog-field-why",
            "type the name to confirm" => "dialog-field-type-name",
            "name" => "dialog-field-name",
            "drain deadline (stuck after)" => "dialog-field-drain-deadline",
            other => return other.to_string(),
        };
        crate::i18n::text(lang, id, &[])
    }

    /// The text; a multi-line note keeps its line breaks.
    pub fn text(&self) -> String {
        self.area.lines().join("\n").trim().to_string()
    }
}

/// What the dialog builds once filled in.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    /// Pause a scope (field: reason).
    Pause(PauseScope),
    /// Resume a scope (field: note, optional).
    Resume(PauseScope),
    /// Hand an item off (fields: assignee, note).
    HandOff(RunId, ItemId),
    /// Take an item over (field: note).
    TakeOver(RunId, ItemId),
    /// Return an item (choice: outcome; field: note).
    Return(RunId, ItemId),
    /// Abort a run (fields: note, the name typed).
    Abort(RunId, String),
    /// Approve a batch (field: note).
    Approve(RunId, usize),
    /// Acknowledge a handover item as it stands, with a note.
    Acknowledge(Box<HandoverItem>),
    /// Start a maintenance (fields: name, drain deadline; the plan is the context).
    StartMaintenance(Box<MaintenanceSpec>, Vec<NodeFacts>),
    /// Quit while this console's executor drives runs (named in the context).
    Quit,
    /// Suspend or resume a GitOps object's sync (field: reason).
    GitOpsSync(Box<super::feed::GitOpsSyncRequest>),
    /// Nothing can be sent (a refusal).
    Nothing,
}

/// Where the dialog is.
#[derive(Debug, Clone, PartialEq)]
pub enum Stage {
    /// Filling in.
    Edit,
    /// Showing exactly what will happen; `enter` sends.
    Confirm(String),
    /// Cannot be done; says why. Any key closes.
    Refused(String),
}

/// An open dialog.
#[derive(Debug, Clone)]
pub struct Dialog {
    /// Title.
    pub title: String,
    /// What the target is (clusters, budgets, gates, owner…).
    pub context: Vec<String>,
    /// Inputs.
    pub fields: Vec<Field>,
    /// The outcome the person chose; none until they choose one (nothing is preselected).
    pub outcome: Option<ReturnOutcome>,
    /// Which input has the keys (`fields.len()` is the outcome choice).
    pub focus: usize,
    /// Phase.
    pub stage: Stage,
    /// What it builds.
    pub purpose: Purpose,
    /// A hint under the form when the last `enter` was refused (empty field…).
    pub problem: Option<String>,
    /// What the operator must know before confirming (a PDB that will hold the drain):
    /// shown in both phases, never giving way to the context.
    pub warnings: Vec<String>,
    /// The language the dialog speaks (what it sends is the same in every language).
    pub lang: Lang,
}

/// What a key did to the dialog.
#[derive(Debug, Clone, PartialEq)]
pub enum DialogResult {
    /// Still open.
    Open,
    /// Closed without sending.
    Cancelled,
    /// Confirmed: send this.
    Send(ConsoleCommand),
}

impl Dialog {
    /// Whether the dialog asks for a return's outcome (done, retry, abort).
    pub fn asks_outcome(&self) -> bool {
        matches!(self.purpose, Purpose::Return(..))
    }

    /// A dialog for `purpose` with `context` lines; inputs follow from the purpose.
    pub fn new(title: impl Into<String>, context: Vec<String>, purpose: Purpose) -> Dialog {
        let fields = match &purpose {
            Purpose::Pause(_) => vec![Field::new("reason", true, false)],
            Purpose::Resume(_) => vec![Field::new("note", false, false)],
            Purpose::HandOff(..) => vec![
                Field::new("assignee", true, false),
                Field::new("note", true, true),
            ],
            Purpose::TakeOver(..) | Purpose::Approve(..) => {
                vec![Field::new("note", false, true)]
            }
            Purpose::Return(..) => vec![Field::new("note", true, true)],
            Purpose::Abort(..) => vec![
                Field::new("why", true, false),
                Field::new("type the name to confirm", true, false),
            ],
            Purpose::Acknowledge(..) => vec![Field::new("note", true, true)],
            Purpose::GitOpsSync(..) => vec![Field::new("reason", true, false)],
            Purpose::Nothing | Purpose::Quit => Vec::new(),
            Purpose::StartMaintenance(..) => vec![
                Field::new("name", true, false),
                Field::new("drain deadline (stuck after)", true, false),
            ],
        };
        let mut dialog = Dialog {
            title: title.into(),
            context,
            fields,
            outcome: None,
            focus: 0,
            stage: Stage::Edit,
            purpose,
            problem: None,
            warnings: Vec::new(),
            lang: Lang::En,
        };
        if dialog.fields.is_empty() && !dialog.asks_outcome() && dialog.purpose != Purpose::Nothing
        {
            // Nothing to fill in: go straight to saying what will happen.
            dialog.advance();
        }
        dialog
    }

    /// A dialog that only says why the action cannot be done.
    pub fn refused(title: impl Into<String>, context: Vec<String>, why: String) -> Dialog {
        let mut dialog = Dialog::new(title, context, Purpose::Nothing);
        dialog.stage = Stage::Refused(why);
        dialog
    }

    /// The dialog in `lang`: its form, hints and what it will do (a confirmation already
    /// shown is said again in `lang`).
    pub fn in_lang(mut self, lang: Lang) -> Dialog {
        self.lang = lang;
        if matches!(self.stage, Stage::Confirm(_)) && self.purpose != Purpose::Quit {
            self.advance();
        }
        self
    }

    /// Warnings shown above the form and the confirmation alike.
    pub fn with_warnings(mut self, warnings: Vec<String>) -> Dialog {
        self.warnings = warnings;
        self
    }

    /// Pre-fills a field (e.g. the assignee).
    pub fn with_text(mut self, field: usize, text: &str) -> Dialog {
        if let Some(f) = self.fields.get_mut(field) {
            f.area = TextArea::new(vec![text.to_string()]);
            f.area.set_cursor_line_style(ratatui::style::Style::new());
            f.area.move_cursor(ratatui_textarea::CursorMove::End);
        }
        self
    }

    fn text(&self, i: usize) -> String {
        self.fields.get(i).map(Field::text).unwrap_or_default()
    }

    /// The command the filled-in form stands for, or what is missing.
    pub fn build(&self) -> Result<ConsoleCommand, String> {
        for f in &self.fields {
            if f.required && f.text().is_empty() {
                return Err(t!(self.lang, "dialog-empty", field = f.label_in(self.lang)));
            }
        }
        let op = match &self.purpose {
            Purpose::Pause(scope) => OperatorCommand::Pause {
                scope: scope.clone(),
                reason: self.text(0),
            },
            Purpose::Resume(scope) => OperatorCommand::Resume {
                scope: scope.clone(),
                note: self.text(0),
            },
            Purpose::HandOff(run, item) => OperatorCommand::HandOff {
                run: run.clone(),
                item: item.clone(),
                to: Actor(self.text(0)),
                note: self.text(1),
            },
            Purpose::TakeOver(run, item) => OperatorCommand::TakeOver {
                run: run.clone(),
                item: item.clone(),
                note: self.text(0),
            },
            Purpose::Return(run, item) => OperatorCommand::Return {
                run: run.clone(),
                item: item.clone(),
                outcome: self
                    .outcome
                    .ok_or_else(|| t!(self.lang, "dialog-choose-outcome"))?,
                note: self.text(0),
            },
            Purpose::Abort(run, name) => {
                if self.text(1) != *name {
                    return Err(t!(self.lang, "dialog-type-exactly", name = name));
                }
                OperatorCommand::Abort {
                    run: run.clone(),
                    note: self.text(0),
                }
            }
            Purpose::Approve(run, batch) => OperatorCommand::Approve {
                run: run.clone(),
                batch: Some(*batch),
                note: self.text(0),
            },
            Purpose::Acknowledge(item) => OperatorCommand::Acknowledge {
                problem: item.key.clone(),
                title: item.title.clone(),
                extent: item.extent.clone(),
                run: item.subject.run.clone(),
                item: item.subject.item.clone(),
                cluster: item.subject.cluster.clone(),
                note: self.text(0),
            },
            Purpose::Nothing => return Err(t!(self.lang, "dialog-nothing-to-send")),
            Purpose::Quit => return Ok(ConsoleCommand::Quit),
            Purpose::GitOpsSync(request) => {
                let mut request = (**request).clone();
                request.reason = self.text(0);
                return Ok(ConsoleCommand::GitOpsSync(request));
            }
            Purpose::StartMaintenance(spec, inventory) => {
                let deadline = self.text(1);
                let drain = crate::model::duration::parse_duration(&deadline).map_err(|e| {
                    t!(
                        self.lang,
                        "dialog-bad-deadline",
                        deadline = format!("{deadline:?}"),
                        error = e.msg().text(self.lang)
                    )
                })?;
                let mut spec = spec.clone();
                spec.name = self.text(0);
                crate::model::run::check_run_name_said(&spec.name).map_err(|(_, why)| {
                    t!(
                        self.lang,
                        "dialog-bad-name",
                        name = format!("{:?}", spec.name),
                        why = why.text(self.lang)
                    )
                })?;
                spec.deadlines
                    .by_step
                    .insert(crate::model::maintenance::Step::Drain, drain);
                return Ok(ConsoleCommand::StartMaintenance {
                    spec,
                    inventory: inventory.clone(),
                });
            }
        };
        Ok(ConsoleCommand::Operator(op))
    }

    /// The field to fix when the form is refused: the first required one left empty,
    /// else the one whose text was refused (the typed name of an abort, a maintenance's
    /// name or deadline).
    fn field_to_fix(&self) -> Option<usize> {
        if let Some(i) = self
            .fields
            .iter()
            .position(|f| f.required && f.text().is_empty())
        {
            return Some(i);
        }
        match &self.purpose {
            Purpose::Abort(..) => Some(1),
            Purpose::StartMaintenance(..) => {
                let deadline = self.text(1);
                Some(usize::from(
                    crate::model::duration::parse_duration(&deadline).is_err(),
                ))
            }
            _ => None,
        }
    }

    /// Says why the form was refused and puts the cursor in the field to fix (a refused
    /// hand-off with no assignee goes back to the assignee, not the note).
    fn refuse(&mut self, problem: String) {
        if let Some(i) = self.field_to_fix() {
            self.focus = i;
        }
        self.problem = Some(problem);
    }

    /// From the form to the confirmation, when the form is complete.
    fn advance(&mut self) {
        match self.build() {
            Ok(command) => {
                self.problem = None;
                self.stage = Stage::Confirm(what_happens(self.lang, &command));
            }
            Err(problem) => self.refuse(problem),
        }
    }

    /// Inserts pasted text into the focused field while the form is edited; never
    /// confirms. A one-line field takes line breaks as spaces. Whether it was taken.
    pub fn on_paste(&mut self, text: &str) -> bool {
        if !matches!(self.stage, Stage::Edit) {
            return false;
        }
        let Some(field) = self.fields.get_mut(self.focus) else {
            return false;
        };
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        if field.multiline {
            field.area.insert_str(text);
        } else {
            field
                .area
                .insert_str(text.trim_end_matches('\n').replace('\n', " "));
        }
        true
    }

    /// Applies one key.
    pub fn on_key(&mut self, key: KeyEvent) -> DialogResult {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match &self.stage {
            Stage::Refused(_) => return DialogResult::Cancelled,
            Stage::Confirm(_) => {
                // A second `q` (or `ctrl-c`) confirms a quit.
                let quit_again = self.purpose == Purpose::Quit
                    && (key.code == KeyCode::Char('q') || (ctrl && key.code == KeyCode::Char('c')));
                return match key.code {
                    _ if quit_again => DialogResult::Send(ConsoleCommand::Quit),
                    KeyCode::Enter | KeyCode::Char('y') => match self.build() {
                        Ok(command) => DialogResult::Send(command),
                        Err(problem) => {
                            self.stage = Stage::Edit;
                            self.refuse(problem);
                            DialogResult::Open
                        }
                    },
                    KeyCode::Esc | KeyCode::Char('n') if self.fields.is_empty() => {
                        DialogResult::Cancelled
                    }
                    KeyCode::Esc | KeyCode::Char('n') => {
                        self.stage = Stage::Edit;
                        DialogResult::Open
                    }
                    KeyCode::Char('c') if ctrl => DialogResult::Cancelled,
                    _ => DialogResult::Open,
                };
            }
            Stage::Edit => {}
        }
        let inputs = self.fields.len() + usize::from(self.asks_outcome());
        match key.code {
            KeyCode::Esc => return DialogResult::Cancelled,
            KeyCode::Char('c') if ctrl => return DialogResult::Cancelled,
            KeyCode::Tab | KeyCode::Down if inputs > 0 => self.focus = (self.focus + 1) % inputs,
            KeyCode::BackTab | KeyCode::Up if inputs > 0 => {
                self.focus = (self.focus + inputs - 1) % inputs
            }
            KeyCode::Enter
                if key.modifiers.contains(KeyModifiers::ALT)
                    && self.fields.get(self.focus).is_some_and(|f| f.multiline) =>
            {
                if let Some(f) = self.fields.get_mut(self.focus) {
                    f.area.insert_newline();
                }
            }
            KeyCode::Enter => {
                // Enter walks the form, then asks for confirmation once it is complete.
                if self.focus + 1 < self.fields.len() {
                    self.focus += 1;
                } else if self.asks_outcome() && self.outcome.is_none() {
                    // Never a default: the person picks the outcome themselves.
                    self.focus = self.fields.len();
                    self.problem = Some(t!(self.lang, "dialog-choose-outcome"));
                } else {
                    self.advance();
                }
            }
            _ if self.focus == self.fields.len() && self.asks_outcome() => {
                self.outcome = Some(match (key.code, self.outcome) {
                    (KeyCode::Char('d'), _) => ReturnOutcome::Done,
                    (KeyCode::Char('r'), _) => ReturnOutcome::Retry,
                    (KeyCode::Char('a'), _) => ReturnOutcome::Abort,
                    (KeyCode::Right | KeyCode::Char(' '), Some(ReturnOutcome::Done)) => {
                        ReturnOutcome::Retry
                    }
                    (KeyCode::Right | KeyCode::Char(' '), Some(ReturnOutcome::Retry)) => {
                        ReturnOutcome::Abort
                    }
                    (KeyCode::Right | KeyCode::Char(' '), _) => ReturnOutcome::Done,
                    (KeyCode::Left, Some(ReturnOutcome::Abort)) => ReturnOutcome::Retry,
                    (KeyCode::Left, Some(ReturnOutcome::Retry)) => ReturnOutcome::Done,
                    (KeyCode::Left, _) => ReturnOutcome::Abort,
                    // Any other key leaves the choice as it was.
                    _ => return DialogResult::Open,
                });
                self.problem = None;
            }
            _ => {
                if let Some(f) = self.fields.get_mut(self.focus) {
                    f.area.input(key);
                }
            }
        }
        DialogResult::Open
    }
}

pub use super::dialog_text::what_happens;

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(d: &mut Dialog, text: &str) {
        for c in text.chars() {
            d.on_key(key(KeyCode::Char(c)));
        }
    }

    #[test]
    fn nothing_is_sent_before_the_second_enter() {
        let mut d = Dialog::new(
            "hand off",
            vec![],
            Purpose::HandOff(RunId("r".into()), ItemId("n1".into())),
        );
        typed(&mut d, "erin@ops");
        d.on_key(key(KeyCode::Enter));
        assert_eq!(d.focus, 1, "enter moves to the note");
        d.on_key(key(KeyCode::Enter));
        assert_eq!(d.problem.as_deref(), Some("note must not be empty"));
        typed(&mut d, "PDB checkout");
        assert_eq!(d.on_key(key(KeyCode::Enter)), DialogResult::Open);
        let Stage::Confirm(what) = &d.stage else {
            panic!("{:?}", d.stage)
        };
        assert!(what.contains("hand n1 of r to erin@ops"), "{what}");
        let DialogResult::Send(ConsoleCommand::Operator(OperatorCommand::HandOff {
            to, note, ..
        })) = d.on_key(key(KeyCode::Enter))
        else {
            panic!("not sent")
        };
        assert_eq!((to.0.as_str(), note.as_str()), ("erin@ops", "PDB checkout"));
    }

    #[test]
    fn a_refused_hand_off_puts_the_cursor_in_the_field_to_fix() {
        let mut d = Dialog::new(
            "hand off",
            vec![],
            Purpose::HandOff(RunId("r".into()), ItemId("n1".into())),
        );
        // No assignee: enter walks on to the note, the note is typed, enter is refused.
        d.on_key(key(KeyCode::Enter));
        typed(&mut d, "PDB checkout");
        d.on_key(key(KeyCode::Enter));
        assert_eq!(d.problem.as_deref(), Some("assignee must not be empty"));
        assert_eq!(d.focus, 0, "back in the assignee field");
        typed(&mut d, "erin@ops");
        assert_eq!(
            d.text(0),
            "erin@ops",
            "what is typed goes where it is missing"
        );
        assert_eq!(d.text(1), "PDB checkout", "the note is kept");
    }

    #[test]
    fn abort_needs_the_name_typed_exactly() {
        let mut d = Dialog::new(
            "abort",
            vec![],
            Purpose::Abort(RunId("r-1".into()), "r-1".into()),
        );
        typed(&mut d, "bad release");
        d.on_key(key(KeyCode::Enter));
        typed(&mut d, "r-2");
        d.on_key(key(KeyCode::Enter));
        assert_eq!(d.stage, Stage::Edit);
        assert!(d.problem.as_deref().unwrap_or("").contains("type r-1"));
        assert_eq!(d.focus, 1, "the name to type again");
    }

    #[test]
    fn return_outcome_is_chosen_with_letters() {
        let mut d = Dialog::new(
            "return",
            vec![],
            Purpose::Return(RunId("r".into()), ItemId("n".into())),
        );
        d.on_key(key(KeyCode::Tab));
        d.on_key(key(KeyCode::Char('r')));
        assert_eq!(d.outcome, Some(ReturnOutcome::Retry));
    }

    #[test]
    fn return_needs_a_note() {
        let mut d = Dialog::new(
            "return",
            vec![],
            Purpose::Return(RunId("r".into()), ItemId("n".into())),
        );
        d.on_key(key(KeyCode::Tab));
        d.on_key(key(KeyCode::Char('d')));
        assert_eq!(d.on_key(key(KeyCode::Enter)), DialogResult::Open);
        assert_eq!(d.stage, Stage::Edit);
        assert_eq!(d.problem.as_deref(), Some("note must not be empty"));
    }

    #[test]
    fn return_has_no_outcome_until_one_is_chosen() {
        let mut d = Dialog::new(
            "return",
            vec![],
            Purpose::Return(RunId("r".into()), ItemId("n".into())),
        );
        assert_eq!(d.outcome, None, "nothing is preselected");
        typed(&mut d, "PDB relaxed");
        assert_eq!(d.on_key(key(KeyCode::Enter)), DialogResult::Open);
        assert_eq!(
            d.stage,
            Stage::Edit,
            "enter without an outcome does not confirm"
        );
        assert_eq!(d.problem.as_deref(), Some(CHOOSE_OUTCOME));
        assert_eq!(d.focus, 1, "the outcome choice has the keys");
        assert_eq!(d.on_key(key(KeyCode::Enter)), DialogResult::Open);
        assert_eq!(d.stage, Stage::Edit, "still no outcome");
        assert!(d.build().is_err(), "no command without an outcome");
        d.on_key(key(KeyCode::Char('a')));
        assert_eq!(d.problem, None);
        d.on_key(key(KeyCode::Enter));
        let Stage::Confirm(what) = &d.stage else {
            panic!("{:?}", d.stage)
        };
        assert!(what.contains("Abort"), "{what}");
    }
}
