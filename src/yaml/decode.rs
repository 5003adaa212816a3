//! Reading typed values out of a [`Node`] tree while collecting every problem, each with
//! its position, instead of stopping at the first one.

use std::collections::BTreeMap;

use serde::Serialize;

use super::node::{Key, Node, Pos, Value};
use crate::i18n::{Lang, Msg};

/// How bad a problem is: errors make a file unusable, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file cannot be used as it is.
    Error,
    /// Worth fixing, but the file is usable.
    Warning,
}

/// One problem found in a file, at a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Where the problem is.
    pub pos: Pos,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in one sentence that names the field.
    pub message: String,
    /// The same sentence as a message, for other languages; never serialised (JSON
    /// carries the English only). `None`: shown in English.
    #[serde(skip)]
    pub says: Option<Msg>,
}

impl Serialize for Pos {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Pos", 2)?;
        s.serialize_field("line", &self.line)?;
        s.serialize_field("column", &self.col)?;
        s.end()
    }
}

impl Diagnostic {
    /// An error at `pos`.
    pub fn error(pos: Pos, message: String) -> Self {
        Diagnostic {
            pos,
            severity: Severity::Error,
            message,
            says: None,
        }
    }

    /// A warning at `pos`.
    pub fn warning(pos: Pos, message: String) -> Self {
        Diagnostic {
            pos,
            severity: Severity::Warning,
            message,
            says: None,
        }
    }

    /// With the message `says` for other languages.
    pub fn said(mut self, says: Msg) -> Self {
        self.says = Some(says);
        self
    }

    /// The message in `lang` (English: exactly `message`).
    pub fn message_in(&self, lang: Lang) -> String {
        match (&self.says, lang) {
            (Some(msg), Lang::ZhCn) => msg.text(lang),
            _ => self.message.clone(),
        }
    }

    /// [`Diagnostic::render`] in `lang`: the `FILE:LINE:COL: ` prefix is the same in
    /// every language, so editors and CI logs still link to it.
    pub fn render_in(&self, file: &str, lang: Lang) -> String {
        if lang == Lang::En {
            return self.render(file);
        }
        let message = self.message_in(lang);
        match self.severity {
            Severity::Error => format!("{file}:{}: {message}", self.pos),
            Severity::Warning => format!(
                "{file}:{}: {}: {message}",
                self.pos,
                crate::i18n::text(lang, "validate-warning", &[])
            ),
        }
    }

    /// Formats as `FILE:LINE:COL: message`, the form editors and CI logs link to.
    /// Warnings carry a `warning: ` prefix in the message part.
    pub fn render(&self, file: &str) -> String {
        match self.severity {
            Severity::Error => format!("{file}:{}: {}", self.pos, self.message),
            Severity::Warning => format!("{file}:{}: warning: {}", self.pos, self.message),
        }
    }
}

/// The problems found so far in one file.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Records an error.
    pub fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.items.push(Diagnostic::error(pos, message.into()));
    }

    /// Records a warning.
    pub fn warning(&mut self, pos: Pos, message: impl Into<String>) {
        self.items.push(Diagnostic::warning(pos, message.into()));
    }

    /// Records an error, with its message for other languages.
    pub fn error_said(&mut self, pos: Pos, message: impl Into<String>, says: Msg) {
        self.items
            .push(Diagnostic::error(pos, message.into()).said(says));
    }

    /// Records a warning, with its message for other languages.
    pub fn warning_said(&mut self, pos: Pos, message: impl Into<String>, says: Msg) {
        self.items
            .push(Diagnostic::warning(pos, message.into()).said(says));
    }

    /// Adds problems found elsewhere (e.g. by the YAML parser).
    pub fn extend(&mut self, more: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(more);
    }

    /// Whether any error (not just warnings) was found.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// Every problem, sorted by position, duplicates removed.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.items
            .sort_by(|a, b| (a.pos, a.severity, &a.message).cmp(&(b.pos, b.severity, &b.message)));
        self.items.dedup();
        self.items
    }
}

