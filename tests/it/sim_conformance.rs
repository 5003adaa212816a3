//! The simulator conformance table: every case of `tests/conformance/*.yaml` is sent
//! over real HTTP (the kube client, on loopback) to a freshly started simulator cluster,
//! and its answer is compared with what a real kube-apiserver answers. Every failing
//! case is reported with its file, line and name, and the expected and actual answers;
//! the test fails after all cases ran.
//!
//! The format is described in `tests/conformance/README.md`. Run one case (or all whose
//! name contains a text) with `CONFORMANCE_CASE=text ./test.sh --test it sim_conformance::`.

use std::time::Duration;

use crate::support;
use crate::support::conformance::{Case, Expect, Req, load_file, load_table};
use http_body_util::BodyExt;
use serde_json::{Value, json};

/// The table has at least this many rows (cases) in all.
const MIN_ROWS: usize = 60;

/// An answer from the simulator.
struct Answer {
    status: u16,
    headers: http::HeaderMap,
    text: String,
    json: Value,
}

// ---------------------------------------------------------------------------------
// Running a case.
// ---------------------------------------------------------------------------------

/// A small fresh cluster: the `small` scenario cut to one cluster of three nodes with one
/// single-replica deployment in `shop` (no PDBs, no DaemonSets, no StatefulSets), so
/// that starting one per case is cheap.
fn fresh_fleet() -> fleetdeck::sim::SimFleet {
    let mut scenario = fleetdeck::sim::Scenario::load("small").expect("small scenario");
    scenario.groups.truncate(1);
    let group = &mut scenario.groups[0];
    group.count = 1;
    group.nodes.count = 3;
    group.workloads.deployments = 1;
    group.workloads.replicas = 1;
    group.workloads.pdbs = false;
    group.workloads.daemon_sets.clear();
    group.workloads.stateful_sets = None;
    fleetdeck::sim::SimFleet::from_scenario(&scenario, 11, 1.0).expect("fresh fleet")
}

/// The client a request is sent with, by its `as:` user: one of the simulator's users
/// (through a kubeconfig written for it, as a person given that user would hold),
/// `anonymous` (no credentials at all), `invalid-token` (a token the server never
/// issued), `expired-token` or `revoked-token` (the admin's, issued by the fleet's token
/// issuer, then expired or revoked). An `Err` skips the case with its reason.
async fn client_for(
    user: &str,
    served: &support::sim::Served,
    context: &str,
) -> Result<kube::Client, String> {
    let kubeconfig = match user {
        "admin" => served.kubeconfig.clone(),
        "anonymous" | "invalid-token" | "expired-token" | "revoked-token" => {
            // The admin's kubeconfig with its token line dropped, or replaced.
            let text = std::fs::read_to_string(&served.kubeconfig)
                .map_err(|e| format!("reading the kubeconfig: {e}"))?;
            let token = served.fleet.token("admin").unwrap_or_default();
            // The simulator writes the token as a quoted YAML string.
            let line = format!("token: {}", serde_json::Value::String(token.clone()));
            if token.is_empty() || !text.contains(&line) {
                return Err("the kubeconfig holds no admin token to take away".into());
            }
            let issuer = served.fleet.issuer();
            let replaced = match user {
                "anonymous" => text
                    .lines()
                    .filter(|l| l.trim() != line)
                    .collect::<Vec<_>>()
                    .join("\n"),
                "expired-token" => {
                    let (token, _) = issuer.issue("admin", Some(std::time::Duration::ZERO));
                    text.replace(&line, &format!("token: {token:?}"))
                }
                "revoked-token" => {
                    let (token, _) = issuer.issue("admin", None);
                    issuer.revoke(&token);
                    text.replace(&line, &format!("token: {token:?}"))
                }
                _ => text.replace(&line, "token: \"not-a-token-this-server-issued\""),
            };
            let path = served.dir.path().join(format!("kubeconfig-{user}"));
            std::fs::write(&path, replaced)
                .map_err(|e| format!("writing {}: {e}", path.display()))?;
            path
        }
        other => {
            let path = served.dir.path().join(format!("kubeconfig-{other}"));
            fleetdeck::sim::write_kubeconfig_for(&served.fleet, &path, served.addr, other)
                .map_err(|e| format!("as: {other:?} is not a user the simulator has ({e})"))?;
            path
        }
    };
    Ok(support::sim::tcp_client(&kubeconfig, context).await)
}

