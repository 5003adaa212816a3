//! Field errors as the API server builds them (`k8s.io/apimachinery/pkg/util/validation/field`):
//! a type (whose wire name is the cause `reason`), the field path, the bad value and a
//! detail, rendered as `<field>: <Type text>: <value>: <detail>`.

use std::fmt::Write as _;

/// The kind of a field error. Its [`ErrorType::reason`] is the `reason` of the Status
/// cause, its [`ErrorType::text`] starts the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorType {
    /// A value that was looked up was not found.
    NotFound,
    /// A required value is missing.
    Required,
    /// A value that must be unique is repeated.
    Duplicate,
    /// A malformed value.
    Invalid,
    /// A value outside an enumeration.
    NotSupported,
    /// A value not allowed in the current conditions.
    Forbidden,
    /// A value that is too long (its value is not printed).
    TooLong,
    /// A list with too many items.
    TooMany,
    /// A value of the wrong type for its schema (custom resources).
    TypeInvalid,
}

impl ErrorType {
    /// The cause type on the wire (`FieldValueRequired`, …).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// The canonical text that starts the error body (`Required value`, …).
    pub fn text(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TypeInvalid => "Invalid value",
        }
    }

    /// Whether the body leaves the value out (Go prints only the type for these).
    fn omits_value(self) -> bool {
        matches!(
            self,
            ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong
        )
    }
}

/// A bad value, printed as Go's `fmt` prints the value the API server holds.
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// Not printed.
    Omit,
    /// A Go `string`: printed quoted (`%q`).
    Str(String),
    /// An integer: printed plainly.
    Int(i64),
    /// A value printed exactly as given (a Go `Stringer`, `%#v` of a map or slice, a
    /// named string type's `%#v`).
    Raw(String),
}

impl std::fmt::Display for BadValue {
    /// The value as Go prints it in an error body (nothing for [`BadValue::Omit`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadValue::Omit => Ok(()),
            BadValue::Str(v) => f.write_str(&go_quote(v)),
            BadValue::Int(i) => write!(f, "{i}"),
            BadValue::Raw(r) => f.write_str(r),
        }
    }
}

/// A JSON value as the bad value: strings quoted, integers plain, anything else
/// (floats, booleans, null, lists, objects) as its JSON text.
impl From<&serde_json::Value> for BadValue {
    fn from(v: &serde_json::Value) -> BadValue {
        match v {
            serde_json::Value::String(s) => BadValue::Str(s.clone()),
            serde_json::Value::Number(n) if n.is_i64() => {
                BadValue::Int(n.as_i64().unwrap_or_default())
            }
            other => BadValue::Raw(other.to_string()),
        }
    }
}

/// One field error.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// The error type.
    pub kind: ErrorType,
    /// The field path (`spec.containers[0].name`).
    pub field: String,
    /// The bad value.
    pub value: BadValue,
    /// What is wrong, appended after the value.
    pub detail: String,
}

/// A list of field errors, in the order the API server finds them.
pub type ErrorList = Vec<FieldError>;

impl FieldError {
    fn new(
        kind: ErrorType,
        field: impl AsRef<str>,
        value: BadValue,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            kind,
            field: field.as_ref().to_string(),
            value,
            detail: detail.into(),
        }
    }

    /// `Required value`.
    pub fn required(field: impl AsRef<str>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, field, BadValue::Omit, detail)
    }

    /// `Invalid value: <value>: <detail>`.
    pub fn invalid(
        field: impl AsRef<str>,
        value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(ErrorType::Invalid, field, value.into(), detail)
    }

    /// `Duplicate value: <value>`.
    pub fn duplicate(field: impl AsRef<str>, value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::Duplicate, field, value.into(), "")
    }

    /// `Not found: <value>`.
    pub fn not_found(field: impl AsRef<str>, value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::NotFound, field, value.into(), "")
    }

    /// `Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported(
        field: impl AsRef<str>,
        value: impl Into<BadValue>,
        valid: &[&str],
    ) -> Self {
        let detail = if valid.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = valid.iter().map(|v| go_quote(v)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(ErrorType::NotSupported, field, value.into(), detail)
    }

    /// `Forbidden: <detail>`.
    pub fn forbidden(field: impl AsRef<str>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, field, BadValue::Omit, detail)
    }

    /// `Too long: may not be more than <max> bytes`, as `field.TooLong` words it since
    /// Kubernetes 1.30 (older servers said "must have at most <max> bytes").
    pub fn too_long(field: impl AsRef<str>, max: usize) -> Self {
        let unit = if max == 1 { "byte" } else { "bytes" };
        Self::new(
            ErrorType::TooLong,
            field,
            BadValue::Omit,
            format!("may not be more than {max} {unit}"),
        )
    }

    /// `Too many: <count>: must have at most <max> items`.
    pub fn too_many(field: impl AsRef<str>, count: usize, max: usize) -> Self {
        let unit = if max == 1 { "item" } else { "items" };
        Self::new(
            ErrorType::TooMany,
            field,
            BadValue::Int(i64::try_from(count).unwrap_or(i64::MAX)),
            format!("must have at most {max} {unit}"),
        )
    }

    /// `Invalid value: <value>: <detail>` with the type-mismatch reason.
    pub fn type_invalid(
        field: impl AsRef<str>,
        value: impl Into<BadValue>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(ErrorType::TypeInvalid, field, value.into(), detail)
    }

    /// The message without the field (the cause's `message`).
    pub fn body(&self) -> String {
        let mut s = self.kind.text().to_string();
        if !self.kind.omits_value() && self.value != BadValue::Omit {
            let _ = write!(s, ": {}", self.value);
        }
        if !self.detail.is_empty() {
            let _ = write!(s, ": {}", self.detail);
        }
        s
    }

    /// The whole message, `<field>: <body>`.
    pub fn message(&self) -> String {
        format!("{}: {}", self.field, self.body())
    }
}

