//! The Kubernetes Events fleetdeck writes about the nodes it maintains, in the shape a real
//! API server accepts.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::{Event as CoreEvent, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, Time};

use crate::model::run::NodeName;

/// The API server's limits on an Event with an `eventTime` (`pkg/apis/core/validation/
/// events.go`): `reportingInstance`, `action` and `reason` at most 128 characters, the
/// message at most 1024.
const EVENT_NAME_LIMIT: usize = 128;
const EVENT_MESSAGE_LIMIT: usize = 1024;

/// `text` cut to at most `limit` bytes on a character boundary, `…` marking a cut.
fn clip(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut end = limit.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// A core/v1 Event about `node` in the shape an API server accepts: one with an
/// `eventTime` (a "new" event) must carry `reportingComponent` (a qualified name),
/// `reportingInstance`, `action` and `reason` within their lengths, and sits in `default`
/// since a node has no namespace. The legacy fields (`firstTimestamp`, `lastTimestamp`,
/// `count`, `source`) are kept for readers that sort by them, as core/v1 allows.
pub(crate) fn node_event(
    node: &NodeName,
    uid: Option<String>,
    reason: &str,
    action: &str,
    message: &str,
    actor: &str,
    now: Timestamp,
) -> CoreEvent {
    CoreEvent {
        metadata: ObjectMeta {
            generate_name: Some(format!("{}.fleetdeck.", node.as_str())),
            namespace: Some("default".into()),
            ..ObjectMeta::default()
        },
        involved_object: ObjectReference {
            api_version: Some("v1".into()),
            kind: Some("Node".into()),
            name: Some(node.as_str().to_string()),
            uid,
            ..ObjectReference::default()
        },
        reason: Some(clip(reason, EVENT_NAME_LIMIT)),
        action: Some(clip(action, EVENT_NAME_LIMIT)),
        message: Some(clip(message, EVENT_MESSAGE_LIMIT)),
        type_: Some("Normal".into()),
        reporting_component: Some("fleetdeck".into()),
        reporting_instance: Some(clip(actor, EVENT_NAME_LIMIT)),
        source: Some(k8s_openapi::api::core::v1::EventSource {
            component: Some("fleetdeck".into()),
            host: None,
        }),
        first_timestamp: Some(Time(now)),
        last_timestamp: Some(Time(now)),
        event_time: Some(MicroTime(now)),
        count: Some(1),
        ..CoreEvent::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_event_carries_every_field_a_real_server_requires() {
        let long = "x".repeat(2000);
        let event = node_event(
            &NodeName("n1".into()),
            Some("uid-1".into()),
            "FleetdeckMaintenance",
            "Drain",
            &long,
            &format!("executor@{}", "h".repeat(200)),
            Timestamp::UNIX_EPOCH,
        );
        let json = serde_json::to_value(&event).expect("json");
        // An Event with an eventTime: reportingComponent, reportingInstance, action and
        // reason are required, within their lengths.
        assert!(json["eventTime"].is_string(), "{json}");
        assert_eq!(json["action"], "Drain");
        assert_eq!(json["reason"], "FleetdeckMaintenance");
        assert_eq!(json["reportingComponent"], "fleetdeck");
        assert_eq!(json["type"], "Normal");
        let instance = json["reportingInstance"].as_str().expect("instance");
        assert!(!instance.is_empty() && instance.len() <= 128, "{instance}");
        let message = json["message"].as_str().expect("message");
        assert!(message.len() <= 1024 && message.ends_with('…'));
        // A node has no namespace: the event lives in `default`, and names the node.
        assert_eq!(json["metadata"]["namespace"], "default");
        assert_eq!(json["involvedObject"]["kind"], "Node");
        assert_eq!(json["involvedObject"]["uid"], "uid-1");
        assert!(json["involvedObject"].get("namespace").is_none());
    }

    #[test]
    fn clipping_keeps_whole_characters() {
        assert_eq!(clip("abc", 3), "abc");
        let clipped = clip(&"é".repeat(100), 11);
        assert!(clipped.len() <= 11 && clipped.ends_with('…'), "{clipped}");
    }
}
