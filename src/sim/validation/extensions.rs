//! What extends the API server: admission webhook configurations
//! (`pkg/apis/admissionregistration/validation`; stored and validated, never called),
//! aggregated APIServices (the aggregator's `apiregistration/validation`) and
//! CustomResourceDefinitions (`apiextensions/validation`).

use serde_json::{Value, json};

use super::field::{BadValue, ErrorList, FieldError, go_quote};
use super::json::items;
use super::names::{is_dns1035_label, is_dns1123_subdomain, is_path_segment_name};
use crate::sim::store::str_at;

fn list(v: &Value, key: &str) -> Vec<Value> {
    items(v, key).to_vec()
}

fn webhooks(obj: &Value, mutating: bool) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut names: Vec<String> = Vec::new();
    for (i, w) in list(obj, "webhooks").iter().enumerate() {
        let f = |k: &str| format!("webhooks[{i}].{k}");
        let name = str_at(w, "/name");
        if name.is_empty() {
            errs.push(FieldError::required(f("name"), ""));
        } else if name.split('.').count() < 3 || !is_dns1123_subdomain(&name).is_empty() {
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
    let name = str_at(obj, "/metadata/name");
    let group = str_at(obj, "/spec/group");
    let version = str_at(obj, "/spec/version");
    // The name rule (`ValidateAPIService`'s name func): a path segment, which the
    // metadata pass checks, and then exactly `version.group`.
    let required = format!("{version}.{group}");
    if !name.is_empty() && is_path_segment_name(&name, false).is_empty() && name != required {
        errs.push(FieldError::invalid(
            "metadata.name",
            BadValue::Str(name.clone()),
            format!(
                "must be `spec.version+\".\"+spec.group`: {}",
                go_quote(&required)
            ),
        ));
    }
    if version.is_empty() {
        errs.push(FieldError::required("spec.version", ""));
    } else {
        for m in is_dns1035_label(&version) {
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
    errs
}

/// A CustomResourceDefinition (the rules a client most often breaks).
pub fn custom_resource_definition(crd: &Value) -> ErrorList {
    let mut errs = Vec::new();
    let name = str_at(crd, "/metadata/name");
    let group = str_at(crd, "/spec/group");
    let plural = str_at(crd, "/spec/names/plural");
    let kind = str_at(crd, "/spec/names/kind");
    // An empty name is the metadata pass's to report.
    if !name.is_empty() && name != format!("{plural}.{group}") {
        errs.push(FieldError::invalid(
            "metadata.name",
            &json!(name),
            "must be spec.names.plural+\".\"+spec.group",
        ));
    }
    if group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else if !group.contains('.') {
        errs.push(FieldError::invalid(
            "spec.group",
            &json!(group),
            "should be a domain with at least one dot",
        ));
    }
    if plural.is_empty() {
        errs.push(FieldError::required("spec.names.plural", ""));
    } else {
        for m in is_dns1035_label(&plural) {
            errs.push(FieldError::invalid("spec.names.plural", &json!(plural), &m));
        }
    }
    if kind.is_empty() {
        errs.push(FieldError::required("spec.names.kind", ""));
    }
    let scope = str_at(crd, "/spec/scope");
    if !["Cluster", "Namespaced"].contains(&scope.as_str()) {
        errs.push(if scope.is_empty() {
            FieldError::required("spec.scope", "")
        } else {
            FieldError::not_supported("spec.scope", &json!(scope), &["Cluster", "Namespaced"])
        });
    }
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
            let vname = str_at(v, "/name");
            if vname.is_empty() {
                errs.push(FieldError::required(format!("spec.versions[{i}].name"), ""));
            }
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
            &json!(str_at(new, "/spec/group")),
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
