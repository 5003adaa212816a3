//! Defaults of the API server's own configuration kinds
//! (`pkg/apis/flowcontrol/v1/defaults.go`, `pkg/apis/admissionregistration/v1/defaults.go`):
//! a FlowSchema's precedence and its `Dangling` condition, a PriorityLevelConfiguration's
//! shares and queues, a webhook's policies, timeout and service port.

use serde_json::{Value, json};

use super::super::fleet::ClusterState;
use super::super::resource::Kind;
use super::super::store::str_at;

/// Defaults of a FlowSchema.
pub fn flow_schema_defaults(obj: &mut Value) {
    if obj.pointer("/spec/matchingPrecedence").is_none() && obj["spec"].is_object() {
        obj["spec"]["matchingPrecedence"] = json!(1000);
    }
}

/// Sets a FlowSchema's `Dangling` condition (whether the priority level it names
/// exists), which the API server's flow-control configuration controller maintains;
/// kept on every write, status writes included.
pub fn flow_schema_dangling(st: &ClusterState, obj: &mut Value) {
    let level = str_at(obj, "/spec/priorityLevelConfiguration/name");
    let exists = st
        .store
        .get(Kind::PRIORITY_LEVEL_CONFIGURATION, "", &level)
        .is_some();
    let (status, reason, message) = if exists {
        (
            "False",
            "Found",
            format!(
                "This FlowSchema references the PriorityLevelConfiguration object named \"{level}\" and it exists"
            ),
        )
    } else {
        (
            "True",
            "NotFound",
            format!(
                "This FlowSchema references the PriorityLevelConfiguration object named \"{level}\" but there is no such object"
            ),
        )
    };
    if obj.pointer("/status/conditions/0/status") != Some(&json!(status)) {
        obj["status"] = json!({"conditions": [{"type": "Dangling", "status": status, "reason": reason,
            "message": message, "lastTransitionTime": str_at(obj, "/metadata/creationTimestamp")}]});
    }
}

/// Defaults of a PriorityLevelConfiguration (flowcontrol v1).
pub fn priority_level_defaults(obj: &mut Value) {
    if str_at(obj, "/spec/type") == "Limited" {
        let l = &mut obj["spec"]["limited"];
        if l.is_object() {
            if l.get("nominalConcurrencyShares").is_none() {
                l["nominalConcurrencyShares"] = json!(30);
            }
            if l.get("lendablePercent").is_none() {
                l["lendablePercent"] = json!(0);
            }
            if str_at(l, "/limitResponse/type") == "Queue" {
                let q = &mut l["limitResponse"]["queuing"];
                if !q.is_object() {
                    *q = json!({});
                }
                for (k, v) in [("queues", 64), ("handSize", 8), ("queueLengthLimit", 50)] {
                    if q.get(k).is_none() {
                        q[k] = json!(v);
                    }
                }
            }
        }
    }
    obj["status"] = json!({});
}

/// Defaults of a Validating- or MutatingWebhookConfiguration.
pub fn webhook_defaults(obj: &mut Value, mutating: bool) {
    for w in obj
        .get_mut("webhooks")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        for (k, v) in [
            ("failurePolicy", json!("Fail")),
            ("matchPolicy", json!("Equivalent")),
            ("timeoutSeconds", json!(10)),
            ("namespaceSelector", json!({})),
            ("objectSelector", json!({})),
        ] {
            if w.get(k).is_none() {
                w[k] = v;
            }
        }
        if mutating && w.get("reinvocationPolicy").is_none() {
            w["reinvocationPolicy"] = json!("Never");
        }
        if let Some(svc) = w.pointer_mut("/clientConfig/service")
            && svc.is_object()
            && svc.get("port").is_none()
        {
            svc["port"] = json!(443);
        }
        for r in w
            .get_mut("rules")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if r.get("scope").is_none() {
                r["scope"] = json!("*");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhooks_fail_closed_with_a_timeout_and_port_443() {
        let mut w = json!({"webhooks": [{"name": "check.example.com",
            "clientConfig": {"service": {"name": "hook", "namespace": "kube-system"}}, "rules": [{}]}]});
        webhook_defaults(&mut w, true);
        let hook = &w["webhooks"][0];
        assert_eq!(hook["failurePolicy"], "Fail");
        assert_eq!(hook["timeoutSeconds"], 10);
        assert_eq!(hook["reinvocationPolicy"], "Never");
        assert_eq!(
            hook.pointer("/clientConfig/service/port"),
            Some(&json!(443))
        );
        assert_eq!(hook.pointer("/rules/0/scope"), Some(&json!("*")));
    }

    #[test]
    fn limited_levels_that_queue_get_queues_and_hands() {
        let mut p =
            json!({"spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Queue"}}}});
        priority_level_defaults(&mut p);
        assert_eq!(
            p.pointer("/spec/limited/limitResponse/queuing"),
            Some(&json!({"queues": 64, "handSize": 8, "queueLengthLimit": 50}))
        );
        assert_eq!(
            p.pointer("/spec/limited/nominalConcurrencyShares"),
            Some(&json!(30))
        );
    }
}
