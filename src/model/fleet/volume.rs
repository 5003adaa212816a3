//! Persistent volume claims and volumes, as far as placement needs them: a pod whose claim
//! is bound to a volume reachable only from one topology domain (a zonal disk, a local
//! volume) cannot be re-placed outside that domain.

use std::sync::Arc;

use super::labels::LabelRequirement;
use super::pod::TopologyDomain;

/// A PersistentVolumeClaim: which volume it is bound to, if any yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimView {
    /// Namespace (interned).
    pub namespace: Arc<str>,
    /// Claim name.
    pub name: Arc<str>,
    /// The bound PersistentVolume (`spec.volumeName`); `None` while unbound (a
    /// WaitForFirstConsumer claim binds where its pod lands, so it pins nothing).
    pub volume: Option<Arc<str>>,
}

/// A PersistentVolume: the one topology domain its nodes must be in, if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VolumeView {
    /// Volume name.
    pub name: Arc<str>,
    /// The domain its node affinity confines it to, if that is a single label value.
    pub domain: Option<TopologyDomain>,
}

/// The single topology domain a volume's required node affinity (`spec.nodeAffinity.
/// required`) confines it to: one term whose requirement `key In [value]` names one
/// value (`topology.kubernetes.io/zone In [us-east-1a]` for a zonal disk,
/// `kubernetes.io/hostname In [node-7]` for a local volume). Several terms (any of
/// them will do) or several values (a regional disk in two zones) are not one domain
/// and pin nothing here: the pod may still move, which errs towards headroom that a
/// regional disk really has.
pub fn volume_domain(required_terms: &[Box<[LabelRequirement]>]) -> Option<TopologyDomain> {
    let [term] = required_terms else {
        return None;
    };
    // A term may name several levels at once (region and zone, as the in-tree labeller
    // and multi-segment CSI topologies write them, in no fixed order): the narrowest one
    // is the pin, the others contain it.
    term.iter()
        .filter_map(|requirement| match requirement {
            LabelRequirement::In(key, values) => match &**values {
                [value] => Some(TopologyDomain {
                    key: Arc::clone(key),
                    value: Arc::clone(value),
                }),
                _ => None,
            },
            _ => None,
        })
        .min_by_key(|domain| breadth(&domain.key))
}

/// How wide a topology level is, narrowest first: a node, a zone, anything else (a
/// region, a partition).
fn breadth(key: &str) -> u8 {
    if key == "kubernetes.io/hostname" {
        0
    } else if key.ends_with("zone") {
        1
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Arc<str> {
        Arc::from(text)
    }

    fn zone_in(values: &[&str]) -> LabelRequirement {
        LabelRequirement::In(
            s("topology.kubernetes.io/zone"),
            values.iter().map(|v| s(v)).collect(),
        )
    }

    #[test]
    fn one_term_with_one_value_is_a_domain() {
        let zonal = [Box::from([
            LabelRequirement::Exists(s("disk")),
            zone_in(&["a"]),
        ])];
        assert_eq!(
            volume_domain(&zonal),
            Some(TopologyDomain {
                key: s("topology.kubernetes.io/zone"),
                value: s("a"),
            })
        );
        // Region and zone in one term, in either order: the zone is the pin.
        let region = || LabelRequirement::In(s("topology.kubernetes.io/region"), [s("r")].into());
        for term in [[region(), zone_in(&["a"])], [zone_in(&["a"]), region()]] {
            let domain = volume_domain(&[Box::from(term)]);
            assert_eq!(domain.map(|d| d.value), Some(s("a")));
        }
        let local = [Box::from([
            LabelRequirement::In(s("kubernetes.io/hostname"), [s("n7")].into()),
            zone_in(&["a"]),
        ])];
        assert_eq!(
            volume_domain(&local).map(|d| d.key),
            Some(s("kubernetes.io/hostname"))
        );
        let regional = [Box::from([zone_in(&["a", "b"])])];
        assert_eq!(
            volume_domain(&regional),
            None,
            "two zones are not one domain"
        );
        let either = [Box::from([zone_in(&["a"])]), Box::from([zone_in(&["b"])])];
        assert_eq!(volume_domain(&either), None, "either term will do");
        assert_eq!(volume_domain(&[]), None, "no affinity: reachable anywhere");
    }
}
