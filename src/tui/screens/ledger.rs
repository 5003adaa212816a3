//! The ledger screen's decisions: one row per cluster from the ledger and the live
//! snapshot, sorting by any column, grouping by region or environment, filtering; its
//! keys (moving, marking, sorting, grouping, opening a cluster or its capacity). Pure
//! functions over plain rows; drawing lives in `ledger_view.rs`.
//!
//! Over 600 lines: the rows, their order and the screen's keys belong together (the keys
//! move through exactly the lines this module orders); the tests are in `ledger_tests.rs`.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use jiff::Timestamp;
use jiff::civil::Date;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::Lang;
use crate::model::ledger::Ledger;
use crate::model::live::{ClusterSnapshot, ClusterStatus, FleetSnapshot};
use crate::t;
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, Screen, is_motion, motion, moved};
use crate::tui::filter::{Filter, Filterable};
use crate::tui::fleet_data::FleetData;
use crate::tui::nav::{CapacityScope, Direction};

/// A column of the ledger table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    /// Ledger id.
    Id,
    /// Environment.
    Env,
    /// Region / failure domain.
    Region,
    /// Tier.
    Tier,
    /// Kubernetes version.
    Version,
    /// Ready / total nodes.
    Nodes,
    /// Free / total GPUs.
    Gpus,
    /// Status and data age.
    Status,
    /// Worst finding and how many.
    Findings,
    /// Change in flight.
    Change,
    /// Owner.
    Owner,
    /// Age of the last successful backup.
    Backup,
    /// Last restore drill.
    Drill,
}

impl Column {
    /// Every column in display order.
    pub const ALL: [Column; 13] = [
        Column::Id,
        Column::Env,
        Column::Region,
        Column::Tier,
        Column::Version,
        Column::Nodes,
        Column::Gpus,
        Column::Status,
        Column::Findings,
        Column::Change,
        Column::Owner,
        Column::Backup,
        Column::Drill,
    ];

    /// Header text in `lang` (`CLUSTER`, `集群`).
    pub fn title_in(self, lang: Lang) -> String {
        let id = super::ledger_view::COLS[self as usize].title;
        crate::i18n::text(lang, id, &[])
    }

    /// What the order is, for the summary line (`NODES, most not ready first`).
    pub fn order(self, ascending: bool) -> String {
        self.order_in(Lang::En, ascending)
    }

    /// What the order is, in `lang`.
    pub fn order_in(self, lang: Lang, ascending: bool) -> String {
        let (up, down) = match self {
            Column::Status => (
                t!(lang, "fleet-order-worst-first"),
                t!(lang, "fleet-order-healthiest-first"),
            ),
            Column::Nodes => (
                t!(lang, "fleet-order-most-not-ready"),
                t!(lang, "fleet-order-fewest-not-ready"),
            ),
            Column::Change => (
                t!(lang, "fleet-order-changing-first"),
                t!(lang, "fleet-order-changing-last"),
            ),
            Column::Findings => (
                t!(lang, "fleet-order-worst-first"),
                t!(lang, "fleet-order-fewest-first"),
            ),
            Column::Backup | Column::Drill | Column::Version => (
                t!(lang, "fleet-order-oldest-first"),
                t!(lang, "fleet-order-newest-first"),
            ),
            Column::Gpus => (
                t!(lang, "fleet-order-fewest-free"),
                t!(lang, "fleet-order-most-free"),
            ),
            _ => (t!(lang, "fleet-order-a-z"), t!(lang, "fleet-order-z-a")),
        };
        let name = match self {
            Column::Status => t!(lang, "fleet-col-status-short"),
            _ => self.title_in(lang),
        };
        t!(
            lang,
            "fleet-order",
            column = name,
            order = if ascending { up } else { down }
        )
    }

