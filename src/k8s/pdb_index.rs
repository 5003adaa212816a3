//! Which PodDisruptionBudget covers a pod: the first PDB of the pod's namespace whose
//! selector matches the pod's labels.
//!
//! Every pod of a cluster is looked up again whenever pods or PDBs change, and a namespace
//! may hold hundreds of PDBs (one per workload). Nearly every PDB selects on at least one
//! `key: value` label, so PDBs are indexed by that label: a pod is then matched only
//! against the PDBs that ask for a value it carries, plus the few that select otherwise.

use std::collections::HashMap;

use super::project::PdbSelector;
use crate::model::fleet::{LabelRequirement, Labels, PdbView};

/// The PDBs of one namespace, arranged for lookup by label.
#[derive(Default)]
struct Namespace<'a> {
    /// PDBs whose selector requires one label to have exactly one value, by that label;
    /// indexes in ascending order.
    by_label: HashMap<(&'a str, &'a str), Vec<usize>>,
    /// The label keys `by_label` uses, each once.
    keys: Vec<&'a str>,
    /// PDBs with no such requirement (expressions only, or an empty selector, which covers
    /// the whole namespace): tried for every pod.
    unindexed: Vec<usize>,
}

/// PDBs indexed for [`PdbIndex::covering`]; positions are indexes into the slices given
/// to [`PdbIndex::new`].
pub struct PdbIndex<'a> {
    namespaces: HashMap<&'a str, Namespace<'a>>,
    selectors: &'a [PdbSelector],
}

/// The label and value a selector requires, if it requires one exactly.
fn required_label(selector: &PdbSelector) -> Option<(&str, &str)> {
    selector
        .requirements()
        .iter()
        .find_map(|requirement| match requirement {
            LabelRequirement::In(key, values) if values.len() == 1 => Some((&**key, &*values[0])),
            _ => None,
        })
}

impl<'a> PdbIndex<'a> {
    /// Indexes `pdbs`, whose selectors are `selectors` in the same order.
    pub fn new(pdbs: &'a [PdbView], selectors: &'a [PdbSelector]) -> Self {
        let mut namespaces: HashMap<&'a str, Namespace<'a>> = HashMap::new();
        for (i, (pdb, selector)) in pdbs.iter().zip(selectors).enumerate() {
            let namespace = namespaces.entry(&pdb.namespace).or_default();
            match required_label(selector) {
                Some((key, value)) => {
                    if !namespace.keys.contains(&key) {
                        namespace.keys.push(key);
                    }
                    namespace.by_label.entry((key, value)).or_default().push(i);
                }
                None => namespace.unindexed.push(i),
            }
        }
        PdbIndex {
            namespaces,
            selectors,
        }
    }

