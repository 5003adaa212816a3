//! YAML with positions. Every user-written file (ledger, rollout, maintenance) is read
//! into a [`Node`] tree that remembers where each value stands, so that every problem can
//! be reported as `FILE:LINE:COL: message` and all problems can be reported at once.

mod decode;
mod emit;
mod json;
mod node;
mod scalars;

pub use decode::{
    Diagnostic, Diagnostics, Fields, Severity, read_document, string, string_list, string_map,
    suggest,
};
pub use emit::to_yaml_string;
pub use json::{documents_to_json, first_document_to_json};
pub use node::{Key, Node, Pos, Value, parse};
pub use scalars::{boolean, number, one_of, percent, positive, whole_number};
