//! The API server's own `/metrics` (Prometheus text), as far as fleetdeck reads it:
//! `apiserver_requested_deprecated_apis`, the gauge a real kube-apiserver keeps of every
//! deprecated API version a client requested, labelled with the release that removes it
//! (what `kubectl get --raw /metrics | grep deprecated` shows an operator before an
//! upgrade). The requests come from the scenario's `deprecatedApiRequests`.

use axum::response::{IntoResponse, Response};

use super::fleet::Cluster;

/// `GET /metrics`.
pub fn answer(cluster: &Cluster) -> Response {
    let mut text = String::from(
        "# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.\n# TYPE apiserver_requested_deprecated_apis gauge\n",
    );
    for r in &cluster.profile.deprecated_api_requests {
        text.push_str(&format!(
            "apiserver_requested_deprecated_apis{{group=\"{}\",removed_release=\"{}\",resource=\"{}\",subresource=\"{}\",version=\"{}\"}} 1\n",
            r.group, r.removed_release, r.resource, r.subresource, r.version
        ));
    }
    (
        [(
            http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
