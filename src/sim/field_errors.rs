//! Field errors as the API server reports them in a 422 `Invalid` answer (one cause
//! per error, `reason` naming the error type), and the name rules most kinds share
//! (DNS-1123 subdomains and labels, DNS-1035 labels, path segments, qualified names).

use std::fmt;

use serde_json::Value;

/// One invalid field: becomes one `details.causes[]` entry and one part of the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// `FieldValueRequired`, `FieldValueInvalid`, `FieldValueNotSupported`, …
    pub reason: &'static str,
    /// The field path, e.g. `spec.ports[0].port`.
    pub field: String,
    /// The error body, e.g. `Required value`, `Invalid value: "A": …`.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// A value as the API server quotes it in a message (Go's `%#v`: strings quoted,
/// numbers and booleans bare).
pub fn quoted(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

impl FieldError {
    /// A missing required field.
    pub fn required(field: impl Into<String>, detail: &str) -> FieldError {
        FieldError {
            reason: "FieldValueRequired",
            field: field.into(),
            message: if detail.is_empty() {
                "Required value".into()
            } else {
                format!("Required value: {detail}")
            },
        }
    }

    /// A value that breaks a rule.
    pub fn invalid(field: impl Into<String>, value: &Value, detail: &str) -> FieldError {
        FieldError {
            reason: "FieldValueInvalid",
            field: field.into(),
            message: if detail.is_empty() {
                format!("Invalid value: {}", quoted(value))
            } else {
                format!("Invalid value: {}: {detail}", quoted(value))
            },
        }
    }

    /// A value outside an enumeration.
    pub fn not_supported(
        field: impl Into<String>,
        value: &Value,
        supported: &[&str],
    ) -> FieldError {
        let list: Vec<String> = supported.iter().map(|s| format!("{s:?}")).collect();
        FieldError {
            reason: "FieldValueNotSupported",
            field: field.into(),
            message: format!(
                "Unsupported value: {}: supported values: {}",
                quoted(value),
                list.join(", ")
            ),
        }
    }

    /// A value that must be unique and is not.
    pub fn duplicate(field: impl Into<String>, value: &Value) -> FieldError {
        FieldError {
            reason: "FieldValueDuplicate",
            field: field.into(),
            message: format!("Duplicate value: {}", quoted(value)),
        }
    }

    /// A field that may not be set (here, or at all).
    pub fn forbidden(field: impl Into<String>, detail: &str) -> FieldError {
        FieldError {
            reason: "FieldValueForbidden",
            field: field.into(),
            message: format!("Forbidden: {detail}"),
        }
    }

    /// A value longer than allowed.
    pub fn too_long(field: impl Into<String>, max: usize) -> FieldError {
        FieldError {
            reason: "FieldValueTooLong",
            field: field.into(),
            message: format!("Too long: may not be more than {max} bytes"),
        }
    }

    /// A value of the wrong JSON type.
    pub fn type_invalid(field: impl Into<String>, value: &Value, detail: &str) -> FieldError {
        FieldError {
            reason: "FieldValueTypeInvalid",
            field: field.into(),
            message: format!("Invalid value: {}: {detail}", quoted(value)),
        }
    }
}

const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

fn is_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

/// Problems of `s` as a DNS-1123 label (at most 63 characters).
pub fn dns1123_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 characters".to_string());
    }
    if !is_label(s) {
        out.push(DNS1123_LABEL_MSG.to_string());
    }
    out
}

/// Problems of `s` as a DNS-1123 subdomain (at most 253 characters).
pub fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push("must be no more than 253 characters".to_string());
    }
    if s.is_empty() || !s.split('.').all(is_label) {
        out.push(DNS1123_SUBDOMAIN_MSG.to_string());
    }
    out
}

/// Problems of `s` as a DNS-1035 label (Service names: must start with a letter).
pub fn dns1035_label(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push("must be no more than 63 characters".to_string());
    }
    if !is_label(s) || !s.as_bytes()[0].is_ascii_lowercase() {
        out.push(DNS1035_LABEL_MSG.to_string());
    }
    out
}

