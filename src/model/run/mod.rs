//! Runs, items and steps as the journal records them: identifiers, statuses, the events
//! themselves and the pure fold that turns a sequence of events into current state.
//! Shared by node maintenance and (later) cluster rollouts, which are the same batch
//! engine at two levels.

mod command;
mod describe;
mod describe_msg;
mod event;
mod ids;
mod keys;
mod kinds;
pub mod payload;
mod projection;
mod refusal;
mod status;
pub mod writers;

pub use crate::model::identity::NodeName;
pub use command::{OperatorCommand, approval_target, check_approve, command_event};
pub use describe::describe;
pub use describe_msg::describe_msg;
pub use event::{
    Event, EventBody, EventLog, FencingToken, LeaseScope, NewEvent, PauseScope, ReturnOutcome,
    Sequence,
};
pub use ids::{Actor, ItemId, RUN_NAME_MAX, RunId, StepName, check_run_name, check_run_name_said};
pub use keys::IdempotencyKey;
pub use kinds::{EVENT_KINDS, UnknownKind, kinds_matching};
pub use projection::{
    FailedCall, HandOff, ItemView, OpenIntent, PauseSwitch, Projection, RolloutView, RunView,
    StepView, UnreadableEvent, WaitingFor,
};
pub use refusal::{ClusterRefusal, CommandRefusal, cluster_refusal_event, refusal_event};
pub use status::{RunStatus, StepStatus};
