//! The executor's memory between passes and across restarts: the latest state of every
//! node item, journaled as a `step.observed` event whose payload is a [`Checkpoint`].
//! Reading the journal from the start rebuilds exactly what a dead executor knew.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::maintenance::NodeState;
use crate::model::run::{Event, EventBody, Sequence};

/// The payload of a checkpoint event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    /// The node's state machine.
    pub node_state: NodeState,
    /// The last operator command (hand-off, take-over, return) already fed to it.
    pub consumed: Option<Sequence>,
    /// Attempts per side effect, so every retry gets its own idempotency key.
    pub attempts: BTreeMap<String, u32>,
}

impl Checkpoint {
    /// A fresh item.
    pub fn new(node_state: NodeState) -> Self {
        Checkpoint {
            node_state,
            consumed: None,
            attempts: BTreeMap::new(),
        }
    }

    /// The body of the event that records it.
    pub fn to_body(&self) -> EventBody {
        let mut payload = serde_json::Map::new();
        // Plain data with string keys only: serialising cannot fail; stay total anyway.
        payload.insert(
            "checkpoint".to_string(),
            serde_json::to_value(self).unwrap_or(serde_json::Value::Null),
        );
        EventBody::Observed {
            observation: serde_json::Value::Object(payload),
        }
    }

    /// The checkpoint an event carries, if it is one.
    pub fn from_event(event: &Event) -> Option<Checkpoint> {
        match &event.event.body {
            EventBody::Observed { observation } => {
                serde_json::from_value(observation.get("checkpoint")?.clone()).ok()
            }
            _ => None,
        }
    }

    /// The next attempt number for `what`, counted.
    pub fn next_attempt(&mut self, what: &str) -> u32 {
        let n = self.attempts.entry(what.to_string()).or_default();
        *n += 1;
        *n
    }
}
