//! core/v1 Events emitted by the simulated components (scheduler, kubelet, node
//! controller), so event views show what happened. The newest [`MAX_EVENTS`] are kept,
//! as the real API server expires old events.

use serde_json::json;

use super::resource::Kind;
use super::store::Store;

/// Events kept per cluster.
pub const MAX_EVENTS: usize = 2000;

/// The object an event is about.
pub struct Involved<'a> {
    /// Its kind.
    pub kind: Kind,
    /// Its namespace ("" for cluster-scoped objects; the event then goes to `default`).
    pub ns: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Its uid.
    pub uid: &'a str,
}

/// Records an event of type `Normal` or `Warning`.
pub fn record(
    store: &mut Store,
    about: Involved,
    warning: bool,
    reason: &str,
    message: &str,
    component: &str,
    now: &str,
) {
    let ns = if about.ns.is_empty() {
        "default"
    } else {
        about.ns
    };
    let name = format!("{}.{:016x}", about.name, store.random_below(u64::MAX));
    let uid = store.new_uid();
    store.put(
        Kind::EVENT,
        json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": name, "namespace": ns, "uid": uid, "creationTimestamp": now},
            "involvedObject": {"kind": about.kind.kind(), "apiVersion": about.kind.api_version(), "name": about.name,
                "namespace": about.ns, "uid": about.uid},
            "reason": reason, "message": message, "type": if warning { "Warning" } else { "Normal" },
            "source": {"component": component}, "reportingComponent": component, "reportingInstance": "",
            "firstTimestamp": now, "lastTimestamp": now, "count": 1
        }),
    );
    store.remember_event(ns, &name, MAX_EVENTS);
}
