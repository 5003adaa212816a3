//! flowcontrol.apiserver.k8s.io/v1 FlowSchemas and PriorityLevelConfigurations
//! (`pkg/apis/flowcontrol/validation`): a schema names its priority level, a sane
//! precedence and rules with subjects and resources; a level is Exempt or Limited with
//! positive queuing figures.

use serde_json::{Value, json};

use super::field::{BadValue, ErrorList, FieldError};
use super::json::{items, text};
use super::{rbac, require};

/// A FlowSchema.
pub fn flow_schema(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    errs.extend(require::set(
        text(obj, "/spec/priorityLevelConfiguration/name"),
        "spec.priorityLevelConfiguration.name",
        "must reference a priority level",
    ));
    let precedence = obj
        .pointer("/spec/matchingPrecedence")
        .cloned()
        .unwrap_or(json!(1000));
    match precedence.as_i64() {
        Some(n) if n <= 0 => errs.push(FieldError::invalid(
            "spec.matchingPrecedence",
            &precedence,
            "must be a positive value",
        )),
        Some(n) if n > 10000 => errs.push(FieldError::invalid(
            "spec.matchingPrecedence",
            &precedence,
            "must not be greater than 10000",
        )),
        _ => {}
    }
    if obj.pointer("/spec/distinguisherMethod").is_some() {
        errs.extend(require::supported(
            text(obj, "/spec/distinguisherMethod/type"),
            "spec.distinguisherMethod.type",
            &["ByNamespace", "ByUser"],
        ));
    }
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    for (i, rule) in items(spec, "rules").iter().enumerate() {
        let f = format!("spec.rules[{i}]");
        let subjects = items(rule, "subjects");
        errs.extend(require::listed(
            subjects,
            format!("{f}.subjects"),
            "subjects must contain at least one value",
        ));
        for (j, s) in subjects.iter().enumerate() {
            let sf = format!("{f}.subjects[{j}]");
            let (name, detail) = match text(s, "/kind") {
                "User" => ("user.name", "username is required"),
                "Group" => ("group.name", "name is required"),
                "ServiceAccount" => ("serviceAccount.name", "name is required"),
                other => {
                    errs.push(FieldError::not_supported(
                        format!("{sf}.kind"),
                        BadValue::Str(other.into()),
                        &["Group", "ServiceAccount", "User"],
                    ));
                    continue;
                }
            };
            let ptr = format!("/{}", name.replace('.', "/"));
            errs.extend(require::set(text(s, &ptr), format!("{sf}.{name}"), detail));
        }
        let resource_rules = items(rule, "resourceRules");
        if resource_rules.is_empty() && items(rule, "nonResourceRules").is_empty() {
            errs.push(FieldError::required(
                f.clone(),
                "at least one of resourceRules and nonResourceRules has to be non-empty",
            ));
        }
        for (j, r) in resource_rules.iter().enumerate() {
            let rf = format!("{f}.resourceRules[{j}].");
            errs.extend(rbac::verbs(r, &rf));
            errs.extend(rbac::resource_rule(r, &rf));
            if items(r, "namespaces").is_empty()
                && r.get("clusterScope").and_then(Value::as_bool) != Some(true)
            {
                errs.push(FieldError::required(
                    format!("{rf}namespaces"),
                    "resource rules that are not cluster scoped must supply at least one namespace",
                ));
            }
        }
    }
    errs
}

/// A PriorityLevelConfiguration.
pub fn priority_level(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let ty = text(obj, "/spec/type");
    let limited = obj.pointer("/spec/limited");
    match ty {
        "Exempt" => {
            if limited.is_some() {
                errs.push(FieldError::forbidden(
                    "spec.limited",
                    "must be nil if the type is not Limited",
                ));
            }
        }
        "Limited" => match limited {
            None => errs.push(FieldError::required(
                "spec.limited",
                "must not be empty when type is Limited",
            )),
            Some(l) => {
                if let Some(n) = l.get("nominalConcurrencyShares").and_then(Value::as_i64)
                    && n < 0
                {
                    errs.push(FieldError::invalid(
                        "spec.limited.nominalConcurrencyShares",
                        BadValue::Int(n),
                        "must be a non-negative integer",
                    ));
                }
                if let Some(p) = l.get("lendablePercent").and_then(Value::as_i64)
                    && !(0..=100).contains(&p)
                {
                    errs.push(FieldError::invalid(
                        "spec.limited.lendablePercent",
                        BadValue::Int(p),
                        "must be between 0 and 100, inclusive",
                    ));
                }
                match text(l, "/limitResponse/type") {
                    "Reject" => {
                        if l.pointer("/limitResponse/queuing").is_some() {
                            errs.push(FieldError::forbidden(
                                "spec.limited.limitResponse.queuing",
                                "must be nil if limited.limitResponse.type is not Limited",
                            ));
                        }
                    }
                    "Queue" => {
                        let q = l
                            .pointer("/limitResponse/queuing")
                            .cloned()
                            .unwrap_or(json!({}));
                        let n = |k: &str| q.get(k).and_then(Value::as_i64).unwrap_or(0);
                        for k in ["queues", "handSize", "queueLengthLimit"] {
                            if n(k) <= 0 {
                                errs.push(FieldError::invalid(
                                    format!("spec.limited.limitResponse.queuing.{k}"),
                                    BadValue::Int(n(k)),
                                    "must be positive",
                                ));
                            }
                        }
                        if n("handSize") > n("queues") && n("queues") > 0 {
                            errs.push(FieldError::invalid(
                                "spec.limited.limitResponse.queuing.handSize",
                                BadValue::Int(n("handSize")),
                                format!("should not be greater than queues ({})", n("queues")),
                            ));
                        }
                    }
                    other => errs.push(FieldError::not_supported(
                        "spec.limited.limitResponse.type",
                        BadValue::Str(other.into()),
                        &["Queue", "Reject"],
                    )),
                }
            }
        },
        other => errs.push(FieldError::not_supported(
            "spec.type",
            BadValue::Str(other.into()),
            &["Exempt", "Limited"],
        )),
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priority_levels_queue_no_more_hands_than_queues() {
        // As defaulting leaves a Limited level that queues.
        let p = json!({"metadata": {"name": "x"}, "spec": {"type": "Limited", "limited": {
            "nominalConcurrencyShares": 30, "lendablePercent": 0,
            "limitResponse": {"type": "Queue", "queuing": {"queues": 2, "handSize": 4, "queueLengthLimit": 50}}}}});
        let errs = priority_level(&p);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].field, "spec.limited.limitResponse.queuing.handSize");
    }

    #[test]
    fn flow_schemas_name_a_level_and_a_precedence_in_range() {
        let fs = json!({"metadata": {"name": "bad"},
            "spec": {"matchingPrecedence": 20000, "priorityLevelConfiguration": {"name": ""}}});
        let fields: Vec<String> = flow_schema(&fs).into_iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "spec.priorityLevelConfiguration.name",
                "spec.matchingPrecedence"
            ]
        );
    }
}
