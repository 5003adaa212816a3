//! A webhook's `namespaceSelector`, and whether it selects a namespace: the API server
//! calls a webhook for a namespaced object only in the namespaces its selector matches
//! (an empty selector matches every namespace), as `metav1.LabelSelectorAsSelector` reads
//! `matchLabels` and `matchExpressions` together.

use std::collections::BTreeMap;

use serde::Serialize;

/// `In`, `NotIn`, `Exists`, `DoesNotExist`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SelectorOp {
    /// The label has one of the values.
    In,
    /// The label is absent or has none of the values.
    NotIn,
    /// The label is present.
    Exists,
    /// The label is absent.
    DoesNotExist,
}

/// One `matchExpressions` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectorRequirement {
    /// The label key.
    pub key: String,
    /// The operator.
    pub operator: SelectorOp,
    /// The values (`In`, `NotIn`).
    pub values: Vec<String>,
}

/// A label selector over namespaces.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NamespaceSelector {
    /// `matchLabels`.
    pub match_labels: BTreeMap<String, String>,
    /// `matchExpressions`.
    pub match_expressions: Vec<SelectorRequirement>,
}

impl NamespaceSelector {
    /// Whether it selects every namespace (nothing in it).
    pub fn is_everything(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }

    /// Whether it selects a namespace with these labels.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self.match_expressions.iter().all(|r| {
                let value = labels.get(&r.key);
                match r.operator {
                    SelectorOp::In => value.is_some_and(|v| r.values.contains(v)),
                    SelectorOp::NotIn => value.is_none_or(|v| !r.values.contains(v)),
                    SelectorOp::Exists => value.is_some(),
                    SelectorOp::DoesNotExist => value.is_none(),
                }
            })
    }

    /// Whether it selects `kube-system`, whose labels include the name label every API
    /// server sets (`kubernetes.io/metadata.name`).
    pub fn matches_kube_system(&self) -> bool {
        self.matches(&BTreeMap::from([(
            "kubernetes.io/metadata.name".to_string(),
            "kube-system".to_string(),
        )]))
    }

    /// As people read it: `everything`, `env=prod, kubernetes.io/metadata.name NotIn (kube-system)`.
    pub fn describe(&self) -> String {
        if self.is_everything() {
            return "every namespace".into();
        }
        let mut parts: Vec<String> = self
            .match_labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        parts.extend(self.match_expressions.iter().map(|r| match r.operator {
            SelectorOp::Exists => r.key.clone(),
            SelectorOp::DoesNotExist => format!("!{}", r.key),
            op => format!(
                "{} {} ({})",
                r.key,
                if op == SelectorOp::In { "in" } else { "notin" },
                r.values.join(", ")
            ),
        }));
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expression(key: &str, operator: SelectorOp, values: &[&str]) -> NamespaceSelector {
        NamespaceSelector {
            match_labels: BTreeMap::new(),
            match_expressions: vec![SelectorRequirement {
                key: key.into(),
                operator,
                values: values.iter().map(|v| v.to_string()).collect(),
            }],
        }
    }

    #[test]
    fn empty_selects_everything_and_kube_system_by_its_name_label() {
        assert!(NamespaceSelector::default().matches_kube_system());
        let excludes = expression(
            "kubernetes.io/metadata.name",
            SelectorOp::NotIn,
            &["kube-system"],
        );
        assert!(!excludes.matches_kube_system());
        assert_eq!(
            excludes.describe(),
            "kubernetes.io/metadata.name notin (kube-system)"
        );
        // A label kube-system does not carry excludes it.
        let opted_in = NamespaceSelector {
            match_labels: BTreeMap::from([("policy".into(), "on".into())]),
            match_expressions: Vec::new(),
        };
        assert!(!opted_in.matches_kube_system());
        // Excluding a label kube-system does not carry keeps it in.
        assert!(expression("control-plane", SelectorOp::DoesNotExist, &[]).matches_kube_system());
        assert!(!expression("control-plane", SelectorOp::Exists, &[]).matches_kube_system());
    }
}
