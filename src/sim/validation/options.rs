//! Request options, the same for every kind (`ValidateCreateOptions`,
//! `ValidateUpdateOptions`, `ValidatePatchOptions`, `ValidateDeleteOptions` in
//! apimachinery/pkg/apis/meta/v1/validation, `ValidateListOptions` in
//! meta/internalversion/validation, and the field label conversions of each kind).
//! Refusals are `422 Invalid` of kind `CreateOptions.meta.k8s.io` (etc.) with no name.

use std::collections::HashMap;

use serde_json::Value;

use super::Invalid;
use super::field::{BadValue, ErrorList, FieldError, go_quote, go_string_slice};
use crate::sim::error::ApiError;

/// Longest field manager name.
const FIELD_MANAGER_MAX: usize = 128;

/// The write a request makes, which names its options kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// POST: `CreateOptions`.
    Create,
    /// PUT: `UpdateOptions`.
    Update,
    /// PATCH: `PatchOptions`; server-side apply needs a field manager.
    Patch {
        /// Whether the patch is an apply patch.
        apply: bool,
    },
}

fn refuse(kind: &str, errors: ErrorList) -> Result<(), ApiError> {
    if errors.is_empty() {
        return Ok(());
    }
    Err(Invalid {
        group: "meta.k8s.io".into(),
        kind: kind.into(),
        name: String::new(),
        errors,
    }
    .into())
}

fn dry_run(values: &[String]) -> ErrorList {
    if values.iter().all(|v| v == "All") {
        return Vec::new();
    }
    vec![FieldError::not_supported(
        "dryRun",
        BadValue::Raw(go_string_slice(values)),
        &["All"],
    )]
}

fn query_list(q: &HashMap<String, String>, key: &str) -> Vec<String> {
    q.get(key).map(|v| vec![v.clone()]).unwrap_or_default()
}

fn field_manager(manager: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    if manager.len() > FIELD_MANAGER_MAX {
        errs.push(FieldError::too_long("fieldManager", FIELD_MANAGER_MAX));
    }
    for (i, c) in manager.char_indices() {
        if c.is_control() {
            errs.push(FieldError::invalid(
                "fieldManager",
                BadValue::Str(manager.into()),
                format!("invalid character U+{:04X} (at position {i})", c as u32),
            ));
        }
    }
    errs
}

/// The options of a create, update or patch, from the query.
pub fn write_options(q: &HashMap<String, String>, write: Write) -> Result<(), ApiError> {
    let mut errs = ErrorList::new();
    let manager = q.get("fieldManager").map(String::as_str).unwrap_or("");
    let kind = match write {
        Write::Create => "CreateOptions",
        Write::Update => "UpdateOptions",
        Write::Patch { apply } => {
            if !apply && q.contains_key("force") {
                errs.push(FieldError::forbidden(
                    "force",
                    "may not be specified for non-apply patch",
                ));
            }
            if apply && manager.is_empty() {
                errs.push(FieldError::required(
                    "fieldManager",
                    "is required for apply patch",
                ));
            }
            "PatchOptions"
        }
    };
    errs.extend(field_manager(manager));
    errs.extend(dry_run(&query_list(q, "dryRun")));
    let validation = q.get("fieldValidation").map(String::as_str).unwrap_or("");
    if !["", "Ignore", "Strict", "Warn"].contains(&validation) {
        errs.push(FieldError::not_supported(
            "fieldValidation",
            BadValue::Str(validation.into()),
            &["", "Ignore", "Strict", "Warn"],
        ));
    }
    refuse(kind, errs)
}

/// `DeleteOptions` as the API server reads them: from the body when there is one,
/// else from the query.
pub struct DeleteOptions {
    /// `propagationPolicy`.
    pub propagation: Option<String>,
    /// `orphanDependents` (deprecated).
    pub orphan_dependents: Option<bool>,
    /// `dryRun`.
    pub dry_run: Vec<String>,
}

