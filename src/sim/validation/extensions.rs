//! What extends the API server: admission webhook configurations
//! (`pkg/apis/admissionregistration/validation`; stored and validated, never called),
//! aggregated APIServices (the aggregator's `apiregistration/validation`) and
//! CustomResourceDefinitions (`apiextensions/validation`).

use serde_json::{Value, json};

use super::field::{BadValue, ErrorList, FieldError, go_quote};
use super::json::{items, text};
use super::names::{is_dns1035_label, is_dns1123_subdomain, is_path_segment_name};
use super::require;

fn client_config(w: &Value, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let url = w.pointer("/clientConfig/url").and_then(Value::as_str);
    match (url, w.pointer("/clientConfig/service")) {
        (Some(_), Some(_)) | (None, None) => errs.push(FieldError::required(
            format!("{path}clientConfig"),
            "exactly one of url or service is required",
        )),
        (Some(u), None) => {
            if !u.starts_with("https://") {
                errs.push(FieldError::invalid(
                    format!("{path}clientConfig.url"),
                    BadValue::Str(u.into()),
                    "'https' is the only allowed URL scheme",
                ));
            }
        }
        (None, Some(s)) => {
            let service = format!("{path}clientConfig.service");
            errs.extend(require::set(
                text(s, "/name"),
                format!("{service}.name"),
                "service name is required",
            ));
            errs.extend(require::set(
                text(s, "/namespace"),
                format!("{service}.namespace"),
                "service namespace is required",
            ));
            if let Some(p) = s.get("port").and_then(Value::as_i64)
                && !(1..=65535).contains(&p)
            {
                errs.push(FieldError::invalid(
                    format!("{service}.port"),
                    BadValue::Int(p),
                    "port is not valid: must be between 1 and 65535, inclusive",
                ));
            }
        }
    }
    errs
}

fn rule_with_operations(r: &Value, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let ops = items(r, "operations");
    errs.extend(require::listed(ops, format!("{path}operations"), ""));
    for op in ops {
        errs.extend(require::supported(
            op.as_str().unwrap_or_default(),
            format!("{path}operations"),
            &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"],
        ));
    }
    for k in ["apiGroups", "apiVersions", "resources"] {
        errs.extend(require::listed(items(r, k), format!("{path}{k}"), ""));
    }
    errs.extend(require::supported(
        text(r, "/scope"),
        format!("{path}scope"),
        &["*", "Cluster", "Namespaced"],
    ));
    errs
}

fn webhook(w: &Value, path: &str, mutating: bool) -> ErrorList {
    let mut errs = client_config(w, path);
    let f = |k: &str| format!("{path}{k}");
    errs.extend(require::set_and_supported(
        text(w, "/sideEffects"),
        f("sideEffects"),
        &["None", "NoneOnDryRun"],
        "must specify one of None, NoneOnDryRun",
    ));
    let versions = items(w, "admissionReviewVersions");
    if versions.is_empty() {
        errs.push(FieldError::required(
            f("admissionReviewVersions"),
            "must specify one of v1, v1beta1",
        ));
    } else if !versions.iter().any(|v| v == "v1" || v == "v1beta1") {
        errs.push(FieldError::invalid(
            f("admissionReviewVersions"),
            &Value::Array(versions.to_vec()),
            "must include at least one of v1, v1beta1",
        ));
    }
    errs.extend(require::supported(
        text(w, "/failurePolicy"),
        f("failurePolicy"),
        &["Fail", "Ignore"],
    ));
    errs.extend(require::supported(
        text(w, "/matchPolicy"),
        f("matchPolicy"),
        &["Equivalent", "Exact"],
    ));
    if let Some(t) = w.get("timeoutSeconds").and_then(Value::as_i64)
        && !(1..=30).contains(&t)
    {
        errs.push(FieldError::invalid(
            f("timeoutSeconds"),
            BadValue::Int(t),
            "the timeout value must be between 1 and 30 seconds",
        ));
    }
    if mutating {
        errs.extend(require::supported(
            text(w, "/reinvocationPolicy"),
            f("reinvocationPolicy"),
            &["IfNeeded", "Never"],
        ));
    }
    for (j, r) in items(w, "rules").iter().enumerate() {
        errs.extend(rule_with_operations(r, &f(&format!("rules[{j}]."))));
    }
    errs
}

fn webhooks(obj: &Value, mutating: bool) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut names: Vec<&str> = Vec::new();
    for (i, w) in items(obj, "webhooks").iter().enumerate() {
        let path = format!("webhooks[{i}].");
        let name = text(w, "/name");
        let field = format!("{path}name");
        if name.is_empty() {
            errs.push(FieldError::required(field, ""));
        } else if name.split('.').count() < 3 || !is_dns1123_subdomain(name).is_empty() {
            errs.push(FieldError::invalid(
                field,
                BadValue::Str(name.into()),
                "should be a domain with at least three segments separated by dots",
            ));
        } else if names.contains(&name) {
            errs.push(FieldError::duplicate(field, BadValue::Str(name.into())));
        }
        names.push(name);
        errs.extend(webhook(w, &path, mutating));
    }
    errs
}

/// A ValidatingWebhookConfiguration.
pub fn validating_webhooks(obj: &Value) -> ErrorList {
    webhooks(obj, false)
}

/// A MutatingWebhookConfiguration (its webhooks also say when they run again).
pub fn mutating_webhooks(obj: &Value) -> ErrorList {
    webhooks(obj, true)
}