impl Node {
    /// [`Node::shape_name`] as a message.
    pub fn shape_msg(&self) -> Msg {
        Msg::new(match &self.value {
            Value::Null => "validate-shape-nothing",
            Value::Scalar { .. } => "validate-shape-scalar",
            Value::Seq(_) => "validate-shape-list",
            Value::Map(_) => "validate-shape-mapping",
        })
    }

    /// How the value looks, for error messages ("found a list").
    pub fn shape_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "nothing",
            Value::Scalar { .. } => "a scalar",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// Whether the value is null or absent-looking.
    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }
}

/// A mapping read field by field.
pub struct Fields<'a> {
    node: &'a Node,
    entries: &'a [(Key, Node)],
    what: &'a str,
}

impl<'a> Fields<'a> {
    /// Opens `node` as a mapping describing `what` (e.g. "cluster"); reports an error and
    /// returns `None` when it is something else.
    pub fn of(node: &'a Node, what: &'a str, diags: &mut Diagnostics) -> Option<Fields<'a>> {
        match &node.value {
            Value::Map(entries) => Some(Fields {
                node,
                entries,
                what,
            }),
            _ => {
                diags.error_said(
                    node.pos,
                    format!("{what} must be a mapping, found {}", node.shape_name()),
                    Msg::new("validate-must-be-mapping")
                        .arg("what", what)
                        .arg("found", node.shape_msg()),
                );
                None
            }
        }
    }

    /// Where the mapping starts.
    pub fn pos(&self) -> Pos {
        self.node.pos
    }

    /// The value of `key`, if present and not null.
    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.entries
            .iter()
            .find(|(k, _)| k.text == key)
            .map(|(_, v)| v)
            .filter(|v| !v.is_null())
    }

    /// The value of `key`; reports "missing required field" when absent.
    pub fn required(&self, key: &str, diags: &mut Diagnostics) -> Option<&'a Node> {
        let found = self.get(key);
        if found.is_none() {
            diags.error_said(
                self.node.pos,
                format!("{} is missing required field `{key}`", self.what),
                Msg::new("validate-missing-field")
                    .arg("what", self.what)
                    .arg("key", key),
            );
        }
        found
    }

    /// A required string field.
    pub fn required_string(&self, key: &str, diags: &mut Diagnostics) -> Option<String> {
        self.required(key, diags)
            .and_then(|n| string(n, key, diags))
    }

    /// An optional string field.
    pub fn optional_string(&self, key: &str, diags: &mut Diagnostics) -> Option<String> {
        self.get(key).and_then(|n| string(n, key, diags))
    }

    /// Whether the document says it is of another kind than `want` (`kind: Rollout` where
    /// a Maintenance is read). That is reported as the one error worth reading: the
    /// other kind's fields are not mistakes, so the caller stops there. A missing or
    /// malformed `kind`, or a near miss (`Rolout`), is left to [`Fields::expect_text`],
    /// and the rest of the document is checked as usual.
    pub fn of_other_kind(&self, want: &str, diags: &mut Diagnostics) -> bool {
        let Some(node) = self.get("kind") else {
            return false;
        };
        match &node.value {
            Value::Scalar { text, .. } if text != want && suggest(text, [want]).is_none() => {
                diags.error_said(
                    node.pos,
                    format!(
                        "kind must be \"{want}\", found \"{text}\"; nothing else in the file was checked"
                    ),
                    Msg::new("validate-other-kind")
                        .arg("want", want)
                        .arg("found", text),
                );
                true
            }
            _ => false,
        }
    }

    /// A required text field that must be exactly `want` (`apiVersion`, `kind`).
    pub fn expect_text(&self, key: &str, want: &str, diags: &mut Diagnostics) {
        if let Some(node) = self.required(key, diags)
            && let Some(v) = string(node, key, diags)
            && v != want
        {
            diags.error_said(
                node.pos,
                format!("{key} must be \"{want}\", found \"{v}\""),
                Msg::new("validate-must-be-text")
                    .arg("key", key)
                    .arg("want", want)
                    .arg("found", v),
            );
        }
    }

    /// A required text field that must not be blank.
    pub fn non_empty(&self, key: &str, diags: &mut Diagnostics) -> Option<String> {
        let node = self.required(key, diags)?;
        let text = string(node, key, diags)?;
        if text.trim().is_empty() {
            diags.error_said(
                node.pos,
                format!("field `{key}` must not be empty"),
                Msg::new("validate-empty").arg("key", key),
            );
            return None;
        }
        Some(text)
    }

    /// A required text field that must not be blank and that `check` accepts; what
    /// `check` says against it (in English, and as a message for other languages) is
    /// reported at the value.
    pub fn non_empty_checked(
        &self,
        key: &str,
        diags: &mut Diagnostics,
        check: impl FnOnce(&str) -> Result<(), (String, Msg)>,
    ) -> Option<String> {
        let text = self.non_empty(key, diags)?;
        if let Err((why, says)) = check(&text) {
            let pos = self.get(key).map_or(self.pos(), |n| n.pos);
            diags.error_said(
                pos,
                format!("field `{key}` \"{text}\" {why}"),
                Msg::new("validate-field-value-why")
                    .arg("key", key)
                    .arg("text", &text)
                    .arg("why", says),
            );
            return None;
        }
        Some(text)
    }

    /// Reports every key not in `known`, suggesting the closest known one.
    pub fn reject_unknown(&self, known: &[&str], diags: &mut Diagnostics) {
        for (key, _) in self.entries {
            if known.contains(&key.text.as_str()) {
                continue;
            }
            let near = suggest(&key.text, known.iter().copied());
            let hint = near
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            diags.error_said(
                key.pos,
                format!("unknown field `{}` in {}{hint}", key.text, self.what),
                Msg::new(if near.is_some() {
                    "validate-unknown-field-near"
                } else {
                    "validate-unknown-field"
                })
                .arg("key", &key.text)
                .arg("what", self.what)
                .arg("near", near.unwrap_or_default()),
            );
        }
    }
}