impl DeleteOptions {
    /// Reads the options of a delete.
    pub fn read(body: Option<&Value>, q: &HashMap<String, String>) -> DeleteOptions {
        match body.filter(|b| b.is_object()) {
            Some(b) => DeleteOptions {
                propagation: b
                    .get("propagationPolicy")
                    .and_then(Value::as_str)
                    .map(String::from),
                orphan_dependents: b.get("orphanDependents").and_then(Value::as_bool),
                dry_run: b
                    .get("dryRun")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|v| v.as_str().unwrap_or_default().to_string())
                            .collect()
                    })
                    .unwrap_or_default(),
            },
            None => DeleteOptions {
                propagation: q.get("propagationPolicy").cloned(),
                orphan_dependents: q.get("orphanDependents").map(|v| v == "true"),
                dry_run: query_list(q, "dryRun"),
            },
        }
    }

    /// Whether the delete is a dry run (`dryRun: [All]`).
    pub fn is_dry_run(&self) -> bool {
        !self.dry_run.is_empty() && self.dry_run.iter().all(|v| v == "All")
    }

    /// `ValidateDeleteOptions`.
    pub fn validate(&self) -> Result<(), ApiError> {
        let mut errs = ErrorList::new();
        if let Some(p) = &self.propagation {
            if self.orphan_dependents.is_some() {
                errs.push(FieldError::invalid(
                    "propagationPolicy",
                    BadValue::Raw(go_quote(p)),
                    "orphanDependents and deletionPropagation cannot be both set",
                ));
            }
            if !["Foreground", "Background", "Orphan"].contains(&p.as_str()) {
                errs.push(FieldError::not_supported(
                    "propagationPolicy",
                    BadValue::Raw(go_quote(p)),
                    &["Foreground", "Background", "Orphan", "nil"],
                ));
            }
        }
        errs.extend(dry_run(&self.dry_run));
        refuse("DeleteOptions", errs)
    }
}

/// The fields a kind can be selected by (`AddFieldLabelConversionFunc`); `None` for
/// kinds with only the default conversion (name and namespace).
fn field_labels(group: &str, kind: &str) -> Option<&'static [&'static str]> {
    Some(match (group, kind) {
        ("", "Pod") => &[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
            "spec.host",
        ],
        ("", "Node") => &["metadata.name", "spec.unschedulable"],
        ("", "Event") => &[
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
            "metadata.namespace",
            "metadata.name",
        ],
        ("", "Namespace") => &["status.phase", "metadata.name"],
        ("", "Secret") => &["type", "metadata.namespace", "metadata.name"],
        ("", "ReplicationController") | ("apps", "ReplicaSet") => {
            &["metadata.name", "metadata.namespace", "status.replicas"]
        }
        ("batch", "Job") => &["metadata.name", "metadata.namespace", "status.successful"],
        _ => return None,
    })
}

/// The field labels of a `fieldSelector` (`a=b,c!=d`).
fn selector_labels(selector: &str) -> Vec<String> {
    selector
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let end = t.find(['=', '!']).unwrap_or(t.len());
            t[..end].trim().to_string()
        })
        .collect()
}

fn field_selector(group: &str, kind: &str, selector: &str) -> Result<(), ApiError> {
    for label in selector_labels(selector) {
        match field_labels(group, kind) {
            Some(known) if known.contains(&label.as_str()) => {}
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "field label not supported: {label}"
                )));
            }
            None if label == "metadata.name" || label == "metadata.namespace" => {}
            None => {
                return Err(ApiError::bad_request(format!(
                    "{} is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
                    go_quote(&label)
                )));
            }
        }
    }
    Ok(())
}

