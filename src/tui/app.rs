//! The console's state and its reducer: `update(msg) -> Vec<Command>`. `App` holds what
//! is global (configuration, the fleet and its facts, the journal's activity, where the
//! operator is, overlays, the footer) and the state of each screen, which it routes to:
//! what a key does on a screen is decided by that screen's component (`component.rs`,
//! `router.rs`); drawing only reads.

use std::collections::BTreeMap;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use jiff::Timestamp;

use super::action::Action;
use super::feed::Activity;
use super::filter::Filter;
use super::fleet_data::{FactsInputs, FleetData, PreparedSnapshot};
use super::handover::HandoverState;
use super::keymap::{Context, KeyChord};
use super::nav::{CapacityScope, Direction, Nav, Route};
use super::palette::Candidates;
use super::screens::capacity::CapacityState;
use super::screens::cluster::ClusterState;
use super::screens::ledger::{LedgerRow, LedgerState, build_rows};
use super::screens::maintenance::MaintenanceState;
use super::screens::rollouts::RolloutsState;
use super::screens::timeline::TimelineState;
use crate::model::ledger::Ledger;
use crate::model::live::{FleetSnapshot, STALE_AFTER};

/// Smallest terminal the console draws in; below it, a "too small" note.
pub const MIN_SIZE: (u16, u16) = (40, 12);

pub use super::message::{Command, Msg, Overlay};

/// Borrows an [`App`]'s global state as a screen's [`Context`](super::component::Context),
/// field by field, so that the screen's own state can be borrowed mutably beside it.
macro_rules! screen_context {
    ($app:expr) => {
        $crate::tui::component::Context {
            config: &$app.config,
            ledger: &$app.ledger,
            snapshot: &$app.snapshot,
            data: &$app.data,
            rows: &$app.rows,
            activity: &$app.activity,
            in_flight: &$app.in_flight,
            urgent: &$app.urgent,
            findings: &$app.findings,
            selected_rollout: $app.selected_rollout.as_ref(),
            now: $app.now,
            size: $app.size,
            layer: $app.context(),
        }
    };
}
pub use super::settings::{AppConfig, SelectedRollout};
pub(super) use screen_context;

/// The console's whole state.
#[derive(Debug, Clone)]
pub struct App {
    /// Fixed configuration.
    pub config: AppConfig,
    /// The ledger.
    pub ledger: Arc<Ledger>,
    /// The latest snapshot.
    pub snapshot: FleetSnapshot,
    /// Facts derived from it.
    pub data: FleetData,
    /// One row per cluster.
    pub rows: Vec<LedgerRow>,
    /// Changes in flight and journal lines.
    pub activity: Activity,
    /// What each cluster's runs do there (the ledger's IN FLIGHT), from the journal.
    pub in_flight: BTreeMap<String, super::attention::InFlight>,
    /// What waits for a person fleet-wide (the header's counts), from the journal.
    pub urgent: super::attention::Urgent,
    /// Now.
    pub now: Timestamp,
    /// Terminal size.
    pub size: (u16, u16),
    /// Crumbs and history.
    pub nav: Nav,
    /// Ledger screen.
    pub ledger_state: LedgerState,
    /// Cluster drill-down.
    pub cluster_state: Option<ClusterState>,
    /// Node page.
    pub node_state: Option<crate::tui::screens::node::NodePageState>,
    /// Capacity screen.
    pub capacity_state: CapacityState,
    /// Rollouts screen.
    pub rollouts_state: RolloutsState,
    /// The selected rollout's file and plan, read when the selection or the journal
    /// changes rather than per frame.
    pub selected_rollout: Option<SelectedRollout>,
    /// Maintenance screen.
    pub maintenance_state: MaintenanceState,
    /// Timeline screen.
    pub timeline_state: TimelineState,
    /// Findings screen.
    pub findings_state: super::screens::findings::FindingsState,
    /// The fleet's findings, judged again when what they depend on moved.
    pub findings: super::findings_data::FindingsView,
    /// The handover walkthrough (kept while a dialog opened from it is up).
    pub handover: HandoverState,
    /// Whether closing the open dialog returns to the handover walkthrough.
    pub(super) handover_underneath: bool,
    /// The open overlay.
    pub overlay: Option<Overlay>,
    /// Text being typed into the `/` filter, when editing.
    pub filter_input: Option<String>,
    /// A one-line message for the footer.
    pub message: Option<String>,
    /// A message that stays through key presses until a time (a refusal, a failure):
    /// read at 3 a.m., it must not vanish with the next key. `esc` still clears it, and
    /// any other message replacing it ends the hold.
    pub held_message: Option<(String, Timestamp)>,
    /// Whether something changed since the last frame.
    pub dirty: bool,
    /// Palette search space (rebuilt when the palette opens).
    pub(crate) candidates: Candidates,
    /// See [`App::take_retired`].
    retired: Option<Box<(FleetSnapshot, FleetData)>>,
}

