//! Just enough of Kubernetes' protobuf encoding to read the review kinds kubectl sends
//! that way (`kubectl auth can-i` and `auth whoami` post protobuf): the `k8s\0` envelope
//! (`runtime.Unknown`) and the few fields of SelfSubjectAccessReview and
//! SelfSubjectRulesReview specs, turned into the JSON the handlers read.

use serde_json::{Value, json};

/// The media type of protobuf bodies.
pub const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

/// One field of a message: a varint (its value is not needed here) or the bytes of a
/// length-delimited field.
enum Field<'a> {
    Varint,
    Bytes(&'a [u8]),
}

fn varint(b: &[u8], pos: &mut usize) -> Option<u64> {
    let mut out = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*pos)?;
        *pos += 1;
        out |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(out);
        }
    }
    None
}

/// The fields of a message, in order; None if it is not well-formed.
fn fields(b: &[u8]) -> Option<Vec<(u64, Field<'_>)>> {
    let mut pos = 0;
    let mut out = Vec::new();
    while pos < b.len() {
        let key = varint(b, &mut pos)?;
        let (number, wire) = (key >> 3, key & 7);
        match wire {
            0 => {
                varint(b, &mut pos)?;
                out.push((number, Field::Varint));
            }
            2 => {
                let len = usize::try_from(varint(b, &mut pos)?).ok()?;
                let end = pos.checked_add(len).filter(|e| *e <= b.len())?;
                out.push((number, Field::Bytes(&b[pos..end])));
                pos = end;
            }
            1 => pos = pos.checked_add(8)?,
            5 => pos = pos.checked_add(4)?,
            _ => return None,
        }
    }
    Some(out)
}

fn bytes_of<'a>(f: &[(u64, Field<'a>)], n: u64) -> Option<&'a [u8]> {
    f.iter().find_map(|(k, v)| match v {
        Field::Bytes(b) if *k == n => Some(*b),
        _ => None,
    })
}

fn string_of(f: &[(u64, Field<'_>)], n: u64) -> String {
    bytes_of(f, n)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default()
}

/// Reads a protobuf-encoded review into its JSON form (`kind`, `apiVersion`, `spec`);
/// None when the body is not a protobuf object this module knows.
pub fn review_json(body: &[u8]) -> Option<Value> {
    let envelope = fields(body.strip_prefix(b"k8s\0")?)?;
    let type_meta = fields(bytes_of(&envelope, 1)?)?;
    let api_version = string_of(&type_meta, 1);
    let kind = string_of(&type_meta, 2);
    let object = fields(bytes_of(&envelope, 2).unwrap_or_default())?;
    let spec_bytes = bytes_of(&object, 2).unwrap_or_default();
    let spec = fields(spec_bytes)?;
    let spec_json = match kind.as_str() {
        "SelfSubjectAccessReview" => {
            let mut s = json!({});
            if let Some(r) = bytes_of(&spec, 1).and_then(fields) {
                let names = [
                    "namespace",
                    "verb",
                    "group",
                    "version",
                    "resource",
                    "subresource",
                    "name",
                ];
                let mut attrs = json!({});
                for (i, n) in names.iter().enumerate() {
                    let v = string_of(&r, i as u64 + 1);
                    if !v.is_empty() {
                        attrs[*n] = json!(v);
                    }
                }
                s["resourceAttributes"] = attrs;
            }
            if let Some(r) = bytes_of(&spec, 2).and_then(fields) {
                s["nonResourceAttributes"] =
                    json!({"path": string_of(&r, 1), "verb": string_of(&r, 2)});
            }
            s
        }
        "SelfSubjectRulesReview" => json!({"namespace": string_of(&spec, 1)}),
        _ => json!({}),
    };
    Some(json!({"kind": kind, "apiVersion": api_version, "spec": spec_json}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u64, payload: &[u8]) -> Vec<u8> {
        let mut v = vec![((n << 3) | 2) as u8, payload.len() as u8];
        v.extend_from_slice(payload);
        v
    }

    #[test]
    fn reads_an_access_review_as_kubectl_encodes_it() {
        let attrs = [field(1, b"default"), field(2, b"create"), field(5, b"pods")].concat();
        let spec = field(1, &attrs);
        let object = [field(1, b""), field(2, &spec)].concat();
        let type_meta = [
            field(1, b"authorization.k8s.io/v1"),
            field(2, b"SelfSubjectAccessReview"),
        ]
        .concat();
        let body = [b"k8s\0".to_vec(), field(1, &type_meta), field(2, &object)].concat();
        let v = review_json(&body).unwrap_or_default();
        assert_eq!(v["kind"], "SelfSubjectAccessReview");
        assert_eq!(
            v["spec"]["resourceAttributes"],
            json!({"namespace": "default", "verb": "create", "resource": "pods"})
        );
        assert!(review_json(b"{}").is_none());
    }
}
