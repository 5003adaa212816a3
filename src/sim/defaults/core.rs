//! core/v1 Service and Secret defaults (`pkg/apis/core/v1/defaults.go` and the
//! Service REST storage): a Service gets its cluster IP, node ports, target ports and
//! protocols; a Secret its type, with `stringData` folded into `data`.

use serde_json::{Value, json};

use super::super::base64;
use super::super::fleet::{Cluster, ClusterState};
use super::super::resource::Kind;
use super::super::store::str_at;

fn ip_of(n: u32) -> String {
    format!(
        "{}.{}.{}.{}",
        n >> 24,
        (n >> 16) & 0xff,
        (n >> 8) & 0xff,
        n & 0xff
    )
}

/// The first free address of the cluster's service CIDR (the first one is the
/// `kubernetes` Service's on a real cluster, so allocation starts after it).
fn allocate_cluster_ip(cluster: &Cluster, st: &ClusterState) -> Option<String> {
    let net: ipnet::Ipv4Net = cluster.profile.service_cidr.parse().ok()?;
    let used: Vec<String> = st
        .store
        .values(Kind::SERVICE, None)
        .iter()
        .map(|s| str_at(s, "/spec/clusterIP"))
        .collect();
    net.hosts()
        .skip(1)
        .map(|a| ip_of(u32::from(a)))
        .find(|ip| !used.contains(ip))
}

fn allocate_node_port(st: &ClusterState, taken: &mut Vec<i64>) -> i64 {
    for s in st.store.values(Kind::SERVICE, None) {
        for p in s
            .pointer("/spec/ports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(n) = p.get("nodePort").and_then(Value::as_i64) {
                taken.push(n);
            }
        }
    }
    let port = (30000..=32767)
        .find(|p| !taken.contains(p))
        .unwrap_or(30000);
    taken.push(port);
    port
}

/// Defaults of a new Service.
pub fn service_defaults(cluster: &Cluster, st: &ClusterState, obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    if spec.get("type").is_none() {
        spec["type"] = json!("ClusterIP");
    }
    let ty = str_at(spec, "/type");
    if ty != "ExternalName" {
        if spec.get("sessionAffinity").is_none() {
            spec["sessionAffinity"] = json!("None");
        }
        if (spec.get("clusterIP").is_none() || str_at(spec, "/clusterIP").is_empty())
            && let Some(ip) = allocate_cluster_ip(cluster, st)
        {
            spec["clusterIP"] = json!(ip);
        }
        let ip = str_at(spec, "/clusterIP");
        if !ip.is_empty() && spec.get("clusterIPs").is_none() {
            spec["clusterIPs"] = json!([ip]);
        }
        if spec.get("ipFamilies").is_none() && ip != "None" {
            spec["ipFamilies"] = json!(["IPv4"]);
        }
        if spec.get("ipFamilyPolicy").is_none() {
            spec["ipFamilyPolicy"] = json!("SingleStack");
        }
        if spec.get("internalTrafficPolicy").is_none() {
            spec["internalTrafficPolicy"] = json!("Cluster");
        }
        if (ty == "NodePort" || ty == "LoadBalancer") && spec.get("externalTrafficPolicy").is_none()
        {
            spec["externalTrafficPolicy"] = json!("Cluster");
        }
    }
    let mut taken = Vec::new();
    let needs_node_port = ty == "NodePort" || ty == "LoadBalancer";
    let mut ports = spec
        .get("ports")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for p in ports.iter_mut() {
        if p.get("protocol").is_none() {
            p["protocol"] = json!("TCP");
        }
        if p.get("targetPort").is_none()
            && let Some(port) = p.get("port").cloned()
        {
            p["targetPort"] = port;
        }
        if needs_node_port && p.get("nodePort").is_none() {
            p["nodePort"] = json!(allocate_node_port(st, &mut taken));
        }
    }
    if spec.get("ports").is_some() {
        spec["ports"] = Value::Array(ports);
    }
    obj["status"] = json!({"loadBalancer": {}});
}

/// A new Secret's type: `Opaque` unless given.
pub fn secret_type(obj: &mut Value) {
    if obj.get("type").is_none() || str_at(obj, "/type").is_empty() {
        obj["type"] = json!("Opaque");
    }
}

/// Moves `stringData` into `data` (base64), as the API server does on every write.
pub fn fold_string_data(obj: &mut Value) {
    let Some(Value::Object(sd)) = obj.as_object_mut().and_then(|o| o.remove("stringData")) else {
        return;
    };
    if !obj["data"].is_object() {
        obj["data"] = json!({});
    }
    for (k, v) in sd {
        obj["data"][k.as_str()] = json!(base64::encode(v.as_str().unwrap_or_default().as_bytes()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_fold_string_data_and_default_their_type() {
        let mut s = json!({"metadata": {"name": "s"}, "stringData": {"user": "admin"}});
        secret_type(&mut s);
        fold_string_data(&mut s);
        assert_eq!(s.pointer("/data/user"), Some(&json!("YWRtaW4=")));
        assert_eq!(s["type"], "Opaque");
        assert_eq!(s.get("stringData"), None);
    }
}
