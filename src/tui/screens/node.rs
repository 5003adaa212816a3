//! The node page's decisions: which pods it shows and, for each, whether it would move if
//! the node were drained or lost, and what would stop it; its keys (moving through the
//! pods, and the drill-down's node keys on its node). At 3 a.m. the question about a node
//! is "what runs here, and what happens to it".

use std::sync::Arc;

use std::cell::RefCell;
use std::collections::HashSet;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::Lang;
use crate::model::capacity::{
    CapacityConfig, ClusterIndex, Scenario, UnplacedReason, format_amount, planned_moves, what_if,
};
use crate::model::fleet::{ClusterView, Dimension, NodeName, PodPhase, PodView, RequiredDomain};
use crate::t;
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, NodeLoss, Screen, is_motion, motion};
use crate::tui::nav::CapacityScope;

/// The page's state: which node, the selected pod row, and where its pods would go.
#[derive(Debug, Clone)]
pub struct NodePageState {
    /// The cluster.
    pub cluster: String,
    /// The node.
    pub node: Arc<str>,
    /// Selected pod row.
    pub selected: usize,
    /// The re-placement of the node's pods, for the view it was worked out from: the
    /// page is drawn on every frame, the view changes with a snapshot.
    departure: RefCell<Option<(Arc<ClusterView>, Arc<Departure>)>>,
}

impl NodePageState {
    /// The page on `node` of `cluster`, first row selected.
    pub fn new(cluster: &str, node: Arc<str>) -> NodePageState {
        NodePageState {
            cluster: cluster.to_owned(),
            node,
            selected: 0,
            departure: RefCell::new(None),
        }
    }

    /// Where the node's pods would go in `view`, worked out once per view.
    pub fn departure(
        &self,
        view: &Arc<ClusterView>,
        config: &CapacityConfig,
        reserved: &[NodeName],
    ) -> Arc<Departure> {
        let mut cached = self.departure.borrow_mut();
        match &*cached {
            Some((seen, departure)) if Arc::ptr_eq(seen, view) => Arc::clone(departure),
            _ => {
                let departure = Arc::new(Departure::of(view, config, reserved, &self.node));
                *cached = Some((Arc::clone(view), Arc::clone(&departure)));
                departure
            }
        }
    }
}

/// The node page: moving through its pods; its what-ifs, maintenance and capacity keys
/// act on its node and cluster.
impl Screen for NodePageState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let effects = match action {
            Action::WhatIfLose => vec![Effect::WhatIfNodes(NodeLoss::Lost)],
            Action::WhatIfBatch => vec![Effect::WhatIfNodes(NodeLoss::MaintenanceBatch)],
            Action::StartMaintenance => vec![Effect::Operator(action)],
            Action::ClusterCapacity => {
                let scope = CapacityScope::Cluster(self.cluster.clone());
                vec![Effect::Capacity(scope)]
            }
            a if is_motion(a) => {
                let rows = ctx
                    .data
                    .cluster(&self.cluster)
                    .map_or(0, |f| pods_on(&f.view, &self.node).count());
                let pos = self.selected.min(rows.saturating_sub(1));
                let (next, said) = motion(pos, rows, a, ctx);
                self.selected = next;
                said
            }
            _ => return None,
        };
        Some(effects)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::node_view::draw(self, ctx, area, buf);
    }
}

/// What happens to a pod when its node is drained or lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Evicted and re-created elsewhere by its controller.
    Moves,
    /// A PDB that allows no disruption now refuses its eviction: a drain waits on it.
    BlockedBy(String),
    /// Its volume holds it in a topology domain: it moves, but only within it.
    HeldIn(String),
    /// No other node would take it (the re-placement of the node's pods found none), and
    /// why (`None`: the what-if named no reason for its owner): it would wait Pending.
    NoRoom(Option<UnplacedReason>),
    /// A DaemonSet or static pod: it belongs to the node and does not move.
    Stays,
    /// Already being deleted.
    Terminating,
    /// No controller re-creates it: a drain deletes it for good.
    Bare,
}

