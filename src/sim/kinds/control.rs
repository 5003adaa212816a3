//! The API server's own configuration kinds: flow control (FlowSchema,
//! PriorityLevelConfiguration), admission webhooks (stored and validated, never
//! called) and APIServices, with the defaults and validation of
//! `pkg/apis/flowcontrol/validation`, `pkg/apis/admissionregistration/validation` and
//! the aggregator's `apiregistration/validation`.

use serde_json::{Value, json};

use super::super::field_errors::{
    FieldError, dns1035_label, dns1123_subdomain, object_meta, path_segment,
};
use super::super::fleet::ClusterState;
use super::super::resource::Kind;
use super::super::store::str_at;

fn list(v: &Value, key: &str) -> Vec<Value> {
    v.get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Defaults of a FlowSchema.
pub fn flow_schema_defaults(obj: &mut Value) {
    if obj.pointer("/spec/matchingPrecedence").is_none() && obj["spec"].is_object() {
        obj["spec"]["matchingPrecedence"] = json!(1000);
    }
}

/// Validation of a FlowSchema; also sets its `Dangling` condition (whether the priority
/// level it names exists), which the API server maintains.
pub fn validate_flow_schema(st: &ClusterState, obj: &mut Value, errs: &mut Vec<FieldError>) {
    object_meta(obj, path_segment, errs);
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

/// Validation of a PriorityLevelConfiguration.
pub fn validate_priority_level(obj: &Value, errs: &mut Vec<FieldError>) {
    object_meta(obj, path_segment, errs);
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
                                &format!("should not be greater than queues ({})", n("queues")),
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

/// Validation of a Validating- or MutatingWebhookConfiguration.
pub fn validate_webhooks(obj: &Value, mutating: bool, errs: &mut Vec<FieldError>) {
    object_meta(obj, dns1123_subdomain, errs);
    let mut names: Vec<String> = Vec::new();
    for (i, w) in list(obj, "webhooks").iter().enumerate() {
        let f = |k: &str| format!("webhooks[{i}].{k}");
        let name = str_at(w, "/name");
        if name.is_empty() {
            errs.push(FieldError::required(f("name"), ""));
        } else if name.split('.').count() < 3 || !dns1123_subdomain(&name).is_empty() {
            errs.push(FieldError::invalid(
                f("name"),
                &json!(name),
                "should be a domain with at least three segments separated by dots",
            ));
        } else if names.contains(&name) {
            errs.push(FieldError::duplicate(f("name"), &json!(name)));
        }
        names.push(name);
        let url = w.pointer("/clientConfig/url").and_then(Value::as_str);
        let svc = w.pointer("/clientConfig/service");
        match (url, svc) {
            (Some(_), Some(_)) | (None, None) => errs.push(FieldError::required(
                f("clientConfig"),
                "exactly one of url or service is required",
            )),
            (Some(u), None) => {
                if !u.starts_with("https://") {
                    errs.push(FieldError::invalid(
                        f("clientConfig.url"),
                        &json!(u),
                        "'https' is the only allowed URL scheme",
                    ));
                }
            }
            (None, Some(s)) => {
                if str_at(s, "/name").is_empty() {
                    errs.push(FieldError::required(
                        f("clientConfig.service.name"),
                        "service name is required",
                    ));
                }
                if str_at(s, "/namespace").is_empty() {
                    errs.push(FieldError::required(
                        f("clientConfig.service.namespace"),
                        "service namespace is required",
                    ));
                }
                if let Some(p) = s.get("port").and_then(Value::as_i64)
                    && !(1..=65535).contains(&p)
                {
                    errs.push(FieldError::invalid(
                        f("clientConfig.service.port"),
                        &json!(p),
                        "port is not valid: must be between 1 and 65535, inclusive",
                    ));
                }
            }
        }
        let side = str_at(w, "/sideEffects");
        if side.is_empty() {
            errs.push(FieldError::required(
                f("sideEffects"),
                "must specify one of None, NoneOnDryRun",
            ));
        } else if !["None", "NoneOnDryRun"].contains(&side.as_str()) {
            errs.push(FieldError::not_supported(
                f("sideEffects"),
                &json!(side),
                &["None", "NoneOnDryRun"],
            ));
        }
        let versions = list(w, "admissionReviewVersions");
        if versions.is_empty() {
            errs.push(FieldError::required(
                f("admissionReviewVersions"),
                "must specify one of v1, v1beta1",
            ));
        } else if !versions.iter().any(|v| v == "v1" || v == "v1beta1") {
            errs.push(FieldError::invalid(
                f("admissionReviewVersions"),
                &Value::Array(versions.clone()),
                "must include at least one of v1, v1beta1",
            ));
        }
        let policy = str_at(w, "/failurePolicy");
        if !["Ignore", "Fail"].contains(&policy.as_str()) {
            errs.push(FieldError::not_supported(
                f("failurePolicy"),
                &json!(policy),
                &["Fail", "Ignore"],
            ));
        }
        let matching = str_at(w, "/matchPolicy");
        if !["Exact", "Equivalent"].contains(&matching.as_str()) {
            errs.push(FieldError::not_supported(
                f("matchPolicy"),
                &json!(matching),
                &["Equivalent", "Exact"],
            ));
        }
        if let Some(t) = w.get("timeoutSeconds").and_then(Value::as_i64)
            && !(1..=30).contains(&t)
        {
            errs.push(FieldError::invalid(
                f("timeoutSeconds"),
                &json!(t),
                "the timeout value must be between 1 and 30 seconds",
            ));
        }
        if mutating {
            let r = str_at(w, "/reinvocationPolicy");
            if !["Never", "IfNeeded"].contains(&r.as_str()) {
                errs.push(FieldError::not_supported(
                    f("reinvocationPolicy"),
                    &json!(r),
                    &["IfNeeded", "Never"],
                ));
            }
        }
        for (j, r) in list(w, "rules").iter().enumerate() {
            let ops = list(r, "operations");
            if ops.is_empty() {
                errs.push(FieldError::required(
                    f(&format!("rules[{j}].operations")),
                    "",
                ));
            }
            for op in ops {
                let op = op.as_str().unwrap_or_default().to_string();
                if !["*", "CREATE", "UPDATE", "DELETE", "CONNECT"].contains(&op.as_str()) {
                    errs.push(FieldError::not_supported(
                        f(&format!("rules[{j}].operations")),
                        &json!(op),
                        &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"],
                    ));
                }
            }
            for k in ["apiGroups", "apiVersions", "resources"] {
                if list(r, k).is_empty() {
                    errs.push(FieldError::required(f(&format!("rules[{j}].{k}")), ""));
                }
            }
            let scope = str_at(r, "/scope");
            if !["*", "Cluster", "Namespaced"].contains(&scope.as_str()) {
                errs.push(FieldError::not_supported(
                    f(&format!("rules[{j}].scope")),
                    &json!(scope),
                    &["*", "Cluster", "Namespaced"],
                ));
            }
        }
    }
}

/// Validation of an APIService.
pub fn validate_api_service(obj: &Value, errs: &mut Vec<FieldError>) {
    let name = str_at(obj, "/metadata/name");
    let group = str_at(obj, "/spec/group");
    let version = str_at(obj, "/spec/version");
    if name.is_empty() {
        errs.push(FieldError::required(
            "metadata.name",
            "name or generateName is required",
        ));
    } else if name != format!("{version}.{group}") {
        errs.push(FieldError::invalid(
            "metadata.name",
            &json!(name),
            "must be `spec.version+\".\"+spec.group`",
        ));
    }
    if version.is_empty() {
        errs.push(FieldError::required("spec.version", ""));
    } else {
        for m in dns1035_label(&version) {
            errs.push(FieldError::invalid("spec.version", &json!(version), &m));
        }
    }
    if group.is_empty() && version != "v1" {
        errs.push(FieldError::required(
            "spec.group",
            "only v1 may have an empty group and it better be legacy kube",
        ));
    }
    let priority = |k: &str| {
        obj.pointer(&format!("/spec/{k}"))
            .and_then(Value::as_i64)
            .unwrap_or(0)
    };
    if !(1..=20000).contains(&priority("groupPriorityMinimum")) {
        errs.push(FieldError::invalid(
            "spec.groupPriorityMinimum",
            &json!(priority("groupPriorityMinimum")),
            "must be positive and less than 20000",
        ));
    }
    if !(1..=1000).contains(&priority("versionPriority")) {
        errs.push(FieldError::invalid(
            "spec.versionPriority",
            &json!(priority("versionPriority")),
            "must be positive and less than 1000",
        ));
    }
    let insecure = obj
        .pointer("/spec/insecureSkipTLSVerify")
        .and_then(Value::as_bool)
        == Some(true);
    if insecure
        && obj
            .pointer("/spec/caBundle")
            .is_some_and(|c| !c.as_str().unwrap_or_default().is_empty())
    {
        errs.push(FieldError::invalid(
            "spec.insecureSkipTLSVerify",
            &json!(true),
            "may not be true if caBundle is present",
        ));
    }
    if let Some(s) = obj.pointer("/spec/service").filter(|s| s.is_object()) {
        if str_at(s, "/name").is_empty() {
            errs.push(FieldError::required("spec.service.name", ""));
        }
        if str_at(s, "/namespace").is_empty() {
            errs.push(FieldError::required("spec.service.namespace", ""));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhooks_need_qualified_names_side_effects_and_one_client() {
        let mut w = json!({"metadata": {"name": "policy"}, "webhooks": [
            {"name": "check", "clientConfig": {"service": {"name": "hook", "namespace": "kube-system"}},
             "admissionReviewVersions": ["v1"]},
            {"name": "a.b.c", "clientConfig": {"url": "http://x"}, "sideEffects": "Some", "admissionReviewVersions": ["v1"],
             "timeoutSeconds": 31}]});
        webhook_defaults(&mut w, false);
        assert_eq!(
            w.pointer("/webhooks/0/clientConfig/service/port"),
            Some(&json!(443))
        );
        let mut errs = Vec::new();
        validate_webhooks(&w, false, &mut errs);
        let f: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            f,
            [
                "webhooks[0].name",
                "webhooks[0].sideEffects",
                "webhooks[1].clientConfig.url",
                "webhooks[1].sideEffects",
                "webhooks[1].timeoutSeconds"
            ]
        );
    }

    #[test]
    fn priority_levels_and_api_services_are_checked() {
        let mut p = json!({"metadata": {"name": "x"}, "spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Queue", "queuing": {"queues": 2, "handSize": 4}}}}});
        priority_level_defaults(&mut p);
        let mut errs = Vec::new();
        validate_priority_level(&p, &mut errs);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].field, "spec.limited.limitResponse.queuing.handSize");
        let mut errs = Vec::new();
        validate_api_service(
            &json!({"metadata": {"name": "v1.metrics"}, "spec": {"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": 100, "versionPriority": 100}}),
            &mut errs,
        );
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "metadata.name");
    }
}
