//! Where the user is: a stack of crumbs (`esc` pops one) and a history of crumb stacks
//! (`[` and `]` walk it), like a browser's back and forward.

use std::sync::Arc;

/// How deep the capacity screen is looking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CapacityScope {
    /// Every cluster.
    Fleet,
    /// One cluster.
    Cluster(String),
    /// One failure domain of one cluster.
    Domain(String, Arc<str>),
}

/// A place in the console.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The ledger of every cluster.
    Ledger,
    /// One cluster's nodes, PDBs and events.
    Cluster(String),
    /// One node of a cluster: its state and the pods on it.
    Node(String, Arc<str>),
    /// Capacity at some scope.
    Capacity(CapacityScope),
    /// Rollout runs: batches, clusters, gates, coverage.
    Rollouts,
    /// Maintenance runs as swimlanes.
    Maintenance,
    /// Journal events, filterable, with a live tail.
    Timeline,
    /// Fleet findings, worst first.
    Findings,
}

impl Route {
    /// The cluster a route is about, if it is about one.
    fn cluster(&self) -> Option<&str> {
        match self {
            Route::Cluster(id)
            | Route::Node(id, _)
            | Route::Capacity(CapacityScope::Cluster(id) | CapacityScope::Domain(id, _)) => {
                Some(id)
            }
            _ => None,
        }
    }

    /// The place as a crumb, in `lang` (`ledger`, `cluster eu-1`).
    pub fn crumb(&self, lang: crate::i18n::Lang) -> String {
        use crate::t;
        match self {
            Route::Ledger => t!(lang, "crumb-ledger"),
            Route::Cluster(id) => t!(lang, "crumb-cluster", id = id.to_string()),
            Route::Node(_, node) => t!(lang, "crumb-node", node = node.to_string()),
            Route::Capacity(CapacityScope::Fleet) => t!(lang, "crumb-capacity"),
            Route::Capacity(CapacityScope::Cluster(id)) => {
                t!(lang, "crumb-capacity-cluster", id = id.to_string())
            }
            Route::Capacity(CapacityScope::Domain(_, d)) => {
                t!(lang, "crumb-domain", domain = d.to_string())
            }
            Route::Rollouts => t!(lang, "crumb-rollouts"),
            Route::Maintenance => t!(lang, "crumb-maintenance"),
            Route::Timeline => t!(lang, "crumb-timeline"),
            Route::Findings => t!(lang, "crumb-findings"),
        }
    }
}

/// Crumbs and history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nav {
    crumbs: Vec<Route>,
    history: Vec<Vec<Route>>,
    position: usize,
}

/// History entries kept; older ones are dropped.
const HISTORY_LIMIT: usize = 100;

impl Default for Nav {
    fn default() -> Self {
        Nav {
            crumbs: vec![Route::Ledger],
            history: vec![vec![Route::Ledger]],
            position: 0,
        }
    }
}

impl Nav {
    /// The current place.
    pub fn current(&self) -> &Route {
        // The crumb stack is never empty: every operation keeps at least one.
        self.crumbs.last().unwrap_or(&Route::Ledger)
    }

    /// The crumbs, root first.
    pub fn crumbs(&self) -> &[Route] {
        &self.crumbs
    }

    fn record(&mut self) {
        self.history.truncate(self.position + 1);
        if self.history.last() != Some(&self.crumbs) {
            self.history.push(self.crumbs.clone());
        }
        if self.history.len() > HISTORY_LIMIT {
            self.history.remove(0);
        }
        self.position = self.history.len() - 1;
    }

    /// Opens `route` on top of the current one (drilling down).
    pub fn push(&mut self, route: Route) {
        if self.current() == &route {
            return;
        }
        // The crumbs are one way down: what belongs to another cluster goes when a route
        // about this one is opened (a node named from another cluster's capacity page).
        if let Some(cluster) = route.cluster() {
            while self.crumbs.len() > 1
                && self
                    .current()
                    .cluster()
                    .is_some_and(|other| other != cluster)
            {
                self.crumbs.pop();
            }
        }
        // From one cluster to another (the palette, a what-if's link) is a move sideways:
        // the crumbs name the way down, and `[`/`]` walk every cluster visited. A node
        // page goes with its cluster, and from one node to another is sideways too.
        match (self.current(), &route) {
            (Route::Cluster(_) | Route::Node(..), Route::Cluster(_)) => {
                while self.crumbs.len() > 1
                    && matches!(self.current(), Route::Cluster(_) | Route::Node(..))
                {
                    self.crumbs.pop();
                }
            }
            (Route::Node(..), Route::Node(..)) => {
                self.crumbs.pop();
            }
            _ => {}
        }
        self.crumbs.push(route);
        self.record();
    }

