//! `/healthz`, `/livez` and `/readyz` as the API server serves them: `ok`, or with
//! `?verbose` one `[+]name ok` line per check and `<endpoint> check passed`; `?exclude=`
//! skips a check (`[+]name excluded: ok`); a failing check (the `failingHealthChecks`
//! fault) makes the answer 500 with `[-]name failed: reason withheld` and `<endpoint>
//! check failed`; `/<endpoint>/<check>` serves one check.

use std::collections::HashMap;

use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};

/// Post-start hooks every check list ends with.
const HOOKS: &[&str] = &[
    "poststarthook/start-apiserver-admission-initializer",
    "poststarthook/generic-apiserver-start-informers",
    "poststarthook/priority-and-fairness-config-consumer",
    "poststarthook/priority-and-fairness-filter",
    "poststarthook/storage-object-count-tracker-hook",
    "poststarthook/start-apiextensions-informers",
    "poststarthook/start-apiextensions-controllers",
    "poststarthook/crd-informer-synced",
    "poststarthook/start-system-namespaces-controller",
    "poststarthook/start-cluster-authentication-info-controller",
    "poststarthook/start-kube-apiserver-identity-lease-controller",
    "poststarthook/start-kube-apiserver-identity-lease-garbage-collector",
    "poststarthook/start-legacy-token-tracking-controller",
    "poststarthook/start-service-ip-repair-controllers",
    "poststarthook/rbac/bootstrap-roles",
    "poststarthook/scheduling/bootstrap-system-priority-classes",
    "poststarthook/priority-and-fairness-config-producer",
    "poststarthook/bootstrap-controller",
    "poststarthook/aggregator-reload-proxy-client-cert",
    "poststarthook/start-kube-aggregator-informers",
    "poststarthook/apiservice-status-local-available-controller",
    "poststarthook/apiservice-status-remote-available-controller",
    "poststarthook/apiservice-registration-controller",
    "poststarthook/apiservice-discovery-controller",
    "poststarthook/kube-apiserver-autoregistration",
    "autoregister-completion",
    "poststarthook/apiservice-openapi-controller",
    "poststarthook/apiservice-openapiv3-controller",
];

/// The checks of one endpoint, in the order the API server lists them.
pub fn checks(endpoint: &str) -> Option<Vec<&'static str>> {
    let mut out = vec!["ping", "log", "etcd"];
    match endpoint {
        "healthz" | "livez" => {}
        "readyz" => out.extend(["etcd-readiness", "informer-sync"]),
        _ => return None,
    }
    out.extend(HOOKS);
    if endpoint == "readyz" {
        out.push("shutdown");
    }
    Some(out)
}

fn text(code: u16, body: String) -> Response {
    let mut resp = (
        StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        body,
    )
        .into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp.headers_mut().insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    resp
}

/// Answers `/{endpoint}` or `/{endpoint}/{check}`; None for a path that is not a health
/// endpoint. `failing` names the checks that fail; `raw_query` is the query string
/// (`exclude` may repeat).
pub fn answer(path: &str, raw_query: &str, failing: &[String]) -> Option<Response> {
    let trimmed = path.trim_start_matches('/');
    let (endpoint, check) = trimmed.split_once('/').unwrap_or((trimmed, ""));
    let list = checks(endpoint)?;
    let fails = |c: &str| failing.iter().any(|f| f == c);
    if !check.is_empty() {
        if !list.contains(&check) {
            return None;
        }
        return Some(if fails(check) {
            text(
                500,
                format!("internal server error: {check} check failed\n"),
            )
        } else {
            text(200, "ok".into())
        });
    }
    let mut params: HashMap<&str, Vec<String>> = HashMap::new();
    for pair in raw_query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let v = percent_decode(v);
        params.entry(k).or_default().push(v);
    }
    let mut excluded: Vec<String> = params.get("exclude").cloned().unwrap_or_default();
    let mut out = String::new();
    let mut failed = false;
    for c in &list {
        if let Some(i) = excluded.iter().position(|e| e == c) {
            excluded.remove(i);
            out.push_str(&format!("[+]{c} excluded: ok\n"));
        } else if fails(c) {
            failed = true;
            out.push_str(&format!("[-]{c} failed: reason withheld\n"));
        } else {
            out.push_str(&format!("[+]{c} ok\n"));
        }
    }
    if !excluded.is_empty() {
        excluded.sort();
        excluded.dedup();
        let quoted: Vec<String> = excluded.iter().map(|e| format!("{e:?}")).collect();
        out.push_str(&format!(
            "warn: some health checks cannot be excluded: no matches for {}\n",
            quoted.join(",")
        ));
    }
    if failed {
        return Some(text(500, format!("{out}{endpoint} check failed\n")));
    }
    if !params.contains_key("verbose") {
        return Some(text(200, "ok".into()));
    }
    Some(text(200, format!("{out}{endpoint} check passed\n")))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match (
            b[i],
            b.get(i + 1).and_then(|c| hex(*c)),
            b.get(i + 2).and_then(|c| hex(*c)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(r: Response) -> (u16, String) {
        let code = r.status().as_u16();
        let b = axum::body::to_bytes(r.into_body(), 1 << 20)
            .await
            .unwrap_or_default();
        (code, String::from_utf8_lossy(&b).into_owned())
    }

    #[tokio::test]
    async fn verbose_lists_every_check_and_failures_withhold_the_reason() {
        let Some(r) = answer("/readyz", "verbose", &[]) else {
            panic!("readyz is served")
        };
        let (code, text) = body(r).await;
        assert_eq!(code, 200);
        assert!(
            text.starts_with("[+]ping ok\n[+]log ok\n[+]etcd ok\n"),
            "{text}"
        );
        assert!(
            text.ends_with("[+]shutdown ok\nreadyz check passed\n"),
            "{text}"
        );
        let Some(r) = answer("/livez", "", &["etcd".to_string()]) else {
            panic!("livez is served")
        };
        let (code, text) = body(r).await;
        assert_eq!(code, 500);
        assert!(text.contains("[-]etcd failed: reason withheld\n"), "{text}");
        assert!(text.ends_with("livez check failed\n"), "{text}");
        let Some(r) = answer(
            "/livez",
            "verbose&exclude=etcd&exclude=nope",
            &["etcd".to_string()],
        ) else {
            panic!("livez is served")
        };
        let (code, text) = body(r).await;
        assert_eq!(code, 200);
        assert!(text.contains("[+]etcd excluded: ok\n"), "{text}");
        assert!(
            text.contains("warn: some health checks cannot be excluded: no matches for \"nope\"\n")
        );
        assert!(answer("/livez/etcd-readiness", "", &[]).is_none());
        assert!(answer("/metrics", "", &[]).is_none());
    }
}
