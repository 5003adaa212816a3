//! The endpoints and endpoint-slice controllers (a Service with a selector gets an
//! Endpoints object and an EndpointSlice listing its pods, ready ones as ready, others
//! as not ready), and the aggregator's availability check of APIServices that name a
//! Service (Available only while that Service has a ready endpoint) — what decides
//! whether a webhook's or an extension API's backend can answer.

use serde_json::{Value, json};

use super::controllers::Pass;
use super::objects::{deleting, pod_ready};
use super::resource::Kind;
use super::selector::LabelSelector;
use super::store::{Index, str_at};

/// The port a Service port targets on a pod (a named target port is looked up in the
/// pod's containers).
fn target_port(port: &Value, pod: Option<&Value>) -> Option<i64> {
    match port.get("targetPort") {
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(name)) => pod?
            .pointer("/spec/containers")?
            .as_array()?
            .iter()
            .flat_map(|c| {
                c.get("ports")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
            })
            .find(|p| p.get("name").and_then(Value::as_str) == Some(name))?
            .get("containerPort")?
            .as_i64(),
        _ => port.get("port").and_then(Value::as_i64),
    }
}

/// Keeps every selecting Service's Endpoints and EndpointSlice current.
pub fn reconcile(pass: &mut Pass) {
    api_services(pass);
    if pass.st.store.count(Kind::SERVICE) == 0 {
        return;
    }
    for svc in pass.st.store.values(Kind::SERVICE, None) {
        let Some(selector) = svc
            .pointer("/spec/selector")
            .and_then(Value::as_object)
            .filter(|s| !s.is_empty())
        else {
            continue;
        };
        let sel = LabelSelector::from_object(&json!({"matchLabels": selector}));
        let ns = str_at(&svc, "/metadata/namespace");
        let name = str_at(&svc, "/metadata/name");
        let uid = str_at(&svc, "/metadata/uid");
        let pods: Vec<Value> = pass
            .pods
            .iter()
            .filter(|p| str_at(p, "/metadata/namespace") == ns)
            .filter(|p| !str_at(p, "/status/podIP").is_empty())
            .filter(|p| sel.matches(&Index::of(p).labels))
            .cloned()
            .collect();
        let svc_ports = svc
            .pointer("/spec/ports")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let ports: Vec<Value> = svc_ports
            .iter()
            .filter_map(|p| {
                let mut out = json!({"port": target_port(p, pods.first())?,
                    "protocol": str_at(p, "/protocol")});
                let pname = str_at(p, "/name");
                if !pname.is_empty() {
                    out["name"] = json!(pname);
                }
                Some(out)
            })
            .collect();
        let address = |p: &Value| {
            json!({"ip": str_at(p, "/status/podIP"), "nodeName": str_at(p, "/spec/nodeName"),
                "targetRef": {"kind": "Pod", "namespace": ns, "name": str_at(p, "/metadata/name"),
                    "uid": str_at(p, "/metadata/uid")}})
        };
        let ready: Vec<Value> = pods
            .iter()
            .filter(|p| pod_ready(p) && !deleting(p))
            .map(address)
            .collect();
        let not_ready: Vec<Value> = pods
            .iter()
            .filter(|p| !pod_ready(p) || deleting(p))
            .map(address)
            .collect();
        let mut subset = json!({"ports": ports});
        if !ready.is_empty() {
            subset["addresses"] = json!(ready);
        }
        if !not_ready.is_empty() {
            subset["notReadyAddresses"] = json!(not_ready);
        }
        let subsets = if pods.is_empty() {
            json!([])
        } else {
            json!([subset])
        };
        let owner = json!([{"apiVersion": "v1", "kind": "Service", "name": name, "uid": uid,
            "controller": true, "blockOwnerDeletion": true}]);
        let existing = pass.st.store.get_value(Kind::ENDPOINTS, &ns, &name);
        if existing.as_ref().and_then(|e| e.get("subsets")) != Some(&subsets) {
            let mut ep = existing.unwrap_or_else(|| {
                json!({"apiVersion": "v1", "kind": "Endpoints",
                    "metadata": {"name": name, "namespace": ns, "creationTimestamp": pass.now,
                        "labels": {"endpoints.kubernetes.io/managed-by": "endpoint-controller"}}})
            });
            if ep.pointer("/metadata/uid").is_none() {
                ep["metadata"]["uid"] = json!(pass.st.store.new_uid());
            }
            ep["subsets"] = subsets;
            pass.put(Kind::ENDPOINTS, ep);
        }
        let slice_name = format!("{name}-{:05x}", super::generate::fnv(&uid) & 0xfffff);
        let endpoints: Vec<Value> = pods
            .iter()
            .map(|p| {
                let terminating = deleting(p);
                json!({"addresses": [str_at(p, "/status/podIP")],
                    "conditions": {"ready": pod_ready(p) && !terminating, "serving": pod_ready(p), "terminating": terminating},
                    "nodeName": str_at(p, "/spec/nodeName"),
                    "targetRef": {"kind": "Pod", "namespace": ns, "name": str_at(p, "/metadata/name"), "uid": str_at(p, "/metadata/uid")}})
            })
            .collect();
        let existing = pass
            .st
            .store
            .get_value(Kind::ENDPOINT_SLICE, &ns, &slice_name);
        let slice_ports = json!(ports);
        if existing.as_ref().and_then(|e| e.get("endpoints")) != Some(&json!(endpoints))
            || existing.as_ref().and_then(|e| e.get("ports")) != Some(&slice_ports)
        {
            let mut slice = existing.unwrap_or_else(|| {
                json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "addressType": "IPv4",
                    "metadata": {"name": slice_name, "namespace": ns, "creationTimestamp": pass.now,
                        "generateName": format!("{name}-"), "ownerReferences": owner,
                        "labels": {"kubernetes.io/service-name": name,
                            "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}}})
            });
            if slice.pointer("/metadata/uid").is_none() {
                slice["metadata"]["uid"] = json!(pass.st.store.new_uid());
            }
            slice["endpoints"] = json!(endpoints);
            slice["ports"] = slice_ports;
            pass.put(Kind::ENDPOINT_SLICE, slice);
        }
    }
}

/// APIServices backed by a Service: Available while the Service has a ready endpoint.
fn api_services(pass: &mut Pass) {
    for mut svc in pass.st.store.values(Kind::API_SERVICE, None) {
        let Some(backend) = svc
            .pointer("/spec/service")
            .filter(|s| s.is_object())
            .cloned()
        else {
            continue;
        };
        let (ns, name) = (str_at(&backend, "/namespace"), str_at(&backend, "/name"));
        let (status, reason, message) = match pass.st.store.get_value(Kind::SERVICE, &ns, &name) {
            None => (
                "False",
                "ServiceNotFound",
                format!("service/{name} in \"{ns}\" is not present"),
            ),
            Some(_) => {
                let ready = pass
                    .st
                    .store
                    .get_value(Kind::ENDPOINTS, &ns, &name)
                    .is_some_and(|ep| {
                        ep.get("subsets")
                            .and_then(Value::as_array)
                            .is_some_and(|s| s.iter().any(|x| x.get("addresses").is_some()))
                    });
                if ready {
                    ("True", "Passed", "all checks passed".to_string())
                } else {
                    (
                        "False",
                        "MissingEndpoints",
                        format!(
                            "endpoints for service/{name} in \"{ns}\" have no addresses with port name \"\""
                        ),
                    )
                }
            }
        };
        let current = svc
            .pointer("/status/conditions")
            .and_then(Value::as_array)
            .and_then(|l| l.iter().find(|c| c["type"] == "Available"))
            .cloned();
        let same = current.as_ref().is_some_and(|c| {
            c["status"] == status && c["reason"] == reason && c["message"] == message.as_str()
        });
        if !same {
            svc["status"] = json!({"conditions": [{"type": "Available", "status": status,
                "reason": reason, "message": message, "lastTransitionTime": pass.now}]});
            pass.put(Kind::API_SERVICE, svc);
        }
    }
}
