//! Writing YAML from a JSON value, for `-o yaml` and for generated files.
//!
//! Block style throughout; any string that YAML could read as something else (a number,
//! a boolean, null, or text with special characters) is written double-quoted with JSON
//! escaping, which is valid YAML and round-trips exactly.

use serde_json::Value;

/// Renders `value` as a YAML document (block style, two-space indent, trailing newline).
pub fn to_yaml_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_map(&mut out, map, 0),
        Value::Array(items) if !items.is_empty() => write_seq(&mut out, items, 0),
        scalar => {
            out.push_str(&scalar_text(scalar));
            out.push('\n');
        }
    }
    out
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn write_map(out: &mut String, map: &serde_json::Map<String, Value>, level: usize) {
    for (key, value) in map {
        indent(out, level);
        out.push_str(&string_text(key));
        out.push(':');
        write_child(out, value, level);
    }
}

fn write_seq(out: &mut String, items: &[Value], level: usize) {
    for item in items {
        indent(out, level);
        out.push('-');
        match item {
            // A mapping in a list starts on the dash's line, as people write it.
            Value::Object(map) if !map.is_empty() => {
                let mut nested = String::new();
                write_map(&mut nested, map, level + 1);
                out.push(' ');
                out.push_str(nested.trim_start());
            }
            other => write_child(out, other, level),
        }
    }
}

/// Writes the value after `key:` or `-`: inline for scalars and empty containers,
/// on the following lines for the rest.
fn write_child(out: &mut String, value: &Value, level: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            write_map(out, map, level + 1);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            write_seq(out, items, level + 1);
        }
        scalar => {
            out.push(' ');
            out.push_str(&scalar_text(scalar));
            out.push('\n');
        }
    }
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_text(s),
        Value::Array(_) => "[]".to_string(),
        Value::Object(_) => "{}".to_string(),
    }
}

fn string_text(s: &str) -> String {
    if is_plain_safe(s) {
        s.to_string()
    } else {
        // serde_json's escaping is a subset of YAML's double-quoted escapes.
        serde_json::to_string(s).unwrap_or_else(|_| format!("\"{}\"", s.escape_default()))
    }
}

/// Whether `s` can be written without quotes and still read back as the same string.
fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let reserved = [
        "true", "false", "yes", "no", "on", "off", "null", "y", "n", "~",
    ];
    if reserved.contains(&s.to_lowercase().as_str()) {
        return false;
    }
    if first.is_ascii_digit() || first == '-' || first == '+' || first == '.' {
        return false;
    }
    if s.ends_with(' ') || s.ends_with(':') {
        return false;
    }
    s.chars().all(|c| {
        c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ' ' | '@' | '(' | ')' | ',')
    }) && !s.contains(": ")
        && !s.contains(" #")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::{Value as YValue, parse};
    use serde_json::json;

    /// Converts our node tree back to JSON for round-trip checks (scalars as strings).
    fn to_json(node: &crate::yaml::Node) -> Value {
        match &node.value {
            YValue::Null => Value::Null,
            YValue::Scalar { text, .. } => Value::String(text.clone()),
            YValue::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
            YValue::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.text.clone(), to_json(v)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn round_trips_tricky_strings() {
        let value = json!({
            "plain": "cn-sh-prod-01",
            "version": "1.30",
            "norway": "no",
            "colon": "a: b",
            "url": "s3://bucket/x",
            "time": "2026-11-28T02:18:00Z",
            "hash": "x #y",
            "empty": "",
            "quote": "say \"hi\"\nnext",
            "list": ["a", "1", {"k": "v", "n": ["x"]}],
            "nested": {"deep": {"deeper": "yes"}},
            "emptyList": [],
            "emptyMap": {}
        });
        let text = to_yaml_string(&value);
        let (root, diags) = parse(&text);
        assert!(diags.is_empty(), "{diags:?}\n{text}");
        let back = to_json(&root.unwrap());
        assert_eq!(back, value, "{text}");
    }
}