impl App {
    /// A console on `ledger` with nothing live yet.
    pub fn new(config: AppConfig, ledger: Arc<Ledger>, now: Timestamp) -> App {
        let message = config.warnings.first().map(|w| {
            let more = config.warnings.len() - 1;
            if more == 0 {
                format!("warning: {w}")
            } else {
                format!("warning: {w} (+{more} more in the log)")
            }
        });
        let mut app = App {
            config,
            ledger,
            snapshot: FleetSnapshot::empty(),
            data: FleetData::default(),
            rows: Vec::new(),
            activity: Activity::default(),
            in_flight: BTreeMap::new(),
            urgent: super::attention::Urgent::default(),
            now,
            size: (120, 40),
            nav: Nav::default(),
            ledger_state: LedgerState::default(),
            cluster_state: None,
            node_state: None,
            capacity_state: CapacityState::default(),
            rollouts_state: RolloutsState::default(),
            selected_rollout: None,
            maintenance_state: MaintenanceState::default(),
            timeline_state: TimelineState::default(),
            findings_state: Default::default(),
            findings: Default::default(),
            handover: HandoverState::default(),
            handover_underneath: false,
            overlay: None,
            filter_input: None,
            message,
            held_message: None,
            dirty: true,
            candidates: Candidates::default(),
            retired: None,
        };
        app.rebuild_rows();
        app
    }

    /// The keymap context of the current screen.
    pub fn context(&self) -> Context {
        match self.nav.current() {
            Route::Ledger => Context::Ledger,
            Route::Cluster(_) => Context::Cluster,
            Route::Node(..) => Context::Node,
            Route::Capacity(_) => Context::Capacity,
            Route::Rollouts => Context::Rollouts,
            Route::Maintenance => Context::Maintenance,
            Route::Timeline => Context::Timeline,
            Route::Findings => Context::Findings,
        }
    }

    /// `"KEY does"` for the key the active keymap binds to `action` on this screen, so
    /// that hints in the console's text follow a remapped key; `None` when it is unbound.
    pub fn key_hint(&self, action: Action, does: &str) -> Option<String> {
        self.key_on(self.context(), action)
            .map(|key| format!("{key} {does}"))
    }

    /// The key the active keymap binds to `action` on the screen of `context`, as shown.
    pub fn key_on(&self, context: Context, action: Action) -> Option<String> {
        self.config
            .keymap
            .key_for(context, action)
            .map(|key| key.to_string())
    }

    /// Rows a page move jumps.
    pub fn page(&self) -> usize {
        usize::from(self.size.1.saturating_sub(8)).max(1)
    }

    fn rebuild_rows(&mut self) {
        self.refresh_findings();
        self.rows = build_rows(&self.ledger, &self.snapshot, &self.data, &self.in_flight);
        let counts = &self.findings.counts;
        for row in &mut self.rows {
            row.findings = counts
                .get(&crate::model::ledger::ClusterId::from(row.id.clone()))
                .copied();
        }
    }

    /// Judges the findings again if anything they depend on moved; whether it did.
    fn refresh_findings(&mut self) -> bool {
        self.findings.refresh(
            &self.ledger,
            &self.snapshot,
            Some(&self.activity.journal.projection),
            &self.config.findings,
            self.now,
        )
    }

