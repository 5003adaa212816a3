//! Node maintenance, pure: the maintenance file, the per-node state machine, restart
//! reconciliation, the mass-failure guard and the batch planner. No IO: the executor
//! performs the actions these functions return and feeds back what it observed.

mod decode;
mod spec;
mod step;

pub use decode::{MaintenanceReport, read_maintenance};
pub use spec::*;
pub use step::Step;
