//! The console's state and its reducer: `update(msg) -> Vec<Command>`. Everything the
//! screens decide happens here or in the pure screen modules; drawing only reads.

use std::collections::BTreeMap;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::action::Action;
use super::config_file::ConfigWarning;
use super::dialog::Dialog;
use super::feed::{Activity, ConsoleCommand, Notice};
use super::filter::Filter;
use super::fleet_data::{FactsInputs, FleetData, PreparedSnapshot};
use super::handover::HandoverState;
use super::keymap::{Context, KeyChord, Keymap};
use super::nav::{CapacityScope, Nav, Route};
use super::palette::{self, Candidates, PaletteCommand, PaletteState, Target};
use super::screens::capacity::{
    CapacityState, node_names, report_for, run_cluster_loss, run_what_if,
};
use super::screens::cluster::{ClusterState, Focus};
use super::screens::ledger::{LedgerRow, LedgerState, build_rows};
use super::screens::maintenance::MaintenanceState;
use super::screens::rollouts::RolloutsState;
use super::screens::timeline::TimelineState;
use super::theme::Theme;
use crate::model::capacity::{CapacityConfig, Scenario};
use crate::model::ledger::Ledger;
use crate::model::live::{FleetSnapshot, STALE_AFTER};

/// Smallest terminal the console draws in; below it, a "too small" note.
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// The terminal changed size.
    Resize(u16, u16),
    /// Text pasted (bracketed paste): goes into the field being edited, if any.
    Paste(String),
    /// A new fleet snapshot.
    Snapshot(FleetSnapshot),
    /// A new fleet snapshot whose facts were worked out beside the event loop.
    Prepared(Box<PreparedSnapshot>),
    /// Journal-derived activity changed.
    Activity(Activity),
    /// Time passed (clocks, data ages).
    Tick(Timestamp),
    /// The answer to a command the console sent.
    Notice(Notice),
    /// SIGTERM, SIGINT or SIGHUP.
    Terminate,
}

/// What the event loop should do after an update.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Restore the terminal and return.
    Quit,
    /// Forward to whoever listens for console commands.
    Send(ConsoleCommand),
}

/// An overlay above the screen.
#[derive(Debug, Clone)]
pub enum Overlay {
    /// `?`: keys of the active keymap.
    Help {
        /// First line shown.
        scroll: usize,
    },
    /// `:`.
    Palette(PaletteState),
    /// An operator action's dialog.
    Dialog(Box<Dialog>),
    /// `H`: the shift handover walkthrough.
    Handover,
    /// `enter` on a PDB of the drill-down: its pods and their nodes.
    PdbPods(super::screens::pdb_pods::PdbPodsState),
}

/// Everything fixed for the console's lifetime.
#[derive(Debug, Clone)]
pub struct AppConfig {
    /// Who is at the keyboard.
    pub actor: String,
    /// Read-only mode.
    pub readonly: bool,
    /// Theme.
    pub theme: Theme,
    /// Keymap.
    pub keymap: Keymap,
    /// Capacity knobs.
    pub capacity: CapacityConfig,
    /// The zone local time is shown in.
    pub local_tz: TimeZone,
    /// Problems found in theme and keymap files.
    pub warnings: Vec<ConfigWarning>,
    /// A note shown until the first snapshot with clusters (e.g. no live sync).
    pub notice: Option<String>,
    /// The actor of the executor running inside this console (the demo), if any.
    pub executor: Option<String>,
    /// Kubeconfig contexts no ledger cluster names (`ledger reconcile`'s unregistered
    /// contexts): shown on the ledger screen, since the console does not sync them.
    pub unregistered_contexts: Vec<String>,
    /// What gates rollouts here, when known (the demo's), for the Rollouts screen.
    pub rollout_gates: Option<String>,
    /// The findings' thresholds and the windows' zones.
    pub findings: super::findings_data::FindingsConfig,
}