/// A scalar read as text; lists and mappings are reported as errors naming `field`.
pub fn string(node: &Node, field: &str, diags: &mut Diagnostics) -> Option<String> {
    match &node.value {
        Value::Scalar { text, .. } => Some(text.clone()),
        _ => {
            diags.error_said(
                node.pos,
                format!(
                    "field `{field}` must be a string, found {}",
                    node.shape_name()
                ),
                Msg::new("validate-must-be-string")
                    .arg("field", field)
                    .arg("found", node.shape_msg()),
            );
            None
        }
    }
}

/// A list of strings; each bad element is reported, the good ones are kept with positions.
pub fn string_list(node: &Node, field: &str, diags: &mut Diagnostics) -> Vec<(String, Pos)> {
    match &node.value {
        Value::Seq(items) => items
            .iter()
            .filter_map(|item| string(item, field, diags).map(|s| (s, item.pos)))
            .collect(),
        _ => {
            diags.error_said(
                node.pos,
                format!(
                    "field `{field}` must be a list, found {}",
                    node.shape_name()
                ),
                Msg::new("validate-must-be-list")
                    .arg("field", field)
                    .arg("found", node.shape_msg()),
            );
            Vec::new()
        }
    }
}

/// A mapping of string to string; keys keep their position.
pub fn string_map(
    node: &Node,
    field: &str,
    diags: &mut Diagnostics,
) -> BTreeMap<String, (String, Pos)> {
    let mut out = BTreeMap::new();
    match &node.value {
        Value::Map(entries) => {
            for (key, value) in entries {
                if let Some(text) = string(value, &format!("{field}.{}", key.text), diags) {
                    out.insert(key.text.clone(), (text, value.pos));
                }
            }
        }
        _ => diags.error_said(
            node.pos,
            format!(
                "field `{field}` must be a mapping, found {}",
                node.shape_name()
            ),
            Msg::new("validate-field-must-be-mapping")
                .arg("field", field)
                .arg("found", node.shape_msg()),
        ),
    }
    out
}