    /// The first PDB (lowest position) of `namespace` whose selector matches `labels`.
    pub fn covering(&self, namespace: &str, labels: &Labels) -> Option<usize> {
        let candidates = self.namespaces.get(namespace)?;
        let mut first = None;
        let consider = |positions: &[usize], first: &mut Option<usize>| {
            // Positions ascend: stop at the first match, or once past the best so far.
            if let Some(i) = positions
                .iter()
                .copied()
                .take_while(|&i| first.is_none_or(|best| i < best))
                .find(|&i| self.selectors[i].matches(labels))
            {
                *first = Some(i);
            }
        };
        consider(&candidates.unindexed, &mut first);
        for &key in &candidates.keys {
            if let Some(positions) = labels
                .get(key)
                .and_then(|value| candidates.by_label.get(&(key, &**value)))
            {
                consider(positions, &mut first);
            }
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;

    fn pdb(namespace: &str) -> PdbView {
        PdbView {
            namespace: Arc::from(namespace),
            name: Arc::from("pdb"),
            disruptions_allowed: 1,
            current_healthy: 1,
            desired_healthy: 1,
            expected_pods: 1,
            always_allow_unhealthy: false,
        }
    }

    fn values(vs: &[&str]) -> Box<[Arc<str>]> {
        vs.iter().map(|v| Arc::from(*v)).collect()
    }

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        Labels::new(pairs.iter().map(|(k, v)| (Arc::from(*k), Arc::from(*v))))
    }

    /// The rule itself: the first PDB of the namespace that matches.
    fn first_matching(
        pdbs: &[PdbView],
        selectors: &[PdbSelector],
        namespace: &str,
        labels: &Labels,
    ) -> Option<usize> {
        (0..pdbs.len()).find(|&i| &*pdbs[i].namespace == namespace && selectors[i].matches(labels))
    }

    #[test]
    fn the_first_covering_pdb_wins_whichever_way_it_selects() {
        use LabelRequirement::*;
        let pdbs = vec![
            pdb("shop"),
            pdb("shop"),
            pdb("shop"),
            pdb("other"),
            pdb("other"),
        ];
        let web = || LabelRequirement::equals(Arc::from("app"), Arc::from("web"));
        let selectors = vec![
            // Expressions only: not indexed, tried for every pod.
            PdbSelector(Some(Box::new([In(
                Arc::from("tier"),
                values(&["db", "cache"]),
            )]))),
            PdbSelector(Some(Box::new([web()]))),
            // Empty: covers the whole namespace.
            PdbSelector(Some(Box::new([]))),
            PdbSelector(Some(Box::new([web()]))),
            // No selector: covers nothing.
            PdbSelector(None),
        ];
        let index = PdbIndex::new(&pdbs, &selectors);
        assert_eq!(index.covering("shop", &labels(&[("tier", "db")])), Some(0));
        assert_eq!(index.covering("shop", &labels(&[("app", "web")])), Some(1));
        assert_eq!(
            index.covering("shop", &labels(&[("app", "web"), ("tier", "cache")])),
            Some(0)
        );
        assert_eq!(index.covering("shop", &labels(&[("app", "api")])), Some(2));
        assert_eq!(index.covering("other", &labels(&[("app", "web")])), Some(3));
        assert_eq!(index.covering("other", &labels(&[("app", "api")])), None);
        assert_eq!(index.covering("none", &labels(&[("app", "web")])), None);
    }

    fn requirement() -> impl Strategy<Value = LabelRequirement> {
        let key = prop::sample::select(vec!["app", "tier", "team"]);
        let value = prop::sample::select(vec!["a", "b", "c"]);
        prop_oneof![
            (key.clone(), value.clone())
                .prop_map(|(k, v)| LabelRequirement::equals(Arc::from(k), Arc::from(v))),
            (key.clone(), prop::collection::vec(value, 1..3))
                .prop_map(|(k, vs)| LabelRequirement::In(Arc::from(k), values(&vs))),
            (
                key.clone(),
                prop::collection::vec(prop::sample::select(vec!["a", "b"]), 1..3)
            )
                .prop_map(|(k, vs)| LabelRequirement::NotIn(Arc::from(k), values(&vs))),
            key.clone()
                .prop_map(|k| LabelRequirement::Exists(Arc::from(k))),
            key.prop_map(|k| LabelRequirement::DoesNotExist(Arc::from(k))),
        ]
    }

    proptest! {
        #[test]
        fn the_index_finds_what_a_scan_finds(
            pdb_specs in prop::collection::vec(
                (
                    prop::sample::select(vec!["x", "y"]),
                    prop::option::weighted(0.9, prop::collection::vec(requirement(), 0..3)),
                ),
                0..12,
            ),
            pods in prop::collection::vec(
                (
                    prop::sample::select(vec!["x", "y", "z"]),
                    prop::collection::vec(
                        (
                            prop::sample::select(vec!["app", "tier", "team"]),
                            prop::sample::select(vec!["a", "b", "c"]),
                        ),
                        0..4,
                    ),
                ),
                1..20,
            ),
        ) {
            let pdbs: Vec<PdbView> = pdb_specs.iter().map(|(ns, _)| pdb(ns)).collect();
            let selectors: Vec<PdbSelector> = pdb_specs
                .into_iter()
                .map(|(_, rs)| PdbSelector(rs.map(Vec::into_boxed_slice)))
                .collect();
            let index = PdbIndex::new(&pdbs, &selectors);
            for (namespace, pairs) in pods {
                let labels = labels(&pairs);
                prop_assert_eq!(
                    index.covering(namespace, &labels),
                    first_matching(&pdbs, &selectors, namespace, &labels)
                );
            }
        }
    }
}
