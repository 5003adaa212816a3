//! Node taints and pod tolerations, matched exactly as the scheduler matches them.

use std::sync::Arc;

/// What a taint does to pods that do not tolerate it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TaintEffect {
    /// New pods are not scheduled onto the node.
    NoSchedule,
    /// The scheduler avoids the node but may still use it; ignored for capacity.
    PreferNoSchedule,
    /// New pods are not scheduled and running ones are evicted.
    NoExecute,
}

impl TaintEffect {
    /// Parses the API spelling; `None` for an effect we do not know.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "NoSchedule" => Some(Self::NoSchedule),
            "PreferNoSchedule" => Some(Self::PreferNoSchedule),
            "NoExecute" => Some(Self::NoExecute),
            _ => None,
        }
    }

    /// Whether the effect keeps untolerating pods off the node (the only effects that
    /// matter for placement).
    pub fn repels(self) -> bool {
        matches!(self, Self::NoSchedule | Self::NoExecute)
    }
}

/// A node taint.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Taint {
    /// Taint key, e.g. `nvidia.com/gpu` or `node.kubernetes.io/unreachable`.
    pub key: Arc<str>,
    /// Taint value; the API's empty value is `None`.
    pub value: Option<Arc<str>>,
    /// What the taint does.
    pub effect: TaintEffect,
}

/// How a toleration compares values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TolerationOperator {
    /// Any value (and, with no key, any taint).
    Exists,
    /// The taint's value must equal the toleration's.
    Equal,
}

/// A pod toleration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Toleration {
    /// Key to match; `None` (only with `Exists`) matches every key.
    pub key: Option<Arc<str>>,
    /// Comparison operator.
    pub operator: TolerationOperator,
    /// Value for `Equal`; `None` equals an empty taint value.
    pub value: Option<Arc<str>>,
    /// Effect to match; `None` matches every effect.
    pub effect: Option<TaintEffect>,
}

impl Toleration {
    /// Whether this toleration tolerates `taint` (Kubernetes `ToleratesTaint`).
    pub fn tolerates(&self, taint: &Taint) -> bool {
        if self.effect.is_some_and(|e| e != taint.effect) {
            return false;
        }
        match &self.key {
            Some(key) if *key != taint.key => return false,
            // An empty key only makes sense with Exists: it tolerates everything.
            None => return self.operator == TolerationOperator::Exists,
            Some(_) => {}
        }
        match self.operator {
            TolerationOperator::Exists => true,
            TolerationOperator::Equal => {
                self.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or("")
            }
        }
    }
}

/// Whether `tolerations` tolerate every repelling (NoSchedule/NoExecute) taint in `taints`.
pub fn tolerates_all(tolerations: &[Toleration], taints: &[Taint]) -> bool {
    taints
        .iter()
        .filter(|t| t.effect.repels())
        .all(|t| tolerations.iter().any(|tol| tol.tolerates(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(key: &str, value: Option<&str>, effect: TaintEffect) -> Taint {
        Taint {
            key: key.into(),
            value: value.map(Into::into),
            effect,
        }
    }

    fn tol(
        key: Option<&str>,
        operator: TolerationOperator,
        value: Option<&str>,
        effect: Option<TaintEffect>,
    ) -> Toleration {
        Toleration {
            key: key.map(Into::into),
            operator,
            value: value.map(Into::into),
            effect,
        }
    }

    #[test]
    fn matching_rules() {
        use TaintEffect::*;
        use TolerationOperator::*;
        let gpu = taint("nvidia.com/gpu", Some("present"), NoSchedule);
        assert!(tol(Some("nvidia.com/gpu"), Exists, None, None).tolerates(&gpu));
        assert!(
            tol(
                Some("nvidia.com/gpu"),
                Equal,
                Some("present"),
                Some(NoSchedule)
            )
            .tolerates(&gpu)
        );
        assert!(!tol(Some("nvidia.com/gpu"), Equal, Some("absent"), None).tolerates(&gpu));
        assert!(!tol(Some("nvidia.com/gpu"), Exists, None, Some(NoExecute)).tolerates(&gpu));
        assert!(!tol(Some("other"), Exists, None, None).tolerates(&gpu));
        // Empty key with Exists tolerates everything; with Equal, nothing.
        assert!(tol(None, Exists, None, None).tolerates(&gpu));
        assert!(!tol(None, Equal, None, None).tolerates(&gpu));
        // Empty values are equal.
        let bare = taint("dedicated", None, NoSchedule);
        assert!(tol(Some("dedicated"), Equal, None, None).tolerates(&bare));
        assert!(tol(Some("dedicated"), Equal, Some(""), None).tolerates(&bare));
    }

    #[test]
    fn prefer_no_schedule_does_not_repel() {
        let taints = [
            taint("a", None, TaintEffect::PreferNoSchedule),
            taint("b", Some("x"), TaintEffect::NoExecute),
        ];
        assert!(!tolerates_all(&[], &taints));
        let b = tol(Some("b"), TolerationOperator::Exists, None, None);
        assert!(tolerates_all(&[b], &taints));
        assert!(tolerates_all(&[], &taints[..1]));
    }
}
