//! Reading scenario YAML into `serde_json::Value` (via saphyr's event parser), and the
//! one place where the simulator renders YAML it writes.

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Number, Value};

/// Parses the first YAML document of `text` into JSON values. Errors carry line:column.
pub fn parse(text: &str) -> Result<Value, String> {
    let mut stack: Vec<(Value, Option<String>)> = Vec::new();
    let mut root: Option<Value> = None;
    for item in Parser::new_from_str(text) {
        let (event, span) = item.map_err(|e| e.to_string())?;
        let at = || format!("{}:{}", span.start.line(), span.start.col() + 1);
        let done = match event {
            Event::MappingStart(..) => {
                stack.push((Value::Object(Map::new()), None));
                None
            }
            Event::SequenceStart(..) => {
                stack.push((Value::Array(Vec::new()), None));
                None
            }
            Event::MappingEnd | Event::SequenceEnd => stack.pop().map(|(v, _)| v),
            Event::Scalar(s, style, _, _) => Some(scalar(&s, style)),
            Event::Alias(_) => return Err(format!("{}: aliases are not supported", at())),
            Event::DocumentEnd if root.is_some() => break,
            _ => None,
        };
        let Some(value) = done else { continue };
        match stack.last_mut() {
            None => root = Some(value),
            Some((Value::Array(items), _)) => items.push(value),
            Some((Value::Object(map), pending)) => match pending.take() {
                Some(key) => {
                    map.insert(key, value);
                }
                None => match value {
                    Value::String(k) => *pending = Some(k),
                    other => *pending = Some(other.to_string()),
                },
            },
            Some(_) => return Err(format!("{}: unexpected value", at())),
        }
    }
    Ok(root.unwrap_or(Value::Null))
}

fn scalar(s: &str, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::String(s.to_string());
    }
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Ok(i) = s.parse::<i64>() {
        return Value::Number(i.into());
    }
    if s.chars().any(|c| c.is_ascii_digit())
        && let Ok(f) = s.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(s.to_string())
}

/// Renders a document the simulator writes (the ledger). JSON is valid YAML; this is
/// the single place to switch to the crate's YAML writer.
pub fn render(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_nested_documents() {
        let v = parse("a: 1\nb:\n  - x\n  - 'y'\n  - {c: true, d: 1.5}\ne: \"01\"\nf:\n").ok();
        assert_eq!(
            v,
            Some(json!({"a": 1, "b": ["x", "y", {"c": true, "d": 1.5}], "e": "01", "f": null}))
        );
    }
}
