//! PodDisruptionBudgets (`ValidatePodDisruptionBudgetSpec` in pkg/apis/policy/validation)
//! and Leases (`ValidateLeaseSpec` in pkg/apis/coordination/validation).

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError};
use super::require;
use super::selectors::label_selector;
use super::workloads::int_or_percent;

/// A PodDisruptionBudget, on create and on update (policy/v1 lets the selector change).
pub fn pod_disruption_budget(pdb: &Value) -> ErrorList {
    let empty = Value::Null;
    let spec = pdb.get("spec").unwrap_or(&empty);
    let min = spec.get("minAvailable").filter(|v| !v.is_null());
    let max = spec.get("maxUnavailable").filter(|v| !v.is_null());
    let mut errs = ErrorList::new();
    if min.is_some() && max.is_some() {
        errs.push(FieldError::invalid(
            "spec",
            BadValue::Raw(spec.to_string()),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    if let Some(v) = min {
        errs.extend(int_or_percent(v, "spec.minAvailable"));
    }
    if let Some(v) = max {
        errs.extend(int_or_percent(v, "spec.maxUnavailable"));
    }
    errs.extend(label_selector(spec.get("selector"), "spec.selector"));
    let policy = spec
        .get("unhealthyPodEvictionPolicy")
        .and_then(Value::as_str)
        .unwrap_or("");
    errs.extend(require::defaulted(
        policy,
        "spec.unhealthyPodEvictionPolicy",
        &["AlwaysAllow", "IfHealthyBudget"],
    ));
    errs
}

/// A Lease, on create and on update.
pub fn lease(lease: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    if let Some(d) = lease
        .pointer("/spec/leaseDurationSeconds")
        .and_then(Value::as_i64)
        && d <= 0
    {
        errs.push(FieldError::invalid(
            "spec.leaseDurationSeconds",
            BadValue::Int(d),
            "must be greater than 0",
        ));
    }
    if let Some(t) = lease
        .pointer("/spec/leaseTransitions")
        .and_then(Value::as_i64)
        && t < 0
    {
        errs.push(FieldError::invalid(
            "spec.leaseTransitions",
            BadValue::Int(t),
            "must be greater than or equal to 0",
        ));
    }
    let holder = lease
        .pointer("/spec/preferredHolder")
        .and_then(Value::as_str)
        .unwrap_or("");
    let strategy = lease
        .pointer("/spec/strategy")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !holder.is_empty() && strategy.is_empty() {
        errs.push(FieldError::forbidden(
            "spec.preferredHolder",
            "may only be specified if `strategy` is defined",
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn budgets_set_one_bound_within_100_percent() {
        let both = json!({"spec": {"minAvailable": 1, "maxUnavailable": 1, "selector": {"matchLabels": {"a": "b"}}}});
        let errs = pod_disruption_budget(&both);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "spec");
        assert_eq!(
            errs[0].detail,
            "minAvailable and maxUnavailable cannot be both set"
        );
        let over = json!({"spec": {"maxUnavailable": "150%"}});
        assert_eq!(
            pod_disruption_budget(&over)[0].message(),
            "spec.maxUnavailable: Invalid value: 150%: must not be greater than 100%"
        );
    }

    #[test]
    fn leases_last_a_positive_time() {
        assert_eq!(
            lease(&json!({"spec": {"leaseDurationSeconds": -5}}))[0].message(),
            "spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0"
        );
        assert!(
            lease(&json!({"spec": {"leaseDurationSeconds": 15, "holderIdentity": "a"}})).is_empty()
        );
    }
}
