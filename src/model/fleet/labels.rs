//! Label sets and the node-selection requirements pods place on them.

use std::sync::Arc;

/// A node's (or selector's) labels, sorted by key for binary search.
///
/// Kept as one boxed slice of interned pairs: a node carries maybe 20 labels, and the
/// strings themselves are shared across the fleet through the interner.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Labels(Box<[(Arc<str>, Arc<str>)]>);

impl Labels {
    /// Builds a label set; on duplicate keys the last value wins, as in a JSON map.
    pub fn new(pairs: impl IntoIterator<Item = (Arc<str>, Arc<str>)>) -> Self {
        let mut pairs: Vec<_> = pairs.into_iter().collect();
        // Stable sort keeps insertion order among equal keys so "last wins" holds.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut deduped: Vec<(Arc<str>, Arc<str>)> = Vec::with_capacity(pairs.len());
        for pair in pairs {
            match deduped.last_mut() {
                Some(last) if last.0 == pair.0 => *last = pair,
                _ => deduped.push(pair),
            }
        }
        Self(deduped.into_boxed_slice())
    }

    /// The value of `key`, if the label is present.
    pub fn get(&self, key: &str) -> Option<&Arc<str>> {
        self.0
            .binary_search_by(|(k, _)| (**k).cmp(key))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// All labels in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Arc<str>)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// True when there are no labels.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One requirement on a node's labels, as in a node selector term's match expressions
/// (a pod's plain `nodeSelector` map becomes one `In` requirement per entry).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LabelRequirement {
    /// The label is present with one of the values.
    In(Arc<str>, Box<[Arc<str>]>),
    /// The label is absent or has none of the values.
    NotIn(Arc<str>, Box<[Arc<str>]>),
    /// The label is present with any value.
    Exists(Arc<str>),
    /// The label is absent.
    DoesNotExist(Arc<str>),
    /// The label is present and, read as an integer, greater than the number (node
    /// affinity's `Gt`).
    Gt(Arc<str>, i64),
    /// The label is present and, read as an integer, less than the number (`Lt`).
    Lt(Arc<str>, i64),
}

impl LabelRequirement {
    /// Convenience for the common `key: value` selector entry.
    pub fn equals(key: Arc<str>, value: Arc<str>) -> Self {
        Self::In(key, Box::new([value]))
    }

    /// The label key this requirement looks at.
    pub fn key(&self) -> &Arc<str> {
        match self {
            Self::In(k, _)
            | Self::NotIn(k, _)
            | Self::Exists(k)
            | Self::DoesNotExist(k)
            | Self::Gt(k, _)
            | Self::Lt(k, _) => k,
        }
    }

    /// Whether a node with `labels` satisfies this requirement.
    pub fn matches(&self, labels: &Labels) -> bool {
        match self {
            Self::In(k, values) => labels.get(k).is_some_and(|v| values.contains(v)),
            Self::NotIn(k, values) => labels.get(k).is_none_or(|v| !values.contains(v)),
            Self::Exists(k) => labels.get(k).is_some(),
            Self::DoesNotExist(k) => labels.get(k).is_none(),
            Self::Gt(k, n) => integer_label(labels, k).is_some_and(|v| v > *n),
            Self::Lt(k, n) => integer_label(labels, k).is_some_and(|v| v < *n),
        }
    }
}

/// A label's value read as an integer, as the scheduler reads it for `Gt` and `Lt`; a
/// value that is not one satisfies neither.
fn integer_label(labels: &Labels, key: &str) -> Option<i64> {
    labels.get(key)?.parse().ok()
}

/// Where a pod may run as far as node labels go, by the scheduler's rule: every pair of
/// its `nodeSelector` holds, and, when it has required node affinity, at least one of the
/// affinity's terms holds (a term holds when all its requirements do; an empty term holds
/// for no node).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NodeSelector {
    /// `nodeSelector`: all must hold.
    pub all: Box<[LabelRequirement]>,
    /// `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`: one must hold.
    /// Empty when the pod has no required node affinity.
    pub any_term: Box<[Box<[LabelRequirement]>]>,
}

