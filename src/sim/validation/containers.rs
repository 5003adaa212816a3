//! Containers of a pod spec (`validateContainers`, `validateContainerCommon`,
//! `validateResourceRequirements` in pkg/apis/core/validation/validation.go): names,
//! images, ports, env, volume mounts, pull and termination policies, resources.

use std::cmp::Ordering;

use serde_json::Value;

use super::field::{BadValue, ErrorList, FieldError, child, index, key};
use super::json::{array, text};
use super::names::{is_dns1123_label, is_qualified_name, is_valid_port_name};
use super::quantity::Quantity;
use super::require;

/// An RFC 1123 label field.
pub fn dns_label(value: &str, path: &str) -> ErrorList {
    require::valid(value, path, is_dns1123_label)
}

/// Where a resource name may be used.
fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

fn is_huge_pages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// Requests of these may exceed nothing: they must equal their limit.
fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_huge_pages(name)
}

/// Names every quota and container knows without a domain prefix.
const STANDARD_RESOURCES: [&str; 20] = [
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

fn resource_name(name: &str, path: &str) -> ErrorList {
    let bad = |detail: &str| {
        vec![FieldError::invalid(
            path,
            BadValue::Str(name.into()),
            detail,
        )]
    };
    let errs: ErrorList = require::valid(name, path, is_qualified_name);
    if !errs.is_empty() {
        return errs;
    }
    if !name.contains('/') {
        if !STANDARD_RESOURCES.contains(&name) && !is_huge_pages(name) {
            return bad("must be a standard resource type or fully qualified");
        }
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_huge_pages(name) {
            return bad("must be a standard resource for containers");
        }
    } else if !is_native(name)
        && (name.starts_with("requests.")
            || !is_qualified_name(&format!("requests.{name}")).is_empty())
    {
        return bad("doesn't follow extended resource name standard");
    }
    Vec::new()
}

fn quantity_value(name: &str, q: &Quantity, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    if q.is_negative() {
        errs.push(FieldError::invalid(
            path,
            BadValue::Str(q.canonical()),
            "must be greater than or equal to 0",
        ));
    }
    if !is_native(name) && !q.is_integer() {
        errs.push(FieldError::invalid(
            path,
            BadValue::Raw(q.canonical()),
            "must be an integer",
        ));
    }
    errs
}

/// Whether any quantity of a container list does not parse (the request is then
/// undecodable: 400, before validation).
pub fn undecodable_quantity(containers: &[Value]) -> bool {
    containers.iter().any(|c| {
        ["requests", "limits"].iter().any(|part| {
            c.pointer(&format!("/resources/{part}"))
                .and_then(Value::as_object)
                .is_some_and(|m| m.values().any(|q| Quantity::from_json(q).is_none()))
        })
    })
}

/// A container's `resources`: names, non-negative values, requests within limits.
pub fn resources(res: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let Some(res) = res else { return errs };
    let lim_path = child(path, "limits");
    let req_path = child(path, "requests");
    let map = |k: &str| -> Vec<(String, Quantity)> {
        res.get(k)
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(n, q)| Some((n.clone(), Quantity::from_json(q)?)))
                    .collect()
            })
            .unwrap_or_default()
    };
    let limits = map("limits");
    for (name, q) in &limits {
        let p = key(&lim_path, name);
        errs.extend(resource_name(name, &p));
        errs.extend(quantity_value(name, q, &p));
    }
    for (name, q) in map("requests") {
        let p = key(&req_path, &name);
        errs.extend(resource_name(&name, &p));
        errs.extend(quantity_value(&name, &q, &p));
        match limits.iter().find(|(n, _)| *n == name) {
            Some((_, limit)) => {
                let order = q.cmp_value(limit);
                if order != Ordering::Equal && !overcommit_allowed(&name) {
                    errs.push(FieldError::invalid(
                        &req_path,
                        BadValue::Str(q.canonical()),
                        format!("must be equal to {name} limit of {}", limit.canonical()),
                    ));
                } else if order == Ordering::Greater {
                    errs.push(FieldError::invalid(
                        &req_path,
                        BadValue::Str(q.canonical()),
                        format!(
                            "must be less than or equal to {name} limit of {}",
                            limit.canonical()
                        ),
                    ));
                }
            }
            None if !overcommit_allowed(&name) => errs.push(FieldError::required(
                &lim_path,
                "Limit must be set for non overcommitable resources",
            )),
            None => {}
        }
    }
    errs
}

