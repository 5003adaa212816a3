//! YAML to `serde_json::Value`, for documents whose schema is someone else's (Kubernetes
//! manifests, simulator scenarios): no positions kept, scalars typed as Kubernetes reads
//! them.

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Number, Value};

/// Parses every YAML document of `text` (separated by `---`) into JSON values, typing
/// plain scalars as Kubernetes does (`true`, `3`, `1.5`; quoted stays a string). Empty
/// documents are left out. Errors carry line:column.
pub fn documents_to_json(text: &str) -> Result<Vec<Value>, String> {
    let mut stack: Vec<(Value, Option<String>)> = Vec::new();
    let mut documents: Vec<Value> = Vec::new();
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
            _ => None,
        };
        let Some(value) = done else { continue };
        match stack.last_mut() {
            None => documents.push(value),
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
    documents.retain(|d| !d.is_null());
    Ok(documents)
}

/// The first document of `text` (null when there is none).
pub fn first_document_to_json(text: &str) -> Result<Value, String> {
    Ok(documents_to_json(text)?
        .into_iter()
        .next()
        .unwrap_or(Value::Null))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_nested_documents() {
        let v = first_document_to_json(
            "a: 1\nb:\n  - x\n  - 'y'\n  - {c: true, d: 1.5}\ne: \"01\"\nf:\n",
        )
        .ok();
        assert_eq!(
            v,
            Some(json!({"a": 1, "b": ["x", "y", {"c": true, "d": 1.5}], "e": "01", "f": null}))
        );
    }

    #[test]
    fn reads_every_document_and_skips_empty_ones() {
        let docs = documents_to_json("---\nkind: A\n---\n---\nkind: B\nn: 2\n").unwrap_or_default();
        assert_eq!(
            docs,
            vec![json!({"kind": "A"}), json!({"kind": "B", "n": 2})]
        );
    }
}