    /// Starts over at a top-level screen (`:ledger`, `:capacity`).
    pub fn reset(&mut self, route: Route) {
        self.crumbs = if route == Route::Ledger {
            vec![Route::Ledger]
        } else {
            vec![Route::Ledger, route]
        };
        self.record();
    }

    /// Goes back one crumb; false at the root.
    pub fn pop(&mut self) -> bool {
        if self.crumbs.len() <= 1 {
            return false;
        }
        self.crumbs.pop();
        self.record();
        true
    }

    /// Moves through history; false when there is nowhere to go.
    pub fn walk(&mut self, direction: Direction) -> bool {
        let target = match direction {
            Direction::Forward => self.position + 1,
            Direction::Back => match self.position.checked_sub(1) {
                Some(p) => p,
                None => return false,
            },
        };
        match self.history.get(target) {
            Some(crumbs) => {
                self.crumbs = crumbs.clone();
                self.position = target;
                true
            }
            None => false,
        }
    }
}

/// Which way to move through a sequence (history, the sort columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// To the earlier place, or the previous column.
    Back,
    /// To the later place, or the next column.
    Forward,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crumbs_and_history() {
        let mut nav = Nav::default();
        nav.push(Route::Cluster("a".into()));
        nav.push(Route::Capacity(CapacityScope::Cluster("a".into())));
        assert_eq!(nav.crumbs().len(), 3);
        assert!(nav.pop());
        assert_eq!(nav.current(), &Route::Cluster("a".into()));
        assert!(nav.walk(Direction::Back), "back to the capacity crumb");
        assert_eq!(nav.crumbs().len(), 3);
        assert!(nav.walk(Direction::Forward));
        assert_eq!(nav.current(), &Route::Cluster("a".into()));
        assert!(!nav.walk(Direction::Forward), "nothing forward");
        nav.reset(Route::Capacity(CapacityScope::Fleet));
        assert_eq!(nav.crumbs().len(), 2);
        assert!(nav.pop());
        assert!(!nav.pop(), "the root stays");
        assert_eq!(nav.current(), &Route::Ledger);
    }

    #[test]
    fn a_node_page_goes_with_its_cluster_when_another_cluster_opens() {
        let mut nav = Nav::default();
        nav.push(Route::Cluster("a".into()));
        nav.push(Route::Node("a".into(), "a-n1".into()));
        nav.push(Route::Node("a".into(), "a-n2".into()));
        assert_eq!(
            nav.crumbs(),
            &[
                Route::Ledger,
                Route::Cluster("a".into()),
                Route::Node("a".into(), "a-n2".into())
            ][..],
            "node to node is sideways"
        );
        nav.push(Route::Cluster("b".into()));
        assert_eq!(
            nav.crumbs(),
            &[Route::Ledger, Route::Cluster("b".into())][..]
        );
    }

    #[test]
    fn crumbs_never_mix_two_clusters() {
        let mut nav = Nav::default();
        nav.push(Route::Cluster("a".into()));
        nav.push(Route::Capacity(CapacityScope::Cluster("a".into())));
        nav.push(Route::Cluster("b".into()));
        nav.push(Route::Node("b".into(), "b-n1".into()));
        assert_eq!(
            nav.crumbs(),
            &[
                Route::Ledger,
                Route::Cluster("b".into()),
                Route::Node("b".into(), "b-n1".into())
            ][..]
        );
        // The fleet's capacity list is about no one cluster: it stays under a cluster.
        nav.reset(Route::Capacity(CapacityScope::Fleet));
        nav.push(Route::Capacity(CapacityScope::Cluster("a".into())));
        nav.push(Route::Cluster("b".into()));
        assert_eq!(
            nav.crumbs(),
            &[
                Route::Ledger,
                Route::Capacity(CapacityScope::Fleet),
                Route::Cluster("b".into())
            ][..]
        );
    }

    #[test]
    fn one_cluster_after_another_keeps_one_cluster_crumb_and_history_has_both() {
        let mut nav = Nav::default();
        nav.push(Route::Cluster("a".into()));
        nav.push(Route::Cluster("b".into()));
        assert_eq!(
            nav.crumbs(),
            &[Route::Ledger, Route::Cluster("b".into())][..]
        );
        assert!(nav.walk(Direction::Back));
        assert_eq!(nav.current(), &Route::Cluster("a".into()));
    }

    #[test]
    fn going_somewhere_new_drops_forward_history() {
        let mut nav = Nav::default();
        nav.push(Route::Cluster("a".into()));
        assert!(nav.walk(Direction::Back));
        nav.push(Route::Cluster("b".into()));
        assert!(!nav.walk(Direction::Forward));
        assert!(nav.walk(Direction::Back));
        assert_eq!(nav.current(), &Route::Ledger);
    }
}
