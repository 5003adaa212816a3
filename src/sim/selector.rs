//! Label and field selectors as the API server parses them from query strings, plus
//! matching of `metav1.LabelSelector` objects (PDBs, ReplicaSets, DaemonSets).

use serde_json::Value;

use super::error::ApiError;
use super::store::{EVENT_FIELDS, Index};

/// A `map[string]string` (labels, a node selector) as the pairs selectors match
/// against; a missing map or a value that is not a string reads as empty.
pub fn string_pairs(map: Option<&Value>) -> Vec<(String, String)> {
    map.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// One requirement of a label selector.
#[derive(Debug, Clone, PartialEq)]
pub enum Req {
    /// `key=value` (and `key==value`).
    Eq(String, String),
    /// `key!=value` (also true without the label).
    NotEq(String, String),
    /// `key in (a,b)`.
    In(String, Vec<String>),
    /// `key notin (a,b)` (also true without the label).
    NotIn(String, Vec<String>),
    /// `key`.
    Exists(String),
    /// `!key`.
    NotExists(String),
    /// `key>n`: the label is an integer above n.
    Gt(String, i64),
    /// `key<n`: the label is an integer below n.
    Lt(String, i64),
}

impl Req {
    /// The label key the requirement is about.
    pub fn key(&self) -> &str {
        match self {
            Req::Eq(k, _)
            | Req::NotEq(k, _)
            | Req::In(k, _)
            | Req::NotIn(k, _)
            | Req::Exists(k)
            | Req::NotExists(k)
            | Req::Gt(k, _)
            | Req::Lt(k, _) => k,
        }
    }
}

/// A parsed `labelSelector` query parameter.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelSelector(Vec<Req>);

impl LabelSelector {
    /// Parses a `labelSelector` query parameter as the API server does; a selector it
    /// cannot parse is a 400 with its message.
    pub fn parse(s: &str) -> Result<Self, ApiError> {
        super::selector_parse::parse(s)
            .map(LabelSelector)
            .map_err(ApiError::bad_request)
    }

    /// Builds a selector from a `metav1.LabelSelector` JSON object (`matchLabels` and
    /// `matchExpressions`). An empty selector matches everything, as for PDBs.
    pub fn from_object(sel: &Value) -> Self {
        let mut reqs = Vec::new();
        if let Some(m) = sel.get("matchLabels").and_then(Value::as_object) {
            for (k, v) in m {
                reqs.push(Req::Eq(
                    k.clone(),
                    v.as_str().unwrap_or_default().to_string(),
                ));
            }
        }
        if let Some(exprs) = sel.get("matchExpressions").and_then(Value::as_array) {
            for e in exprs {
                let key = e
                    .get("key")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let values: Vec<String> = e
                    .get("values")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                match e.get("operator").and_then(Value::as_str) {
                    Some("In") => reqs.push(Req::In(key, values)),
                    Some("NotIn") => reqs.push(Req::NotIn(key, values)),
                    Some("Exists") => reqs.push(Req::Exists(key)),
                    Some("DoesNotExist") => reqs.push(Req::NotExists(key)),
                    _ => {}
                }
            }
        }
        LabelSelector(reqs)
    }

    /// Whether the selector has no requirement (matches everything).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `labels` satisfy every requirement.
    pub fn matches(&self, labels: &[(String, String)]) -> bool {
        let get = |k: &str| {
            labels
                .iter()
                .find(|(lk, _)| lk == k)
                .map(|(_, v)| v.as_str())
        };
        self.0.iter().all(|r| match r {
            Req::Eq(k, v) => get(k) == Some(v.as_str()),
            Req::NotEq(k, v) => get(k) != Some(v.as_str()),
            Req::In(k, vs) => get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
            Req::NotIn(k, vs) => !get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
            Req::Exists(k) => get(k).is_some(),
            Req::NotExists(k) => get(k).is_none(),
            Req::Gt(k, n) => get(k)
                .and_then(|x| x.parse::<i64>().ok())
                .is_some_and(|x| x > *n),
            Req::Lt(k, n) => get(k)
                .and_then(|x| x.parse::<i64>().ok())
                .is_some_and(|x| x < *n),
        })
    }
}

/// The fields a `fieldSelector` may name.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Name,
    Namespace,
    NodeName,
    Phase,
    Extra(&'static str),
}

/// A parsed `fieldSelector` query parameter.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSelector(Vec<(Field, bool, String)>);

impl FieldSelector {
    /// Parses `metadata.name=x,spec.nodeName!=y`; unsupported fields are a 400, as on
    /// the real server.
    pub fn parse(s: &str) -> Result<Self, ApiError> {
        let mut out = Vec::new();
        for term in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (key, eq, val) = if let Some((k, v)) = term.split_once("!=") {
                (k, false, v)
            } else if let Some((k, v)) = term.split_once("==") {
                (k, true, v)
            } else if let Some((k, v)) = term.split_once('=') {
                (k, true, v)
            } else {
                return Err(ApiError::bad_request(format!(
                    "invalid selector: '{term}'; can't understand '{term}'"
                )));
            };
            let field = match key.trim() {
                "metadata.name" => Field::Name,
                "metadata.namespace" => Field::Namespace,
                "spec.nodeName" => Field::NodeName,
                "status.phase" => Field::Phase,
                other if EVENT_FIELDS.contains(&other) => Field::Extra(
                    EVENT_FIELDS
                        .into_iter()
                        .find(|f| *f == other)
                        .unwrap_or("reason"),
                ),
                other => {
                    return Err(ApiError::bad_request(format!(
                        "field label not supported: {other}"
                    )));
                }
            };
            out.push((field, eq, val.trim().to_string()));
        }
        Ok(FieldSelector(out))
    }

    /// Whether the selector has no term.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether an object with this index entry matches.
    pub fn matches(&self, ns: &str, name: &str, idx: &Index) -> bool {
        self.0.iter().all(|(field, eq, want)| {
            let have = match field {
                Field::Name => name,
                Field::Namespace => ns,
                Field::NodeName => idx.node_name.as_deref().unwrap_or(""),
                Field::Phase => idx.phase.as_deref().unwrap_or(""),
                Field::Extra(f) => idx
                    .extra
                    .iter()
                    .find(|(k, _)| k == f)
                    .map_or("", |(_, v)| v.as_str()),
            };
            (have == want) == *eq
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn label_selector_forms() {
        let l = labels(&[("app", "web"), ("tier", "fe")]);
        for (sel, want) in [
            ("app=web", true),
            ("app==web,tier=fe", true),
            ("app!=web", false),
            ("app in (db, web)", true),
            ("app notin (web),tier", false),
            ("!gpu", true),
            ("gpu", false),
            ("", true),
        ] {
            assert_eq!(
                LabelSelector::parse(sel).map(|s| s.matches(&l)).ok(),
                Some(want),
                "{sel}"
            );
        }
    }

    #[test]
    fn field_selector_rejects_unknown_fields() {
        assert!(FieldSelector::parse("spec.foo=bar").is_err());
        let f = FieldSelector::parse("spec.nodeName=n1,status.phase!=Failed").ok();
        let idx = Index {
            node_name: Some("n1".into()),
            phase: Some("Running".into()),
            ..Index::default()
        };
        assert_eq!(f.map(|f| f.matches("ns", "p", &idx)), Some(true));
    }
}