impl Fate {
    /// In words, in `lang`.
    pub fn label_in(&self, lang: Lang) -> String {
        match self {
            Fate::Moves => t!(lang, "fleet-fate-moves"),
            Fate::BlockedBy(pdb) => t!(lang, "fleet-fate-blocked", pdb = pdb),
            Fate::HeldIn(domain) => t!(lang, "fleet-fate-held", domain = domain),
            Fate::NoRoom(why) => {
                let why = match why {
                    Some(reason) => unplaced_in(lang, reason),
                    None => t!(lang, "fleet-fate-no-node"),
                };
                t!(lang, "fleet-fate-no-room", why = why)
            }
            Fate::Stays => t!(lang, "fleet-fate-stays"),
            Fate::Terminating => t!(lang, "fleet-fate-terminating"),
            Fate::Bare => t!(lang, "fleet-fate-bare"),
        }
    }

    /// Whether it needs the operator's eye before a drain.
    pub fn is_trouble(&self) -> bool {
        matches!(
            self,
            Fate::BlockedBy(_) | Fate::Bare | Fate::HeldIn(_) | Fate::NoRoom(_)
        )
    }
}

/// Why the what-if's re-placement found no node for a pod, in `lang`: in English, the
/// reason's own words (its `Display`).
fn unplaced_in(lang: Lang, reason: &UnplacedReason) -> String {
    use UnplacedReason as R;
    match reason {
        R::ClusterLost => t!(lang, "fleet-unplaced-cluster-lost"),
        R::NoEligibleNode => t!(lang, "fleet-unplaced-no-eligible"),
        R::VolumeDomainLost(domain) => {
            t!(
                lang,
                "fleet-unplaced-volume-domain",
                domain = domain.to_string()
            )
        }
        R::VolumeWithLostCluster(domain) => t!(
            lang,
            "fleet-unplaced-volume-lost-cluster",
            domain = domain.to_string()
        ),
        R::NotRunElsewhere => t!(lang, "fleet-unplaced-not-run-elsewhere"),
        R::Insufficient(dimension) => t!(
            lang,
            "fleet-unplaced-insufficient",
            dimension = match dimension {
                Dimension::Memory => t!(lang, "fleet-dim-memory"),
                other => other.to_string(),
            }
        ),
        R::Fragmented => t!(lang, "fleet-unplaced-fragmented"),
        R::VolumesUnknown(why) => t!(
            lang,
            "fleet-unplaced-volumes-unknown",
            why = why.to_string()
        ),
    }
}

/// One pod on the node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodRow {
    /// `namespace/name`.
    pub name: String,
    /// `Kind name`, or `-`.
    pub owner: String,
    /// Phase, as the API says it.
    pub phase: &'static str,
    /// Its Ready condition is true; `None` for a pod being deleted, whose last Ready
    /// value tells nothing about it.
    pub ready: Option<bool>,
    /// Requests, in people's units (`-` for none).
    pub cpu: String,
    /// Memory request.
    pub memory: String,
    /// GPU request.
    pub gpu: String,
    /// What happens to it in a drain.
    pub fate: Fate,
}

fn phase_label(phase: PodPhase) -> &'static str {
    match phase {
        PodPhase::Pending => "Pending",
        PodPhase::Running => "Running",
        PodPhase::Succeeded => "Succeeded",
        PodPhase::Failed => "Failed",
        PodPhase::Unknown => "Unknown",
        PodPhase::Terminating => "Terminating",
    }
}

/// Where the node's pods would go if it left: the same first-fit-decreasing re-placement
/// `w` and `capacity --what-if node=` run, so the page and the what-if agree.
#[derive(Debug)]
pub struct Departure {
    /// Pods (by index) that found a node.
    placed: HashSet<usize>,
    /// Why the others did not, by namespace and owner.
    unplaced: Vec<(String, UnplacedReason)>,
}

