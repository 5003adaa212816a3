//! The conformance table as data: the cases of `tests/conformance/*.yaml`, read and
//! checked for their shape (unknown keys, missing fields and duplicate names are
//! reported with file and line).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

/// Keys a case may have.
const CASE_KEYS: [&str; 6] = ["name", "source", "setup", "request", "expect", "then"];
/// Keys a request may have.
const REQUEST_KEYS: [&str; 5] = ["method", "path", "contentType", "as", "body"];
/// Keys an expectation may have.
const EXPECT_KEYS: [&str; 7] = [
    "status", "reason", "causes", "message", "body", "headers", "absent",
];
/// Keys of a follow-up check (`then:`).
const THEN_KEYS: [&str; 3] = ["request", "expect", "afterMs"];

/// One request of a case.
#[derive(Debug, Clone)]
pub struct Req {
    /// GET, POST, PUT, PATCH or DELETE.
    pub method: String,
    /// Path and query, relative to the cluster root.
    pub path: String,
    /// `Content-Type` of the body (JSON when absent).
    pub content_type: Option<String>,
    /// Who sends it (`as:`, default `admin`).
    pub user: String,
    /// The body: a mapping sent as JSON (YAML for a yaml content type) or a string sent as is.
    pub body: Option<Value>,
}

/// One expected cause of `details.causes`.
#[derive(Debug, Clone)]
pub struct Cause {
    /// The cause's field path.
    pub field: Option<String>,
    /// The cause type (`FieldValueRequired`, …).
    pub reason: String,
    /// The cause's message, compared exactly when given.
    pub message: Option<String>,
}

/// What the answer must be.
#[derive(Debug, Clone)]
pub struct Expect {
    /// HTTP status.
    pub status: u16,
    /// The Status reason.
    pub reason: Option<String>,
    /// Causes that must be in `details.causes`.
    pub causes: Vec<Cause>,
    /// A pattern the Status message must match.
    pub message: Option<regex::Regex>,
    /// A JSON subset the answer must contain.
    pub body: Option<Value>,
    /// Headers that must be present.
    pub headers: Vec<String>,
    /// JSON pointers that must not be in the answer.
    pub absent: Vec<String>,
}

/// A request checked after the case's request (for effects: nothing stored, no pods).
#[derive(Debug, Clone)]
pub struct Then {
    /// The request.
    pub request: Req,
    /// Its expected answer.
    pub expect: Expect,
    /// How long to wait before sending it.
    pub after: Duration,
}

/// One row of the table.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file it is in.
    pub file: String,
    /// The line it starts on.
    pub line: usize,
    /// Its name, unique in the file.
    pub name: String,
    /// The Kubernetes source its expected answer comes from.
    pub source: String,
    /// Requests that must succeed first.
    pub setup: Vec<Req>,
    /// The request.
    pub request: Req,
    /// Its expected answer.
    pub expect: Expect,
    /// Checks after the request.
    pub then: Vec<Then>,
}

impl Case {
    pub fn label(&self) -> String {
        format!("{}:{}: {:?}", self.file, self.line, self.name)
    }
}

// ---------------------------------------------------------------------------------
// Loading the table.
// ---------------------------------------------------------------------------------

fn table_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Reads every `*.yaml` of the table; problems are collected, not fatal one by one.
pub fn load_table() -> (Vec<Case>, Vec<String>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(table_dir())
        .expect("tests/conformance exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    let mut problems = Vec::new();
    for path in files {
        let file = format!(
            "tests/conformance/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{file}: {e}"));
                continue;
            }
        };
        load_file(&file, &text, &mut cases, &mut problems);
    }
    (cases, problems)
}

pub fn load_file(file: &str, text: &str, cases: &mut Vec<Case>, problems: &mut Vec<String>) {
    let (tree, diags) = fleetdeck::yaml::parse(text);
    for d in &diags {
        problems.push(d.render(file));
    }
    let Some(tree) = tree else { return };
    let lines: Vec<usize> = match &tree.value {
        fleetdeck::yaml::Value::Seq(items) => items.iter().map(|n| n.pos.line).collect(),
        _ => {
            problems.push(format!("{file}:1: the file must be a YAML list of cases"));
            return;
        }
    };
    let items = match fleetdeck::yaml::first_document_to_json(text) {
        Ok(Value::Array(items)) => items,
        Ok(_) => return,
        Err(e) => {
            problems.push(format!("{file}: {e}"));
            return;
        }
    };
    let mut names = std::collections::BTreeSet::new();
    for (i, item) in items.iter().enumerate() {
        let line = lines.get(i).copied().unwrap_or(0);
        let at = format!("{file}:{line}");
        match parse_case(item) {
            Ok(mut case) => {
                if !names.insert(case.name.clone()) {
                    problems.push(format!("{at}: duplicate case name {:?}", case.name));
                }
                case.file = file.to_string();
                case.line = line;
                cases.push(case);
            }
            Err(e) => problems.push(format!("{at}: {e}")),
        }
    }
}

