//! Typed readers of one scalar field, shared by every file decoder: each reports a value
//! of the wrong shape at the value's position, naming the field and what it found.

use super::decode::{Diagnostics, string, suggest};
use super::node::Node;
use crate::i18n::Msg;

/// `true` or `false`.
pub fn boolean(node: &Node, field: &str, diags: &mut Diagnostics) -> Option<bool> {
    let text = string(node, field, diags)?;
    match text.as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => {
            diags.error_said(
                node.pos,
                format!("field `{field}` must be true or false, found \"{text}\""),
                Msg::new("validate-must-be-bool")
                    .arg("field", field)
                    .arg("found", &text),
            );
            None
        }
    }
}

/// A non-negative whole number.
pub fn whole_number(node: &Node, field: &str, diags: &mut Diagnostics) -> Option<u32> {
    let text = string(node, field, diags)?;
    match text.parse::<u32>() {
        Ok(n) => Some(n),
        Err(_) => {
            diags.error_said(
                node.pos,
                format!("field `{field}` must be a whole number, found \"{text}\""),
                Msg::new("validate-must-be-whole")
                    .arg("field", field)
                    .arg("found", &text),
            );
            None
        }
    }
}

/// A whole number of at least 1.
pub fn positive(node: &Node, field: &str, diags: &mut Diagnostics) -> Option<u32> {
    match whole_number(node, field, diags)? {
        0 => {
            diags.error_said(
                node.pos,
                format!("field `{field}` must be at least 1"),
                Msg::new("validate-at-least-one").arg("field", field),
            );
            None
        }
        n => Some(n),
    }
}

/// A finite number.
pub fn number(node: &Node, field: &str, diags: &mut Diagnostics) -> Option<f64> {
    let text = string(node, field, diags)?;
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        _ => {
            diags.error_said(
                node.pos,
                format!("field `{field}` must be a number, found \"{text}\""),
                Msg::new("validate-must-be-number")
                    .arg("field", field)
                    .arg("found", &text),
            );
            None
        }
    }
}

/// A percentage in (0, 100], written `25` or `"25%"`.
pub fn percent(node: &Node, field: &str, diags: &mut Diagnostics) -> Option<f64> {
    let text = string(node, field, diags)?;
    let bare = text.trim().trim_end_matches('%').trim();
    match bare.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 100.0 => Some(v),
        _ => {
            diags.error_said(
                node.pos,
                format!(
                    "field `{field}` must be a percentage above 0 and at most 100, found \"{text}\""
                ),
                Msg::new("validate-must-be-percent")
                    .arg("field", field)
                    .arg("found", &text),
            );
            None
        }
    }
}

/// One of `names`, with a did-you-mean on a near miss.
pub fn one_of<'a>(
    node: &Node,
    field: &str,
    names: &[&'a str],
    diags: &mut Diagnostics,
) -> Option<&'a str> {
    let text = string(node, field, diags)?;
    if let Some(found) = names.iter().find(|n| **n == text) {
        return Some(found);
    }
    let near = suggest(&text, names.iter().copied());
    let hint = near
        .map(|s| format!(" (did you mean \"{s}\"?)"))
        .unwrap_or_default();
    diags.error_said(
        node.pos,
        format!(
            "field `{field}` must be one of {}, found \"{text}\"{hint}",
            names.join(", ")
        ),
        Msg::new(if near.is_some() {
            "validate-one-of-near"
        } else {
            "validate-one-of"
        })
        .arg("field", field)
        .arg("names", names.join(", "))
        .arg("found", &text)
        .arg("near", near.unwrap_or_default()),
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse;

    fn read<T>(
        text: &str,
        reader: impl Fn(&Node, &mut Diagnostics) -> Option<T>,
    ) -> (Option<T>, Vec<String>) {
        let node = parse(text).0.expect("yaml");
        let mut diags = Diagnostics::default();
        let value = reader(&node, &mut diags);
        let messages = diags.into_sorted().into_iter().map(|d| d.message).collect();
        (value, messages)
    }

    #[test]
    fn each_reader_names_the_field_and_what_it_found() {
        assert_eq!(read("true", |n, d| boolean(n, "f", d)).0, Some(true));
        assert_eq!(
            read("yes", |n, d| boolean(n, "f", d)).1,
            ["field `f` must be true or false, found \"yes\""]
        );
        assert_eq!(read("0", |n, d| whole_number(n, "f", d)).0, Some(0));
        assert_eq!(
            read("0", |n, d| positive(n, "f", d)).1,
            ["field `f` must be at least 1"]
        );
        assert_eq!(read("\"25%\"", |n, d| percent(n, "f", d)).0, Some(25.0));
        assert_eq!(read("1.5", |n, d| number(n, "f", d)).0, Some(1.5));
        assert_eq!(
            read("requird", |n, d| one_of(n, "f", &["required", "auto"], d)).1,
            [
                "field `f` must be one of required, auto, found \"requird\" (did you mean \"required\"?)"
            ]
        );
    }
}