async fn send(client: &kube::Client, r: &Req) -> Result<Answer, String> {
    let (body, content_type) = match &r.body {
        None => (Vec::new(), None),
        Some(Value::String(raw)) => (
            raw.clone().into_bytes(),
            Some(r.content_type.clone().unwrap_or("application/json".into())),
        ),
        Some(v) => {
            let ct = r
                .content_type
                .clone()
                .unwrap_or_else(|| "application/json".into());
            let bytes = if ct.contains("yaml") {
                fleetdeck::yaml::to_yaml_string(v).into_bytes()
            } else {
                v.to_string().into_bytes()
            };
            (bytes, Some(ct))
        }
    };
    let mut builder = http::Request::builder()
        .method(r.method.as_str())
        .uri(r.path.as_str())
        .header(http::header::ACCEPT, "application/json");
    if let Some(ct) = content_type.or(r.content_type.clone()) {
        builder = builder.header(http::header::CONTENT_TYPE, ct);
    }
    let request = builder
        .body(kube::client::Body::from(body))
        .map_err(|e| format!("building the request: {e}"))?;
    let response = tokio::time::timeout(Duration::from_secs(20), client.send(request))
        .await
        .map_err(|_| "no answer within 20 s".to_string())?
        .map_err(|e| format!("sending: {e}"))?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("reading the answer: {e}"))?
        .to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok(Answer {
        status,
        headers,
        text,
        json,
    })
}

/// Whether `want` is contained in `have`: objects by key, lists element by element
/// (each expected element in some actual one), scalars equal.
fn subset(want: &Value, have: &Value) -> bool {
    match (want, have) {
        (Value::Object(w), Value::Object(h)) => w
            .iter()
            .all(|(k, wv)| h.get(k).is_some_and(|hv| subset(wv, hv))),
        (Value::Array(w), Value::Array(h)) => w.iter().all(|wv| h.iter().any(|hv| subset(wv, hv))),
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (a, b) => a == b,
    }
}

