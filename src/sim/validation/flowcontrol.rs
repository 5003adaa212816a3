//! flowcontrol.apiserver.k8s.io/v1 FlowSchemas and PriorityLevelConfigurations
//! (`pkg/apis/flowcontrol/validation`): a schema names its priority level, a sane
//! precedence and rules with subjects and resources; a level is Exempt or Limited with
//! positive queuing figures.

use serde_json::{Value, json};

use super::field::{ErrorList, FieldError};
use super::json::items;
use crate::sim::store::str_at;

fn list(v: &Value, key: &str) -> Vec<Value> {
    items(v, key).to_vec()
}

/// A FlowSchema.
pub fn flow_schema(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let level = str_at(obj, "/spec/priorityLevelConfiguration/name");
    if level.is_empty() {
        errs.push(FieldError::required(
            "spec.priorityLevelConfiguration.name",
            "must reference a priority level",
        ));
    }
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
    let dm = str_at(obj, "/spec/distinguisherMethod/type");
    if obj.pointer("/spec/distinguisherMethod").is_some()
        && !["ByUser", "ByNamespace"].contains(&dm.as_str())
    {
        errs.push(FieldError::not_supported(
            "spec.distinguisherMethod.type",
            &json!(dm),
            &["ByNamespace", "ByUser"],
        ));
    }
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    for (i, rule) in list(&spec, "rules").iter().enumerate() {
        let f = format!("spec.rules[{i}]");
        let subjects = list(rule, "subjects");
        if subjects.is_empty() {
            errs.push(FieldError::required(
                format!("{f}.subjects"),
                "subjects must contain at least one value",
            ));
        }
        for (j, s) in subjects.iter().enumerate() {
            let sf = format!("{f}.subjects[{j}]");
            match str_at(s, "/kind").as_str() {
                "User" if str_at(s, "/user/name").is_empty() => errs.push(FieldError::required(
                    format!("{sf}.user.name"),
                    "username is required",
                )),
                "Group" if str_at(s, "/group/name").is_empty() => errs.push(FieldError::required(
                    format!("{sf}.group.name"),
                    "name is required",
                )),
                "ServiceAccount" if str_at(s, "/serviceAccount/name").is_empty() => errs.push(
                    FieldError::required(format!("{sf}.serviceAccount.name"), "name is required"),
                ),
                "User" | "Group" | "ServiceAccount" => {}
                other => errs.push(FieldError::not_supported(
                    format!("{sf}.kind"),
                    &json!(other),
                    &["Group", "ServiceAccount", "User"],
                )),
            }
        }
        let resource_rules = list(rule, "resourceRules");
        if resource_rules.is_empty() && list(rule, "nonResourceRules").is_empty() {
            errs.push(FieldError::required(
                f.clone(),
                "at least one of resourceRules and nonResourceRules has to be non-empty",
            ));
        }
        for (j, r) in resource_rules.iter().enumerate() {
            let rf = format!("{f}.resourceRules[{j}]");
            for (k, what) in [
                ("verbs", "verbs"),
                (
                    "apiGroups",
                    "resource rules must supply at least one api group",
                ),
                (
                    "resources",
                    "resource rules must supply at least one resource",
                ),
            ] {
                if list(r, k).is_empty() {
                    let detail = if k == "verbs" {
                        "verbs must contain at least one value"
                    } else {
                        what
                    };
                    errs.push(FieldError::required(format!("{rf}.{k}"), detail));
                }
            }
            if list(r, "namespaces").is_empty()
                && r.get("clusterScope").and_then(Value::as_bool) != Some(true)
            {
                errs.push(FieldError::required(
                    format!("{rf}.namespaces"),
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
    let ty = str_at(obj, "/spec/type");
    let limited = obj.pointer("/spec/limited");
    match ty.as_str() {
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
                        &json!(n),
                        "must be a non-negative integer",
                    ));
                }
                if let Some(p) = l.get("lendablePercent").and_then(Value::as_i64)
                    && !(0..=100).contains(&p)
                {
                    errs.push(FieldError::invalid(
                        "spec.limited.lendablePercent",
                        &json!(p),
                        "must be between 0 and 100, inclusive",
                    ));
                }
                let rt = str_at(l, "/limitResponse/type");
                match rt.as_str() {
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
                                    &json!(n(k)),
                                    "must be positive",
                                ));
                            }
                        }
                        if n("handSize") > n("queues") && n("queues") > 0 {
                            errs.push(FieldError::invalid(
                                "spec.limited.limitResponse.queuing.handSize",
                                &json!(n("handSize")),
                                format!("should not be greater than queues ({})", n("queues")),
                            ));
                        }
                    }
                    other => errs.push(FieldError::not_supported(
                        "spec.limited.limitResponse.type",
                        &json!(other),
                        &["Queue", "Reject"],
                    )),
                }
            }
        },
        other => errs.push(FieldError::not_supported(
            "spec.type",
            &json!(other),
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