    /// The column after (or before) this one among `shown` (the columns on screen),
    /// wrapping: a column that is not shown is never the sort key `s` picks.
    pub fn step(self, direction: Direction, shown: &[Column]) -> Column {
        let forward = direction == Direction::Forward;
        let shown: Vec<Column> = Column::ALL
            .into_iter()
            .filter(|c| shown.contains(c))
            .collect();
        let n = shown.len();
        if n == 0 {
            return self;
        }
        let i = match shown.iter().position(|c| *c == self) {
            Some(i) => i,
            // The key's column went out of sight (a narrower terminal): start from the
            // shown column before or after where it was.
            None => {
                let at = Column::ALL.iter().position(|c| *c == self).unwrap_or(0);
                let next = shown
                    .iter()
                    .position(|c| Column::ALL.iter().position(|x| x == c).unwrap_or(0) > at)
                    .unwrap_or(n);
                return if forward {
                    shown[next % n]
                } else {
                    shown[(next + n - 1) % n]
                };
            }
        };
        shown[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

/// How rows are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// A flat list.
    None,
    /// Under one header per region.
    Region,
    /// Under one header per environment.
    Env,
}

impl Grouping {
    /// Grouped by `by`, or flat again when already so.
    fn toggle(self, by: Grouping) -> Grouping {
        if self == by { Grouping::None } else { by }
    }
}

/// One cluster as the ledger screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerRow {
    /// Ledger id.
    pub id: String,
    /// Environment.
    pub env: String,
    /// Region.
    pub region: String,
    /// Failure domain.
    pub failure_domain: String,
    /// Tier.
    pub tier: String,
    /// Owner.
    pub owner: Option<String>,
    /// Lifecycle.
    pub lifecycle: String,
    /// Controlled labels.
    pub labels: Vec<(String, String)>,
    /// API server version, or the ledger's when the cluster has not answered.
    pub version: Option<String>,
    /// Whether the version is the live one.
    pub version_live: bool,
    /// Whether live and ledger versions disagree.
    pub version_drift: bool,
    /// Live status; `None` when the snapshot has no entry (no live data at all).
    pub status: Option<ClusterStatus>,
    /// Last sign of life.
    pub last_ok: Option<Timestamp>,
    /// (ready, total) nodes.
    pub nodes: (usize, usize),
    /// Zones none of whose nodes is Ready (fresh data only).
    pub zones_down: Vec<String>,
    /// (free, total) GPUs, when known.
    pub gpus: Option<(i64, i64)>,
    /// Change in flight, if any.
    pub change: Option<crate::tui::attention::InFlight>,
    /// Last successful backup.
    pub backup: Option<Timestamp>,
    /// Last restore drill.
    pub drill: Option<Date>,
    /// Its findings (none: nothing found).
    pub findings: Option<crate::model::findings::FindingCounts>,
}

impl LedgerRow {
    /// Whether the row's live figures may be trusted and counted.
    pub fn usable(&self) -> bool {
        self.status.is_some_and(ClusterStatus::data_usable)
    }
}

impl Filterable for LedgerRow {
    fn haystack(&self) -> String {
        format!(
            "{} {} {} {} {} {} {}",
            self.id,
            self.env,
            self.region,
            self.failure_domain,
            self.tier,
            self.owner.as_deref().unwrap_or(""),
            status_label(self.status)
        )
    }

    fn field(&self, key: &str) -> Option<String> {
        match key {
            "id" | "cluster" => Some(self.id.clone()),
            "env" => Some(self.env.clone()),
            "region" => Some(self.region.clone()),
            "fd" | "failuredomain" | "zone" => Some(self.failure_domain.clone()),
            "tier" => Some(self.tier.clone()),
            "owner" => self.owner.clone(),
            "lifecycle" => Some(self.lifecycle.clone()),
            "status" => Some(status_label(self.status).to_owned()),
            "version" | "k8s" => self.version.clone(),
            "drift" => Some(self.version_drift.to_string()),
            _ => self
                .labels
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v.clone()),
        }
    }
}

/// The fields a ledger filter term may name besides the clusters' labels.
const FIELDS: &[&str] = &[
    "id",
    "cluster",
    "env",
    "region",
    "fd",
    "failuredomain",
    "zone",
    "tier",
    "owner",
    "lifecycle",
    "status",
    "version",
    "k8s",
    "drift",
];

/// Filter keys that name neither a field nor any cluster's label, each with the closest
/// one: `stauts=Synced` would otherwise match nothing without a word.
pub fn unknown_filter_keys(filter: &Filter, rows: &[LedgerRow]) -> Vec<String> {
    let labels: Vec<&str> = rows
        .iter()
        .flat_map(|r| r.labels.iter().map(|(k, _)| k.as_str()))
        .collect();
    crate::model::ledger::unknown_keys(filter.keys(), FIELDS, &labels, |key| {
        labels.iter().any(|k| k.eq_ignore_ascii_case(key))
    })
}

/// The status label, `no data` when the snapshot does not know the cluster.
pub fn status_label(status: Option<ClusterStatus>) -> &'static str {
    status.map_or("no data", ClusterStatus::label) // i18n: not for people (a filter value; screens show status_label_in)
}

