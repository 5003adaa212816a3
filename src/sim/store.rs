//! Per-cluster object storage: serialized objects in key order per kind, one
//! resourceVersion counter (as etcd has one revision per cluster), a bounded history of
//! changes for watches, and a broadcast channel that live watches subscribe to.
//!
//! Objects are kept as serialized JSON (`Bytes`) plus a small index of the fields that
//! selectors use: a list is then a concatenation of stored bytes, and a 300,000-pod fleet
//! fits in a few hundred megabytes instead of gigabytes of `serde_json::Value` trees.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use bytes::Bytes;
use rand::{Rng, SeedableRng, rngs::SmallRng};
use serde_json::Value;
use tokio::sync::broadcast;

use super::resource::Kind;

/// `(namespace, name)`; the namespace is empty for cluster-scoped kinds.
pub type Key = (String, String);

/// The fields of an object that list and watch filters look at.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Index {
    /// `metadata.labels`.
    pub labels: Vec<(String, String)>,
    /// `spec.nodeName` (pods).
    pub node_name: Option<String>,
    /// `status.phase` (pods, namespaces).
    pub phase: Option<String>,
    /// Further selectable fields (Events: `involvedObject.*`, `reason`, `type`).
    pub extra: Vec<(&'static str, String)>,
    /// Hashes of the owners' uids (`metadata.ownerReferences[].uid`), so the garbage
    /// collector finds dependents without decoding every object.
    pub owners: Box<[u64]>,
}

/// Event fields the API server allows in field selectors.
pub const EVENT_FIELDS: [&str; 8] = [
    "involvedObject.kind",
    "involvedObject.name",
    "involvedObject.namespace",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "reason",
    "type",
    "source",
];

impl Index {
    /// Extracts the index fields from an object.
    pub fn of(obj: &Value) -> Index {
        let labels = obj
            .pointer("/metadata/labels")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let s = |p: &str| obj.pointer(p).and_then(Value::as_str).map(String::from);
        let extra = if obj.get("involvedObject").is_some() {
            EVENT_FIELDS
                .iter()
                .map(|f| {
                    let ptr = if *f == "source" {
                        "/source/component".to_string()
                    } else {
                        format!("/{}", f.replace('.', "/"))
                    };
                    (*f, s(&ptr).unwrap_or_default())
                })
                .collect()
        } else {
            Vec::new()
        };
        let owners = obj
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .map(|refs| {
                refs.iter()
                    .filter_map(|r| r.get("uid").and_then(Value::as_str))
                    .map(uid_hash)
                    .collect()
            })
            .unwrap_or_default();
        Index {
            labels,
            node_name: s("/spec/nodeName"),
            phase: s("/status/phase"),
            extra,
            owners,
        }
    }
}

/// The hash an owner uid is indexed by ([`Index::owners`]).
pub fn uid_hash(uid: &str) -> u64 {
    super::generate::fnv(uid)
}

/// One stored object.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The object as served (JSON, with `metadata.resourceVersion` set).
    pub json: Bytes,
    /// Selector fields.
    pub idx: Index,
}

impl Stored {
    /// Decodes the object.
    pub fn value(&self) -> Value {
        serde_json::from_slice(&self.json).unwrap_or(Value::Null)
    }
}

/// The type of a watch event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// Object created.
    Added,
    /// Object changed.
    Modified,
    /// Object removed.
    Deleted,
}

impl EventType {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

/// One change, as kept in the history and broadcast to watches.
#[derive(Debug)]
pub struct Change {
    /// resourceVersion of the change.
    pub rv: u64,
    /// Kind of the object.
    pub kind: Kind,
    /// Event type.
    pub etype: EventType,
    /// Namespace ("" if cluster-scoped).
    pub ns: String,
    /// Name.
    pub name: String,
    /// The object after the change (for DELETED: its last state).
    pub json: Bytes,
    /// Selector fields after the change.
    pub idx: Index,
    /// Selector fields before the change, so filtered watches can turn a change that
    /// leaves the selection into DELETED (and one that enters it into ADDED).
    pub prev: Option<Index>,
}

/// All objects of one simulated cluster. Guarded by the cluster's mutex.
pub struct Store {
    rv: u64,
    objects: Vec<BTreeMap<Key, Stored>>,
    history: VecDeque<Arc<Change>>,
    history_cap: usize,
    compacted: u64,
    tx: broadcast::Sender<Arc<Change>>,
    rng: SmallRng,
    events: VecDeque<Key>,
    /// The resourceVersion of the last change per slot (for caches of parsed objects).
    slot_versions: Vec<u64>,
}

/// Default number of changes kept for watch resumption.
pub const DEFAULT_HISTORY: usize = 5_000;

impl Store {
    /// An empty store whose random names and UIDs derive from `seed`.
    pub fn new(seed: u64, history_cap: usize) -> Store {
        let (tx, _) = broadcast::channel(4096);
        Store {
            rv: 0,
            objects: Vec::new(),
            history: VecDeque::new(),
            history_cap: history_cap.max(1),
            compacted: 0,
            tx,
            rng: SmallRng::seed_from_u64(seed),
            events: VecDeque::new(),
            slot_versions: Vec::new(),
        }
    }

