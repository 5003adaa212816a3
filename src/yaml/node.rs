//! A YAML document as a tree of nodes that keep their source position.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use super::decode::{Diagnostic, Severity};
use crate::i18n::Msg;

/// A position in a source file, both numbers starting at 1 (as editors show them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A mapping key: always a scalar in the files we read.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    /// The key's text.
    pub text: String,
    /// Where the key stands.
    pub pos: Pos,
}

/// The value of a node.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `~`, `null` or an empty value.
    Null,
    /// Any scalar, kept as written. Quoted scalars are always strings; plain ones are
    /// interpreted by the decoder according to the field's expected type, which avoids
    /// YAML's surprising coercions (`version: 1.30` stays "1.30", `owner: no` stays "no").
    Scalar {
        /// The scalar's text after YAML unescaping.
        text: String,
        /// Whether it was quoted or a block scalar (then it is never null/bool/number).
        quoted: bool,
    },
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in source order.
    Map(Vec<(Key, Node)>),
}

/// A value with the position where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Where the value starts.
    pub pos: Pos,
    /// The value.
    pub value: Value,
}

/// Upper bound on nodes built from one document, so that alias expansion
/// ("billion laughs") cannot exhaust memory.
const MAX_NODES: usize = 2_000_000;

fn pos_of(span: &Span) -> Pos {
    Pos {
        line: span.start.line(),
        col: span.start.col() + 1,
    }
}

/// Parses one YAML document. Syntax errors, duplicate keys, non-scalar keys and more than
/// one document are reported as diagnostics; the tree is `None` when the syntax is broken.
pub fn parse(text: &str) -> (Option<Node>, Vec<Diagnostic>) {
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(text);
    while let Some(event) = parser.next_event() {
        match event {
            Ok((event, span)) => {
                if let Err(diagnostic) = builder.on_event(event, span) {
                    builder.diagnostics.push(diagnostic);
                    return (None, builder.diagnostics);
                }
            }
            Err(error) => {
                let mark = error.marker();
                builder.diagnostics.push(
                    Diagnostic::error(
                        Pos {
                            line: mark.line().max(1),
                            col: mark.col() + 1,
                        },
                        format!("YAML syntax error: {}", error.info()),
                    )
                    .said(Msg::new("validate-yaml-syntax").arg("info", error.info())),
                );
                return (None, builder.diagnostics);
            }
        }
    }
    let root = builder.documents.into_iter().next();
    (root, builder.diagnostics)
}

/// A container being filled while events stream in.
enum Open {
    Seq(Pos, Vec<Node>, usize),
    Map(Pos, Vec<(Key, Node)>, Option<Key>, usize),
}

#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    documents: Vec<Node>,
    anchors: HashMap<usize, Node>,
    diagnostics: Vec<Diagnostic>,
    nodes_built: usize,
}

impl Builder {
    fn on_event(&mut self, event: Event<'_>, span: Span) -> Result<(), Diagnostic> {
        let pos = pos_of(&span);
        match event {
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => Ok(()),
            Event::DocumentStart(_) => {
                if !self.documents.is_empty() {
                    return Err(Diagnostic::error(
                        pos,
                        "expected a single YAML document, found a second one".to_string(),
                    )
                    .said(Msg::new("validate-second-document")));
                }
                Ok(())
            }
            Event::Alias(id) => {
                let node = self.anchors.get(&id).cloned().ok_or_else(|| {
                    Diagnostic::error(pos, "alias refers to an unknown anchor".to_string())
                        .said(Msg::new("validate-unknown-anchor"))
                })?;
                self.nodes_built += count_nodes(&node);
                self.complete(node)
            }
            Event::Scalar(text, style, anchor, _tag) => {
                let quoted = !matches!(style, ScalarStyle::Plain);
                let value = if !quoted && is_null(&text) {
                    Value::Null
                } else {
                    Value::Scalar {
                        text: text.into_owned(),
                        quoted,
                    }
                };
                let node = Node { pos, value };
                if anchor > 0 {
                    self.anchors.insert(anchor, node.clone());
                }
                self.complete(node)
            }
            Event::SequenceStart(anchor, _) => {
                self.stack.push(Open::Seq(pos, Vec::new(), anchor));
                Ok(())
            }
            Event::MappingStart(anchor, _) => {
                self.stack.push(Open::Map(pos, Vec::new(), None, anchor));
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (node, anchor) = match self.stack.pop() {
                    Some(Open::Seq(pos, items, anchor)) => (
                        Node {
                            pos,
                            value: Value::Seq(items),
                        },
                        anchor,
                    ),
                    Some(Open::Map(pos, entries, _, anchor)) => (
                        Node {
                            pos,
                            value: Value::Map(entries),
                        },
                        anchor,
                    ),
                    None => {
                        return Err(Diagnostic::error(pos, "unbalanced YAML".to_string())
                            .said(Msg::new("validate-unbalanced")));
                    }
                };
                if anchor > 0 {
                    self.anchors.insert(anchor, node.clone());
                }
                self.complete(node)
            }
        }
    }

