//! The controllers of pods' controllers, as the cluster reports them: a ReplicaSet's
//! Deployment, a Job's CronJob. Operators think in Deployments and CronJobs; a pod names
//! only its ReplicaSet or Job. The name is resolved through the owner reference the
//! cluster reports, never by trimming a suffix off the ReplicaSet's name (`llm-serve` is
//! not a ReplicaSet `serve` of a Deployment `llm`).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::ids::OwnerRef;
use super::pod::PodView;

/// Owner kinds whose own controller is what a pod is an instance of.
pub const CONTROLLED_KINDS: [&str; 2] = ["ReplicaSet", "Job"];

/// The controller of each ReplicaSet and Job that has one, by namespace, kind and name.
/// ReplicaSets and Jobs without a controller are not kept: they name themselves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Controllers(BTreeMap<Arc<str>, ByKind>);

/// One namespace's controllers: by owner kind, then by owner name.
type ByKind = BTreeMap<Arc<str>, BTreeMap<Arc<str>, OwnerRef>>;

impl Controllers {
    /// The controller of `kind` `namespace/name`, if the cluster reports one.
    pub fn of(&self, namespace: &str, kind: &str, name: &str) -> Option<&OwnerRef> {
        self.0.get(namespace)?.get(kind)?.get(name)
    }

    /// Records (or, with `None`, forgets) the controller of `kind` `namespace/name`;
    /// returns whether anything changed.
    pub fn set(
        &mut self,
        namespace: Arc<str>,
        kind: Arc<str>,
        name: Arc<str>,
        controller: Option<OwnerRef>,
    ) -> bool {
        match controller {
            Some(owner) => {
                let names = self
                    .0
                    .entry(namespace)
                    .or_default()
                    .entry(kind)
                    .or_default();
                names.insert(name, owner.clone()).as_ref() != Some(&owner)
            }
            None => {
                let Some(kinds) = self.0.get_mut(&namespace) else {
                    return false;
                };
                let removed = kinds
                    .get_mut(&kind)
                    .is_some_and(|names| names.remove(&name).is_some());
                kinds.retain(|_, names| !names.is_empty());
                if kinds.is_empty() {
                    self.0.remove(&namespace);
                }
                removed
            }
        }
    }

    /// Replaces every entry of `kind` with `entries` (a full list); returns whether
    /// anything changed.
    pub fn replace_kind(
        &mut self,
        kind: &str,
        entries: impl IntoIterator<Item = (Arc<str>, Arc<str>, OwnerRef)>,
    ) -> bool {
        let before = self.clone();
        for kinds in self.0.values_mut() {
            kinds.remove(kind);
        }
        self.0.retain(|_, kinds| !kinds.is_empty());
        let kind: Arc<str> = Arc::from(kind);
        for (namespace, name, owner) in entries {
            self.set(namespace, Arc::clone(&kind), name, Some(owner));
        }
        *self != before
    }

    /// How many are known.
    pub fn len(&self) -> usize {
        self.0
            .values()
            .flat_map(|kinds| kinds.values())
            .map(BTreeMap::len)
            .sum()
    }

    /// Whether none is known.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What `pod` is an instance of: its controller, or the controller of that controller
/// when the cluster reports one for a ReplicaSet or a Job (a Deployment, a CronJob).
pub fn workload_of<'a>(controllers: &'a Controllers, pod: &'a PodView) -> Option<&'a OwnerRef> {
    let owner = pod.owner.as_ref()?;
    if CONTROLLED_KINDS.contains(&&*owner.kind)
        && let Some(parent) = controllers.of(&pod.namespace, &owner.kind, &owner.name)
    {
        return Some(parent);
    }
    Some(owner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::capacity::pod;

    fn owner(kind: &str, name: &str) -> OwnerRef {
        OwnerRef {
            kind: kind.into(),
            name: name.into(),
        }
    }

    #[test]
    fn names_come_from_the_owner_chain_never_from_trimming() {
        let mut controllers = Controllers::default();
        assert!(controllers.set(
            "shop".into(),
            "ReplicaSet".into(),
            "web-54fb655679".into(),
            Some(owner("Deployment", "web"))
        ));
        assert!(controllers.set(
            "batch".into(),
            "Job".into(),
            "report-29100".into(),
            Some(owner("CronJob", "report"))
        ));
        let web = pod("web-54fb655679-x", Some("n1"))
            .owner("shop", "ReplicaSet", "web-54fb655679")
            .build();
        assert_eq!(
            workload_of(&controllers, &web),
            Some(&owner("Deployment", "web"))
        );
        let job = pod("report-29100-x", Some("n1"))
            .owner("batch", "Job", "report-29100")
            .build();
        assert_eq!(
            workload_of(&controllers, &job),
            Some(&owner("CronJob", "report"))
        );
        // A ReplicaSet nobody controls (or not known) names itself: `llm-serve` stays
        // `llm-serve`, not a Deployment `llm`.
        let bare = pod("llm-serve-abcde", Some("n1"))
            .owner("ml", "ReplicaSet", "llm-serve")
            .build();
        assert_eq!(
            workload_of(&controllers, &bare),
            Some(&owner("ReplicaSet", "llm-serve"))
        );
        // The same name in another namespace is another ReplicaSet.
        let elsewhere = pod("web-54fb655679-y", Some("n1"))
            .owner("other", "ReplicaSet", "web-54fb655679")
            .build();
        assert_eq!(
            workload_of(&controllers, &elsewhere),
            Some(&owner("ReplicaSet", "web-54fb655679"))
        );
        assert_eq!(controllers.len(), 2);
        assert!(controllers.set(
            "shop".into(),
            "ReplicaSet".into(),
            "web-54fb655679".into(),
            None
        ));
        assert_eq!(controllers.len(), 1);
        assert!(controllers.replace_kind("Job", Vec::new()));
        assert!(controllers.is_empty());
    }
}