impl Departure {
    /// Re-places the pods of `node` in `view` (with the nodes `reserved` by approved
    /// maintenance taking nothing).
    pub fn of(
        view: &ClusterView,
        config: &CapacityConfig,
        reserved: &[NodeName],
        node: &str,
    ) -> Departure {
        let index = ClusterIndex::new(view, config);
        let scenario = Scenario::LoseNodes(vec![NodeName::from(node)]);
        let placed = planned_moves(&index, &scenario, reserved)
            .into_iter()
            .map(|m| m.pod)
            .collect();
        let unplaced = what_if(&index, &scenario, reserved)
            .unplaced
            .iter()
            .map(|g| {
                (
                    format!("{}/{}/{}", g.namespace, g.owner.kind, g.owner.name),
                    g.reason.clone(),
                )
            })
            .collect();
        Departure { placed, unplaced }
    }

    fn why_not(&self, pod: &PodView) -> Option<UnplacedReason> {
        let key = pod
            .owner
            .as_ref()
            .map(|o| format!("{}/{}/{}", pod.namespace, o.kind, o.name))
            .unwrap_or_default();
        self.unplaced
            .iter()
            .find(|(owner, _)| *owner == key)
            .map(|(_, why)| why.clone())
    }
}

fn fate(i: usize, pod: &PodView, view: &ClusterView, departure: &Departure) -> Fate {
    if pod.phase == PodPhase::Terminating {
        return Fate::Terminating;
    }
    let Some(owner) = &pod.owner else {
        return Fate::Bare;
    };
    if owner.is_node_bound() {
        return Fate::Stays;
    }
    let blocking = pod
        .pdb
        .and_then(|i| view.pdbs.get(i as usize))
        .filter(|pdb| pdb.refuses_eviction(pod.ready));
    if let Some(pdb) = blocking {
        return Fate::BlockedBy(format!("{}/{}", pdb.namespace, pdb.name));
    }
    if !departure.placed.contains(&i) {
        return Fate::NoRoom(departure.why_not(pod));
    }
    match &pod.required_domain {
        Some(domain) => Fate::HeldIn(short_domain(domain)),
        None => Fate::Moves,
    }
}

/// `zone=eu-west-1a` for `topology.kubernetes.io/zone=eu-west-1a`: the column is narrow
/// and the key's prefix tells nothing the value does not.
fn short_domain(domain: &RequiredDomain) -> String {
    let key = domain.key.rsplit('/').next().unwrap_or(&domain.key);
    match &*domain.values {
        [value] => format!("{key}={value}"),
        values => format!("{key} in ({})", values.join(", ")), // i18n: not for people (a selector)
    }
}