/// Problems of `s` as a path segment name (RBAC and flow-control object names).
pub fn path_segment(s: &str) -> Vec<String> {
    if s == "." || s == ".." {
        return vec![format!("may not be '{s}'")];
    }
    for bad in ["/", "%"] {
        if s.contains(bad) {
            return vec![format!("may not contain '{bad}'")];
        }
    }
    Vec::new()
}

/// Problems of `s` as a qualified name (`prefix/name`, label keys, webhook names'
/// parts).
pub fn qualified_name(s: &str) -> Vec<String> {
    let (prefix, name) = match s.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, s),
    };
    let mut out = Vec::new();
    if let Some(p) = prefix {
        if p.is_empty() {
            out.push("prefix part must be non-empty".to_string());
        } else {
            out.extend(
                dns1123_subdomain(p)
                    .into_iter()
                    .map(|m| format!("prefix part {m}")),
            );
        }
    }
    let ok = !name.is_empty()
        && name.len() <= 63
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(&c))
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name.as_bytes()[name.len() - 1].is_ascii_alphanumeric();
    if name.len() > 63 {
        out.push("name part must be no more than 63 characters".to_string());
    }
    if !ok {
        out.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string());
    }
    out
}

/// A name rule: the problems of a candidate name.
pub type NameRule = fn(&str) -> Vec<String>;

/// Validates `metadata.name` (or `metadata.generateName`'s result) with `rule`, and the
/// labels' and annotations' keys, as `ValidateObjectMeta` does.
pub fn object_meta(obj: &Value, rule: NameRule, errs: &mut Vec<FieldError>) {
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if name.is_empty() {
        errs.push(FieldError::required(
            "metadata.name",
            "name or generateName is required",
        ));
    } else {
        for m in rule(name) {
            errs.push(FieldError::invalid(
                "metadata.name",
                &Value::String(name.into()),
                &m,
            ));
        }
    }
    if let Some(labels) = obj.pointer("/metadata/labels").and_then(Value::as_object) {
        for (k, v) in labels {
            for m in qualified_name(k) {
                errs.push(FieldError::invalid(
                    "metadata.labels",
                    &Value::String(k.clone()),
                    &m,
                ));
            }
            let value = v.as_str().unwrap_or_default();
            if !value.is_empty()
                && qualified_name(value)
                    .iter()
                    .any(|m| m.starts_with("name part"))
            {
                errs.push(FieldError::invalid(
                    "metadata.labels",
                    &Value::String(value.into()),
                    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                ));
            }
        }
    }
    if let Some(ann) = obj
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
    {
        for k in ann.keys() {
            for m in qualified_name(&k.to_ascii_lowercase()) {
                errs.push(FieldError::invalid(
                    "metadata.annotations",
                    &Value::String(k.clone()),
                    &m,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_follow_the_dns_rules() {
        assert!(dns1123_label("web-1").is_empty());
        assert!(!dns1123_label("Web").is_empty());
        assert!(dns1123_subdomain("a.b-c.d").is_empty());
        assert!(!dns1123_subdomain("a..b").is_empty());
        assert!(!dns1035_label("1abc").is_empty());
        assert!(dns1035_label("abc-1").is_empty());
        assert!(!path_segment("a/b").is_empty());
        assert!(qualified_name("app.kubernetes.io/name").is_empty());
        assert!(!qualified_name("-x").is_empty());
    }

    #[test]
    fn errors_read_as_the_api_server_writes_them() {
        let e = FieldError::invalid("metadata.name", &json!("A"), "bad");
        assert_eq!(e.to_string(), "metadata.name: Invalid value: \"A\": bad");
        let e = FieldError::not_supported("spec.type", &json!("X"), &["A", "B"]);
        assert_eq!(
            e.message,
            "Unsupported value: \"X\": supported values: \"A\", \"B\""
        );
        assert_eq!(
            FieldError::required("spec.ports", "").message,
            "Required value"
        );
        let mut errs = Vec::new();
        object_meta(
            &json!({"metadata": {"name": "Bad_Name"}}),
            dns1123_subdomain,
            &mut errs,
        );
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].reason, "FieldValueInvalid");
    }
}
