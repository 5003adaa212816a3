//! networking.k8s.io/v1 Ingresses and discovery.k8s.io/v1 EndpointSlices, validated as
//! `pkg/apis/networking/validation` and `pkg/apis/discovery/validation` do.

use serde_json::{Value, json};

use super::super::field_errors::{FieldError, dns1123_subdomain, object_meta};
use super::super::store::str_at;

const PATH_TYPES: [&str; 3] = ["Exact", "ImplementationSpecific", "Prefix"];

fn backend(b: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let service = b.get("service");
    let resource = b.get("resource");
    match (service, resource) {
        (Some(_), Some(_)) => errs.push(FieldError::invalid(
            path,
            b,
            "cannot set both resource and service backends",
        )),
        (None, None) => errs.push(FieldError::invalid(
            path,
            b,
            "resource or service backend is required",
        )),
        (Some(s), None) => {
            if str_at(s, "/name").is_empty() {
                errs.push(FieldError::required(format!("{path}.service.name"), ""));
            }
            let port = s.get("port").cloned().unwrap_or(Value::Null);
            let number = port.get("number").and_then(Value::as_i64);
            let name = port.get("name").and_then(Value::as_str).unwrap_or_default();
            match (number, name.is_empty()) {
                (Some(_), false) => errs.push(FieldError::invalid(
                    format!("{path}.service.port"),
                    &port,
                    "cannot set both port name & port number",
                )),
                (None, true) => errs.push(FieldError::invalid(
                    format!("{path}.service.port"),
                    &port,
                    "port name or number is required",
                )),
                (Some(n), true) if !(1..=65535).contains(&n) => errs.push(FieldError::invalid(
                    format!("{path}.service.port.number"),
                    &json!(n),
                    "must be between 1 and 65535, inclusive",
                )),
                _ => {}
            }
        }
        (None, Some(r)) => {
            if str_at(r, "/kind").is_empty() {
                errs.push(FieldError::required(format!("{path}.resource.kind"), ""));
            }
            if str_at(r, "/name").is_empty() {
                errs.push(FieldError::required(format!("{path}.resource.name"), ""));
            }
        }
    }
}

/// Validation of an Ingress.
pub fn validate_ingress(obj: &Value, errs: &mut Vec<FieldError>) {
    object_meta(obj, dns1123_subdomain, errs);
    let spec = obj.get("spec").cloned().unwrap_or(json!({}));
    let rules = spec
        .get("rules")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if rules.is_empty() && spec.get("defaultBackend").is_none() {
        errs.push(FieldError::invalid(
            "spec",
            &spec,
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(b) = spec.get("defaultBackend") {
        backend(b, "spec.defaultBackend", errs);
    }
    let class = str_at(&spec, "/ingressClassName");
    if !class.is_empty() {
        for m in dns1123_subdomain(&class) {
            errs.push(FieldError::invalid(
                "spec.ingressClassName",
                &json!(class),
                &m,
            ));
        }
    }
    for (i, rule) in rules.iter().enumerate() {
        let host = str_at(rule, "/host");
        if !host.is_empty() {
            let bare = host.strip_prefix("*.").unwrap_or(&host);
            if bare.parse::<std::net::IpAddr>().is_ok() {
                errs.push(FieldError::invalid(
                    format!("spec.rules[{i}].host"),
                    &json!(host),
                    "must be a DNS name, not an IP address",
                ));
            } else {
                for m in dns1123_subdomain(bare) {
                    errs.push(FieldError::invalid(
                        format!("spec.rules[{i}].host"),
                        &json!(host),
                        &m,
                    ));
                }
            }
        }
        let Some(http) = rule.get("http") else {
            continue;
        };
        let paths = http
            .get("paths")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if paths.is_empty() {
            errs.push(FieldError::required(
                format!("spec.rules[{i}].http.paths"),
                "",
            ));
        }
        for (j, p) in paths.iter().enumerate() {
            let f = format!("spec.rules[{i}].http.paths[{j}]");
            let ty = str_at(p, "/pathType");
            let path = str_at(p, "/path");
            if ty.is_empty() {
                errs.push(FieldError::required(
                    format!("{f}.pathType"),
                    "pathType must be specified",
                ));
            } else if !PATH_TYPES.contains(&ty.as_str()) {
                errs.push(FieldError::not_supported(
                    format!("{f}.pathType"),
                    &json!(ty),
                    &PATH_TYPES,
                ));
            }
            if (ty == "Exact" || ty == "Prefix") && !path.starts_with('/') {
                errs.push(FieldError::invalid(
                    format!("{f}.path"),
                    &json!(path),
                    "must be an absolute path",
                ));
            }
            match p.get("backend") {
                Some(b) => backend(b, &format!("{f}.backend"), errs),
                None => errs.push(FieldError::required(format!("{f}.backend"), "")),
            }
        }
    }
}

/// Validation of an EndpointSlice.
pub fn validate_endpoint_slice(obj: &Value, errs: &mut Vec<FieldError>) {
    object_meta(obj, dns1123_subdomain, errs);
    let ty = str_at(obj, "/addressType");
    if ty.is_empty() {
        errs.push(FieldError::required("addressType", ""));
    } else if !["IPv4", "IPv6", "FQDN"].contains(&ty.as_str()) {
        errs.push(FieldError::not_supported(
            "addressType",
            &json!(ty),
            &["FQDN", "IPv4", "IPv6"],
        ));
    }
    for (i, e) in obj
        .get("endpoints")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if e.get("addresses")
            .and_then(Value::as_array)
            .is_none_or(|a| a.is_empty())
        {
            errs.push(FieldError::required(
                format!("endpoints[{i}].addresses"),
                "must contain at least 1 address",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ingress_paths_need_a_type_an_absolute_path_and_one_backend() {
        let mut errs = Vec::new();
        validate_ingress(
            &json!({"metadata": {"name": "web"}, "spec": {"rules": [{"host": "shop.example.com", "http": {"paths": [
                {"path": "shop", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}},
                {"path": "/", "backend": {"service": {"name": "web", "port": {}}}}]}}]}}),
            &mut errs,
        );
        let f: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            f,
            [
                "spec.rules[0].http.paths[0].path",
                "spec.rules[0].http.paths[1].pathType",
                "spec.rules[0].http.paths[1].backend.service.port"
            ]
        );
        let mut errs = Vec::new();
        validate_ingress(&json!({"metadata": {"name": "web"}, "spec": {}}), &mut errs);
        assert_eq!(errs.len(), 1);
    }
}