fn obj<'a>(v: &'a Value, what: &str, allowed: &[&str]) -> Result<&'a Map<String, Value>, String> {
    let m = v
        .as_object()
        .ok_or_else(|| format!("{what} must be a mapping"))?;
    if let Some(k) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(format!(
            "{what}: unknown key {k:?} (allowed: {})",
            allowed.join(", ")
        ));
    }
    Ok(m)
}

fn text(m: &Map<String, Value>, key: &str, what: &str) -> Result<Option<String>, String> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("{what}.{key} must be a string, not {other}")),
    }
}

fn required_text(m: &Map<String, Value>, key: &str, what: &str) -> Result<String, String> {
    text(m, key, what)?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("{what}.{key} is required"))
}

fn parse_case(v: &Value) -> Result<Case, String> {
    let m = obj(v, "case", &CASE_KEYS)?;
    let name = required_text(m, "name", "case")?;
    let source = required_text(m, "source", "case")?;
    let in_case = |e: String| format!("case {name:?}: {e}");
    let setup = match m.get("setup") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|r| parse_request(r, "setup[]"))
            .collect::<Result<_, _>>()
            .map_err(in_case)?,
        Some(_) => return Err(in_case("setup must be a list of requests".into())),
    };
    let request = parse_request(
        m.get("request")
            .ok_or_else(|| in_case("request is required".into()))?,
        "request",
    )
    .map_err(in_case)?;
    let expect = parse_expect(
        m.get("expect")
            .ok_or_else(|| in_case("expect is required".into()))?,
        "expect",
    )
    .map_err(in_case)?;
    let then = match m.get("then") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(parse_then)
            .collect::<Result<_, _>>()
            .map_err(in_case)?,
        Some(_) => return Err(in_case("then must be a list".into())),
    };
    Ok(Case {
        file: String::new(),
        line: 0,
        name,
        source,
        setup,
        request,
        expect,
        then,
    })
}

fn parse_request(v: &Value, what: &str) -> Result<Req, String> {
    let m = obj(v, what, &REQUEST_KEYS)?;
    let method = required_text(m, "method", what)?.to_ascii_uppercase();
    if !["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&method.as_str()) {
        return Err(format!(
            "{what}.method {method:?} is not GET POST PUT PATCH DELETE"
        ));
    }
    let path = required_text(m, "path", what)?;
    if !path.starts_with('/') {
        return Err(format!("{what}.path must start with '/'"));
    }
    Ok(Req {
        method,
        path,
        content_type: text(m, "contentType", what)?,
        user: text(m, "as", what)?.unwrap_or_else(|| "admin".into()),
        body: m.get("body").filter(|b| !b.is_null()).cloned(),
    })
}

fn parse_expect(v: &Value, what: &str) -> Result<Expect, String> {
    let m = obj(v, what, &EXPECT_KEYS)?;
    let status = m
        .get("status")
        .and_then(Value::as_u64)
        .and_then(|s| u16::try_from(s).ok())
        .ok_or_else(|| format!("{what}.status is required (an HTTP status code)"))?;
    let causes = match m.get("causes") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|c| {
                let cm = obj(
                    c,
                    &format!("{what}.causes[]"),
                    &["field", "reason", "message"],
                )?;
                Ok(Cause {
                    field: text(cm, "field", "cause")?,
                    reason: required_text(cm, "reason", "cause")?,
                    message: text(cm, "message", "cause")?,
                })
            })
            .collect::<Result<_, String>>()?,
        Some(_) => return Err(format!("{what}.causes must be a list")),
    };
    let message = text(m, "message", what)?
        .map(|re| regex::Regex::new(&re).map_err(|e| format!("{what}.message: {e}")))
        .transpose()?;
    let strings = |key: &str| -> Result<Vec<String>, String> {
        match m.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|h| {
                    h.as_str()
                        .map(String::from)
                        .ok_or_else(|| format!("{what}.{key} must be a list of strings"))
                })
                .collect(),
            Some(_) => Err(format!("{what}.{key} must be a list of strings")),
        }
    };
    Ok(Expect {
        status,
        reason: text(m, "reason", what)?,
        causes,
        message,
        body: m.get("body").filter(|b| !b.is_null()).cloned(),
        headers: strings("headers")?,
        absent: strings("absent")?,
    })
}

fn parse_then(v: &Value) -> Result<Then, String> {
    let m = obj(v, "then[]", &THEN_KEYS)?;
    let after = match m.get("afterMs") {
        None => 0,
        Some(v) => v
            .as_u64()
            .ok_or("then[].afterMs must be a number of milliseconds")?,
    };
    Ok(Then {
        request: parse_request(
            m.get("request").ok_or("then[].request is required")?,
            "then[].request",
        )?,
        expect: parse_expect(
            m.get("expect").ok_or("then[].expect is required")?,
            "then[].expect",
        )?,
        after: Duration::from_millis(after),
    })
}