/// The status label shown to people in `lang`: the status itself is a term kept in
/// English (the value of filters and JSON); `no data` is said in `lang`.
pub fn status_label_in(lang: Lang, status: Option<ClusterStatus>) -> String {
    match status {
        Some(s) => s.label().to_owned(),
        None => t!(lang, "fleet-no-data"),
    }
}

/// How bad a status is, for sorting worst first: unknown is not healthy.
pub fn severity(status: Option<ClusterStatus>) -> u8 {
    match status {
        Some(ClusterStatus::IdentityMismatch) => 0,
        Some(ClusterStatus::Credentials) => 1,
        Some(ClusterStatus::Unreachable) => 2,
        Some(ClusterStatus::Unknown) | None => 3,
        Some(ClusterStatus::Connecting) => 4,
        Some(ClusterStatus::Degraded) => 5,
        Some(ClusterStatus::Synced) => 6,
    }
}

/// Builds one row per ledger cluster (and per snapshot cluster the ledger lacks).
pub fn build_rows(
    ledger: &Ledger,
    snapshot: &FleetSnapshot,
    data: &FleetData,
    in_flight: &std::collections::BTreeMap<String, crate::tui::attention::InFlight>,
) -> Vec<LedgerRow> {
    // Looked up by id once per snapshot: with hundreds of clusters a linear search per
    // row costs more than the rows themselves.
    let live_by_id: std::collections::HashMap<&str, &std::sync::Arc<ClusterSnapshot>> =
        snapshot.clusters.iter().map(|c| (&*c.id, c)).collect();
    let mut rows: Vec<LedgerRow> = ledger
        .clusters
        .iter()
        .map(|c| {
            let live = live_by_id.get(c.id.as_str()).copied();
            let facts = data.cluster(&c.id.0);
            let usable = live.is_some_and(|l| l.status.data_usable());
            let server = live.and_then(|l| l.server_version.clone());
            LedgerRow {
                id: c.id.to_string(),
                env: c.env.clone(),
                region: c.region.clone(),
                failure_domain: c.failure_domain.clone(),
                tier: c.tier.clone(),
                owner: c.owner.clone(),
                lifecycle: c.lifecycle.as_str().to_owned(),
                labels: c
                    .labels
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                version_live: server.is_some(),
                version: server.or_else(|| c.versions.get("kubernetes").cloned()),
                version_drift: data.version_drift(&c.id.0),
                status: live.map(|l| l.status),
                last_ok: live.and_then(|l| l.facts.last_ok),
                nodes: live.map_or((0, 0), |l| l.nodes_ready()),
                zones_down: facts
                    .filter(|_| usable)
                    .map(|f| f.zones_down.iter().map(|z| z.to_string()).collect())
                    .unwrap_or_default(),
                gpus: facts
                    .filter(|_| usable)
                    .map(|f| (f.gpus_free, f.gpus_total)),
                change: in_flight.get(c.id.as_str()).cloned(),
                backup: c.backup.as_ref().and_then(|b| b.last_success),
                drill: c.backup.as_ref().and_then(|b| b.last_restore_drill),
                findings: None,
            }
        })
        .collect();
    let registered: std::collections::HashSet<&str> =
        ledger.clusters.iter().map(|c| c.id.as_str()).collect();
    for live in snapshot.clusters.iter() {
        if !registered.contains(&*live.id) {
            rows.push(LedgerRow {
                id: live.id.to_string(),
                env: "?".into(),
                region: "?".into(),
                failure_domain: "?".into(),
                tier: "?".into(),
                owner: None,
                lifecycle: "unregistered".into(),
                labels: Vec::new(),
                version: live.server_version.clone(),
                version_live: live.server_version.is_some(),
                version_drift: false,
                status: Some(live.status),
                last_ok: live.facts.last_ok,
                nodes: live.nodes_ready(),
                zones_down: Vec::new(),
                gpus: None,
                change: in_flight.get(&*live.id).cloned(),
                backup: None,
                drill: None,
                findings: None,
            });
        }
    }
    rows
}

