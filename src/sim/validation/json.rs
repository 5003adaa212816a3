//! Reading the object under validation: the rules look at JSON as the client sent it,
//! where any field may be missing or of another type.

use serde_json::Value;

/// The string at JSON pointer `ptr` ("" when it is missing or not a string).
pub fn text<'a>(v: &'a Value, ptr: &str) -> &'a str {
    v.pointer(ptr).and_then(Value::as_str).unwrap_or("")
}

/// The list under `key` (empty when it is missing or not a list).
pub fn items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    array(v.get(key))
}

/// A value read as a list (empty when it is missing or not a list).
pub fn array(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}
