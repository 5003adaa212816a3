//! core/v1 Services, Secrets and ServiceAccounts: defaults (a Service gets its cluster
//! IP, target ports and protocols; a Secret its type, with `stringData` folded into
//! `data`) and validation as `pkg/apis/core/validation` does it.

use serde_json::{Value, json};

use super::super::field_errors::{
    FieldError, dns1035_label, dns1123_label, dns1123_subdomain, object_meta,
};
use super::super::fleet::{Cluster, ClusterState};
use super::super::resource::Kind;
use super::super::store::str_at;

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
    object_meta(obj, dns1035_label, errs);
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
            for m in dns1123_subdomain(name.trim_end_matches('.')) {
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
            for m in dns1123_label(&name) {
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
                &format!("may not be used when `type` is '{ty}'"),
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

const KEY_MSG: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

fn valid_key(k: &str) -> bool {
    !k.is_empty()
        && k.len() <= 253
        && k.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-._".contains(&c))
        && k != "."
        && k != ".."
        && !k.starts_with("..")
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding (how Secret `data` values are written).
pub fn base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The decoded length of standard base64 text, or None when it is not valid base64.
fn base64_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return None;
    }
    let pad = b.iter().rev().take_while(|c| **c == b'=').count();
    if pad > 2 || !b[..b.len() - pad].iter().all(|c| B64.contains(c)) {
        return None;
    }
    Some(b.len() / 4 * 3 - pad)
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
        obj["data"][k.as_str()] = json!(base64_encode(v.as_str().unwrap_or_default().as_bytes()));
    }
}

/// Validation of a Secret.
pub fn validate_secret(obj: &Value, old: Option<&Value>, errs: &mut Vec<FieldError>) {
    object_meta(obj, dns1123_subdomain, errs);
    let data = obj
        .get("data")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut total = 0;
    for (k, v) in &data {
        if !valid_key(k) {
            errs.push(FieldError::invalid(
                format!("data[{k}]"),
                &json!(k),
                KEY_MSG,
            ));
        }
        match v.as_str().and_then(base64_len) {
            Some(n) => total += n,
            None => errs.push(FieldError::invalid(
                format!("data[{k}]"),
                &json!("<secret contents redacted>"),
                "illegal base64 data",
            )),
        }
    }
    if total > 1 << 20 {
        errs.push(FieldError::too_long("data", 1 << 20));
    }
    let ty = str_at(obj, "/type");
    let need = |key: &str, errs: &mut Vec<FieldError>| {
        if !data.contains_key(key) {
            errs.push(FieldError::required(format!("data[{key}]"), ""));
        }
    };
    match ty.as_str() {
        "kubernetes.io/tls" => {
            need("tls.crt", errs);
            need("tls.key", errs);
        }
        "kubernetes.io/dockerconfigjson" => need(".dockerconfigjson", errs),
        "kubernetes.io/dockercfg" => need(".dockercfg", errs),
        "kubernetes.io/ssh-auth" => need("ssh-privatekey", errs),
        "kubernetes.io/basic-auth"
            if !data.contains_key("username") && !data.contains_key("password") =>
        {
            errs.push(FieldError::required(
                "data[username]",
                "one of username or password is required",
            ));
        }
        "kubernetes.io/service-account-token"
            if str_at(
                obj,
                "/metadata/annotations/kubernetes.io~1service-account.name",
            )
            .is_empty() =>
        {
            errs.push(FieldError::required(
                "metadata.annotations[kubernetes.io/service-account.name]",
                "",
            ));
        }
        _ => {}
    }
    if let Some(old) = old {
        if str_at(old, "/type") != ty {
            errs.push(FieldError::invalid(
                "type",
                &json!(ty),
                "field is immutable",
            ));
        }
        if old.get("immutable").and_then(Value::as_bool) == Some(true) {
            if obj.get("immutable").and_then(Value::as_bool) != Some(true) {
                errs.push(FieldError::forbidden(
                    "immutable",
                    "field is immutable when `immutable` is set",
                ));
            }
            if old.get("data") != obj.get("data") {
                errs.push(FieldError::forbidden(
                    "data",
                    "field is immutable when `immutable` is set",
                ));
            }
        }
    }
}

/// Validation of a ServiceAccount.
pub fn validate_service_account(obj: &Value, errs: &mut Vec<FieldError>) {
    object_meta(obj, dns1123_subdomain, errs);
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
        errs.iter().map(|e| (e.field.clone(), e.reason)).collect()
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
            ("metadata.name", "FieldValueInvalid"),
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
    fn secrets_fold_string_data_and_check_keys_and_types() {
        let mut s = json!({"metadata": {"name": "s"}, "stringData": {"user": "admin"}});
        secret_defaults(&mut s);
        assert_eq!(s.pointer("/data/user"), Some(&json!("YWRtaW4=")));
        assert_eq!(s["type"], "Opaque");
        let mut errs = Vec::new();
        validate_secret(&s, None, &mut errs);
        assert!(errs.is_empty(), "{errs:?}");
        let bad = json!({"metadata": {"name": "s"}, "type": "kubernetes.io/tls", "data": {"a/b": "eA==", "c": "!!"}});
        let mut errs = Vec::new();
        validate_secret(&bad, None, &mut errs);
        let f = fields(&errs);
        for want in ["data[a/b]", "data[c]", "data[tls.crt]", "data[tls.key]"] {
            assert!(f.iter().any(|(x, _)| x == want), "{want} in {f:?}");
        }
        assert_eq!(base64_encode(b"ab"), "YWI=");
        assert_eq!(base64_len("YWI="), Some(2));
    }
}