/// Compares two rows by a column (ties broken by id so the order is total).
pub fn compare(a: &LedgerRow, b: &LedgerRow, column: Column) -> Ordering {
    let primary = match column {
        Column::Id => Ordering::Equal,
        Column::Env => a.env.cmp(&b.env),
        Column::Region => (&a.region, &a.failure_domain).cmp(&(&b.region, &b.failure_domain)),
        Column::Tier => a.tier.cmp(&b.tier),
        Column::Version => {
            version_key(a.version.as_deref()).cmp(&version_key(b.version.as_deref()))
        }
        // Most nodes not ready first (a cluster without fresh data first of all: how
        // many are ready is unknown), whatever the cluster's size: 11/11 is not between
        // 6/6 and 5/8.
        Column::Nodes => not_ready(b).cmp(&not_ready(a)),
        Column::Gpus => a.gpus.map(|g| g.0).cmp(&b.gpus.map(|g| g.0)),
        // Among clusters with fresh data, fewer nodes ready is worse; `last_ok` moves with
        // every heartbeat, so ordering them by it would reshuffle the rows all the time.
        // Among the others, the longer silent is worse.
        Column::Status => severity(a.status).cmp(&severity(b.status)).then_with(|| {
            if a.usable() && b.usable() {
                ratio(a.nodes.0 as i64, a.nodes.1 as i64, true).cmp(&ratio(
                    b.nodes.0 as i64,
                    b.nodes.1 as i64,
                    true,
                ))
            } else {
                a.last_ok.cmp(&b.last_ok)
            }
        }),
        Column::Change => b.change.is_some().cmp(&a.change.is_some()),
        // Worst, then most findings, first (as STATUS: the eye starts at the top).
        Column::Findings => {
            let key = |r: &LedgerRow| r.findings.map(|f| (f.worst, f.total()));
            key(b).cmp(&key(a))
        }
        Column::Owner => a.owner.cmp(&b.owner),
        Column::Backup => a.backup.cmp(&b.backup),
        Column::Drill => a.drill.cmp(&b.drill),
    };
    primary.then_with(|| a.id.cmp(&b.id))
}

/// Nodes not ready, for sorting; a cluster without fresh data counts as worse than any.
fn not_ready(row: &LedgerRow) -> usize {
    if row.usable() {
        row.nodes.1 - row.nodes.0.min(row.nodes.1)
    } else {
        usize::MAX
    }
}

/// Ready fraction in parts per million; unusable data sorts first (it is the worst).
fn ratio(ready: i64, total: i64, usable: bool) -> i64 {
    if !usable || total == 0 {
        return -1;
    }
    ready * 1_000_000 / total
}

/// `v1.31.4` → (1, 31, 4) so that 1.9 sorts before 1.10.
fn version_key(v: Option<&str>) -> Vec<u64> {
    v.map(|v| {
        v.trim_start_matches('v')
            .split(['.', '-', '+'])
            .map(|p| p.parse().unwrap_or(0))
            .collect()
    })
    .unwrap_or_default()
}

/// A line of the ledger table: a group header or a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// Group header: the group value and how many rows it has.
    Group(String, usize),
    /// Index into the rows.
    Row(usize),
}

/// The ledger screen's state.
#[derive(Debug, Clone)]
pub struct LedgerState {
    /// Sort column.
    pub sort: Column,
    /// Ascending?
    pub ascending: bool,
    /// Grouping.
    pub grouping: Grouping,
    /// Filter in effect.
    pub filter: Filter,
    /// Selected cluster id.
    pub selected: Option<String>,
    /// Marked cluster ids.
    pub marks: BTreeSet<String>,
}

impl Default for LedgerState {
    fn default() -> Self {
        LedgerState {
            sort: Column::Status,
            ascending: true,
            grouping: Grouping::None,
            filter: Filter::parse(""),
            selected: None,
            marks: BTreeSet::new(),
        }
    }
}

