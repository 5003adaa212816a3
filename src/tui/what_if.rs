//! Capacity what-ifs asked from the console: running them on the cluster the operator
//! chose, keeping the shown answer in step with newer snapshots and maintenance holds, and
//! saying why none runs where the data cannot be trusted. Split from `app.rs` so the
//! reducer stays a router.

use std::sync::Arc;

use super::app::App;
use super::nav::{CapacityScope, Route};
use super::screens::capacity::{node_names, run_cluster_loss, run_what_if};
use crate::model::capacity::Scenario;

impl App {
    /// Runs the shown what-if again when its cluster's data changed, so its answer is
    /// never older than the baseline beside it; drops it when the data is no longer
    /// usable.
    pub(super) fn refresh_what_if(&mut self) {
        self.refresh_cluster_loss();
        let Some(shown) = &self.capacity_state.what_if else {
            return;
        };
        let live = self
            .snapshot
            .cluster(&shown.cluster)
            .filter(|c| c.status.data_usable());
        let Some(live) = live else {
            self.message = Some(crate::t!(
                self.config.lang,
                "fleet-what-if-cleared",
                cluster = &shown.cluster
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
    pub(super) fn refresh_report(&mut self) {
        self.refresh_what_if();
        let id = match self.nav.current() {
            Route::Capacity(CapacityScope::Cluster(id) | CapacityScope::Domain(id, _)) => {
                id.clone()
            }
            _ => return,
        };
        self.capacity_state.refresh_report(
            &id,
            &self.snapshot,
            &self.activity.journal.holds,
            &self.config.capacity,
        );
    }

    /// Asks the shown cluster loss again on a newer snapshot or new maintenance holds.
    /// Unlike a what-if inside a cluster, it stays when the lost cluster's data goes:
    /// then its pods are unknown, and the siblings' room is still the answer.
    pub(super) fn refresh_cluster_loss(&mut self) {
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
    pub(super) fn refuses_untrusted_what_if(&mut self, cluster: &str) -> bool {
        let Some(status) = self
            .snapshot
            .cluster(cluster)
            .map(|live| live.status)
            .filter(|status| !status.data_usable())
        else {
            return false;
        };
        self.message = Some(crate::t!(
            self.config.lang,
            "fleet-what-if-untrusted",
            cluster = cluster,
            status = status.label()
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
                let lang = self.config.lang;
                self.message = Some(crate::t!(lang, "fleet-what-if-no-node", cluster = &id));
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
}