/// The options of a list or watch of `group`/`kind` (after the selectors parsed).
pub fn list_options(
    group: &str,
    kind: &str,
    q: &HashMap<String, String>,
    watch: bool,
) -> Result<(), ApiError> {
    if let Some(sel) = q.get("fieldSelector") {
        field_selector(group, kind, sel)?;
    }
    let get = |k: &str| q.get(k).map(String::as_str).unwrap_or("");
    let matching = get("resourceVersionMatch");
    let rv = get("resourceVersion");
    let cont = get("continue");
    let initial = q.contains_key("sendInitialEvents");
    let mut errs = ErrorList::new();
    let forbid = |detail: &str| FieldError::forbidden("resourceVersionMatch", detail);
    if watch {
        if initial && matching != "NotOlderThan" {
            errs.push(forbid(
                "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ));
        }
        if !matching.is_empty() {
            if !initial {
                errs.push(forbid(
                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                ));
            }
            if matching != "NotOlderThan" {
                errs.push(FieldError::not_supported(
                    "resourceVersionMatch",
                    BadValue::Str(matching.into()),
                    &["NotOlderThan"],
                ));
            }
            if !cont.is_empty() {
                errs.push(forbid(
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
        }
    } else {
        if !matching.is_empty() {
            if rv.is_empty() {
                errs.push(forbid(
                    "resourceVersionMatch is forbidden unless resourceVersion is provided",
                ));
            }
            if !cont.is_empty() {
                errs.push(forbid(
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
            if matching != "Exact" && matching != "NotOlderThan" {
                errs.push(FieldError::not_supported(
                    "resourceVersionMatch",
                    BadValue::Str(matching.into()),
                    &["Exact", "NotOlderThan", ""],
                ));
            }
            if matching == "Exact" && rv == "0" {
                errs.push(forbid(
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
                ));
            }
        }
        if initial {
            errs.push(FieldError::forbidden(
                "sendInitialEvents",
                "sendInitialEvents is forbidden for list",
            ));
        }
    }
    refuse("ListOptions", errs)?;
    if !watch && !cont.is_empty() && !rv.is_empty() && rv != "0" {
        return Err(ApiError::bad_request(
            "specifying resource version is not allowed when using continue",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn dry_run_must_be_all() {
        assert!(write_options(&q(&[("dryRun", "All")]), Write::Create).is_ok());
        let e = write_options(&q(&[("dryRun", "Foo")]), Write::Create).unwrap_err();
        assert_eq!(e.code, 422);
        assert_eq!(
            e.message,
            "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Foo\"}: supported values: \"All\""
        );
        let apply = write_options(&q(&[]), Write::Patch { apply: true }).unwrap_err();
        assert_eq!(
            apply.message,
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
        );
    }

    #[test]
    fn propagation_policies_are_three() {
        let o = DeleteOptions::read(None, &q(&[("propagationPolicy", "Bogus")]));
        assert_eq!(
            o.validate().unwrap_err().message,
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
        );
        let body = serde_json::json!({"propagationPolicy": "Foreground", "dryRun": ["All"]});
        let o = DeleteOptions::read(Some(&body), &q(&[("propagationPolicy", "Bogus")]));
        assert!(o.validate().is_ok() && o.is_dry_run());
    }

    #[test]
    fn list_options_combinations() {
        let e = list_options(
            "",
            "Pod",
            &q(&[("resourceVersionMatch", "NotOlderThan")]),
            false,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
        );
        assert!(
            list_options(
                "",
                "Pod",
                &q(&[("resourceVersionMatch", "Exact"), ("resourceVersion", "5")]),
                false
            )
            .is_ok()
        );
        assert!(
            list_options(
                "",
                "Pod",
                &q(&[
                    ("sendInitialEvents", "true"),
                    ("resourceVersionMatch", "NotOlderThan")
                ]),
                true
            )
            .is_ok()
        );
        assert_eq!(
            list_options(
                "",
                "ConfigMap",
                &q(&[("fieldSelector", "spec.nodeName=n1")]),
                false
            )
            .unwrap_err()
            .message,
            "\"spec.nodeName\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        );
        assert!(
            list_options(
                "",
                "Pod",
                &q(&[("fieldSelector", "spec.nodeName=n1,status.phase!=Failed")]),
                false
            )
            .is_ok()
        );
    }
}