    /// Attaches a finished node to its parent, or makes it the document root.
    fn complete(&mut self, node: Node) -> Result<(), Diagnostic> {
        self.nodes_built += 1;
        if self.nodes_built > MAX_NODES {
            return Err(Diagnostic::error(
                node.pos,
                format!("document expands to more than {MAX_NODES} values (alias bomb?)"),
            )
            .said(Msg::new("validate-alias-bomb").arg("max", MAX_NODES.to_string())));
        }
        match self.stack.last_mut() {
            None => {
                self.documents.push(node);
                Ok(())
            }
            Some(Open::Seq(_, items, _)) => {
                items.push(node);
                Ok(())
            }
            Some(Open::Map(_, entries, pending_key, _)) => match pending_key.take() {
                None => {
                    let text = match node.value {
                        Value::Scalar { text, .. } => text,
                        Value::Null => String::new(),
                        Value::Seq(_) | Value::Map(_) => {
                            return Err(Diagnostic::error(
                                node.pos,
                                "mapping keys must be plain strings".to_string(),
                            )
                            .said(Msg::new("validate-key-not-string")));
                        }
                    };
                    if let Some((first, _)) = entries.iter().find(|(key, _)| key.text == text) {
                        self.diagnostics.push(Diagnostic {
                            pos: node.pos,
                            severity: Severity::Error,
                            message: format!(
                                "duplicate key \"{text}\" (first defined at {})",
                                first.pos
                            ),
                            says: Some(
                                Msg::new("validate-duplicate-key")
                                    .arg("key", &text)
                                    .arg("first", first.pos.to_string()),
                            ),
                        });
                    }
                    *pending_key = Some(Key {
                        text,
                        pos: node.pos,
                    });
                    Ok(())
                }
                Some(key) => {
                    entries.push((key, node));
                    Ok(())
                }
            },
        }
    }
}

fn count_nodes(node: &Node) -> usize {
    match &node.value {
        Value::Null | Value::Scalar { .. } => 1,
        Value::Seq(items) => 1 + items.iter().map(count_nodes).sum::<usize>(),
        Value::Map(entries) => 1 + entries.iter().map(|(_, v)| count_nodes(v)).sum::<usize>(),
    }
}

fn is_null(text: &str) -> bool {
    matches!(text, "" | "~" | "null" | "Null" | "NULL")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_point_at_values() {
        let (root, diags) = parse("a: 1\nlist:\n  - id: x\n");
        assert!(diags.is_empty());
        let root = root.unwrap();
        let Value::Map(entries) = &root.value else {
            panic!("not a map")
        };
        assert_eq!(entries[0].0.pos, Pos { line: 1, col: 1 });
        assert_eq!(entries[0].1.pos, Pos { line: 1, col: 4 });
        let Value::Seq(items) = &entries[1].1.value else {
            panic!("not a seq")
        };
        let Value::Map(item) = &items[0].value else {
            panic!("not a map")
        };
        assert_eq!(item[0].1.pos, Pos { line: 3, col: 9 });
    }

    #[test]
    fn syntax_error_has_a_position() {
        let (root, diags) = parse("a: [1, 2\nb: 3\n");
        assert!(root.is_none());
        assert_eq!(diags.len(), 1);
        assert!(diags[0].message.starts_with("YAML syntax error"));
    }

    #[test]
    fn duplicate_keys_are_reported_with_the_first_position() {
        let (_, diags) = parse("a: 1\nb: 2\na: 3\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].pos, Pos { line: 3, col: 1 });
        assert_eq!(
            diags[0].message,
            "duplicate key \"a\" (first defined at 1:1)"
        );
    }

    #[test]
    fn aliases_expand_and_bombs_are_refused() {
        let (root, diags) = parse("a: &x [1, 2]\nb: *x\n");
        assert!(diags.is_empty());
        assert!(root.is_some());
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..8 {
            let prev = level - 1;
            bomb.push_str(&format!(
                "a{level}: &a{level} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
            ));
        }
        let (root, diags) = parse(&bomb);
        assert!(root.is_none());
        assert!(diags[0].message.contains("alias bomb"));
    }

    #[test]
    fn quoted_and_plain_scalars_keep_their_text() {
        let (root, _) = parse("v: 1.30\nq: \"null\"\nn: ~\n");
        let Value::Map(entries) = root.unwrap().value else {
            panic!("not a map")
        };
        assert_eq!(
            entries[0].1.value,
            Value::Scalar {
                text: "1.30".into(),
                quoted: false
            }
        );
        assert_eq!(
            entries[1].1.value,
            Value::Scalar {
                text: "null".into(),
                quoted: true
            }
        );
        assert_eq!(entries[2].1.value, Value::Null);
    }
}
