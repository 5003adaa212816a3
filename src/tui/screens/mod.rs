//! The screens: each has a decisions module (state, rows, pure functions) and a view
//! module that draws it.

pub mod capacity;
pub mod capacity_fleet_view;
pub mod capacity_panels;
pub mod capacity_view;
pub mod cluster;
mod cluster_credential;
pub mod cluster_findings;
mod cluster_panels;
pub mod cluster_view;
pub mod findings;
pub mod findings_view;
pub mod ledger;
pub mod ledger_view;
pub mod maintenance;
pub mod maintenance_view;
pub mod node;
pub mod node_view;
pub mod palette_view;
pub mod pdb_pods;
pub mod rollouts;
pub mod rollouts_view;
pub mod table;
pub mod timeline;
pub mod timeline_view;
