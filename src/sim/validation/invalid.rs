//! The one way a refusal becomes `422 Invalid` (`errors.NewInvalid` in
//! apimachinery/pkg/api/errors): the qualified kind and name, every field error as a
//! `details.causes[]` entry, and the errors' messages aggregated into the Status message.

use serde_json::{Value, json};

use super::field::{self, ErrorList, FieldError};
use crate::sim::error::ApiError;
use crate::sim::resource::ResourceType;

/// An object (or a request's options) refused with `422 Invalid`.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The object's API group ("" for core, `meta.k8s.io` for request options).
    pub group: String,
    /// Its kind (`Pod`, `CreateOptions`).
    pub kind: String,
    /// Its name ("" when it has none).
    pub name: String,
    /// What is wrong, in the order found.
    pub errors: ErrorList,
}

impl Invalid {
    /// A refusal of an object of type `rt`.
    pub fn of(rt: &ResourceType, name: &str, errors: ErrorList) -> Invalid {
        Invalid::named(&rt.group, &rt.kind, name, errors)
    }

    /// A refusal of `group`/`kind` (request options, subresources such as `Scale`).
    pub fn named(group: &str, kind: &str, name: &str, errors: ErrorList) -> Invalid {
        Invalid {
            group: group.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
            errors,
        }
    }

    /// A refusal of one field.
    pub fn field(rt: &ResourceType, name: &str, error: FieldError) -> Invalid {
        Invalid::of(rt, name, vec![error])
    }

    /// `Deployment.apps`, or `Pod` for the core group.
    pub fn qualified_kind(&self) -> String {
        if self.group.is_empty() {
            self.kind.clone()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }
}

impl From<Invalid> for ApiError {
    fn from(inv: Invalid) -> ApiError {
        let causes: Vec<Value> = inv
            .errors
            .iter()
            .map(|e| {
                let mut c = json!({"reason": e.kind.reason(), "message": e.body()});
                if !e.field.is_empty() {
                    c["field"] = json!(e.field);
                }
                c
            })
            .collect();
        // StatusDetails leaves empty strings out (`omitempty`).
        let mut details = json!({});
        for (k, v) in [
            ("name", &inv.name),
            ("group", &inv.group),
            ("kind", &inv.kind),
        ] {
            if !v.is_empty() {
                details[k] = json!(v);
            }
        }
        details["causes"] = Value::Array(causes);
        ApiError {
            code: 422,
            reason: "Invalid",
            message: format!(
                "{} {} is invalid: {}",
                inv.qualified_kind(),
                field::go_quote(&inv.name),
                field::aggregate(&inv.errors)
            ),
            details: Some(Box::new(details)),
            retry_after: None,
        }
    }
}
