//! Disruption budgets, shared by both levels of the batch engine: nodes in a maintenance
//! and clusters in a rollout. An item counts against a few limits (the whole, its failure
//! domain, its region, its replica group…); a batch takes items greedily, in order, while
//! every limit allows them.

use std::collections::BTreeMap;

/// One limit an item counts against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    /// What is counted: items sharing a key share the count (`total`, `region=eu-west`).
    pub key: String,
    /// At most this many items with that key in one batch.
    pub max: u32,
    /// What to say when the limit refuses an item ("perRegion 2 reached in eu-west").
    pub reason: String,
}

/// Counts per limit key.
#[derive(Debug, Clone, Default)]
pub struct Usage {
    counts: BTreeMap<String, u32>,
}

impl Usage {
    /// Counts an item with these limits.
    pub fn add(&mut self, limits: &[Limit]) {
        for limit in limits {
            *self.counts.entry(limit.key.clone()).or_default() += 1;
        }
    }

    /// The first limit that refuses one more item, or `None` when every one allows it.
    pub fn refuses<'a>(&self, limits: &'a [Limit]) -> Option<&'a Limit> {
        limits
            .iter()
            .find(|l| self.counts.get(&l.key).copied().unwrap_or(0) + 1 > l.max)
    }
}

/// Items cut into batches, by index into the input.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Partition {
    /// Batches in order; each holds indexes of items, in input order.
    pub batches: Vec<Vec<usize>>,
    /// Items that fit in no batch even alone (the baseline uses their budget up), with the
    /// limit that refuses them.
    pub unplaced: Vec<(usize, String)>,
}

/// Cuts items (given by their limits, in order) into batches under every limit, with
/// `baseline` already counted in every batch (things already unavailable). Greedy in
/// order: each batch takes every item that still fits, so earlier items go first.
pub fn partition(items: &[Vec<Limit>], baseline: &Usage) -> Partition {
    let mut remaining: Vec<usize> = (0..items.len()).collect();
    let mut out = Partition::default();
    while !remaining.is_empty() {
        let mut usage = baseline.clone();
        let mut batch = Vec::new();
        let mut left = Vec::new();
        for index in remaining {
            let limits = &items[index];
            if usage.refuses(limits).is_none() {
                usage.add(limits);
                batch.push(index);
            } else {
                left.push(index);
            }
        }
        if batch.is_empty() {
            for index in left {
                let why = baseline
                    .refuses(&items[index])
                    .map(|l| l.reason.clone())
                    .unwrap_or_else(|| "no budget left".to_string());
                out.unplaced.push((index, why));
            }
            break;
        }
        out.batches.push(batch);
        remaining = left;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(zone: &str) -> Vec<Limit> {
        vec![
            Limit {
                key: "total".into(),
                max: 2,
                reason: "max 2".into(),
            },
            Limit {
                key: format!("zone={zone}"),
                max: 1,
                reason: format!("zone {zone} full"),
            },
        ]
    }

    #[test]
    fn greedy_in_order_under_every_limit() {
        let items = vec![limits("a"), limits("a"), limits("b"), limits("c")];
        let p = partition(&items, &Usage::default());
        assert_eq!(p.batches, vec![vec![0, 2], vec![1, 3]]);
        assert!(p.unplaced.is_empty());
    }

    #[test]
    fn a_baseline_that_uses_a_limit_up_leaves_items_unplaced() {
        let mut baseline = Usage::default();
        baseline.add(&limits("a"));
        let p = partition(&[limits("a"), limits("b")], &baseline);
        assert_eq!(p.batches, vec![vec![1]]);
        assert_eq!(p.unplaced, vec![(0, "zone a full".to_string())]);
    }
}