/// What the Rollouts screen shows of the selected run beyond the journal: its rollout
/// file (decoded once from the journaled spec) and the plan today's ledger gives it,
/// when that plan's batches are the run's (stage names, coverage).
#[derive(Debug, Clone)]
pub struct SelectedRollout {
    /// The run.
    pub run: crate::model::run::RunId,
    /// Its rollout file.
    pub spec: Option<Arc<crate::model::rollout::RolloutSpec>>,
    /// Its plan from today's ledger.
    pub plan: Option<Arc<crate::model::rollout::RolloutPlan>>,
    /// The plan's combinations this run has reached so far, as `stage (combination)`.
    pub reached: Vec<String>,
}

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
                .get(&crate::model::ledger::ClusterId(row.id.clone()))
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
                    self.message = Some(format!("✓ {}", notice.text));
                } else {
                    self.hold_message(format!("✗ refused: {}", notice.text));
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
            Action::HistoryBack => self.walk(false),
            Action::HistoryForward => self.walk(true),
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
            Action::PauseAll => super::operator_keys::pause_all(self),
            Action::Handover => self.open_handover(None),
            _ => return super::screen_keys::on_screen_action(self, action),
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
        if self.timeline_state.detail.take().is_some() {
            return;
        }
        if self.current_filter().is_some_and(|f| !f.is_empty()) {
            self.set_current_filter(Filter::parse(""));
            return;
        }
        if !self.nav.pop() {
            self.message = Some("at the ledger: q quits".into());
        }
        self.enter_route();
    }

    fn walk(&mut self, forward: bool) {
        if self.nav.walk(forward) {
            self.enter_route();
        } else {
            self.message = Some(
                if forward {
                    "no later place in history"
                } else {
                    "no earlier place in history"
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
            Route::Capacity(_) => self.refresh_report(),
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

    /// Runs the shown what-if again when its cluster's data changed, so its answer is
    /// never older than the baseline beside it; drops it when the data is no longer
    /// usable.
    fn refresh_what_if(&mut self) {
        self.refresh_cluster_loss();
        let Some(shown) = &self.capacity_state.what_if else {
            return;
        };
        let live = self
            .snapshot
            .cluster(&shown.cluster)
            .filter(|c| c.status.data_usable());
        let Some(live) = live else {
            self.message = Some(format!(
                "what-if on {} cleared: its data cannot be trusted now",
                shown.cluster
            ));
            self.capacity_state.what_if = None;
            return;
        };
        let held = self.activity.journal.holds.of(&live.view.id);
        if Arc::ptr_eq(&shown.view, &live.view) && shown.held == *held {
            return;
        }
        let scenario = shown.scenario.clone();
        self.capacity_state.what_if = Some(run_what_if(
            &live.view,
            &self.config.capacity,
            held,
            scenario,
        ));
    }

    /// Recomputes the cluster report when the capacity screen shows a cluster whose view
    /// changed (or none was computed).
    fn refresh_report(&mut self) {
        self.refresh_what_if();
        let id = match self.nav.current() {
            Route::Capacity(CapacityScope::Cluster(id) | CapacityScope::Domain(id, _)) => {
                id.clone()
            }
            _ => return,
        };
        let Some(live) = self
            .snapshot
            .cluster(&id)
            .filter(|c| c.status.data_usable())
        else {
            self.capacity_state.report = None;
            return;
        };
        let held = self.activity.journal.holds.of(&live.view.id);
        let fresh = self
            .capacity_state
            .report
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(&r.view, &live.view) && r.held == *held);
        if !fresh {
            self.capacity_state.report = Some(report_for(&live.view, &self.config.capacity, held));
        }
    }

    /// Asks the shown cluster loss again on a newer snapshot or new maintenance holds.
    /// Unlike a what-if inside a cluster, it stays when the lost cluster's data goes:
    /// then its pods are unknown, and the siblings' room is still the answer.
    fn refresh_cluster_loss(&mut self) {
        let Some(shown) = &self.capacity_state.cluster_loss else {
            return;
        };
        let holds = &self.activity.journal.holds;
        if shown.is_current(&self.ledger, &self.snapshot, holds) {
            return;
        }
        let lost = shown.cluster.clone();
        self.capacity_state.cluster_loss = Some(run_cluster_loss(
            &lost,
            &self.ledger,
            &self.snapshot,
            holds,
            &self.config.capacity,
        ));
    }

    /// Asks whether `cluster`'s siblings could take its pods were it lost whole, and
    /// shows the answer on its capacity screen (in place of any other what-if).
    pub fn what_if_cluster(&mut self, cluster: &str) {
        self.capacity_state.what_if = None;
        self.capacity_state.cluster_loss = Some(run_cluster_loss(
            cluster,
            &self.ledger,
            &self.snapshot,
            &self.activity.journal.holds,
            &self.config.capacity,
        ));
        if !matches!(self.nav.current(), Route::Capacity(CapacityScope::Cluster(id)) if id == cluster)
        {
            self.go_capacity(CapacityScope::Cluster(cluster.to_owned()), false);
        }
    }

    /// Says why no what-if runs on `cluster` when its data cannot be trusted; true then.
    fn refuses_untrusted_what_if(&mut self, cluster: &str) -> bool {
        let Some(status) = self
            .snapshot
            .cluster(cluster)
            .map(|live| live.status)
            .filter(|status| !status.data_usable())
        else {
            return false;
        };
        self.message = Some(format!(
            "no what-if on {cluster}: its data is {} and cannot be trusted",
            status.label()
        ));
        true
    }

    /// Runs a what-if on a cluster and shows it on its capacity screen.
    pub fn what_if(&mut self, cluster: &str, scenario: Scenario) {
        if self.refuses_untrusted_what_if(cluster) {
            return;
        }
        let Some(live) = self.snapshot.cluster(cluster) else {
            return;
        };
        let held = self.activity.journal.holds.of(&live.view.id);
        self.capacity_state.cluster_loss = None;
        self.capacity_state.what_if = Some(run_what_if(
            &live.view,
            &self.config.capacity,
            held,
            scenario,
        ));
        if !matches!(self.nav.current(), Route::Capacity(CapacityScope::Cluster(id)) if id == cluster)
        {
            self.go_capacity(CapacityScope::Cluster(cluster.to_owned()), false);
        }
    }

    /// The cluster on screen and the nodes chosen on it: the drill-down's marked (or
    /// selected) nodes, or the node page's node. `None` on other screens.
    pub(super) fn chosen_nodes(&self) -> Option<(String, Vec<Arc<str>>)> {
        match self.nav.current() {
            Route::Node(..) => {
                let state = self.node_state.as_ref()?;
                Some((state.cluster.clone(), vec![Arc::clone(&state.node)]))
            }
            Route::Cluster(_) => {
                let state = self.cluster_state.as_ref()?;
                let names = self
                    .data
                    .cluster(&state.id)
                    .map(|facts| state.what_if_nodes(facts))
                    .unwrap_or_default();
                Some((state.id.clone(), names))
            }
            _ => None,
        }
    }

    /// What-if on the chosen nodes ([`App::chosen_nodes`]).
    pub(super) fn what_if_nodes(&mut self, batch: bool) {
        let Some((id, chosen)) = self.chosen_nodes() else {
            return;
        };
        let names = node_names(&chosen);
        if names.is_empty() {
            // A key that does nothing reads as a broken key: say why.
            if !self.refuses_untrusted_what_if(&id) {
                self.message = Some(format!("no what-if on {id}: no node is known there"));
            }
            return;
        }
        let scenario = if batch {
            Scenario::MaintenanceBatch(names)
        } else {
            Scenario::LoseNodes(names)
        };
        self.what_if(&id, scenario);
    }

    /// The filter of the current screen; none on screens that do not filter (Rollouts,
    /// Maintenance), which must not edit another screen's filter out of sight.
    pub fn current_filter(&self) -> Option<&Filter> {
        match self.nav.current() {
            Route::Cluster(_) => Some(
                self.cluster_state
                    .as_ref()
                    .map_or(&self.ledger_state.filter, |s| &s.filter),
            ),
            Route::Capacity(_) => Some(&self.capacity_state.filter),
            Route::Timeline => Some(&self.timeline_state.filter),
            Route::Findings => Some(&self.findings_state.filter),
            Route::Ledger => Some(&self.ledger_state.filter),
            Route::Rollouts | Route::Maintenance | Route::Node(..) => None,
        }
    }

    fn current_filter_mut(&mut self) -> Option<&mut Filter> {
        match self.nav.current() {
            Route::Cluster(_) => Some(match self.cluster_state.as_mut() {
                Some(state) => &mut state.filter,
                None => &mut self.ledger_state.filter,
            }),
            Route::Capacity(_) => Some(&mut self.capacity_state.filter),
            Route::Timeline => Some(&mut self.timeline_state.filter),
            Route::Findings => Some(&mut self.findings_state.filter),
            Route::Ledger => Some(&mut self.ledger_state.filter),
            Route::Rollouts | Route::Maintenance | Route::Node(..) => None,
        }
    }

    fn set_current_filter(&mut self, filter: Filter) {
        // What the filter names exactly (a cluster id, a node name) is listed first and
        // selected, so `enter` opens what was typed.
        match self.nav.current() {
            Route::Ledger => {
                if let Some(row) = self.rows.iter().find(|r| filter.names(&r.id)) {
                    self.ledger_state.selected = Some(row.id.clone());
                }
            }
            Route::Cluster(id) => {
                let node = self
                    .snapshot
                    .cluster(id)
                    .into_iter()
                    .flat_map(|c| c.view.nodes.iter())
                    .find(|n| filter.names(&n.name.0))
                    .map(|n| Arc::clone(&n.name.0));
                if let (Some(node), Some(state)) = (node, self.cluster_state.as_mut()) {
                    state.selected = Some(node);
                }
            }
            _ => {}
        }
        if let Some(current) = self.current_filter_mut() {
            *current = filter;
        }
    }

    /// Pasted text: into the filter being typed or the dialog field being edited; it
    /// never confirms anything. Elsewhere it is dropped, and the operator told so.
    fn on_paste(&mut self, text: &str) {
        if let Some(input) = self.filter_input.as_mut() {
            input.push_str(&text.replace(['\r', '\n'], " "));
            let filter = Filter::parse(input);
            self.set_current_filter(filter);
            return;
        }
        if let Some(Overlay::Dialog(dialog)) = self.overlay.as_mut()
            && dialog.on_paste(text)
        {
            return;
        }
        self.message = Some("paste ignored: no text field is being edited".into());
    }

    fn on_filter_key(&mut self, key: KeyEvent) {
        let Some(text) = self.filter_input.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Esc => {
                self.filter_input = None;
                self.set_current_filter(Filter::parse(""));
                return;
            }
            KeyCode::Enter => {
                self.filter_input = None;
                return;
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => text.clear(),
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => text.push(c),
            _ => return,
        }
        let filter = Filter::parse(text);
        self.set_current_filter(filter);
    }

    /// What the palette searches: the ledger's clusters and the current snapshot's nodes.
    fn palette_candidates(&self) -> Candidates {
        let mut clusters: Vec<(String, String)> = self
            .rows
            .iter()
            .map(|r| (r.id.clone(), format!("{} {}", r.env, r.region)))
            .collect();
        clusters.sort();
        let nodes = self
            .snapshot
            .clusters
            .iter()
            .map(|c| (Arc::clone(&c.id), Arc::clone(&c.view)))
            .collect();
        Candidates {
            clusters,
            nodes,
            readonly: self.config.readonly,
        }
    }

    fn open_palette(&mut self) {
        self.candidates = self.palette_candidates();
        let matches = palette::search("", &self.candidates);
        self.overlay = Some(Overlay::Palette(PaletteState {
            input: String::new(),
            selected: 0,
            matches,
        }));
    }

    fn close_palette(&mut self) {
        self.overlay = None;
        self.candidates = Candidates::default();
    }

    fn on_palette_key(&mut self, key: KeyEvent) -> Vec<Command> {
        let Some(Overlay::Palette(state)) = self.overlay.as_mut() else {
            return Vec::new();
        };
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => self.close_palette(),
            KeyCode::Char('c') if ctrl => self.close_palette(),
            KeyCode::Up | KeyCode::BackTab => state.selected = state.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Tab => {
                state.selected = (state.selected + 1).min(state.matches.len().saturating_sub(1));
            }
            KeyCode::Enter => {
                let target = palette::exact(&state.input, &self.candidates)
                    .or_else(|| state.matches.get(state.selected).map(|e| e.target.clone()));
                let hint = palette::unmatched_hint(&state.input, &self.candidates);
                self.close_palette();
                return match target {
                    Some(target) => self.open_target(target),
                    None => {
                        self.message = Some(hint.unwrap_or_else(|| "nothing matches".into()));
                        Vec::new()
                    }
                };
            }
            KeyCode::Backspace => {
                state.input.pop();
                state.matches = palette::search(&state.input, &self.candidates);
                state.selected = 0;
            }
            KeyCode::Char(c) if !ctrl => {
                state.input.push(c);
                state.matches = palette::search(&state.input, &self.candidates);
                state.selected = 0;
            }
            _ => {}
        }
        Vec::new()
    }

    fn open_target(&mut self, target: Target) -> Vec<Command> {
        match target {
            Target::Command(PaletteCommand::Quit) => return super::quit::quit(self),
            Target::Command(PaletteCommand::Help) => {
                self.overlay = Some(Overlay::Help { scroll: 0 })
            }
            Target::Command(PaletteCommand::Ledger) => self.nav.reset(Route::Ledger),
            Target::Command(PaletteCommand::Capacity) => {
                self.go_capacity(CapacityScope::Fleet, true)
            }
            Target::Command(PaletteCommand::Rollouts) => self.nav.reset(Route::Rollouts),
            Target::Command(PaletteCommand::Maintenance) => self.nav.reset(Route::Maintenance),
            Target::Command(PaletteCommand::Timeline) => self.nav.reset(Route::Timeline),
            Target::Command(PaletteCommand::Findings) => self.nav.reset(Route::Findings),
            Target::Command(PaletteCommand::Handover) => self.open_handover(None),
            Target::HandoverSince(shift) => self.open_handover(Some(shift)),
            Target::Command(PaletteCommand::PauseAll) => return self.on_action(Action::PauseAll),
            Target::Command(PaletteCommand::StartFile) => {
                self.message =
                    Some("type :start FILE to start the maintenance a file describes".into())
            }
            Target::StartFile(path) => {
                if !self.refused_write(
                    Action::StartMaintenance.description(),
                    crate::model::team::TeamRole::Operator,
                ) {
                    return super::operator_keys::start_from_file(self, &path);
                }
            }
            Target::Cluster(id) => {
                self.ledger_state.selected = Some(id.clone());
                self.open_cluster(&id, None);
            }
            // The node's page, over its cluster's (`esc` shows the node in its list).
            Target::Node(cluster, node) => {
                self.open_cluster(&cluster, Some(Arc::clone(&node)));
                self.nav.push(Route::Node(cluster, node));
                self.enter_route();
            }
        }
        Vec::new()
    }

    /// Whether the drill-down's focus is on the PDB panel.
    pub fn pdb_focus(&self) -> bool {
        self.cluster_state
            .as_ref()
            .is_some_and(|s| s.focus == Focus::Pdbs)
    }
}

/// What a read-only console says when a mutating key is pressed.
impl App {
    /// In read-only mode, says why `what` (an action's description) is refused and
    /// returns true: every key and command that would write to the journal asks this.
    pub(super) fn refused_readonly(&mut self, what: &str) -> bool {
        if self.config.readonly {
            self.message = Some(format!(
                "read-only mode (--readonly): \"{what}\" would write to the journal and is refused; restart without --readonly to act"
            ));
        }
        self.config.readonly
    }
}
