//! The checks most kinds repeat: a value or list that must be set (`Required`), a
//! value that must be one of a set (`NotSupported`), or both (an enumerated field with
//! no default), each giving at most one error; and a value that must pass a name rule
//! of [`super::names`], one `Invalid` per message the rule gives.

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError};

/// `Required` when `value` is empty.
pub fn set(value: &str, field: impl AsRef<str>, detail: &str) -> Option<FieldError> {
    value
        .is_empty()
        .then(|| FieldError::required(field, detail))
}

/// `Required` when `list` is empty.
pub fn listed(list: &[Value], field: impl AsRef<str>, detail: &str) -> Option<FieldError> {
    list.is_empty().then(|| FieldError::required(field, detail))
}

/// `NotSupported` when `value` (empty included) is not one of `valid`.
pub fn supported(value: &str, field: impl AsRef<str>, valid: &[&str]) -> Option<FieldError> {
    (!valid.contains(&value))
        .then(|| FieldError::not_supported(field, BadValue::Str(value.into()), valid))
}

/// `NotSupported` when `value` is set and not one of `valid` (an empty value is one
/// the server defaults).
pub fn defaulted(value: &str, field: impl AsRef<str>, valid: &[&str]) -> Option<FieldError> {
    if value.is_empty() {
        return None;
    }
    supported(value, field, valid)
}

/// `Required` (with `detail`) when `value` is empty, else `NotSupported` when it is
/// not one of `valid`.
pub fn set_and_supported(
    value: &str,
    field: impl AsRef<str>,
    valid: &[&str],
    detail: &str,
) -> Option<FieldError> {
    if value.is_empty() {
        return Some(FieldError::required(field, detail));
    }
    supported(value, field, valid)
}

/// One `Invalid` (with the value) per message `rule` gives for `value`.
pub fn valid(value: &str, field: impl AsRef<str>, rule: impl Fn(&str) -> Vec<String>) -> ErrorList {
    rule(value)
        .into_iter()
        .map(|m| FieldError::invalid(field.as_ref(), BadValue::Str(value.into()), m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_check_gives_one_error_or_none() {
        assert_eq!(set("x", "a", ""), None);
        assert_eq!(
            set("", "a", "name is required").map(|e| e.message()),
            Some("a: Required value: name is required".into())
        );
        assert_eq!(listed(&[json!(1)], "l", ""), None);
        assert!(listed(&[], "l", "").is_some());
        assert_eq!(supported("B", "t", &["A", "B"]), None);
        assert_eq!(
            supported("", "t", &["A"]).map(|e| e.message()),
            Some("t: Unsupported value: \"\": supported values: \"A\"".into())
        );
        assert_eq!(
            set_and_supported("", "t", &["A"], "pick one").map(|e| e.message()),
            Some("t: Required value: pick one".into())
        );
        assert_eq!(
            set_and_supported("C", "t", &["A"], "").map(|e| e.kind.reason()),
            Some("FieldValueNotSupported")
        );
        assert_eq!(defaulted("", "t", &["A"]), None);
        assert!(defaulted("C", "t", &["A"]).is_some());
        assert_eq!(valid("ok", "n", |_| Vec::new()), Vec::new());
        let errs = valid("B_", "n", |_| vec!["first".into(), "second".into()]);
        assert_eq!(
            errs.iter().map(FieldError::message).collect::<Vec<_>>(),
            [
                "n: Invalid value: \"B_\": first",
                "n: Invalid value: \"B_\": second"
            ]
        );
    }
}
