//! core/v1 Services and ServiceAccounts (`ValidateService`, `ValidateServiceUpdate`,
//! `ValidateServiceAccount` in pkg/apis/core/validation): a type, ports with valid
//! numbers, protocols and names, a cluster IP that never changes.

use serde_json::{Value, json};

use super::field::{BadValue, ErrorList, FieldError};
use super::json::{items, text};
use super::names::{is_dns1123_label, is_dns1123_subdomain};
use super::require;

const SERVICE_TYPES: [&str; 4] = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const PROTOCOLS: [&str; 3] = ["SCTP", "TCP", "UDP"];
const PORT_RANGE: &str = "must be between 1 and 65535, inclusive";

fn port_number(v: &Value) -> bool {
    v.as_i64().is_some_and(|n| (1..=65535).contains(&n))
}

fn ports(spec: &Value, ty: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let ports = items(spec, "ports");
    let mut names: Vec<&str> = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let f = |k: &str| format!("spec.ports[{i}].{k}");
        let name = text(p, "/name");
        if ports.len() > 1 && name.is_empty() {
            errs.push(FieldError::required(f("name"), ""));
        } else if !name.is_empty() {
            for m in is_dns1123_label(name) {
                errs.push(FieldError::invalid(
                    f("name"),
                    BadValue::Str(name.into()),
                    m,
                ));
            }
            if names.contains(&name) {
                errs.push(FieldError::duplicate(f("name"), BadValue::Str(name.into())));
            }
            names.push(name);
        }
        let port = p.get("port").cloned().unwrap_or(json!(0));
        if !port_number(&port) {
            errs.push(FieldError::invalid(f("port"), &port, PORT_RANGE));
        }
        errs.extend(require::supported(
            text(p, "/protocol"),
            f("protocol"),
            &PROTOCOLS,
        ));
        match p.get("targetPort") {
            Some(n @ Value::Number(_)) if !port_number(n) => {
                errs.push(FieldError::invalid(f("targetPort"), n, PORT_RANGE));
            }
            Some(Value::String(s)) if s.is_empty() || s.len() > 15 => {
                errs.push(FieldError::invalid(
                    f("targetPort"),
                    BadValue::Str(s.clone()),
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
    errs
}

/// A Service (after defaulting: its type, protocols and session affinity are set).
pub fn service(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    let ty = text(spec, "/type");
    errs.extend(require::supported(ty, "spec.type", &SERVICE_TYPES));
    let headless = text(spec, "/clusterIP") == "None";
    if ty == "ExternalName" {
        let name = text(spec, "/externalName");
        if name.is_empty() {
            errs.push(FieldError::required("spec.externalName", ""));
        } else {
            for m in is_dns1123_subdomain(name.trim_end_matches('.')) {
                errs.push(FieldError::invalid(
                    "spec.externalName",
                    BadValue::Str(name.into()),
                    m,
                ));
            }
        }
    } else if items(spec, "ports").is_empty() && !headless {
        errs.push(FieldError::required("spec.ports", ""));
    }
    errs.extend(ports(spec, ty));
    if ty != "ExternalName" {
        errs.extend(require::supported(
            text(spec, "/sessionAffinity"),
            "spec.sessionAffinity",
            &["ClientIP", "None"],
        ));
    }
    errs
}

/// A Service update: valid, and its cluster IP kept once set.
pub fn service_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = service(new);
    let before = text(old, "/spec/clusterIP");
    let after = text(new, "/spec/clusterIP");
    if !before.is_empty() && before != after && text(new, "/spec/type") != "ExternalName" {
        errs.push(FieldError::invalid(
            "spec.clusterIPs[0]",
            &json!([after]),
            "may not change once set",
        ));
    }
    errs
}

/// A ServiceAccount: every secret it lists is named.
pub fn service_account(obj: &Value) -> ErrorList {
    items(obj, "secrets")
        .iter()
        .enumerate()
        .filter(|(_, s)| text(s, "/name").is_empty())
        .map(|(i, _)| FieldError::required(format!("secrets[{i}].name"), ""))
        .collect()
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
        let errs = service(
            &json!({"metadata": {"name": "web"}, "spec": {"type": "ClusterIP", "sessionAffinity": "None"}}),
        );
        assert_eq!(
            fields(&errs),
            [("spec.ports".to_string(), "FieldValueRequired")]
        );
        let errs = service(
            &json!({"metadata": {"name": "1web"}, "spec": {"type": "Fancy", "sessionAffinity": "None",
                "ports": [{"port": 80, "protocol": "TCP"}, {"port": 70000, "protocol": "FOO"}]}}),
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
    fn a_cluster_ip_stays() {
        let old = json!({"spec": {"type": "ClusterIP", "clusterIP": "10.96.0.10", "sessionAffinity": "None",
            "ports": [{"port": 80, "protocol": "TCP"}]}});
        assert!(service_update(&old, &old).is_empty());
        let mut moved = old.clone();
        moved["spec"]["clusterIP"] = json!("10.96.0.11");
        assert_eq!(
            service_update(&moved, &old)[0].message(),
            "spec.clusterIPs[0]: Invalid value: [\"10.96.0.11\"]: may not change once set"
        );
    }
}