fn short(text: &str) -> String {
    const MAX: usize = 1500;
    if text.len() <= MAX {
        return text.to_string();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// Compares an answer with the expectation; the differences, one per line.
fn check(expect: &Expect, a: &Answer) -> Vec<String> {
    let mut diffs = Vec::new();
    if a.status != expect.status {
        diffs.push(format!(
            "status: expected {}, got {}",
            expect.status, a.status
        ));
    }
    let reason = a.json.get("reason").and_then(Value::as_str).unwrap_or("");
    if let Some(want) = &expect.reason
        && want != reason
    {
        diffs.push(format!("reason: expected {want:?}, got {reason:?}"));
    }
    let message = a.json.get("message").and_then(Value::as_str).unwrap_or("");
    if let Some(re) = &expect.message
        && !re.is_match(message)
    {
        diffs.push(format!(
            "message: expected to match /{}/, got {message:?}",
            re.as_str()
        ));
    }
    let causes: Vec<&Value> = a
        .json
        .pointer("/details/causes")
        .and_then(Value::as_array)
        .map(|c| c.iter().collect())
        .unwrap_or_default();
    for want in &expect.causes {
        let found = causes.iter().any(|c| {
            let s = |k: &str| c.get(k).and_then(Value::as_str);
            s("reason") == Some(want.reason.as_str())
                && want.field.as_deref().is_none_or(|f| s("field") == Some(f))
                && want
                    .message
                    .as_deref()
                    .is_none_or(|m| s("message") == Some(m))
        });
        if !found {
            diffs.push(format!(
                "cause missing: {{field: {:?}, reason: {:?}{}}}; causes are {}",
                want.field.as_deref().unwrap_or(""),
                want.reason,
                want.message
                    .as_deref()
                    .map(|m| format!(", message: {m:?}"))
                    .unwrap_or_default(),
                serde_json::to_string(&causes).unwrap_or_default()
            ));
        }
    }
    if let Some(want) = &expect.body
        && !subset(want, &a.json)
    {
        diffs.push(format!(
            "body: expected to contain {want}, got {}",
            short(&a.text)
        ));
    }
    for h in &expect.headers {
        if !a.headers.contains_key(h.as_str()) {
            let have: Vec<&str> = a.headers.keys().map(|k| k.as_str()).collect();
            diffs.push(format!("header {h:?} missing (have {})", have.join(", ")));
        }
    }
    for p in &expect.absent {
        if let Some(v) = a.json.pointer(p) {
            diffs.push(format!("{p} must be absent, is {v}"));
        }
    }
    if !diffs.is_empty() {
        diffs.push(format!("answer: {} {}", a.status, short(&a.text)));
    }
    diffs
}

/// The outcome of one case.
enum Outcome {
    Passed,
    Skipped(String),
    Failed(Vec<String>),
}

async fn run_case(case: &Case) -> Outcome {
    let fleet = fresh_fleet();
    let context = fleet.cluster_ids().first().cloned().unwrap_or_default();
    let served = support::sim::serve(fleet).await;
    let outcome = run_on(case, &served, &context).await;
    served.server.shutdown().await;
    outcome
}

async fn run_on(case: &Case, served: &support::sim::Served, context: &str) -> Outcome {
    for (i, r) in case.setup.iter().enumerate() {
        let client = match client_for(&r.user, served, context).await {
            Ok(c) => c,
            Err(why) => return Outcome::Skipped(why),
        };
        match send(&client, r).await {
            Ok(a) if (200..300).contains(&a.status) => {}
            Ok(a) => {
                return Outcome::Failed(vec![format!(
                    "setup[{i}] {} {} failed: {} {}",
                    r.method,
                    r.path,
                    a.status,
                    short(&a.text)
                )]);
            }
            Err(e) => return Outcome::Failed(vec![format!("setup[{i}]: {e}")]),
        }
    }
    let steps = std::iter::once((
        &case.request,
        &case.expect,
        Duration::ZERO,
        "request".to_string(),
    ))
    .chain(
        case.then
            .iter()
            .enumerate()
            .map(|(i, t)| (&t.request, &t.expect, t.after, format!("then[{i}]"))),
    );
    for (r, expect, after, what) in steps {
        tokio::time::sleep(after).await;
        let client = match client_for(&r.user, served, context).await {
            Ok(c) => c,
            Err(why) => return Outcome::Skipped(why),
        };
        let answer = match send(&client, r).await {
            Ok(a) => a,
            Err(e) => return Outcome::Failed(vec![format!("{what} {} {}: {e}", r.method, r.path)]),
        };
        let diffs = check(expect, &answer);
        if !diffs.is_empty() {
            let mut out = vec![format!("{what}: {} {}", r.method, r.path)];
            out.extend(diffs.into_iter().map(|d| format!("  {d}")));
            return Outcome::Failed(out);
        }
    }
    Outcome::Passed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_simulator_answers_as_a_real_api_server() {
    let (cases, problems) = load_table();
    assert!(
        problems.is_empty(),
        "the conformance table has problems:\n{}",
        problems.join("\n")
    );
    let filter = std::env::var("CONFORMANCE_CASE")
        .ok()
        .filter(|f| !f.is_empty());
    if filter.is_none() {
        assert!(
            cases.len() >= MIN_ROWS,
            "the conformance table has {} rows; it must have at least {MIN_ROWS}",
            cases.len()
        );
    }
    let selected: Vec<&Case> = cases
        .iter()
        .filter(|c| filter.as_ref().is_none_or(|f| c.name.contains(f.as_str())))
        .collect();
    assert!(
        !selected.is_empty(),
        "no case matches CONFORMANCE_CASE={filter:?}"
    );
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for case in &selected {
        match run_case(case).await {
            Outcome::Passed => {}
            Outcome::Skipped(why) => skipped.push(format!("{}: {why}", case.label())),
            Outcome::Failed(lines) => failures.push(format!(
                "{}\n  source: {}\n  {}",
                case.label(),
                case.source,
                lines.join("\n  ")
            )),
        }
    }
    eprintln!(
        "conformance: {} cases run, {} failed, {} skipped",
        selected.len(),
        failures.len(),
        skipped.len()
    );
    for s in &skipped {
        eprintln!("skipped {s}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} conformance cases failed:\n\n{}",
        failures.len(),
        selected.len(),
        failures.join("\n\n")
    );
}

#[test]
fn subset_matching_is_by_key_and_by_element() {
    let have = json!({"a": {"b": 1, "c": [ {"x": 1, "y": 2}, {"x": 3} ]}, "d": "e"});
    assert!(subset(&json!({"a": {"c": [{"x": 3}]}}), &have));
    assert!(subset(&json!({"d": "e", "a": {"b": 1.0}}), &have));
    assert!(!subset(&json!({"a": {"c": [{"x": 2}]}}), &have));
    assert!(!subset(&json!({"z": null}), &have));
}

#[test]
fn a_case_with_an_unknown_key_is_refused_with_its_place() {
    let mut cases = Vec::new();
    let mut problems = Vec::new();
    let text = "- name: a\n  source: s\n  request: {method: GET, path: /api}\n  expect: {status: 200}\n\
                - name: b\n  source: s\n  request: {method: GET, path: /api, bogus: 1}\n  expect: {status: 200}\n";
    load_file("t.yaml", text, &mut cases, &mut problems);
    assert_eq!(cases.len(), 1);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("t.yaml:5: case \"b\": request: unknown key \"bogus\""),
        "{problems:?}"
    );
}
