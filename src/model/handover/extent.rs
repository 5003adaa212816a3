//! What a handover item is about and how bad it stands, so that an acknowledgement holds
//! while the problem stays the same one and no worse, and re-opens when it gets worse or
//! another problem appears. "Worse" is decided here, for every kind of item alike, from
//! the facts each section records (see the sections for what they record):
//!
//! - a fact that was not there when the item was acknowledged (a budget that fell below
//!   its minimum, a status that changed, a new cause of a stuck drain, a node left cordoned
//!   that was only mid-step, an exception that expired) is a new problem;
//! - a countable fact whose amount grew (more nodes not ready, a budget further below its
//!   minimum) is the same problem, worse.
//!
//! A fact that went away, or an amount that fell, is better: the acknowledgement holds.

use serde::{Deserialize, Serialize};

/// What a handover item is about, the same for as long as the problem is the same one:
/// it names the run, step, cluster or exception, never a count. Acknowledgements are
/// journaled against it; people never need to see it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProblemKey(pub String);

impl std::fmt::Display for ProblemKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One thing that is wrong, as it stood.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fact {
    /// What is wrong, without counts: `nodes not ready`, `PDB shop/web below its
    /// minimum`, `Unreachable`. Two facts with the same `what` are the same problem.
    pub what: String,
    /// How much, where more is worse: nodes not ready, pods short of a budget's minimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    /// As people read it: `3 of 8 nodes not ready`.
    pub says: String,
}

impl Fact {
    /// A fact without an amount: there or not.
    pub fn kind(what: impl Into<String>, says: impl Into<String>) -> Fact {
        Fact {
            what: what.into(),
            amount: None,
            says: says.into(),
        }
    }

    /// A fact whose amount tells whether it got worse.
    pub fn counted(what: impl Into<String>, amount: i64, says: impl Into<String>) -> Fact {
        Fact {
            what: what.into(),
            amount: Some(amount),
            says: says.into(),
        }
    }
}

/// How a problem stands: the facts that tell whether it got worse. Empty for items that
/// cannot get worse (a note, a batch awaiting approval).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Extent(pub Vec<Fact>);

impl Extent {
    /// How this extent (now) is worse than `then`, in words; `None` when it is not.
    pub fn worse_than(&self, then: &Extent) -> Option<String> {
        let worse: Vec<String> = self
            .0
            .iter()
            .filter_map(|fact| match then.0.iter().find(|f| f.what == fact.what) {
                None => Some(format!("new: {}", fact.says)),
                Some(was) => match (fact.amount, was.amount) {
                    (Some(now), Some(before)) if now > before => {
                        Some(format!("{} (was {})", fact.says, was.says))
                    }
                    _ => None,
                },
            })
            .collect();
        (!worse.is_empty()).then(|| worse.join("; "))
    }

    /// The facts in one line: `3 of 8 nodes not ready; PDB shop/web has 1, needs 2`.
    pub fn summary(&self) -> String {
        self.0
            .iter()
            .map(|f| f.says.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The cause a reason names, without its counts and lists, so that the same cause with
/// other numbers is the same problem: `PDB web needs 2 healthy pods and has 2
/// (shop/web-0)` → `PDB web needs # healthy pods and has #`; `waiting for pods to leave:
/// shop/web-1` → `waiting for pods to leave`.
pub fn cause(reason: &str) -> String {
    let head = reason.split_once(':').map_or(reason, |(head, _)| head);
    let head = head.split_once(" (").map_or(head, |(head, _)| head);
    let mut out = String::with_capacity(head.len());
    let mut in_digits = false;
    for c in head.trim().chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(down: i64) -> Fact {
        Fact::counted(
            "nodes not ready",
            down,
            format!("{down} of 8 nodes not ready"),
        )
    }

    #[test]
    fn fewer_is_not_worse_more_is_and_a_new_fact_is() {
        let then = Extent(vec![nodes(3)]);
        assert_eq!(Extent(vec![nodes(2)]).worse_than(&then), None);
        assert_eq!(Extent(vec![nodes(3)]).worse_than(&then), None);
        assert_eq!(Extent(Vec::new()).worse_than(&then), None);
        assert_eq!(
            Extent(vec![nodes(4)]).worse_than(&then).as_deref(),
            Some("4 of 8 nodes not ready (was 3 of 8 nodes not ready)")
        );
        let pdb = Fact::counted(
            "PDB shop/web below its minimum",
            1,
            "PDB shop/web has 1, needs 2",
        );
        assert_eq!(
            Extent(vec![nodes(2), pdb]).worse_than(&then).as_deref(),
            Some("new: PDB shop/web has 1, needs 2")
        );
    }

    #[test]
    fn a_cause_is_the_reason_without_its_numbers_and_lists() {
        assert_eq!(
            cause("PDB checkout-blocking needs 3 healthy pods and has 3 (shop/checkout-0)"),
            "PDB checkout-blocking needs # healthy pods and has #"
        );
        assert_eq!(
            cause("waiting for pods to leave: shop/web-1, shop/web-2"),
            "waiting for pods to leave"
        );
        assert_eq!(
            cause("the node's pods have not been listed yet"),
            "the node's pods have not been listed yet"
        );
    }
}