fn ports(list: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut names: Vec<String> = Vec::new();
    for (i, p) in array(list).iter().enumerate() {
        let ip = index(path, i);
        let name = text(p, "/name");
        if !name.is_empty() {
            let bad = is_valid_port_name(name);
            if !bad.is_empty() {
                errs.extend(bad.into_iter().map(|m| {
                    FieldError::invalid(child(&ip, "name"), BadValue::Str(name.into()), m)
                }));
            } else if names.iter().any(|n| n == name) {
                errs.push(FieldError::duplicate(
                    child(&ip, "name"),
                    BadValue::Str(name.into()),
                ));
            } else {
                names.push(name.to_string());
            }
        }
        match p.get("containerPort").and_then(Value::as_i64).unwrap_or(0) {
            0 => errs.push(FieldError::required(child(&ip, "containerPort"), "")),
            port if !(1..=65535).contains(&port) => errs.push(FieldError::invalid(
                child(&ip, "containerPort"),
                BadValue::Int(port),
                "must be between 1 and 65535, inclusive",
            )),
            _ => {}
        }
        if let Some(port) = p.get("hostPort").and_then(Value::as_i64)
            && port != 0
            && !(1..=65535).contains(&port)
        {
            errs.push(FieldError::invalid(
                child(&ip, "hostPort"),
                BadValue::Int(port),
                "must be between 1 and 65535, inclusive",
            ));
        }
        let protocol = text(p, "/protocol");
        errs.extend(require::defaulted(
            protocol,
            child(&ip, "protocol"),
            &["SCTP", "TCP", "UDP"],
        ));
    }
    errs
}

fn env(list: Option<&Value>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    for (i, e) in array(list).iter().enumerate() {
        let p = child(&index(path, i), "name");
        let name = text(e, "/name");
        if name.is_empty() {
            errs.push(FieldError::required(&p, ""));
        } else if name
            .chars()
            .any(|c| !c.is_ascii_graphic() && c != ' ' || c == '=')
        {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Str(name.into()),
                "a valid environment variable name must consist only of printable ASCII characters other than '='",
            ));
        }
    }
    errs
}

fn volume_mounts(list: Option<&Value>, path: &str, volumes: &[String]) -> ErrorList {
    let mut errs = ErrorList::new();
    for (i, m) in array(list).iter().enumerate() {
        let ip = index(path, i);
        let name = text(m, "/name");
        if name.is_empty() {
            errs.push(FieldError::required(child(&ip, "name"), ""));
        } else if !volumes.iter().any(|v| v == name) {
            errs.push(FieldError::not_found(
                child(&ip, "name"),
                BadValue::Str(name.into()),
            ));
        }
        errs.extend(require::set(
            text(m, "/mountPath"),
            child(&ip, "mountPath"),
            "",
        ));
    }
    errs
}

/// What every container (regular or init) is checked for.
fn container_common(c: &Value, path: &str, volumes: &[String]) -> ErrorList {
    let mut errs = ErrorList::new();
    let name = text(c, "/name");
    let name_path = child(path, "name");
    if name.is_empty() {
        errs.push(FieldError::required(&name_path, ""));
    } else {
        errs.extend(dns_label(name, &name_path));
    }
    errs.extend(require::set(text(c, "/image"), child(path, "image"), ""));
    let policy = text(c, "/terminationMessagePolicy");
    errs.extend(require::defaulted(
        policy,
        child(path, "terminationMessagePolicy"),
        &["File", "FallbackToLogsOnError"],
    ));
    errs.extend(ports(c.get("ports"), &child(path, "ports")));
    errs.extend(env(c.get("env"), &child(path, "env")));
    errs.extend(volume_mounts(
        c.get("volumeMounts"),
        &child(path, "volumeMounts"),
        volumes,
    ));
    let pull = text(c, "/imagePullPolicy");
    errs.extend(require::defaulted(
        pull,
        child(path, "imagePullPolicy"),
        &["Always", "IfNotPresent", "Never"],
    ));
    errs.extend(resources(c.get("resources"), &child(path, "resources")));
    errs
}

