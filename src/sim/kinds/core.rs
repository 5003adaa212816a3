//! core/v1 Services, Secrets and ServiceAccounts: defaults (a Service gets its cluster
//! IP, target ports and protocols; a Secret its type, with `stringData` folded into
//! `data`) and validation as `pkg/apis/core/validation` does it.

use serde_json::{Value, json};

use super::super::base64;
use super::super::fleet::{Cluster, ClusterState};
use super::super::resource::Kind;
use super::super::store::str_at;
use super::super::validation::FieldError;
use super::super::validation::names::{is_dns1123_label, is_dns1123_subdomain};

const SERVICE_TYPES: [&str; 4] = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const PROTOCOLS: [&str; 3] = ["SCTP", "TCP", "UDP"];

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

/// Validation of a Service (and, on update, its immutable cluster IP).
pub fn validate_service(obj: &Value, old: Option<&Value>, errs: &mut Vec<FieldError>) {
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    let ty = str_at(&spec, "/type");
    if !SERVICE_TYPES.contains(&ty.as_str()) {
        errs.push(FieldError::not_supported(
            "spec.type",
            &json!(ty),
            &SERVICE_TYPES,
        ));
    }
    let headless = str_at(&spec, "/clusterIP") == "None";
    let ports = spec
        .get("ports")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if ty == "ExternalName" {
        let name = str_at(&spec, "/externalName");
        if name.is_empty() {
            errs.push(FieldError::required("spec.externalName", ""));
        } else {
            for m in is_dns1123_subdomain(name.trim_end_matches('.')) {
                errs.push(FieldError::invalid("spec.externalName", &json!(name), &m));
            }
        }
    } else if ports.is_empty() && !headless {
        errs.push(FieldError::required("spec.ports", ""));
    }
    let mut names: Vec<String> = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let f = |k: &str| format!("spec.ports[{i}].{k}");
        let name = str_at(p, "/name");
        if ports.len() > 1 && name.is_empty() {
            errs.push(FieldError::required(f("name"), ""));
        } else if !name.is_empty() {
            for m in is_dns1123_label(&name) {
                errs.push(FieldError::invalid(f("name"), &json!(name), &m));
            }
            if names.contains(&name) {
                errs.push(FieldError::duplicate(f("name"), &json!(name)));
            }
            names.push(name);
        }
        let port = p.get("port").cloned().unwrap_or(json!(0));
        if !port.as_i64().is_some_and(|n| (1..=65535).contains(&n)) {
            errs.push(FieldError::invalid(
                f("port"),
                &port,
                "must be between 1 and 65535, inclusive",
            ));
        }
        let proto = str_at(p, "/protocol");
        if !PROTOCOLS.contains(&proto.as_str()) {
            errs.push(FieldError::not_supported(
                f("protocol"),
                &json!(proto),
                &PROTOCOLS,
            ));
        }
        match p.get("targetPort") {
            Some(Value::Number(n)) if !n.as_i64().is_some_and(|n| (1..=65535).contains(&n)) => {
                errs.push(FieldError::invalid(
                    f("targetPort"),
                    &Value::Number(n.clone()),
                    "must be between 1 and 65535, inclusive",
                ));
            }
            Some(Value::String(s)) if s.is_empty() || s.len() > 15 => {
                errs.push(FieldError::invalid(
                    f("targetPort"),
                    &json!(s),
                    "must contain at least one letter (a-z) and be no more than 15 characters",
                ));
            }
            _ => {}
        }
        if p.get("nodePort").is_some() && (ty == "ClusterIP" || ty == "ExternalName") {
            errs.push(FieldError::forbidden(
                f("nodePort"),
                format!("may not be used when `type` is '{ty}'"),
            ));
        }
    }
    let affinity = str_at(&spec, "/sessionAffinity");
    if ty != "ExternalName" && !["None", "ClientIP"].contains(&affinity.as_str()) {
        errs.push(FieldError::not_supported(
            "spec.sessionAffinity",
            &json!(affinity),
            &["ClientIP", "None"],
        ));
    }
    if let Some(old) = old {
        let before = str_at(old, "/spec/clusterIP");
        let after = str_at(&spec, "/clusterIP");
        if !before.is_empty() && before != after && ty != "ExternalName" {
            errs.push(FieldError::invalid(
                "spec.clusterIPs[0]",
                &json!([after]),
                "may not change once set",
            ));
        }
    }
}

/// Defaults of a Secret: type `Opaque`, and `stringData` written into `data`.
pub fn secret_defaults(obj: &mut Value) {
    if obj.get("type").is_none() || str_at(obj, "/type").is_empty() {
        obj["type"] = json!("Opaque");
    }
    fold_string_data(obj);
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

/// Validation of a ServiceAccount.
pub fn validate_service_account(obj: &Value, errs: &mut Vec<FieldError>) {
    for (i, s) in obj
        .get("secrets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if str_at(s, "/name").is_empty() {
            errs.push(FieldError::required(format!("secrets[{i}].name"), ""));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(errs: &[FieldError]) -> Vec<(String, &'static str)> {
        errs.iter()
            .map(|e| (e.field.clone(), e.kind.reason()))
            .collect()
    }

    #[test]
    fn services_need_ports_named_ports_and_valid_numbers() {
        let mut errs = Vec::new();
        validate_service(
            &json!({"metadata": {"name": "web"}, "spec": {"type": "ClusterIP", "sessionAffinity": "None"}}),
            None,
            &mut errs,
        );
        assert_eq!(
            fields(&errs),
            [("spec.ports".to_string(), "FieldValueRequired")]
        );
        let mut errs = Vec::new();
        validate_service(
            &json!({"metadata": {"name": "1web"}, "spec": {"type": "Fancy", "sessionAffinity": "None",
                "ports": [{"port": 80, "protocol": "TCP"}, {"port": 70000, "protocol": "FOO"}]}}),
            None,
            &mut errs,
        );
        let f = fields(&errs);
        for want in [
            ("spec.type", "FieldValueNotSupported"),
            ("spec.ports[0].name", "FieldValueRequired"),
            ("spec.ports[1].port", "FieldValueInvalid"),
            ("spec.ports[1].protocol", "FieldValueNotSupported"),
        ] {
            assert!(
                f.contains(&(want.0.to_string(), want.1)),
                "{want:?} in {f:?}"
            );
        }
    }

    #[test]
    fn secrets_fold_string_data_and_default_their_type() {
        let mut s = json!({"metadata": {"name": "s"}, "stringData": {"user": "admin"}});
        secret_defaults(&mut s);
        assert_eq!(s.pointer("/data/user"), Some(&json!("YWRtaW4=")));
        assert_eq!(s["type"], "Opaque");
        assert_eq!(s.get("stringData"), None);
    }
}