/// An APIService.
pub fn api_service(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let name = text(obj, "/metadata/name");
    let group = text(obj, "/spec/group");
    let version = text(obj, "/spec/version");
    // The name rule (`ValidateAPIService`'s name func): a path segment, which the
    // metadata pass checks, and then exactly `version.group`.
    let required = format!("{version}.{group}");
    if !name.is_empty() && is_path_segment_name(name, false).is_empty() && name != required {
        errs.push(FieldError::invalid(
            "metadata.name",
            BadValue::Str(name.into()),
            format!(
                "must be `spec.version+\".\"+spec.group`: {}",
                go_quote(&required)
            ),
        ));
    }
    if version.is_empty() {
        errs.push(FieldError::required("spec.version", ""));
    } else {
        errs.extend(require::valid(version, "spec.version", is_dns1035_label));
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
        errs.extend(require::set(text(s, "/name"), "spec.service.name", ""));
        errs.extend(require::set(
            text(s, "/namespace"),
            "spec.service.namespace",
            "",
        ));
    }
    errs
}

/// A CustomResourceDefinition (the rules a client most often breaks).
pub fn custom_resource_definition(crd: &Value) -> ErrorList {
    let mut errs = Vec::new();
    let name = text(crd, "/metadata/name");
    let group = text(crd, "/spec/group");
    let plural = text(crd, "/spec/names/plural");
    let kind = text(crd, "/spec/names/kind");
    // An empty name is the metadata pass's to report.
    if !name.is_empty() && name != format!("{plural}.{group}") {
        errs.push(FieldError::invalid(
            "metadata.name",
            BadValue::Str(name.into()),
            "must be spec.names.plural+\".\"+spec.group",
        ));
    }
    if group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else if !group.contains('.') {
        errs.push(FieldError::invalid(
            "spec.group",
            BadValue::Str(group.into()),
            "should be a domain with at least one dot",
        ));
    }
    if plural.is_empty() {
        errs.push(FieldError::required("spec.names.plural", ""));
    } else {
        errs.extend(require::valid(
            plural,
            "spec.names.plural",
            is_dns1035_label,
        ));
    }
    errs.extend(require::set(kind, "spec.names.kind", ""));
    errs.extend(require::set_and_supported(
        text(crd, "/spec/scope"),
        "spec.scope",
        &["Cluster", "Namespaced"],
        "",
    ));
    let versions = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if versions.is_empty() {
        errs.push(FieldError::invalid(
            "spec.versions",
            &json!(versions),
            "must have exactly one version marked as storage version",
        ));
    } else {
        let storage = versions
            .iter()
            .filter(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
            .count();
        if storage != 1 {
            errs.push(FieldError::invalid(
                "spec.versions",
                &Value::Array(versions.clone()),
                "must have exactly one version marked as storage version",
            ));
        }
        for (i, v) in versions.iter().enumerate() {
            errs.extend(require::set(
                text(v, "/name"),
                format!("spec.versions[{i}].name"),
                "",
            ));
            match v.pointer("/schema/openAPIV3Schema") {
                None => errs.push(FieldError::required(
                    format!("spec.versions[{i}].schema.openAPIV3Schema"),
                    "schemas are required",
                )),
                Some(s) if s.get("type").and_then(Value::as_str) != Some("object") => {
                    errs.push(FieldError::invalid(
                        format!("spec.versions[{i}].schema.openAPIV3Schema.type"),
                        &s.get("type").cloned().unwrap_or(json!("")),
                        "must be object at the root",
                    ))
                }
                Some(_) => {}
            }
        }
    }
    errs
}

/// A CustomResourceDefinition update: valid, and in the same group.
pub fn custom_resource_definition_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = custom_resource_definition(new);
    if old.pointer("/spec/group") != new.pointer("/spec/group") {
        errs.push(FieldError::invalid(
            "spec.group",
            BadValue::Str(text(new, "/spec/group").into()),
            "field is immutable",
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhooks_need_qualified_names_side_effects_and_one_client() {
        // As defaulting leaves them: policies, timeout and service port set.
        let w = json!({"metadata": {"name": "policy"}, "webhooks": [
            {"name": "check", "clientConfig": {"service": {"name": "hook", "namespace": "kube-system", "port": 443}},
             "admissionReviewVersions": ["v1"], "failurePolicy": "Fail", "matchPolicy": "Equivalent", "timeoutSeconds": 10},
            {"name": "a.b.c", "clientConfig": {"url": "http://x"}, "sideEffects": "Some", "admissionReviewVersions": ["v1"],
             "failurePolicy": "Fail", "matchPolicy": "Equivalent", "timeoutSeconds": 31}]});
        let errs = validating_webhooks(&w);
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
    fn api_services_are_named_version_dot_group() {
        let errs = api_service(
            &json!({"metadata": {"name": "v1.metrics"}, "spec": {"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": 100, "versionPriority": 100}}),
        );
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "metadata.name");
    }

    #[test]
    fn a_definition_must_name_itself_after_its_plural_and_group() {
        let crd = json!({"metadata": {"name": "wrong"}, "spec": {"group": "example", "scope": "Namespaced",
            "names": {"plural": "things", "kind": "Thing"}, "versions": [{"name": "v1", "served": true, "storage": false}]}});
        let fields: Vec<String> = custom_resource_definition(&crd)
            .into_iter()
            .map(|e| e.field)
            .collect();
        for f in [
            "metadata.name",
            "spec.group",
            "spec.versions",
            "spec.versions[0].schema.openAPIV3Schema",
        ] {
            assert!(fields.iter().any(|x| x == f), "{f}: {fields:?}");
        }
        let mut moved = crd.clone();
        moved["spec"]["group"] = json!("other.example.com");
        assert!(
            custom_resource_definition_update(&moved, &crd)
                .iter()
                .any(|e| e.message()
                    == "spec.group: Invalid value: \"other.example.com\": field is immutable")
        );
    }
}
