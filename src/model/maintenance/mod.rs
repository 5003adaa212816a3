//! Node maintenance, pure: the maintenance file, the per-node state machine, restart
//! reconciliation, the mass-failure guard and the batch planner. No IO: the executor
//! performs the actions these functions return and feeds back what it observed.

mod decode;
mod spec;
mod step;

pub use decode::{MaintenanceReport, read_maintenance, read_maintenance_for};
pub use spec::*;
pub use step::Step;
mod drain;
mod machine;
mod observe;
mod restart;
mod state;

pub use drain::{DrainProgress, PodDrain, is_evictable};
pub use machine::{
    Action, CordonRecord, Env, NODE_EVENT_REASON, NodeState, ON_CALL, step, unsettled, verify_node,
};
pub use observe::*;
pub use restart::{
    HOOK_OUTCOME_UNKNOWN, Intent, Observe, Resolution, Seen, reconcile, what_to_observe,
};
mod guard;
pub use guard::{
    GuardContext, GuardPolicy, GuardTrip, ReadinessChange, SUSPECT_SHARED_DEPENDENCY,
    evaluate as evaluate_guard,
};
mod planner;
pub use planner::{
    NodeFacts, Plan, PlanRefusal, PlannedOn, inventory, labels_match, plan_batches, plan_on,
    select_nodes,
};
mod ports;
pub use ports::MaintenancePort;
mod holds;
pub use holds::{
    ClusterHolds, MaintenanceHolds, left_cordoned, maintenance_holds, mid_maintenance,
};