/// The pods bound to `node` that hold its resources, with their index in the view.
pub fn pods_on<'v>(
    view: &'v ClusterView,
    node: &'v str,
) -> impl Iterator<Item = (usize, &'v PodView)> + 'v {
    view.pods.iter().enumerate().filter(move |(_, p)| {
        p.phase.holds_resources() && p.node.as_ref().is_some_and(|n| n.as_str() == node)
    })
}

fn amount(dim: &Dimension, value: i64) -> String {
    if value == 0 {
        "-".into()
    } else {
        format_amount(dim, value)
    }
}

/// The pods bound to `node` that hold its resources, the ones that need an eye before a
/// drain first (blocked, no room, bare, held by a volume), then by namespace and name.
pub fn pod_rows(view: &ClusterView, node: &str, departure: &Departure) -> Vec<PodRow> {
    let mut rows: Vec<PodRow> = pods_on(view, node)
        .map(|(i, p)| PodRow {
            name: format!("{}/{}", p.namespace, p.name),
            owner: p
                .owner
                .as_ref()
                .map_or_else(|| "-".to_owned(), |o| format!("{} {}", o.kind, o.name)),
            phase: phase_label(p.phase),
            ready: (p.phase != PodPhase::Terminating).then_some(p.ready),
            cpu: amount(&Dimension::Cpu, p.requests.cpu_millis()),
            memory: amount(&Dimension::Memory, p.requests.memory_bytes()),
            gpu: amount(&Dimension::Gpu, p.requests.gpu()),
            fate: fate(i, p, view, departure),
        })
        .collect();
    rows.sort_by(|a, b| {
        b.fate
            .is_trouble()
            .cmp(&a.fate.is_trouble())
            .then_with(|| a.name.cmp(&b.name))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::capacity::{cluster, node, pod};
    use crate::model::fleet::PdbView;

    #[test]
    fn why_a_pod_finds_no_room_reads_as_the_what_if_in_english_and_is_translated() {
        let domain = RequiredDomain::one("topology.kubernetes.io/zone".into(), "b".into());
        let reasons = [
            UnplacedReason::ClusterLost,
            UnplacedReason::NoEligibleNode,
            UnplacedReason::VolumeDomainLost(domain.clone()),
            UnplacedReason::VolumeWithLostCluster(domain),
            UnplacedReason::NotRunElsewhere,
            UnplacedReason::Insufficient(Dimension::Memory),
            UnplacedReason::Insufficient(Dimension::Cpu),
            UnplacedReason::Fragmented,
            UnplacedReason::VolumesUnknown("claim data is unreadable".into()),
        ];
        for reason in reasons {
            let fate = Fate::NoRoom(Some(reason.clone()));
            assert_eq!(fate.label_in(Lang::En), format!("no: {reason}"));
            let zh = fate.label_in(Lang::ZhCn);
            assert!(zh.starts_with("否："), "{zh}");
            assert!(!zh.contains(" node"), "{zh}");
        }
        assert_eq!(
            Fate::NoRoom(None).label_in(Lang::ZhCn),
            "否：没有其他节点能接收它"
        );
        assert_eq!(
            Fate::NoRoom(Some(UnplacedReason::Insufficient(Dimension::Memory)))
                .label_in(Lang::ZhCn),
            "否：没有符合条件的节点有足够的空闲 内存"
        );
    }

    #[test]
    fn each_pod_says_what_a_drain_does_to_it_trouble_first() {
        let mut view = cluster(
            vec![node("n1", "a").build(), node("n2", "a").build()],
            vec![
                pod("web-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                    .cpu(500)
                    .build(),
                pod("proxy", Some("n1"))
                    .owner("kube-system", "DaemonSet", "proxy")
                    .build(),
                pod("debug", Some("n1")).bare().build(),
                pod("db-0", Some("n1"))
                    .owner("data", "StatefulSet", "db")
                    .domain("topology.kubernetes.io/zone", "a")
                    .build(),
                pod("checkout-0", Some("n1"))
                    .owner("shop", "ReplicaSet", "checkout-1a2b3c4d5e")
                    .build(),
                pod("old", Some("n1")).phase(PodPhase::Terminating).build(),
                pod("done", Some("n1")).phase(PodPhase::Succeeded).build(),
                pod("elsewhere", Some("n2")).build(),
                pod("big", Some("n1"))
                    .owner("batch", "ReplicaSet", "big-0a1b2c3d4e")
                    .cpu(20_000)
                    .build(),
            ],
        );
        view.pdbs.push(PdbView {
            namespace: "shop".into(),
            name: "checkout-blocking".into(),
            disruptions_allowed: 0,
            current_healthy: 3,
            desired_healthy: 3,
            expected_pods: 3,
            always_allow_unhealthy: false,
        });
        view.pods[4].pdb = Some(0);
        let departure = Departure::of(&view, &CapacityConfig::default(), &[], "n1");
        let rows = pod_rows(&view, "n1", &departure);
        let fates: Vec<(&str, String)> = rows
            .iter()
            .map(|r| (r.name.as_str(), r.fate.label_in(Lang::En)))
            .collect();
        assert_eq!(
            fates,
            vec![
                // 20 cores: n2 has 16.
                (
                    "batch/big",
                    "no: no eligible node has enough free CPU".into()
                ),
                ("data/db-0", "only within zone=a (volume)".into()),
                ("default/debug", "bare pod: deleted, not re-created".into()),
                (
                    "shop/checkout-0",
                    "blocked by PDB shop/checkout-blocking".into()
                ),
                ("default/old", "terminating".into()),
                ("kube-system/proxy", "stays with the node".into()),
                ("shop/web-1", "yes".into()),
            ],
            "the finished pod and the other node's are not listed"
        );
        // A pod being deleted has no readiness worth showing.
        assert_eq!(
            rows.iter()
                .find(|r| r.name == "default/old")
                .map(|r| r.ready),
            Some(None)
        );
        assert_eq!(rows[6].ready, Some(true));
        assert_eq!(rows[6].cpu, "0.5 cores");
        assert_eq!(rows[6].memory, "-");
    }

    /// `shop/web`: 2 of 2 healthy, no disruption left.
    fn web_budget_whole_but_spent() -> PdbView {
        crate::fixtures::capacity::pdb("web", 0, 2, 2)
    }

    #[test]
    fn on_a_node_that_is_not_ready_a_whole_budget_lets_its_pods_go_and_a_lost_zone_holds_them() {
        // Zone b is down: n1 is not ready, and the node controller has marked its pods
        // not Ready. The budget has no disruption left but is whole (2 of 2 healthy): the
        // not-ready pod may be evicted. db-0's volume is in zone b, where no node is
        // left: it cannot move.
        let mut view = cluster(
            vec![node("n1", "b").not_ready().build(), node("n2", "a").build()],
            vec![
                pod("web-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                    .not_ready()
                    .build(),
                pod("db-0", Some("n1"))
                    .owner("data", "StatefulSet", "db")
                    .domain("topology.kubernetes.io/zone", "b")
                    .not_ready()
                    .build(),
            ],
        );
        view.pdbs.push(web_budget_whole_but_spent());
        view.pods[0].pdb = Some(0);
        let departure = Departure::of(&view, &CapacityConfig::default(), &[], "n1");
        let fates: Vec<String> = pod_rows(&view, "n1", &departure)
            .iter()
            .map(|r| r.fate.label_in(Lang::En))
            .collect();
        assert_eq!(
            fates,
            vec![
                "no: its volume keeps it in topology.kubernetes.io/zone=b, where no healthy node is left".to_owned(),
                "yes".to_owned(),
            ]
        );
        // Short of healthy pods, the budget refuses even a not-ready pod...
        view.pdbs[0].current_healthy = 1;
        let rows = pod_rows(&view, "n1", &departure);
        assert_eq!(rows[1].fate, Fate::BlockedBy("shop/web".into()));
        // ...unless the budget lets unhealthy pods go whatever it says.
        view.pdbs[0].always_allow_unhealthy = true;
        let rows = pod_rows(&view, "n1", &departure);
        assert_eq!(rows[1].fate, Fate::Moves);
    }

    #[test]
    fn on_a_ready_node_it_is_the_pods_own_readiness_that_the_budget_reads() {
        // A crashing pod (not Ready) on a healthy node goes while the budget is whole;
        // its Ready sibling on the same node is held by the same budget.
        let mut view = cluster(
            vec![node("n1", "a").build(), node("n2", "a").build()],
            vec![
                pod("web-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                    .not_ready()
                    .build(),
                pod("web-2", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                    .build(),
            ],
        );
        view.pdbs.push(web_budget_whole_but_spent());
        view.pods[0].pdb = Some(0);
        view.pods[1].pdb = Some(0);
        let departure = Departure::of(&view, &CapacityConfig::default(), &[], "n1");
        let rows: Vec<(String, Option<bool>, String)> = pod_rows(&view, "n1", &departure)
            .into_iter()
            .map(|r| (r.name, r.ready, r.fate.label_in(Lang::En)))
            .collect();
        assert_eq!(
            rows,
            vec![
                (
                    "shop/web-2".to_owned(),
                    Some(true),
                    "blocked by PDB shop/web".to_owned()
                ),
                ("shop/web-1".to_owned(), Some(false), "yes".to_owned()),
            ]
        );
    }

    #[test]
    fn the_re_placement_is_worked_out_once_per_view() {
        let view = Arc::new(cluster(
            vec![node("n1", "a").build(), node("n2", "a").build()],
            vec![pod("web", Some("n1")).build()],
        ));
        let state = NodePageState::new("c1", "n1".into());
        let config = CapacityConfig::default();
        let first = state.departure(&view, &config, &[]);
        assert!(Arc::ptr_eq(&first, &state.departure(&view, &config, &[])));
        let next = Arc::new(ClusterView::clone(&view));
        assert!(!Arc::ptr_eq(&first, &state.departure(&next, &config, &[])));
    }
}