    /// The run or node card on screen is the one acted on: once shown it stays selected
    /// until the operator moves. Otherwise the default (what needs a person: the batch
    /// awaiting approval, the first stuck or handed-off card) would jump to another run or
    /// node the moment this one was approved or returned, under the next key.
    fn pin_selection(&mut self) {
        let projection = &self.activity.journal.projection;
        match self.nav.current() {
            Route::Rollouts if self.rollouts_state.selected.is_none() => {
                self.rollouts_state.selected =
                    super::screens::rollouts::selected(&self.rollouts_state, projection)
                        .map(|run| run.id.clone());
            }
            Route::Maintenance if self.maintenance_state.selected.is_none() => {
                self.maintenance_state.selected =
                    super::screens::maintenance::selected(&self.maintenance_state, projection);
            }
            _ => {}
        }
    }

    /// Applies one message; returns what the event loop must do.
    pub fn update(&mut self, msg: Msg) -> Vec<Command> {
        let journal_changed = matches!(msg, Msg::Activity(_));
        let commands = self.apply(msg);
        self.pin_selection();
        if self.nav.current() == &Route::Rollouts {
            self.refresh_rollout_plan(journal_changed);
        }
        commands
    }

    fn apply(&mut self, msg: Msg) -> Vec<Command> {
        match msg {
            Msg::Key(key) if key.kind != KeyEventKind::Release => {
                self.dirty = true;
                return self.on_key(key);
            }
            Msg::Key(_) => {}
            Msg::Resize(w, h) => {
                self.size = (w, h);
                self.dirty = true;
            }
            Msg::Paste(text) => {
                self.on_paste(&text);
                self.dirty = true;
            }
            Msg::Snapshot(snapshot) => {
                self.data.refresh(
                    &snapshot,
                    &self.ledger,
                    &self.config.capacity,
                    &self.activity.journal.holds,
                );
                self.take_snapshot(snapshot);
            }
            Msg::Prepared(prepared) => {
                let PreparedSnapshot { snapshot, data } = *prepared;
                let retired_data = std::mem::take(&mut self.data);
                self.data.adopt(
                    data,
                    &snapshot,
                    &self.config.capacity,
                    &self.activity.journal.holds,
                );
                let retired_snapshot = self.take_snapshot(snapshot);
                self.retired = Some(Box::new((retired_snapshot, retired_data)));
            }
            Msg::Activity(activity) => {
                self.activity = activity;
                let projection = &self.activity.journal.projection;
                self.in_flight = super::attention::in_flight(projection);
                self.urgent = super::attention::urgent(projection);
                // Maintenance holds change what capacity counts.
                self.data.refresh(
                    &self.snapshot,
                    &self.ledger,
                    &self.config.capacity,
                    &self.activity.journal.holds,
                );
                self.refresh_report();
                self.rebuild_rows();
                self.refresh_handover();
                self.dirty = true;
            }
            Msg::Notice(notice) => {
                if notice.ok {
                    self.message =
                        Some(crate::t!(self.config.lang, "msg-done", text = &notice.text));
                } else {
                    self.hold_message(crate::t!(
                        self.config.lang,
                        "msg-refused",
                        text = &notice.text
                    ));
                }
                self.dirty = true;
            }
            Msg::Tick(now) => {
                self.dirty |= now.as_second() != self.now.as_second();
                self.now = now;
                // If no newer snapshot says so (its publisher stalled or gone), data
                // that went stale must still stop reading as healthy.
                if let Some(aged) = self.snapshot.aged(now, STALE_AFTER) {
                    self.take_snapshot(aged);
                } else if self.refresh_findings() {
                    // Ages moved a finding (a certificate a day closer, a window open).
                    self.rebuild_rows();
                    self.dirty = true;
                }
            }
            Msg::Terminate => return vec![Command::Quit],
            Msg::MaintenanceFile { name, text } => {
                self.dirty = true;
                return super::operator::start_from_text(self, &name, text);
            }
        }
        Vec::new()
    }

    /// How long a refusal or failure stays in the footer through other keys.
    const HELD_MESSAGE: jiff::SignedDuration = jiff::SignedDuration::from_secs(15);

    /// Shows a message that stays through key presses for a while (`esc` clears it).
    pub fn hold_message(&mut self, text: String) {
        self.held_message = self
            .now
            .checked_add(Self::HELD_MESSAGE)
            .ok()
            .map(|until| (text.clone(), until));
        self.message = Some(text);
        self.dirty = true;
    }

