//! The resource types one cluster serves: the built-in ones (see
//! [`super::resource`]) and those of its established CustomResourceDefinitions.

use std::collections::HashMap;
use std::sync::Arc;

use super::resource::{BUILTIN_TYPES, Kind, ResourceType};

/// The resource types one cluster serves: the built-in ones and those of its
/// established CustomResourceDefinitions. Cheap to clone (shared types).
#[derive(Clone, Debug)]
pub struct Registry {
    types: Vec<Arc<ResourceType>>,
    /// `(group, plural)` → slot, kept after a CRD is deleted so that a CRD created
    /// again under the same name gets the same slot.
    slots: HashMap<(String, String), Kind>,
    next_slot: u16,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::builtin()
    }
}

impl Registry {
    /// A registry with the built-in types only.
    pub fn builtin() -> Registry {
        let types: Vec<Arc<ResourceType>> = BUILTIN_TYPES.clone();
        let slots = types
            .iter()
            .map(|t| ((t.group.clone(), t.plural.clone()), t.slot))
            .collect();
        Registry {
            types,
            slots,
            next_slot: Kind::FIRST_CUSTOM,
        }
    }

    /// Every served type (each version of a custom type is one entry).
    pub fn all(&self) -> &[Arc<ResourceType>] {
        &self.types
    }

    /// The type served at `group`/`version`/`plural`.
    pub fn by_plural(&self, group: &str, version: &str, plural: &str) -> Option<Arc<ResourceType>> {
        self.types
            .iter()
            .find(|t| t.group == group && t.version == version && t.plural == plural)
            .cloned()
    }

    /// The type of an object with this `apiVersion` and `kind`.
    pub fn by_kind(&self, api_version: &str, kind: &str) -> Option<Arc<ResourceType>> {
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        self.types
            .iter()
            .find(|t| t.group == group && t.version == version && t.kind == kind)
            .cloned()
    }

    /// The types stored in `slot` (one per served version).
    pub fn of_slot(&self, slot: Kind) -> impl Iterator<Item = &Arc<ResourceType>> {
        self.types.iter().filter(move |t| t.slot == slot)
    }

    /// Groups with their versions, in the order discovery lists them (core excluded):
    /// built-in groups first, then custom groups by name.
    pub fn groups(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for t in self.types.iter().filter(|t| !t.group.is_empty()) {
            match out.iter_mut().find(|(g, _)| *g == t.group) {
                Some((_, versions)) => {
                    if !versions.contains(&t.version) {
                        versions.push(t.version.clone());
                    }
                }
                None => out.push((t.group.clone(), vec![t.version.clone()])),
            }
        }
        out
    }

    /// The slot for a custom type `(group, plural)`: the one it had before, or the next
    /// free one.
    pub fn slot_for(&mut self, group: &str, plural: &str) -> Kind {
        if let Some(k) = self.slots.get(&(group.to_string(), plural.to_string())) {
            return *k;
        }
        let k = Kind(self.next_slot);
        self.next_slot = self.next_slot.saturating_add(1);
        self.slots
            .insert((group.to_string(), plural.to_string()), k);
        k
    }

    /// Serves `types` (the served versions of one custom type) in place of whatever the
    /// slot served before.
    pub fn serve(&mut self, slot: Kind, types: Vec<ResourceType>) {
        self.types.retain(|t| t.slot != slot);
        self.types.extend(types.into_iter().map(Arc::new));
    }

    /// Stops serving a custom type (its CRD is gone). Its slot stays reserved.
    pub fn withdraw(&mut self, slot: Kind) {
        self.types.retain(|t| t.slot != slot || !t.custom);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_types_keep_their_slot_across_withdrawal() {
        let mut r = Registry::builtin();
        let slot = r.slot_for("argoproj.io", "applications");
        assert_eq!(slot.0, Kind::FIRST_CUSTOM);
        let mut t = (*Kind::CONFIG_MAP.info()).clone();
        t.slot = slot;
        t.group = "argoproj.io".into();
        t.version = "v1alpha1".into();
        t.kind = "Application".into();
        t.plural = "applications".into();
        t.custom = true;
        r.serve(slot, vec![t]);
        assert!(r.by_kind("argoproj.io/v1alpha1", "Application").is_some());
        assert!(
            r.groups()
                .iter()
                .any(|(g, v)| g == "argoproj.io" && v == &["v1alpha1"])
        );
        r.withdraw(slot);
        assert!(
            r.by_plural("argoproj.io", "v1alpha1", "applications")
                .is_none()
        );
        assert_eq!(r.slot_for("argoproj.io", "applications"), slot);
        assert_eq!(
            r.slot_for("fluxcd.io", "kustomizations").0,
            Kind::FIRST_CUSTOM + 1
        );
    }
}
