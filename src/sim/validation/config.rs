//! ConfigMaps and Secrets (`ValidateConfigMap`, `ValidateSecret` and their updates):
//! keys usable as file names, no key in both `data` and `binaryData`, and nothing
//! changed once `immutable: true`.

use serde_json::{Map, Value};

use super::field::{BadValue, ErrorList, FieldError, key};
use super::names::is_config_map_key;
use super::require;
use crate::sim::base64;

/// Largest total size of a ConfigMap's or Secret's data.
const MAX_SIZE: usize = 1024 * 1024;

fn map<'a>(v: &'a Value, k: &str) -> Option<&'a Map<String, Value>> {
    v.get(k).and_then(Value::as_object)
}

fn size(m: Option<&Map<String, Value>>) -> usize {
    m.map_or(0, |m| {
        m.values().map(|v| v.as_str().map_or(0, str::len)).sum()
    })
}

/// The size of a Secret's data: its values decoded (a value that does not decode was
/// refused before validation).
fn decoded_size(m: Option<&Map<String, Value>>) -> usize {
    m.map_or(0, |m| {
        m.values()
            .filter_map(Value::as_str)
            .map(|v| base64::decoded_len(v).unwrap_or(0))
            .sum()
    })
}

/// Why a Secret's `data` cannot be decoded (its values are base64 `[]byte`), as the
/// API server's JSON decoder says it; None when every value decodes.
pub fn undecodable_secret(s: &Value) -> Option<String> {
    for v in map(s, "data").into_iter().flat_map(|m| m.values()) {
        let kind = match v {
            Value::Null => continue,
            Value::String(text) => match base64::decoded_len(text) {
                Ok(_) => continue,
                Err(e) => return Some(e.to_string()),
            },
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        return Some(format!(
            "json: cannot unmarshal {kind} into Go struct field Secret.data of type []uint8"
        ));
    }
    None
}

fn keys(m: Option<&Map<String, Value>>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    for k in m.into_iter().flat_map(|m| m.keys()) {
        errs.extend(require::valid(k, key(path, k), is_config_map_key));
    }
    errs
}

/// A ConfigMap.
pub fn config_map(cm: &Value) -> ErrorList {
    let data = map(cm, "data");
    let binary = map(cm, "binaryData");
    let mut errs = ErrorList::new();
    for k in data.into_iter().flat_map(|m| m.keys()) {
        errs.extend(require::valid(k, key("data", k), is_config_map_key));
        if binary.is_some_and(|b| b.contains_key(k)) {
            errs.push(FieldError::invalid(
                key("data", k),
                BadValue::Str(k.clone()),
                "duplicate of key present in binaryData",
            ));
        }
    }
    errs.extend(keys(binary, "binaryData"));
    if size(data) + size(binary) > MAX_SIZE {
        errs.push(FieldError::too_long("", MAX_SIZE));
    }
    errs
}

/// A Secret.
pub fn secret(s: &Value) -> ErrorList {
    let data = map(s, "data");
    let mut errs = keys(data, "data");
    if decoded_size(data) > MAX_SIZE {
        errs.push(FieldError::too_long("data", MAX_SIZE));
    }
    let required = |k: &str| FieldError::required(key("data", k), "");
    let has = |k: &str| data.is_some_and(|d| d.contains_key(k));
    match s.get("type").and_then(Value::as_str).unwrap_or("") {
        "kubernetes.io/service-account-token" => {
            let annotated = s
                .pointer("/metadata/annotations/kubernetes.io~1service-account.name")
                .and_then(Value::as_str)
                .is_some_and(|n| !n.is_empty());
            if !annotated {
                errs.push(FieldError::required(
                    "metadata.annotations[kubernetes.io/service-account.name]",
                    "",
                ));
            }
        }
        "kubernetes.io/dockercfg" if !has(".dockercfg") => errs.push(required(".dockercfg")),
        "kubernetes.io/dockerconfigjson" if !has(".dockerconfigjson") => {
            errs.push(required(".dockerconfigjson"))
        }
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            errs.push(required("username"));
            errs.push(required("password"));
        }
        "kubernetes.io/ssh-auth" if !has("ssh-privatekey") => errs.push(required("ssh-privatekey")),
        "kubernetes.io/tls" => {
            for k in ["tls.crt", "tls.key"] {
                if !has(k) {
                    errs.push(required(k));
                }
            }
        }
        _ => {}
    }
    errs
}