    /// Whether a dialog is asking for confirmation (its "This will:" stage).
    pub fn in_confirmation(&self) -> bool {
        matches!(
            &self.overlay,
            Some(Overlay::Dialog(dialog)) if matches!(dialog.stage, super::dialog::Stage::Confirm(_))
        )
    }

    /// Shows a new fleet snapshot: facts, rows, the capacity report and the handover
    /// follow it.
    /// What a worker needs to prepare the next snapshot's facts (see [`Msg::Prepared`]).
    pub fn facts_inputs(&self) -> FactsInputs {
        FactsInputs {
            previous: self.data.clone(),
            ledger: Arc::clone(&self.ledger),
            config: self.config.capacity.clone(),
            holds: self.activity.journal.holds.clone(),
        }
    }

    /// What the console let go of with the last prepared snapshot, for the event loop to
    /// free off its task: the views of the clusters that changed, which take a
    /// millisecond or more to free in a large fleet.
    pub fn take_retired(&mut self) -> Option<Box<(FleetSnapshot, FleetData)>> {
        self.retired.take()
    }

    /// Takes `snapshot`, whose facts `self.data` already holds; returns the one before.
    fn take_snapshot(&mut self, snapshot: FleetSnapshot) -> FleetSnapshot {
        let previous = std::mem::replace(&mut self.snapshot, snapshot);
        self.rebuild_rows();
        // The palette searches the fleet as it is now, and holds no cluster view the
        // snapshot has let go of: a view kept past its snapshot would be freed later, on
        // a keystroke, instead of here (a large cluster's view takes milliseconds to free).
        self.candidates = match self.overlay {
            Some(Overlay::Palette(_)) => self.palette_candidates(),
            _ => Candidates::default(),
        };
        self.refresh_report();
        self.refresh_handover();
        self.dirty = true;
        previous
    }

    fn on_key(&mut self, key: KeyEvent) -> Vec<Command> {
        if self.filter_input.is_some() {
            self.on_filter_key(key);
            return Vec::new();
        }
        if let Some(Overlay::Palette(_)) = self.overlay {
            return self.on_palette_key(key);
        }
        if let Some(Overlay::Dialog(_)) = self.overlay {
            return self.on_dialog_key(key);
        }
        if let Some(Overlay::Handover) = self.overlay {
            return self.on_handover_key(key);
        }
        let chord = KeyChord::from_event(&key);
        let action = self.config.keymap.lookup(self.context(), chord);
        if let Some(Overlay::PdbPods(_)) = self.overlay {
            return self.on_pdb_pods_key(action);
        }
        if let Some(Overlay::Help { scroll }) = &mut self.overlay {
            match action {
                Some(Action::Down) => *scroll += 1,
                Some(Action::Up) => *scroll = scroll.saturating_sub(1),
                Some(Action::PageDown) => *scroll += 10,
                Some(Action::PageUp) => *scroll = scroll.saturating_sub(10),
                Some(Action::Quit) if chord.mods.contains(KeyModifiers::CONTROL) => {
                    self.overlay = None;
                    return super::quit::quit(self);
                }
                _ => self.overlay = None,
            }
            return Vec::new();
        }
        let held = self.held_message.as_ref().is_some_and(|(text, until)| {
            self.now < *until && self.message.as_deref() == Some(text.as_str())
        });
        if !held || key.code == KeyCode::Esc {
            self.message = None;
            self.held_message = None;
        }
        match action {
            Some(action) => self.on_action(action),
            // A key bound to nothing here says where it works, or that it is no key.
            None => {
                self.message = Some(super::silent_keys::unbound(self, chord));
                Vec::new()
            }
        }
    }