/// A string quoted as Go's `%q` quotes it.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `%#v` of a `[]string`: `[]string{"a", "b"}`.
pub fn go_string_slice(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| go_quote(s)).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

/// Go's `%#v` of a `map[string]string` (keys sorted, as `fmt` prints maps).
pub fn go_string_map(map: &serde_json::Map<String, serde_json::Value>) -> String {
    let mut pairs: Vec<(&String, String)> = map
        .iter()
        .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
        .collect();
    pairs.sort();
    let inner: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v)))
        .collect();
    format!("map[string]string{{{}}}", inner.join(", "))
}

/// `parent.child` (or `child` at the root).
pub fn child(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// `parent[i]`.
pub fn index(parent: &str, i: usize) -> String {
    format!("{parent}[{i}]")
}

/// `parent[key]` (map keys are not quoted in field paths).
pub fn key(parent: &str, key: &str) -> String {
    format!("{parent}[{key}]")
}

/// The errors' messages joined as the API server's aggregate error prints them: one
/// message alone, several as `[a, b]`, repeated messages once.
pub fn aggregate(errors: &[FieldError]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for e in errors {
        let m = e.message();
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    match seen.len() {
        1 => seen.remove(0),
        _ => format!("[{}]", seen.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_printed_as_the_api_server_prints_them() {
        assert_eq!(
            FieldError::required("spec.containers", "").message(),
            "spec.containers: Required value"
        );
        assert_eq!(
            FieldError::invalid("metadata.name", BadValue::Str("A b".into()), "bad").message(),
            "metadata.name: Invalid value: \"A b\": bad"
        );
        assert_eq!(
            FieldError::invalid("spec.x", BadValue::Int(-1), "must be greater than 0").body(),
            "Invalid value: -1: must be greater than 0"
        );
        assert_eq!(
            FieldError::not_supported(
                "dryRun",
                BadValue::Raw(go_string_slice(&["Foo".into()])),
                &["All"]
            )
            .message(),
            "dryRun: Unsupported value: []string{\"Foo\"}: supported values: \"All\""
        );
        assert_eq!(
            FieldError::duplicate("spec.containers[1].name", BadValue::Str("a".into())).body(),
            "Duplicate value: \"a\""
        );
        assert_eq!(
            FieldError::forbidden("spec", "nope").message(),
            "spec: Forbidden: nope"
        );
        assert_eq!(
            FieldError::not_supported("spec.type", &serde_json::json!("X"), &["A", "B"]).body(),
            "Unsupported value: \"X\": supported values: \"A\", \"B\""
        );
        assert_eq!(
            FieldError::too_long("data", 1048576).body(),
            "Too long: may not be more than 1048576 bytes"
        );
        assert_eq!(
            FieldError::too_many("spec.items", 3, 2).body(),
            "Too many: 3: must have at most 2 items"
        );
    }

    #[test]
    fn aggregates_bracket_several_messages_and_drop_repeats() {
        let a = FieldError::required("a", "");
        let b = FieldError::required("b", "");
        assert_eq!(aggregate(std::slice::from_ref(&a)), "a: Required value");
        assert_eq!(
            aggregate(&[a.clone(), b, a]),
            "[a: Required value, b: Required value]"
        );
    }

    #[test]
    fn go_quoting_and_maps() {
        assert_eq!(go_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        let m = serde_json::json!({"b": "2", "a": "1"});
        assert_eq!(
            go_string_map(m.as_object().unwrap_or(&serde_json::Map::new())),
            "map[string]string{\"a\":\"1\", \"b\":\"2\"}"
        );
    }
}
