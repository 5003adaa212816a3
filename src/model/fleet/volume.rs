//! Persistent volume claims and volumes, as far as placement needs them: a pod whose claim
//! is bound to a volume reachable only from one topology domain (a zonal disk, a local
//! volume, both zones of a regional disk) cannot be re-placed outside it.

use std::sync::Arc;

use super::labels::LabelRequirement;
use super::pod::RequiredDomain;

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
    /// The domains its node affinity confines it to (values of one label key), if any.
    pub domain: Option<RequiredDomain>,
}

/// The topology domains a volume's required node affinity (`spec.nodeAffinity.required`)
/// confines it to. Each term's narrowest `key In [values]` requirement is its pin
/// (`topology.kubernetes.io/zone In [us-east-1a]` for a zonal disk, `In [us-east-1a,
/// us-east-1b]` for a regional one, `kubernetes.io/hostname In [node-7]` for a local
/// volume). Terms are alternatives, so several terms pin the union of their values when
/// they pin the same key; a term that pins nothing, or terms pinning different keys, leave
/// the pod free to move, which errs towards headroom the volume may really have.
pub fn volume_domain(required_terms: &[Box<[LabelRequirement]>]) -> Option<RequiredDomain> {
    let mut pins = required_terms.iter().map(|term| term_pin(term));
    let (key, first) = pins.next()??;
    let mut values = first.to_vec();
    for pin in pins {
        let (other_key, other) = pin?;
        if other_key != key {
            return None;
        }
        values.extend(other.iter().cloned());
    }
    RequiredDomain::any_of(Arc::clone(key), values)
}

/// One term's pin: its narrowest `In` requirement. A term may name several levels at once
/// (region and zone, as the in-tree labeller and multi-segment CSI topologies write them,
/// in no fixed order): the narrowest is the pin, the others contain it.
fn term_pin(term: &[LabelRequirement]) -> Option<(&Arc<str>, &[Arc<str>])> {
    term.iter()
        .filter_map(|requirement| match requirement {
            LabelRequirement::In(key, values) if !values.is_empty() => Some((key, &**values)),
            _ => None,
        })
        .min_by_key(|(key, values)| (breadth(key), values.len()))
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

    fn pin(terms: &[Box<[LabelRequirement]>]) -> Option<String> {
        volume_domain(terms).map(|d| d.to_string())
    }

    #[test]
    fn one_term_with_one_value_is_one_domain() {
        let zonal = [Box::from([
            LabelRequirement::Exists(s("disk")),
            zone_in(&["a"]),
        ])];
        assert_eq!(
            volume_domain(&zonal),
            Some(RequiredDomain::one(
                s("topology.kubernetes.io/zone"),
                s("a")
            ))
        );
        // Region and zone in one term, in either order: the zone is the pin.
        let region = || LabelRequirement::In(s("topology.kubernetes.io/region"), [s("r")].into());
        for term in [[region(), zone_in(&["a"])], [zone_in(&["a"]), region()]] {
            assert_eq!(
                pin(&[Box::from(term)]).as_deref(),
                Some("topology.kubernetes.io/zone=a")
            );
        }
        let local = [Box::from([
            LabelRequirement::In(s("kubernetes.io/hostname"), [s("n7")].into()),
            zone_in(&["a"]),
        ])];
        assert_eq!(pin(&local).as_deref(), Some("kubernetes.io/hostname=n7"));
        assert_eq!(volume_domain(&[]), None, "no affinity: reachable anywhere");
    }

    #[test]
    fn a_regional_disk_pins_its_pod_to_either_zone() {
        let regional = [Box::from([zone_in(&["b", "a", "b"])])];
        assert_eq!(
            pin(&regional).as_deref(),
            Some("topology.kubernetes.io/zone in (a, b)")
        );
        let domain = volume_domain(&regional);
        let admits = |zone: &str| domain.as_ref().is_some_and(|d| d.admits(Some(&s(zone))));
        assert!(admits("a") && admits("b") && !admits("c"));
        // The same as two alternative terms of one zone each.
        let either = [Box::from([zone_in(&["a"])]), Box::from([zone_in(&["b"])])];
        assert_eq!(volume_domain(&either), domain);
    }

    #[test]
    fn two_volumes_pin_their_pod_where_both_reach() {
        let regional = volume_domain(&[Box::from([zone_in(&["a", "b"])])]);
        let zonal = volume_domain(&[Box::from([zone_in(&["b"])])]);
        let (Some(regional), Some(zonal)) = (regional, zonal) else {
            panic!("both pin");
        };
        assert_eq!(
            regional.clone().within(&zonal).to_string(),
            "topology.kubernetes.io/zone=b"
        );
        let elsewhere = RequiredDomain::one(s("topology.kubernetes.io/zone"), s("c"));
        assert_eq!(
            zonal.clone().within(&elsewhere),
            zonal,
            "apart: left as it is"
        );
    }

    #[test]
    fn alternatives_that_do_not_all_pin_one_key_pin_nothing() {
        let unpinned_term = [
            Box::from([zone_in(&["a"])]),
            Box::from([LabelRequirement::Exists(s("disk"))]),
        ];
        assert_eq!(
            volume_domain(&unpinned_term),
            None,
            "the second term admits any zone"
        );
        let host_or_zone = [
            Box::from([LabelRequirement::In(
                s("kubernetes.io/hostname"),
                [s("n7")].into(),
            )]),
            Box::from([zone_in(&["b"])]),
        ];
        assert_eq!(volume_domain(&host_or_zone), None);
    }
}
