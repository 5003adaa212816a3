//! Argo CD Applications and Flux Kustomizations and HelmReleases as the findings read
//! them, through the generic dynamic API (no Argo CD or Flux types are compiled in):
//! where each kind lives, and how its status maps to sync, health and suspension.

use jiff::Timestamp;
use serde_json::Value;

use crate::model::findings::{GitOpsHealth, GitOpsKind, GitOpsObject, SyncState};

/// The annotation fleetdeck writes on an object whose sync it suspended: who, when, why.
pub const SUSPENDED_ANNOTATION: &str = "fleetdeck.dev/sync-suspended";

/// Where a GitOps kind is served: its API group, the versions fleetdeck reads (newest
/// first: the first the server serves is used), and its plural.
pub fn location(kind: GitOpsKind) -> (&'static str, &'static [&'static str], &'static str) {
    match kind {
        GitOpsKind::ArgoApplication => ("argoproj.io", &["v1alpha1"], "applications"),
        GitOpsKind::FluxKustomization => (
            "kustomize.toolkit.fluxcd.io",
            &["v1", "v1beta2"],
            "kustomizations",
        ),
        GitOpsKind::FluxHelmRelease => (
            "helm.toolkit.fluxcd.io",
            &["v2", "v2beta2", "v2beta1"],
            "helmreleases",
        ),
    }
}

/// Every GitOps kind fleetdeck reads.
pub const KINDS: [GitOpsKind; 3] = [
    GitOpsKind::ArgoApplication,
    GitOpsKind::FluxKustomization,
    GitOpsKind::FluxHelmRelease,
];

fn text<'a>(object: &'a Value, pointer: &str) -> Option<&'a str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// The `Ready` condition of a Flux object.
fn ready_condition(object: &Value) -> Option<&Value> {
    object
        .pointer("/status/conditions")
        .and_then(Value::as_array)?
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("Ready"))
}

