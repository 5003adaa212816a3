//! The one place where the simulator renders YAML it writes; reading goes through the
//! crate's YAML-to-JSON reader.

use serde_json::Value;

/// Parses the first YAML document of `text` into JSON values. Errors carry line:column.
pub fn parse(text: &str) -> Result<Value, String> {
    crate::yaml::first_document_to_json(text)
}

/// Renders a document the simulator writes (the ledger). JSON is valid YAML; this is
/// the single place to switch to the crate's YAML writer.
pub fn render(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}