    /// Performs an action from the keymap (also used by tests and the bench).
    pub fn on_action(&mut self, action: Action) -> Vec<Command> {
        if action.mutates() && self.refused_write(action.description(), super::team::needed(action))
        {
            return Vec::new();
        }
        // A screen key pressed where it leads already says so.
        let screen_key = matches!(
            action,
            Action::ScreenLedger
                | Action::ScreenCapacity
                | Action::ScreenRollouts
                | Action::ScreenMaintenance
                | Action::ScreenTimeline
                | Action::ScreenFindings
        );
        let before = screen_key.then(|| self.nav.crumbs().to_vec());
        match action {
            Action::Quit => return super::quit::quit(self),
            Action::Back => self.back(),
            Action::HistoryBack => self.walk(Direction::Back),
            Action::HistoryForward => self.walk(Direction::Forward),
            Action::Help => self.overlay = Some(Overlay::Help { scroll: 0 }),
            Action::Palette => self.open_palette(),
            Action::Filter => match self.current_filter() {
                Some(filter) => self.filter_input = Some(filter.text.clone()),
                None => self.message = Some("this screen has no filter".into()),
            },
            Action::ScreenLedger => self.nav.reset(Route::Ledger),
            Action::ScreenCapacity => self.go_capacity(CapacityScope::Fleet, true),
            Action::ScreenRollouts => self.nav.reset(Route::Rollouts),
            Action::ScreenMaintenance => self.nav.reset(Route::Maintenance),
            Action::ScreenTimeline => self.nav.reset(Route::Timeline),
            Action::ScreenFindings => self.nav.reset(Route::Findings),
            Action::PauseAll => super::operator::pause_all(self),
            Action::Handover => self.open_handover(None),
            _ => return self.on_screen_action(action),
        }
        if before.as_deref() == Some(self.nav.crumbs()) {
            self.message = Some(format!("already on the {}", self.nav.current().crumb()));
        }
        Vec::new()
    }

    fn back(&mut self) {
        if self.overlay.take().is_some() {
            return;
        }
        // The timeline's detail closes wherever `esc` is pressed, as it always has.
        if super::component::Screen::close(&mut self.timeline_state) {
            return;
        }
        if self.current_filter().is_some_and(|f| !f.is_empty()) {
            self.set_current_filter(Filter::parse(""));
            return;
        }
        if !self.nav.pop() {
            self.message = Some(crate::t!(self.config.lang, "fleet-at-the-ledger"));
        }
        self.enter_route();
    }

    fn walk(&mut self, direction: Direction) {
        if self.nav.walk(direction) {
            self.enter_route();
        } else {
            self.message = Some(
                match direction {
                    Direction::Forward => "no later place in history",
                    Direction::Back => "no earlier place in history",
                }
                .into(),
            );
        }
    }

    /// Keeps per-screen state in step with the current route.
    pub(super) fn enter_route(&mut self) {
        match self.nav.current().clone() {
            Route::Cluster(id) => {
                if self.cluster_state.as_ref().is_none_or(|s| s.id != id) {
                    self.cluster_state = Some(ClusterState::new(&id));
                }
            }
            Route::Node(cluster, node) => {
                let same = self
                    .node_state
                    .as_ref()
                    .is_some_and(|s| s.cluster == cluster && s.node == node);
                if !same {
                    self.node_state = Some(crate::tui::screens::node::NodePageState::new(
                        &cluster, node,
                    ));
                }
            }
            Route::Capacity(scope) => {
                self.capacity_state.scope = scope;
                self.refresh_report();
            }
            Route::Ledger
            | Route::Rollouts
            | Route::Maintenance
            | Route::Timeline
            | Route::Findings => {}
        }
    }

    /// Opens a cluster's drill-down, optionally on one node.
    pub fn open_cluster(&mut self, id: &str, node: Option<Arc<str>>) {
        self.nav.push(Route::Cluster(id.to_owned()));
        self.enter_route();
        if let (Some(state), Some(node)) = (self.cluster_state.as_mut(), node) {
            state.filter = Filter::parse("");
            state.selected = Some(node);
        }
    }

    /// Opens the capacity screen at `scope`.
    pub fn go_capacity(&mut self, scope: CapacityScope, reset: bool) {
        if reset {
            self.nav.reset(Route::Capacity(scope));
        } else {
            self.nav.push(Route::Capacity(scope));
        }
        self.enter_route();
    }
}

/// What a read-only console says when a mutating key is pressed.
impl App {
    /// In read-only mode, says why `what` (an action's description) is refused and
    /// returns true: every key and command that would write to the journal asks this.
    pub(super) fn refused_readonly(&mut self, what: &str) -> bool {
        if self.config.readonly {
            self.message = Some(crate::t!(self.config.lang, "msg-readonly", what = what));
        }
        self.config.readonly
    }
}