impl LedgerState {
    /// Filtered, sorted, grouped lines.
    pub fn lines(&self, rows: &[LedgerRow]) -> Vec<Line> {
        let mut order: Vec<usize> = (0..rows.len())
            .filter(|i| self.filter.matches(&rows[*i]))
            .collect();
        order.sort_by(|a, b| {
            let ord = compare(&rows[*a], &rows[*b], self.sort);
            if self.ascending { ord } else { ord.reverse() }
        });
        // The cluster the filter names exactly comes first, the rest in their order.
        order.sort_by_key(|i| !self.filter.names(&rows[*i].id));
        let group_of = |r: &LedgerRow| match self.grouping {
            Grouping::None => None,
            Grouping::Region => Some(r.region.clone()),
            Grouping::Env => Some(r.env.clone()),
        };
        if self.grouping == Grouping::None {
            return order.into_iter().map(Line::Row).collect();
        }
        // Stable sort by group keeps the chosen order inside each group; the named
        // cluster's group comes first.
        let named = order
            .first()
            .filter(|i| self.filter.names(&rows[**i].id))
            .map(|i| group_of(&rows[*i]));
        order.sort_by_key(|i| {
            let group = group_of(&rows[*i]);
            (Some(&group) != named.as_ref(), group)
        });
        let mut lines = Vec::with_capacity(order.len() + 8);
        let mut i = 0;
        while i < order.len() {
            let group = group_of(&rows[order[i]]).unwrap_or_default();
            let n = order[i..]
                .iter()
                .take_while(|j| group_of(&rows[**j]).as_deref() == Some(group.as_str()))
                .count();
            lines.push(Line::Group(group, n));
            lines.extend(order[i..i + n].iter().map(|j| Line::Row(*j)));
            i += n;
        }
        lines
    }

    /// Row indices in display order (headers left out).
    pub fn visible(&self, rows: &[LedgerRow]) -> Vec<usize> {
        self.lines(rows)
            .into_iter()
            .filter_map(|l| match l {
                Line::Row(i) => Some(i),
                Line::Group(..) => None,
            })
            .collect()
    }

    /// Position of the selected row among `visible` (the first row if unset or gone).
    pub fn selected_pos(&self, rows: &[LedgerRow], visible: &[usize]) -> usize {
        self.selected
            .as_ref()
            .and_then(|id| visible.iter().position(|i| rows[*i].id == *id))
            .unwrap_or(0)
    }
}

/// The ledger: moving through the clusters, marking them, sorting and grouping, and
/// opening a cluster's drill-down or its capacity.
impl Screen for LedgerState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let rows = ctx.rows;
        let visible = self.visible(rows);
        let pos = self.selected_pos(rows, &visible);
        let id_at = |p: usize| visible.get(p).map(|i| rows[*i].id.clone());
        let selected = id_at(pos);
        if selected.is_none()
            && matches!(
                action,
                Action::Open | Action::Mark | Action::ClusterCapacity
            )
        {
            let none = t!(ctx.config.lang, "fleet-no-cluster-listed");
            return Some(vec![Effect::Say(none)]);
        }
        let mut effects = Vec::new();
        match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, visible.len(), a, ctx);
                self.selected = id_at(next);
                effects = said;
            }
            Action::Open => {
                if let Some(id) = selected {
                    self.selected = Some(id.clone());
                    effects.push(Effect::OpenCluster(id, None));
                }
            }
            Action::Mark => {
                if let Some(id) = selected {
                    if !self.marks.remove(&id) {
                        self.marks.insert(id);
                    }
                    self.selected = id_at(moved(pos, visible.len(), Action::Down, 1));
                }
            }
            Action::ClearMarks if self.marks.is_empty() => {
                effects.push(Effect::Say(t!(ctx.config.lang, "fleet-no-cluster-marked")));
            }
            Action::ClearMarks => self.marks.clear(),
            Action::SortNext | Action::SortPrev => {
                // The table is the body's inside: the terminal less the body's two borders.
                let table_width = ctx.size.0.saturating_sub(2);
                let shown = super::ledger_view::visible_columns(ctx.config.lang, rows, table_width);
                let direction = if action == Action::SortNext {
                    Direction::Forward
                } else {
                    Direction::Back
                };
                self.sort = self.sort.step(direction, &shown);
                self.ascending = true;
            }
            Action::SortReverse => self.ascending = !self.ascending,
            Action::GroupRegion => self.grouping = self.grouping.toggle(Grouping::Region),
            Action::GroupEnv => self.grouping = self.grouping.toggle(Grouping::Env),
            Action::ClusterCapacity => {
                if let Some(id) = selected {
                    effects.push(Effect::Capacity(CapacityScope::Cluster(id)));
                }
            }
            Action::Login => match selected {
                Some(id) => effects.push(crate::tui::login::login_effect(ctx, &id)),
                None => effects.push(Effect::Say(t!(ctx.config.lang, "fleet-no-cluster-listed"))),
            },
            _ => return None,
        }
        Some(effects)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::ledger_view::draw(self, ctx, area, buf);
    }

    fn filter(&self) -> Option<&Filter> {
        Some(&self.filter)
    }

    fn filter_mut(&mut self) -> Option<&mut Filter> {
        Some(&mut self.filter)
    }
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
mod tests;