/// Reads one object of `kind`. `first_seen` gives, for an object not in sync or not
/// healthy whose tool records no transition time, when fleetdeck first saw it so.
pub fn read_object(
    kind: GitOpsKind,
    object: &Value,
    first_seen: &mut dyn FnMut(&str) -> Timestamp,
) -> GitOpsObject {
    let namespace = text(object, "/metadata/namespace")
        .unwrap_or_default()
        .to_string();
    let name = text(object, "/metadata/name")
        .unwrap_or_default()
        .to_string();
    let note = object
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(SUSPENDED_ANNOTATION))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let key = format!("{}/{namespace}/{name}", kind.kind());
    match kind {
        GitOpsKind::ArgoApplication => {
            let sync = match text(object, "/status/sync/status") {
                Some("Synced") => SyncState::Synced,
                Some("OutOfSync") => SyncState::OutOfSync,
                _ => SyncState::Unknown,
            };
            let health = match text(object, "/status/health/status") {
                Some("Healthy") | Some("Suspended") => GitOpsHealth::Healthy,
                Some("Progressing") => GitOpsHealth::Progressing,
                Some("Degraded") => GitOpsHealth::Degraded,
                Some("Missing") => GitOpsHealth::Missing,
                _ => GitOpsHealth::Unknown,
            };
            let automated = object
                .pointer("/spec/syncPolicy/automated")
                .is_some_and(|a| !a.is_null());
            let troubled = sync == SyncState::OutOfSync
                || matches!(health, GitOpsHealth::Degraded | GitOpsHealth::Missing);
            GitOpsObject {
                kind,
                namespace,
                name,
                sync,
                health,
                // Argo CD has no suspend switch: an Application without automated sync
                // is manual by design, unless fleetdeck turned it off (its annotation).
                suspended: note.is_some() && !automated,
                suspended_note: note,
                // Argo CD records no "out of sync since"; its error conditions carry
                // when they appeared, else fleetdeck says when it first saw it so.
                since: troubled.then(|| {
                    object
                        .pointer("/status/conditions")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|c| c.get("lastTransitionTime")?.as_str()?.parse().ok())
                        .min()
                        .unwrap_or_else(|| first_seen(&key))
                }),
                message: text(object, "/status/health/message")
                    .or_else(|| text(object, "/status/operationState/message"))
                    .map(str::to_owned),
            }
        }
        GitOpsKind::FluxKustomization | GitOpsKind::FluxHelmRelease => {
            let ready = ready_condition(object);
            let status = ready.and_then(|c| c.get("status")).and_then(Value::as_str);
            let reason = ready
                .and_then(|c| c.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            let (sync, health) = match status {
                Some("True") => (SyncState::Synced, GitOpsHealth::Healthy),
                Some("False") if reason.contains("HealthCheck") => {
                    (SyncState::OutOfSync, GitOpsHealth::Degraded)
                }
                Some("False") => (SyncState::OutOfSync, GitOpsHealth::Unknown),
                _ => (SyncState::Unknown, GitOpsHealth::Progressing),
            };
            let troubled = sync == SyncState::OutOfSync;
            let since = troubled.then(|| {
                ready
                    .and_then(|c| c.get("lastTransitionTime"))
                    .and_then(Value::as_str)
                    .and_then(|t| t.parse().ok())
                    .unwrap_or_else(|| first_seen(&key))
            });
            GitOpsObject {
                kind,
                namespace,
                name,
                sync,
                health,
                suspended: object
                    .pointer("/spec/suspend")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                suspended_note: note,
                since,
                message: ready
                    .and_then(|c| c.get("message"))
                    .and_then(Value::as_str)
                    .filter(|m| !m.is_empty())
                    .map(|m| format!("{reason}: {m}")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn never(_: &str) -> Timestamp {
        "2026-12-01T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn an_out_of_sync_degraded_application() {
        let app = json!({"metadata": {"namespace": "argocd", "name": "shop"},
            "spec": {"syncPolicy": {"automated": {"prune": true}}},
            "status": {"sync": {"status": "OutOfSync"}, "health": {"status": "Degraded", "message": "Deployment shop/web: 0 of 3 available"}}});
        let o = read_object(GitOpsKind::ArgoApplication, &app, &mut never);
        assert_eq!(o.sync, SyncState::OutOfSync);
        assert_eq!(o.health, GitOpsHealth::Degraded);
        assert!(!o.suspended);
        assert_eq!(o.since, Some(never("")));
        assert_eq!(
            o.message.as_deref(),
            Some("Deployment shop/web: 0 of 3 available")
        );
    }

    #[test]
    fn a_suspended_kustomization_and_a_failing_one() {
        let k = json!({"metadata": {"namespace": "flux-system", "name": "apps",
                "annotations": {SUSPENDED_ANNOTATION: "by alice@ops at 2026-12-01 10:00 UTC: incident 42"}},
            "spec": {"suspend": true},
            "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "ReconciliationSucceeded", "lastTransitionTime": "2026-11-30T10:00:00Z"}]}});
        let o = read_object(GitOpsKind::FluxKustomization, &k, &mut never);
        assert!(o.suspended);
        assert_eq!(o.sync, SyncState::Synced);
        assert_eq!(o.since, None);
        assert!(o.suspended_note.is_some_and(|n| n.ends_with("incident 42")));
        let failing = json!({"metadata": {"namespace": "flux-system", "name": "infra"},
            "status": {"conditions": [{"type": "Ready", "status": "False", "reason": "HealthCheckFailed",
                "message": "timeout waiting for: [Deployment/infra/ingress status: 'InProgress']",
                "lastTransitionTime": "2026-12-01T09:00:00Z"}]}});
        let o = read_object(GitOpsKind::FluxKustomization, &failing, &mut never);
        assert_eq!(
            (o.sync, o.health),
            (SyncState::OutOfSync, GitOpsHealth::Degraded)
        );
        assert_eq!(o.since, Some("2026-12-01T09:00:00Z".parse().unwrap()));
        assert!(
            o.message
                .is_some_and(|m| m.starts_with("HealthCheckFailed: timeout"))
        );
    }
}
