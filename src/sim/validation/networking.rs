//! networking.k8s.io/v1 Ingresses and discovery.k8s.io/v1 EndpointSlices
//! (`pkg/apis/networking/validation`, `pkg/apis/discovery/validation`): rules or a
//! default backend, paths with a type and one backend each; slices with an address
//! type and addresses.

use serde_json::{Value, json};

use super::field::{BadValue, ErrorList, FieldError};
use super::json::{items, text};
use super::names::is_dns1123_subdomain;
use super::require;

const PATH_TYPES: [&str; 3] = ["Exact", "ImplementationSpecific", "Prefix"];

fn service_port(port: &Value, path: &str) -> Option<FieldError> {
    let number = port.get("number").and_then(Value::as_i64);
    let named = !text(port, "/name").is_empty();
    match (number, named) {
        (Some(_), true) => Some(FieldError::invalid(
            format!("{path}.service.port"),
            port,
            "cannot set both port name & port number",
        )),
        (None, false) => Some(FieldError::invalid(
            format!("{path}.service.port"),
            port,
            "port name or number is required",
        )),
        (Some(n), false) if !(1..=65535).contains(&n) => Some(FieldError::invalid(
            format!("{path}.service.port.number"),
            BadValue::Int(n),
            "must be between 1 and 65535, inclusive",
        )),
        _ => None,
    }
}

fn backend(b: &Value, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    match (b.get("service"), b.get("resource")) {
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
            errs.extend(require::set(
                text(s, "/name"),
                format!("{path}.service.name"),
                "",
            ));
            errs.extend(service_port(s.get("port").unwrap_or(&Value::Null), path));
        }
        (None, Some(r)) => {
            for k in ["kind", "name"] {
                errs.extend(require::set(
                    text(r, &format!("/{k}")),
                    format!("{path}.resource.{k}"),
                    "",
                ));
            }
        }
    }
    errs
}

fn host(host: &str, field: &str) -> ErrorList {
    let bare = host.strip_prefix("*.").unwrap_or(host);
    if bare.parse::<std::net::IpAddr>().is_ok() {
        return vec![FieldError::invalid(
            field,
            BadValue::Str(host.into()),
            "must be a DNS name, not an IP address",
        )];
    }
    is_dns1123_subdomain(bare)
        .into_iter()
        .map(|m| FieldError::invalid(field, BadValue::Str(host.into()), m))
        .collect()
}

fn http_path(p: &Value, f: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let ty = text(p, "/pathType");
    errs.extend(require::set_and_supported(
        ty,
        format!("{f}.pathType"),
        &PATH_TYPES,
        "pathType must be specified",
    ));
    let path = text(p, "/path");
    if (ty == "Exact" || ty == "Prefix") && !path.starts_with('/') {
        errs.push(FieldError::invalid(
            format!("{f}.path"),
            BadValue::Str(path.into()),
            "must be an absolute path",
        ));
    }
    match p.get("backend") {
        Some(b) => errs.extend(backend(b, &format!("{f}.backend"))),
        None => errs.push(FieldError::required(format!("{f}.backend"), "")),
    }
    errs
}

/// An Ingress.
pub fn ingress(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let spec = obj.get("spec").cloned().unwrap_or(json!({}));
    let rules = items(&spec, "rules");
    if rules.is_empty() && spec.get("defaultBackend").is_none() {
        errs.push(FieldError::invalid(
            "spec",
            &spec,
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(b) = spec.get("defaultBackend") {
        errs.extend(backend(b, "spec.defaultBackend"));
    }
    let class = text(&spec, "/ingressClassName");
    if !class.is_empty() {
        errs.extend(require::valid(
            class,
            "spec.ingressClassName",
            is_dns1123_subdomain,
        ));
    }
    for (i, rule) in rules.iter().enumerate() {
        let h = text(rule, "/host");
        if !h.is_empty() {
            errs.extend(host(h, &format!("spec.rules[{i}].host")));
        }
        let Some(http) = rule.get("http") else {
            continue;
        };
        let paths = items(http, "paths");
        errs.extend(require::listed(
            paths,
            format!("spec.rules[{i}].http.paths"),
            "",
        ));
        for (j, p) in paths.iter().enumerate() {
            errs.extend(http_path(p, &format!("spec.rules[{i}].http.paths[{j}]")));
        }
    }
    errs
}

/// An EndpointSlice.
pub fn endpoint_slice(obj: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    errs.extend(require::set_and_supported(
        text(obj, "/addressType"),
        "addressType",
        &["FQDN", "IPv4", "IPv6"],
        "",
    ));
    for (i, e) in items(obj, "endpoints").iter().enumerate() {
        errs.extend(require::listed(
            items(e, "addresses"),
            format!("endpoints[{i}].addresses"),
            "must contain at least 1 address",
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ingress_paths_need_a_type_an_absolute_path_and_one_backend() {
        let errs = ingress(
            &json!({"metadata": {"name": "web"}, "spec": {"rules": [{"host": "shop.example.com", "http": {"paths": [
                {"path": "shop", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}},
                {"path": "/", "backend": {"service": {"name": "web", "port": {}}}}]}}]}}),
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
        let errs = ingress(&json!({"metadata": {"name": "web"}, "spec": {}}));
        assert_eq!(errs.len(), 1);
    }
}
