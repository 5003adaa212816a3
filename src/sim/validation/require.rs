//! The checks most kinds repeat, each giving at most one error: a value or list that
//! must be set (`Required`), a value that must be one of a set (`NotSupported`), or
//! both (an enumerated field with no default).

use serde_json::Value;

use super::field::{BadValue, FieldError};

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
    }
}