    /// The current resourceVersion.
    pub fn rv(&self) -> u64 {
        self.rv
    }

    /// The oldest resourceVersion a watch can still resume from.
    pub fn compacted(&self) -> u64 {
        self.compacted
    }

    /// Forgets the change history, like an etcd compaction: watches or continue tokens
    /// older than now get 410 Expired.
    pub fn compact(&mut self) {
        self.history.clear();
        self.compacted = self.rv;
    }

    /// Starts the watch history anew, as a rebuilt cluster's: open watches end, and no
    /// resourceVersion handed out so far can be resumed from (410 Expired).
    pub fn restart_history(&mut self) {
        self.history.clear();
        self.rv += 1;
        self.compacted = self.rv;
        self.tx = broadcast::channel(4096).0;
    }

    /// Subscribes to changes after the current resourceVersion.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Change>> {
        self.tx.subscribe()
    }

    /// Changes with a resourceVersion greater than `rv`, oldest first.
    pub fn changes_since(&self, rv: u64) -> Vec<Arc<Change>> {
        let start = self.history.partition_point(|c| c.rv <= rv);
        self.history.iter().skip(start).cloned().collect()
    }

    /// A random RFC 4122 version-4 UID from the store's seeded generator.
    pub fn new_uid(&mut self) -> String {
        let b: [u8; 16] = self.rng.random();
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            u16::from_be_bytes([b[4], b[5]]),
            u16::from_be_bytes([b[6], b[7]]) & 0x0fff,
            (u16::from_be_bytes([b[8], b[9]]) & 0x3fff) | 0x8000,
            u64::from_be_bytes([0, 0, b[10], b[11], b[12], b[13], b[14], b[15]])
        )
    }

    /// Five random characters as `generateName` appends them.
    pub fn name_suffix(&mut self) -> String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..5)
            .map(|_| ALPHABET[self.rng.random_range(0..ALPHABET.len())] as char)
            .collect()
    }

    /// A random number in `0..n`, for simulated behaviour that should vary.
    pub fn random_below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.rng.random_range(0..n)
        }
    }

    /// Remembers an Event the simulator created and removes the oldest beyond `max`.
    pub fn remember_event(&mut self, ns: &str, name: &str, max: usize) {
        self.events.push_back((ns.to_string(), name.to_string()));
        while self.events.len() > max {
            if let Some((ons, oname)) = self.events.pop_front() {
                self.remove(Kind::EVENT, &ons, &oname);
            }
        }
    }

    fn map(&self, kind: Kind) -> Option<&BTreeMap<Key, Stored>> {
        self.objects.get(kind.slot())
    }

    fn map_mut(&mut self, kind: Kind) -> &mut BTreeMap<Key, Stored> {
        if self.objects.len() <= kind.slot() {
            self.objects.resize_with(kind.slot() + 1, BTreeMap::new);
        }
        &mut self.objects[kind.slot()]
    }

    /// One stored object.
    pub fn get(&self, kind: Kind, ns: &str, name: &str) -> Option<&Stored> {
        self.map(kind)?.get(&(ns.to_string(), name.to_string()))
    }

    /// One object, decoded.
    pub fn get_value(&self, kind: Kind, ns: &str, name: &str) -> Option<Value> {
        self.get(kind, ns, name).map(Stored::value)
    }

    /// Objects of `kind` in key order, restricted to `ns` when given, starting strictly
    /// after `after` when given (pagination).
    pub fn iter<'a>(
        &'a self,
        kind: Kind,
        ns: Option<&'a str>,
        after: Option<&Key>,
    ) -> impl Iterator<Item = (&'a Key, &'a Stored)> + 'a {
        use std::ops::Bound;
        let lower = match (after, ns) {
            (Some(k), _) => Bound::Excluded(k.clone()),
            (None, Some(ns)) => Bound::Included((ns.to_string(), String::new())),
            (None, None) => Bound::Unbounded,
        };
        self.map(kind)
            .into_iter()
            .flat_map(move |map| map.range((lower.clone(), Bound::Unbounded)))
            .take_while(move |(k, _)| ns.is_none_or(|ns| k.0 == ns))
    }

    /// Number of objects of a kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.map(kind).map_or(0, BTreeMap::len)
    }

    /// Keys of the objects of `kind` (in `ns` when given) that name `owner_uid` among
    /// their owners.
    pub fn dependents(&self, kind: Kind, ns: Option<&str>, owner_uid: &str) -> Vec<Key> {
        let h = uid_hash(owner_uid);
        self.iter(kind, ns, None)
            .filter(|(_, s)| s.idx.owners.contains(&h))
            .filter(|(_, s)| {
                s.value()
                    .pointer("/metadata/ownerReferences")
                    .and_then(Value::as_array)
                    .is_some_and(|refs| {
                        refs.iter()
                            .any(|r| r.get("uid").and_then(Value::as_str) == Some(owner_uid))
                    })
            })
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// The slots that hold at least one object.
    pub fn used_slots(&self) -> Vec<Kind> {
        self.objects
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_empty())
            .map(|(i, _)| Kind(i as u16))
            .collect()
    }

    /// Decoded objects of a kind (optionally in one namespace).
    pub fn values(&self, kind: Kind, ns: Option<&str>) -> Vec<Value> {
        self.iter(kind, ns, None).map(|(_, s)| s.value()).collect()
    }

    /// Stores `obj` (created or replaced), assigning the next resourceVersion, and records
    /// the change. Returns the stored form.
    pub fn put(&mut self, kind: Kind, mut obj: Value) -> Stored {
        let ns = str_at(&obj, "/metadata/namespace");
        let name = str_at(&obj, "/metadata/name");
        self.rv += 1;
        let rv = self.rv;
        if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("resourceVersion".into(), Value::String(rv.to_string()));
        }
        if let Some(o) = obj.as_object_mut()
            && !kind.kind().is_empty()
        {
            o.entry("apiVersion")
                .or_insert_with(|| Value::String(kind.api_version()));
            o.entry("kind")
                .or_insert_with(|| Value::String(kind.kind().into()));
        }
        let json = Bytes::from(serde_json::to_vec(&obj).unwrap_or_default());
        let idx = Index::of(&obj);
        let stored = Stored {
            json: json.clone(),
            idx: idx.clone(),
        };
        // Cluster-scoped objects carry no namespace (the handlers remove it).
        let key = (ns, name);
        let prev = self.map_mut(kind).insert(key.clone(), stored.clone());
        let etype = if prev.is_some() {
            EventType::Modified
        } else {
            EventType::Added
        };
        self.record(Change {
            rv,
            kind,
            etype,
            ns: key.0,
            name: key.1,
            json,
            idx,
            prev: prev.map(|p| p.idx),
        });
        stored
    }

    /// Removes an object, recording a DELETED change that carries its last state with a
    /// new resourceVersion. Returns that last state.
    pub fn remove(&mut self, kind: Kind, ns: &str, name: &str) -> Option<Value> {
        let key = (ns.to_string(), name.to_string());
        let old = self.objects.get_mut(kind.slot())?.remove(&key)?;
        self.rv += 1;
        let rv = self.rv;
        let mut obj = old.value();
        if let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("resourceVersion".into(), Value::String(rv.to_string()));
        }
        let json = Bytes::from(serde_json::to_vec(&obj).unwrap_or_default());
        self.record(Change {
            rv,
            kind,
            etype: EventType::Deleted,
            ns: key.0,
            name: key.1,
            json,
            idx: old.idx.clone(),
            prev: Some(old.idx),
        });
        Some(obj)
    }

    /// The resourceVersion of the last change to objects of `kind` (0: none yet), so a
    /// cache built from them knows when it is stale.
    pub fn slot_version(&self, kind: Kind) -> u64 {
        self.slot_versions.get(kind.slot()).copied().unwrap_or(0)
    }

    fn record(&mut self, change: Change) {
        let slot = change.kind.slot();
        if self.slot_versions.len() <= slot {
            self.slot_versions.resize(slot + 1, 0);
        }
        self.slot_versions[slot] = change.rv;
        let change = Arc::new(change);
        if self.history.len() >= self.history_cap
            && let Some(dropped) = self.history.pop_front()
        {
            self.compacted = dropped.rv;
        }
        self.history.push_back(change.clone());
        // No receiver is not an error: nobody is watching.
        let _ = self.tx.send(change);
    }
}

/// A string at a JSON pointer, or "".
pub fn str_at(v: &Value, pointer: &str) -> String {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn put_assigns_increasing_versions_and_history_is_bounded() {
        let mut s = Store::new(1, 2);
        for i in 0..3 {
            s.put(
                Kind::CONFIG_MAP,
                json!({"metadata": {"namespace": "a", "name": format!("c{i}")}}),
            );
        }
        assert_eq!(s.rv(), 3);
        assert_eq!(s.compacted(), 1);
        assert_eq!(s.changes_since(1).len(), 2);
        let names: Vec<_> = s
            .iter(Kind::CONFIG_MAP, Some("a"), None)
            .map(|(k, _)| k.1.clone())
            .collect();
        assert_eq!(names, ["c0", "c1", "c2"]);
        let after = ("a".to_string(), "c0".to_string());
        assert_eq!(s.iter(Kind::CONFIG_MAP, Some("a"), Some(&after)).count(), 2);
        assert!(s.remove(Kind::CONFIG_MAP, "a", "c1").is_some());
        assert_eq!(s.rv(), 4);
    }
}
