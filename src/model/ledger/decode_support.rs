//! The ledger's `supportMatrix` (the combinations of versions the platform validated,
//! with when and on what evidence) and `kubernetesSupport` (when each Kubernetes minor
//! leaves upstream support: data the ledger carries, never fetched).

use std::collections::BTreeMap;

use jiff::civil::Date;

use super::decode::parse_date;
use crate::i18n::Msg;
use crate::model::upgrade::{Minor, SupportMatrix, Validated};
use crate::yaml::{Diagnostics, Fields, Node, Value, string_map};

const COMBINATION_FIELDS: &[&str] = &["name", "validated", "evidence", "versions"];

/// `supportMatrix:` — a list of validated combinations.
pub fn decode_support_matrix(node: &Node, diags: &mut Diagnostics) -> SupportMatrix {
    let Value::Seq(items) = &node.value else {
        diags.error_said(
            node.pos,
            format!(
                "field `supportMatrix` must be a list, found {}",
                node.shape_name()
            ),
            Msg::new("validate-must-be-list")
                .arg("field", "supportMatrix")
                .arg("found", node.shape_msg()),
        );
        return SupportMatrix::default();
    };
    let mut out: Vec<Validated> = Vec::new();
    for item in items {
        let Some(fields) = Fields::of(item, "supportMatrix entry", diags) else {
            continue;
        };
        fields.reject_unknown(COMBINATION_FIELDS, diags);
        let name = fields.required_string("name", diags);
        let validated = fields.required("validated", diags).and_then(|n| {
            let text = crate::yaml::string(n, "validated", diags)?;
            parse_date(&text, "supportMatrix.validated", n.pos, diags)
        });
        let evidence = fields.required_string("evidence", diags);
        let versions: BTreeMap<String, String> = fields
            .required("versions", diags)
            .map(|n| string_map(n, "versions", diags))
            .unwrap_or_default()
            .into_iter()
            .map(|(k, (v, _))| (k, v))
            .collect();
        if let Some(name) = &name
            && out.iter().any(|c| &c.name == name)
        {
            diags.error_said(
                item.pos,
                format!("supportMatrix has two combinations named {name:?}"),
                Msg::new("validate-support-duplicate").arg("name", name.as_str()),
            );
            continue;
        }
        if let Some(node) = fields.get("versions")
            && versions.is_empty()
        {
            diags.error_said(
                node.pos,
                "a validated combination names at least one version".to_string(),
                Msg::new("validate-support-empty"),
            );
        }
        if let (Some(name), Some(validated), Some(evidence)) = (name, validated, evidence) {
            out.push(Validated {
                name,
                validated,
                evidence,
                versions,
            });
        }
    }
    SupportMatrix(out)
}

/// `kubernetesSupport:` — Kubernetes minor → the day it leaves upstream support
/// (`v1.31: 2025-10-28`).
pub fn decode_kubernetes_support(node: &Node, diags: &mut Diagnostics) -> BTreeMap<Minor, Date> {
    let mut out = BTreeMap::new();
    for (key, (text, pos)) in string_map(node, "kubernetesSupport", diags) {
        let Some(minor) = Minor::parse(&key) else {
            diags.error_said(
                pos,
                format!("kubernetesSupport key {key:?} is not a Kubernetes minor (v1.32)"),
                Msg::new("validate-support-minor").arg("key", key.as_str()),
            );
            continue;
        };
        if let Some(date) = parse_date(&text, "kubernetesSupport", pos, diags) {
            out.insert(minor, date);
        }
    }
    out
}