/// Parses `text` as one YAML document and decodes it with `decode`, collecting every
/// problem. The value is handed out only when no error was found (warnings are fine);
/// the diagnostics come sorted by position. Every fleetdeck file kind is read this way.
pub fn read_document<T>(
    text: &str,
    decode: impl FnOnce(&Node, &mut Diagnostics) -> Option<T>,
) -> (Option<T>, Vec<Diagnostic>) {
    let mut diags = Diagnostics::default();
    let (root, syntax) = super::node::parse(text);
    diags.extend(syntax);
    let value = root.as_ref().and_then(|root| decode(root, &mut diags));
    if root.is_none() && !diags.has_errors() {
        diags.error_said(
            Pos { line: 1, col: 1 },
            "the file is empty",
            Msg::new("validate-file-empty"),
        );
    }
    let usable = !diags.has_errors();
    (value.filter(|_| usable), diags.into_sorted())
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse;

    #[test]
    fn a_document_of_another_kind_is_told_so_alone() {
        let (root, _) = parse("kind: Rollout\nrelease: {}\n");
        let root = root.unwrap();
        let mut diags = Diagnostics::default();
        let fields = Fields::of(&root, "maintenance", &mut diags).unwrap();
        assert!(fields.of_other_kind("Maintenance", &mut diags));
        assert!(!fields.of_other_kind("Rollout", &mut diags));
        assert_eq!(
            diags.into_sorted()[0].render("f.yaml"),
            "f.yaml:1:7: kind must be \"Maintenance\", found \"Rollout\"; nothing else in the file was checked"
        );
        for text in ["kind: Maintenace\n", "name: x\n", "kind: [1]\n"] {
            let (root, _) = parse(text);
            let root = root.unwrap();
            let mut diags = Diagnostics::default();
            let fields = Fields::of(&root, "maintenance", &mut diags).unwrap();
            assert!(
                !fields.of_other_kind("Maintenance", &mut diags),
                "{text}: a typo or no kind is checked with the rest"
            );
            assert!(!diags.has_errors());
        }
    }

    #[test]
    fn unknown_fields_get_a_suggestion() {
        let (root, _) = parse("displayNmae: x\nzzz: 1\n");
        let root = root.unwrap();
        let mut diags = Diagnostics::default();
        let fields = Fields::of(&root, "cluster", &mut diags).unwrap();
        fields.reject_unknown(&["displayName", "id"], &mut diags);
        let out = diags.into_sorted();
        assert_eq!(
            out[0].render("f.yaml"),
            "f.yaml:1:1: unknown field `displayNmae` in cluster (did you mean `displayName`?)"
        );
        assert_eq!(
            out[1].render("f.yaml"),
            "f.yaml:2:1: unknown field `zzz` in cluster"
        );
    }

    #[test]
    fn missing_required_field_points_at_the_mapping() {
        let (root, _) = parse("\n  a: 1\n");
        let root = root.unwrap();
        let mut diags = Diagnostics::default();
        let fields = Fields::of(&root, "cluster", &mut diags).unwrap();
        assert!(fields.required_string("id", &mut diags).is_none());
        let out = diags.into_sorted();
        assert_eq!(out[0].message, "cluster is missing required field `id`");
        assert_eq!(out[0].pos, Pos { line: 2, col: 3 });
    }

    #[test]
    fn wrong_shapes_are_named() {
        let (root, _) = parse("a: [1]\n");
        let root = root.unwrap();
        let mut diags = Diagnostics::default();
        let fields = Fields::of(&root, "x", &mut diags).unwrap();
        assert!(fields.optional_string("a", &mut diags).is_none());
        assert_eq!(
            diags.into_sorted()[0].message,
            "field `a` must be a string, found a list"
        );
    }
}