/// The regular containers: at least one, each valid, names unique.
pub fn containers(list: Option<&Value>, path: &str, volumes: &[String]) -> ErrorList {
    let list = array(list);
    if list.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let mut errs = ErrorList::new();
    let mut names: Vec<&str> = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let p = index(path, i);
        errs.extend(container_common(c, &p, volumes));
        let name = text(c, "/name");
        if names.contains(&name) {
            errs.push(FieldError::duplicate(
                child(&p, "name"),
                BadValue::Str(name.into()),
            ));
        } else {
            names.push(name);
        }
        if c.get("restartPolicy").is_some_and(|r| !r.is_null()) {
            errs.push(FieldError::forbidden(
                child(&p, "restartPolicy"),
                "may not be set for non-init containers",
            ));
        }
    }
    errs
}

/// The init containers: each valid, names unique among init and regular containers.
pub fn init_containers(
    list: Option<&Value>,
    regular: Option<&Value>,
    path: &str,
    volumes: &[String],
) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut names: Vec<String> = array(regular)
        .iter()
        .map(|c| text(c, "/name").to_string())
        .collect();
    for (i, c) in array(list).iter().enumerate() {
        let p = index(path, i);
        errs.extend(container_common(c, &p, volumes));
        let name = text(c, "/name");
        if names.iter().any(|n| n == name) {
            errs.push(FieldError::duplicate(
                child(&p, "name"),
                BadValue::Str(name.into()),
            ));
        } else if !name.is_empty() {
            names.push(name.to_string());
        }
        let restart = text(c, "/restartPolicy");
        if !restart.is_empty() && restart != "Always" {
            errs.push(FieldError::not_supported(
                child(&p, "restartPolicy"),
                BadValue::Str(restart.into()),
                &["Always"],
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msgs(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(FieldError::message).collect()
    }

    #[test]
    fn names_images_and_duplicates() {
        let list = json!([{"name": "Web", "image": "x"}, {"name": "a", "image": ""}, {"name": "a", "image": "y"}]);
        let m = msgs(&containers(Some(&list), "spec.containers", &[]));
        assert_eq!(m.len(), 3, "{m:?}");
        assert!(m[0].starts_with(
            "spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label"
        ));
        assert_eq!(m[1], "spec.containers[1].image: Required value");
        assert_eq!(m[2], "spec.containers[2].name: Duplicate value: \"a\"");
        assert_eq!(
            msgs(&containers(Some(&json!([])), "spec.containers", &[])),
            vec!["spec.containers: Required value"]
        );
    }

    #[test]
    fn requests_within_limits_and_non_negative() {
        let res = json!({"requests": {"cpu": "1", "memory": "-1"}, "limits": {"cpu": "500m"}});
        assert_eq!(
            msgs(&resources(Some(&res), "spec.containers[0].resources")),
            vec![
                "spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m",
                "spec.containers[0].resources.requests[memory]: Invalid value: \"-1\": must be greater than or equal to 0",
            ]
        );
        let gpu = json!({"requests": {"nvidia.com/gpu": "1"}});
        assert_eq!(
            msgs(&resources(Some(&gpu), "r")),
            vec!["r.limits: Required value: Limit must be set for non overcommitable resources"]
        );
        let equal = json!({"requests": {"nvidia.com/gpu": "2"}, "limits": {"nvidia.com/gpu": 2}});
        assert!(resources(Some(&equal), "r").is_empty());
        assert_eq!(
            msgs(&resources(Some(&json!({"requests": {"foo": "1"}})), "r")),
            vec![
                "r.requests[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified"
            ]
        );
        assert!(undecodable_quantity(&[
            json!({"resources": {"limits": {"cpu": "lots"}}})
        ]));
    }

    #[test]
    fn ports_env_and_mounts() {
        let c = json!([{"name": "a", "image": "i",
            "ports": [{"containerPort": 0}, {"containerPort": 80, "protocol": "ICMP"}],
            "env": [{"name": ""}],
            "volumeMounts": [{"name": "data", "mountPath": "/d"}]}]);
        let m = msgs(&containers(Some(&c), "s", &["other".to_string()]));
        assert_eq!(
            m,
            vec![
                "s[0].ports[0].containerPort: Required value",
                "s[0].ports[1].protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
                "s[0].env[0].name: Required value",
                "s[0].volumeMounts[0].name: Not found: \"data\"",
            ]
        );
    }
}