impl NodeSelector {
    /// A selector of requirements that must all hold, and no affinity terms.
    pub fn all_of(requirements: impl Into<Box<[LabelRequirement]>>) -> Self {
        Self {
            all: requirements.into(),
            any_term: Box::new([]),
        }
    }

    /// Whether a node with `labels` satisfies the selector.
    pub fn matches(&self, labels: &Labels) -> bool {
        self.all.iter().all(|r| r.matches(labels))
            && (self.any_term.is_empty()
                || self
                    .any_term
                    .iter()
                    .any(|term| !term.is_empty() && term.iter().all(|r| r.matches(labels))))
    }

    /// True when the pod can go on any node as far as labels are concerned.
    pub fn is_empty(&self) -> bool {
        self.all.is_empty() && self.any_term.is_empty()
    }

    /// The label keys the selector reads.
    pub fn keys(&self) -> impl Iterator<Item = &Arc<str>> {
        self.all
            .iter()
            .chain(self.any_term.iter().flatten())
            .map(LabelRequirement::key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        Labels::new(pairs.iter().map(|(k, v)| (Arc::from(*k), Arc::from(*v))))
    }

    #[test]
    fn lookup_and_last_value_wins() {
        let l = labels(&[("zone", "a"), ("rack", "r1"), ("zone", "b")]);
        assert_eq!(l.get("zone").map(|v| &**v), Some("b"));
        assert_eq!(l.get("rack").map(|v| &**v), Some("r1"));
        assert_eq!(l.get("missing"), None);
    }

    #[test]
    fn selector_requirements() {
        let node = labels(&[("pool", "gpu"), ("zone", "a")]);
        let k = |s: &str| Arc::from(s);
        assert!(LabelRequirement::equals(k("pool"), k("gpu")).matches(&node));
        assert!(!LabelRequirement::equals(k("pool"), k("cpu")).matches(&node));
        assert!(LabelRequirement::NotIn(k("zone"), Box::new([k("b")])).matches(&node));
        assert!(LabelRequirement::NotIn(k("absent"), Box::new([k("b")])).matches(&node));
        assert!(LabelRequirement::Exists(k("zone")).matches(&node));
        assert!(LabelRequirement::DoesNotExist(k("spot")).matches(&node));
        let sel = NodeSelector::all_of([
            LabelRequirement::equals(k("pool"), k("gpu")),
            LabelRequirement::equals(k("zone"), k("b")),
        ]);
        assert!(!sel.matches(&node));
        assert!(NodeSelector::default().matches(&node));
    }

    #[test]
    fn affinity_terms_are_ored_and_their_requirements_anded() {
        let k = |s: &str| Arc::from(s);
        let pool_b = labels(&[("pool", "b"), ("zone", "a"), ("gen", "5")]);
        let pool_c = labels(&[("pool", "c"), ("zone", "a"), ("gen", "3")]);
        let sel = NodeSelector {
            all: Box::new([LabelRequirement::equals(k("zone"), k("a"))]),
            any_term: Box::new([
                Box::new([LabelRequirement::equals(k("pool"), k("a"))]),
                Box::new([
                    LabelRequirement::equals(k("pool"), k("b")),
                    LabelRequirement::Gt(k("gen"), 4),
                ]),
            ]),
        };
        assert!(sel.matches(&pool_b), "the second term holds");
        assert!(!sel.matches(&pool_c), "no term holds");
        let elsewhere = labels(&[("pool", "b"), ("zone", "b"), ("gen", "5")]);
        assert!(!sel.matches(&elsewhere), "nodeSelector still holds too");
        let empty_term = NodeSelector {
            all: Box::new([]),
            any_term: Box::new([Box::new([])]),
        };
        assert!(
            !empty_term.matches(&pool_b),
            "an empty term selects no node"
        );
        assert!(LabelRequirement::Lt(k("gen"), 4).matches(&pool_c));
        assert!(!LabelRequirement::Lt(k("gen"), 4).matches(&pool_b));
        let not_a_number = labels(&[("gen", "five")]);
        assert!(!LabelRequirement::Gt(k("gen"), 0).matches(&not_a_number));
        assert!(!LabelRequirement::Lt(k("gen"), 100).matches(&not_a_number));
    }
}
