//! core/v1 Events (`legacyValidateEvent` in pkg/apis/core/validation/events.go): an
//! Event written through core/v1 passes only the legacy rules, but an Event that has an
//! `eventTime` is a new-style Event and must say who reported it and what it did.

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError};
use super::json::text;
use super::names::{is_dns1123_subdomain, is_qualified_name};
use super::require;

const REPORTING_INSTANCE_LIMIT: usize = 128;
const ACTION_LIMIT: usize = 128;
const REASON_LIMIT: usize = 128;
const NOTE_LIMIT: usize = 1024;

/// `Invalid` (the value left out, as `ValidateEventCreate` builds it) when `value` is
/// longer than `limit` bytes.
fn at_most(value: &str, field: &str, limit: usize) -> Option<FieldError> {
    (value.len() > limit).then(|| {
        FieldError::invalid(
            field,
            BadValue::Str(String::new()),
            format!("can have at most {limit} characters"),
        )
    })
}

/// A core/v1 Event, on create and on update.
pub fn event(ev: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let ns = text(ev, "/metadata/namespace");
    let involved_ns = text(ev, "/involvedObject/namespace");
    let mismatch = || {
        FieldError::invalid(
            "involvedObject.namespace",
            BadValue::Str(involved_ns.into()),
            "does not match event.namespace",
        )
    };
    let has_event_time = ev.get("eventTime").is_some_and(|t| !t.is_null());
    if !has_event_time {
        if involved_ns.is_empty() {
            if !ns.is_empty() && ns != "default" {
                errs.push(mismatch());
            }
        } else if ns != involved_ns {
            errs.push(mismatch());
        }
    } else {
        if involved_ns.is_empty() && ns != "default" && ns != "kube-system" {
            errs.push(mismatch());
        }
        // The Go field is ReportingController; JSON calls it reportingComponent.
        let controller = text(ev, "/reportingComponent");
        errs.extend(require::set(controller, "reportingController", ""));
        errs.extend(require::valid(
            controller,
            "reportingController",
            is_qualified_name,
        ));
        for (field, limit) in [
            ("reportingInstance", REPORTING_INSTANCE_LIMIT),
            ("action", ACTION_LIMIT),
            ("reason", REASON_LIMIT),
        ] {
            let value = text(ev, &format!("/{field}"));
            errs.extend(require::set(value, field, ""));
            errs.extend(at_most(value, field, limit));
        }
        errs.extend(at_most(text(ev, "/message"), "message", NOTE_LIMIT));
    }
    errs.extend(require::valid(ns, "namespace", is_dns1123_subdomain));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_new_style_event_names_its_reporter_and_action() {
        let ev = json!({"metadata": {"name": "n1.1", "namespace": "default"},
            "involvedObject": {"kind": "Node", "name": "n1"}, "reason": "Drain",
            "eventTime": "2025-01-01T00:00:00.000000Z"});
        let m: Vec<String> = event(&ev).iter().map(FieldError::message).collect();
        assert_eq!(
            m,
            vec![
                "reportingController: Required value",
                "reportingController: Invalid value: \"\": name part must be non-empty",
                "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "reportingInstance: Required value",
                "action: Required value",
            ]
        );
        let legacy = json!({"metadata": {"name": "x", "namespace": "shop"},
            "involvedObject": {"kind": "Pod", "name": "p", "namespace": "shop"}, "reason": "R"});
        assert!(event(&legacy).is_empty());
        let node_in_ns = json!({"metadata": {"name": "x", "namespace": "shop"},
            "involvedObject": {"kind": "Node", "name": "n1"}});
        assert_eq!(event(&node_in_ns)[0].field, "involvedObject.namespace");
    }
}