fn immutable(new: &Value, old: &Value, fields: &[&str]) -> ErrorList {
    let mut errs = ErrorList::new();
    if old.get("immutable").and_then(Value::as_bool) != Some(true) {
        return errs;
    }
    if new.get("immutable").and_then(Value::as_bool) != Some(true) {
        errs.push(FieldError::forbidden(
            "immutable",
            "field is immutable when `immutable` is set",
        ));
    }
    let empty = Map::new();
    for f in fields {
        if map(new, f).unwrap_or(&empty) != map(old, f).unwrap_or(&empty) {
            errs.push(FieldError::forbidden(
                f,
                "field is immutable when `immutable` is set",
            ));
        }
    }
    errs
}

/// A ConfigMap update: nothing changes once it is immutable.
pub fn config_map_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = immutable(new, old, &["data", "binaryData"]);
    errs.extend(config_map(new));
    errs
}

/// A Secret update: the type never changes, the data not once it is immutable.
pub fn secret_update(new: &Value, old: &Value) -> ErrorList {
    let ty = |v: &Value| {
        v.get("type")
            .and_then(Value::as_str)
            .unwrap_or("Opaque")
            .to_string()
    };
    let mut errs = ErrorList::new();
    if ty(new) != ty(old) {
        errs.push(FieldError::invalid(
            "type",
            BadValue::Str(ty(new)),
            "field is immutable",
        ));
    }
    errs.extend(immutable(new, old, &["data"]));
    errs.extend(secret(new));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_must_be_file_names_and_not_repeated() {
        let cm = json!({"data": {"a/b": "x", "dup": "1"}, "binaryData": {"dup": "MQ=="}});
        let m: Vec<String> = config_map(&cm).iter().map(FieldError::message).collect();
        assert_eq!(m.len(), 2);
        assert!(m[0].starts_with("data[a/b]: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.'"));
        assert_eq!(
            m[1],
            "data[dup]: Invalid value: \"dup\": duplicate of key present in binaryData"
        );
    }

    #[test]
    fn secrets_need_the_keys_of_their_type_and_fit_decoded() {
        let tls = json!({"type": "kubernetes.io/tls", "data": {"a/b": "eA=="}});
        let fields: Vec<String> = secret(&tls).into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["data[a/b]", "data[tls.crt]", "data[tls.key]"]);
        let basic = json!({"type": "kubernetes.io/basic-auth", "data": {}});
        let m: Vec<String> = secret(&basic).iter().map(FieldError::message).collect();
        assert_eq!(
            m,
            [
                "data[username]: Required value",
                "data[password]: Required value"
            ]
        );
        // 1 MiB decoded is 1 398 104 characters of base64: at the limit, not over it.
        let full = base64::encode(&vec![0u8; MAX_SIZE]);
        assert!(secret(&json!({"data": {"a": full}})).is_empty());
        let over = base64::encode(&vec![0u8; MAX_SIZE + 1]);
        assert_eq!(
            secret(&json!({"data": {"a": over}}))[0].message(),
            "data: Too long: may not be more than 1048576 bytes"
        );
        assert_eq!(
            undecodable_secret(&json!({"data": {"ok": "eA==", "bad": "e!"}})),
            Some("illegal base64 data at input byte 1".to_string())
        );
        assert_eq!(
            undecodable_secret(&json!({"data": {"n": 1}})),
            Some(
                "json: cannot unmarshal number into Go struct field Secret.data of type []uint8"
                    .to_string()
            )
        );
        assert_eq!(undecodable_secret(&json!({"data": {"a": null}})), None);
    }

    #[test]
    fn immutable_data_stays() {
        let old = json!({"immutable": true, "data": {"a": "1"}});
        assert!(config_map_update(&old, &old).is_empty());
        let changed = json!({"immutable": true, "data": {"a": "2"}});
        assert_eq!(
            config_map_update(&changed, &old)[0].message(),
            "data: Forbidden: field is immutable when `immutable` is set"
        );
        let unlocked = json!({"immutable": false, "data": {"a": "1"}});
        assert_eq!(config_map_update(&unlocked, &old)[0].field, "immutable");
        assert!(
            secret_update(
                &json!({"type": "Opaque", "immutable": true, "data": {"a": "Mg=="}}),
                &json!({"immutable": true, "data": {"a": "MQ=="}})
            )
            .iter()
            .any(|e| e.field == "data")
        );
    }
}
