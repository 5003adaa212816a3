//! Suspending and resuming a GitOps object's sync during an incident, as a journaled
//! change: the intent (with what it replaces) before, the outcome after, under an
//! idempotency key; only on a cluster whose identity was confirmed against the ledger's
//! pin (the caller hands in a verified client), never in read-only mode.
//!
//! Flux: `spec.suspend` (`true` / `false`). Argo CD has no suspend switch: suspending
//! removes the Application's automated sync policy and keeps it in an annotation (and in
//! the journal's intent), resuming puts it back. Either way the object carries
//! `fleetdeck.dev/sync-suspended` (who, when, why) while suspended, so `kubectl get -o
//! yaml` shows who did it.

use jiff::Timestamp;
use kube::api::{ApiResource, DynamicObject, Patch, PatchParams};
use kube::{Api, Client};
use serde_json::{Value, json};

use crate::journal::{JournalError, JournalStore, OpenMode};
use crate::k8s::findings::gitops::{SUSPENDED_ANNOTATION, location};
use crate::k8s::reflect::describe_error;
use crate::model::findings::GitOpsKind;
use crate::model::ledger::ClusterId;
use crate::model::run::{Actor, EventBody, IdempotencyKey, NewEvent};

/// Where an Argo CD Application's automated sync policy is kept while fleetdeck has it
/// suspended.
pub const SAVED_AUTOMATED_ANNOTATION: &str = "fleetdeck.dev/sync-suspended-automated";

/// Suspend or resume.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncChange {
    /// Stop the tool from syncing the object.
    Suspend,
    /// Let it sync again.
    Resume,
}

impl SyncChange {
    /// `suspend` / `resume`.
    pub fn verb(self) -> &'static str {
        match self {
            SyncChange::Suspend => "suspend",
            SyncChange::Resume => "resume",
        }
    }
}

/// The object whose sync changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitOpsTarget {
    /// Which tool's kind.
    pub kind: GitOpsKind,
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
}

impl std::fmt::Display for GitOpsTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}/{}", self.kind.kind(), self.namespace, self.name)
    }
}

/// Why the change was not made.
#[derive(Debug, thiserror::Error)]
pub enum SyncChangeError {
    /// Read-only mode refuses every change.
    #[error("read-only mode: refusing to {0} (drop --readonly to act)")]
    ReadOnly(String),
    /// A reason is required.
    #[error("a reason is required: say why the sync is {0}ed")]
    NoReason(&'static str),
    /// The object is already as asked, or cannot be changed so.
    #[error("{0}")]
    Refused(String),
    /// The cluster does not serve the kind, or the object is not there.
    #[error("{0}")]
    NotFound(String),
    /// The cluster failed the read or the change.
    #[error("{what}: {why}")]
    Cluster {
        /// What was asked.
        what: String,
        /// What the cluster answered.
        why: String,
    },
    /// The journal failed.
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// What was done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncChanged {
    /// A sentence for the operator, in whichever language they read (what the cluster
    /// answered inside it as it said it).
    pub message: crate::i18n::Msg,
    /// The intent's journal sequence.
    pub intent_seq: i64,
}

impl SyncChanged {
    /// The sentence in English.
    pub fn summary(&self) -> String {
        self.message.text(crate::i18n::Lang::En)
    }
}

/// The API resource of `kind` as the cluster serves it (its first served version).
async fn resource(client: &Client, kind: GitOpsKind) -> Result<ApiResource, SyncChangeError> {
    let (group, versions, plural) = location(kind);
    let groups = client
        .list_api_groups()
        .await
        .map_err(|e| SyncChangeError::Cluster {
            what: "API discovery".into(),
            why: describe_error(&e),
        })?;
    let served = groups
        .groups
        .iter()
        .find(|g| g.name == group)
        .ok_or_else(|| SyncChangeError::NotFound(format!("the cluster does not serve {group}")))?;
    let version = versions
        .iter()
        .find(|v| served.versions.iter().any(|s| s.version == **v))
        .ok_or_else(|| {
            SyncChangeError::NotFound(format!(
                "the cluster serves {group} but none of the versions fleetdeck reads ({})",
                versions.join(", ")
            ))
        })?;
    Ok(ApiResource {
        group: group.into(),
        version: (*version).into(),
        api_version: format!("{group}/{version}"),
        kind: kind.kind().into(),
        plural: plural.into(),
    })
}

/// The merge patch for `change` on `object` as it stands, and what it replaces; a
/// refusal when the object is already so (or has nothing to suspend).
pub fn plan_patch(
    kind: GitOpsKind,
    object: &Value,
    change: SyncChange,
    note: &str,
) -> Result<(Value, Value), String> {
    let version = object
        .pointer("/metadata/resourceVersion")
        .cloned()
        .unwrap_or(Value::Null);
    let ours = object
        .pointer(&format!(
            "/metadata/annotations/{}",
            SUSPENDED_ANNOTATION.replace('/', "~1")
        ))
        .and_then(Value::as_str)
        .map(str::to_owned);
    match (kind, change) {
        (GitOpsKind::ArgoApplication, SyncChange::Suspend) => {
            let automated = object
                .pointer("/spec/syncPolicy/automated")
                .filter(|a| !a.is_null())
                .cloned()
                .ok_or("it has no automated sync policy: Argo CD does not sync it on its own")?;
            Ok((
                json!({"metadata": {"resourceVersion": version, "annotations": {
                        SUSPENDED_ANNOTATION: note,
                        SAVED_AUTOMATED_ANNOTATION: automated.to_string()}},
                    "spec": {"syncPolicy": {"automated": null}}}),
                json!({"automated": automated}),
            ))
        }
        (GitOpsKind::ArgoApplication, SyncChange::Resume) => {
            if ours.is_none() {
                return Err(format!(
                    "fleetdeck did not suspend it (no {SUSPENDED_ANNOTATION} annotation): its sync policy is someone else's choice"
                ));
            }
            let saved = object
                .pointer(&format!(
                    "/metadata/annotations/{}",
                    SAVED_AUTOMATED_ANNOTATION.replace('/', "~1")
                ))
                .and_then(Value::as_str)
                .and_then(|text| serde_json::from_str::<Value>(text).ok())
                .unwrap_or_else(|| json!({}));
            Ok((
                json!({"metadata": {"resourceVersion": version, "annotations": {
                        SUSPENDED_ANNOTATION: null, SAVED_AUTOMATED_ANNOTATION: null}},
                    "spec": {"syncPolicy": {"automated": saved}}}),
                json!({"suspended": ours}),
            ))
        }
        (_, SyncChange::Suspend) => {
            if object.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true) {
                return Err(match ours {
                    Some(note) => format!("it is already suspended ({note})"),
                    None => "it is already suspended (spec.suspend is true)".into(),
                });
            }
            Ok((
                json!({"metadata": {"resourceVersion": version, "annotations": {SUSPENDED_ANNOTATION: note}},
                    "spec": {"suspend": true}}),
                json!({"suspend": object.pointer("/spec/suspend").cloned().unwrap_or(Value::Bool(false))}),
            ))
        }
        (_, SyncChange::Resume) => {
            if object.pointer("/spec/suspend").and_then(Value::as_bool) != Some(true) {
                return Err("it is not suspended (spec.suspend is not true)".into());
            }
            Ok((
                json!({"metadata": {"resourceVersion": version, "annotations": {SUSPENDED_ANNOTATION: null}},
                    "spec": {"suspend": false}}),
                json!({"suspend": true, "suspended": ours}),
            ))
        }
    }
}

/// Whether `object` (as the patch left it) says what `change` intended.
fn took_effect(kind: GitOpsKind, object: &Value, change: SyncChange) -> bool {
    match (kind, change) {
        (GitOpsKind::ArgoApplication, SyncChange::Suspend) => object
            .pointer("/spec/syncPolicy/automated")
            .is_none_or(Value::is_null),
        (GitOpsKind::ArgoApplication, SyncChange::Resume) => object
            .pointer("/spec/syncPolicy/automated")
            .is_some_and(|a| !a.is_null()),
        (_, SyncChange::Suspend) => {
            object.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true)
        }
        (_, SyncChange::Resume) => {
            object.pointer("/spec/suspend").and_then(Value::as_bool) != Some(true)
        }
    }
}

/// Suspends or resumes `target`'s sync on `cluster` through `client` (verified by the
/// caller against the ledger's pin), journaling the intent before and the outcome after.
#[allow(clippy::too_many_arguments)]
pub async fn change_sync(
    store: &mut impl JournalStore,
    client: &Client,
    cluster: &ClusterId,
    target: &GitOpsTarget,
    change: SyncChange,
    reason: &str,
    actor: &Actor,
    mode: OpenMode,
) -> Result<SyncChanged, SyncChangeError> {
    if mode == OpenMode::ReadOnly {
        return Err(SyncChangeError::ReadOnly(format!(
            "{} the sync of {target}",
            change.verb()
        )));
    }
    if reason.trim().is_empty() {
        return Err(SyncChangeError::NoReason(change.verb()));
    }
    let resource = resource(client, target.kind).await?;
    let api: Api<DynamicObject> =
        Api::namespaced_with(client.clone(), &target.namespace, &resource);
    let object = match api.get_opt(&target.name).await {
        Ok(Some(object)) => serde_json::to_value(&object).unwrap_or(Value::Null),
        Ok(None) => {
            return Err(SyncChangeError::NotFound(format!(
                "{target} is not on {cluster}"
            )));
        }
        Err(e) => {
            return Err(SyncChangeError::Cluster {
                what: format!("read {target}"),
                why: describe_error(&e),
            });
        }
    };
    let now = Timestamp::now();
    let note = format!(
        "by {actor} at {}: {}",
        now.strftime("%Y-%m-%d %H:%M UTC"),
        crate::model::text::one_line(reason.trim())
    );
    let (patch, previous) = plan_patch(target.kind, &object, change, &note)
        .map_err(|why| SyncChangeError::Refused(format!("{target} on {cluster}: {why}")))?;
    let version = object
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    // The same command against the same version of the object is the same intent: a
    // retry after a crash finds it journaled rather than writing a second.
    let key = IdempotencyKey(format!(
        "gitops/{cluster}/{}/{}/{}/{}@{version}",
        target.kind.kind(),
        target.namespace,
        target.name,
        change.verb()
    ));
    let intent = NewEvent::new(
        now,
        actor.clone(),
        key.clone(),
        EventBody::GitOpsIntent {
            action: change.verb().into(),
            object: json!({"kind": target.kind.kind(), "apiVersion": resource.api_version,
                "namespace": target.namespace, "name": target.name}),
            reason: reason.trim().to_string(),
            previous,
        },
    )
    .with_cluster(cluster.clone());
    let appended = store.append(intent, None)?;
    let result = api
        .patch(&target.name, &PatchParams::default(), &Patch::Merge(&patch))
        .await;
    let (ok, detail, outcome) = match result {
        Ok(after) => {
            let after = serde_json::to_value(&after).unwrap_or(Value::Null);
            let ok = took_effect(target.kind, &after, change);
            let version = after
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or("?");
            let said = format!(
                "{target} {}: resourceVersion {version}",
                if ok {
                    "now says so"
                } else {
                    "does NOT say so after the patch"
                }
            );
            (ok, Value::String(said.clone()), Ok(said))
        }
        Err(e) => {
            let why = describe_error(&e);
            (false, Value::String(why.clone()), Err(why))
        }
    };
    let outcome_event = NewEvent::new(
        Timestamp::now(),
        actor.clone(),
        IdempotencyKey(format!("{key}/outcome")),
        EventBody::GitOpsOutcome {
            intent: key,
            ok,
            detail,
        },
    )
    .with_cluster(cluster.clone());
    store.append(outcome_event, None)?;
    match outcome {
        Ok(said) if ok => Ok(SyncChanged {
            message: crate::i18n::Msg::new("gitops-sync-changed")
                .arg("verb", change.verb())
                .arg("target", target.to_string())
                .arg("cluster", cluster.to_string())
                .arg("seq", appended.event.seq.0.to_string())
                .arg("said", said),
            intent_seq: appended.event.seq.0,
        }),
        Ok(said) => Err(SyncChangeError::Cluster {
            what: format!("{} {target}", change.verb()),
            why: said,
        }),
        Err(why) => Err(SyncChangeError::Cluster {
            what: format!("{} {target}", change.verb()),
            why,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_argo_application_keeps_its_automated_policy_while_suspended() {
        let app = json!({"metadata": {"resourceVersion": "7"},
            "spec": {"syncPolicy": {"automated": {"prune": true, "selfHeal": true}}}});
        let (patch, previous) = plan_patch(
            GitOpsKind::ArgoApplication,
            &app,
            SyncChange::Suspend,
            "by a: b",
        )
        .unwrap();
        assert_eq!(
            previous,
            json!({"automated": {"prune": true, "selfHeal": true}})
        );
        assert_eq!(patch["spec"]["syncPolicy"]["automated"], Value::Null);
        assert_eq!(patch["metadata"]["resourceVersion"], json!("7"));
        assert_eq!(
            patch["metadata"]["annotations"][SAVED_AUTOMATED_ANNOTATION],
            json!("{\"prune\":true,\"selfHeal\":true}")
        );
        // Suspended: the resume puts the policy back.
        let suspended = json!({"metadata": {"resourceVersion": "8", "annotations": {
                SUSPENDED_ANNOTATION: "by a: b",
                SAVED_AUTOMATED_ANNOTATION: "{\"prune\":true,\"selfHeal\":true}"}},
            "spec": {"syncPolicy": {}}});
        let (patch, _) = plan_patch(
            GitOpsKind::ArgoApplication,
            &suspended,
            SyncChange::Resume,
            "",
        )
        .unwrap();
        assert_eq!(
            patch["spec"]["syncPolicy"]["automated"],
            json!({"prune": true, "selfHeal": true})
        );
        // A manual Application, or one someone else made manual: refused.
        assert!(
            plan_patch(
                GitOpsKind::ArgoApplication,
                &json!({}),
                SyncChange::Suspend,
                ""
            )
            .is_err()
        );
        assert!(
            plan_patch(
                GitOpsKind::ArgoApplication,
                &json!({"spec": {}}),
                SyncChange::Resume,
                ""
            )
            .unwrap_err()
            .starts_with("fleetdeck did not suspend it")
        );
    }

    #[test]
    fn a_flux_object_is_suspended_once() {
        let k = json!({"metadata": {"resourceVersion": "3"}, "spec": {"suspend": false}});
        let (patch, _) = plan_patch(
            GitOpsKind::FluxKustomization,
            &k,
            SyncChange::Suspend,
            "by a: b",
        )
        .unwrap();
        assert_eq!(patch["spec"]["suspend"], json!(true));
        let suspended = json!({"spec": {"suspend": true}});
        assert_eq!(
            plan_patch(
                GitOpsKind::FluxKustomization,
                &suspended,
                SyncChange::Suspend,
                ""
            ),
            Err("it is already suspended (spec.suspend is true)".into())
        );
        assert!(plan_patch(GitOpsKind::FluxHelmRelease, &k, SyncChange::Resume, "").is_err());
        assert!(took_effect(
            GitOpsKind::FluxKustomization,
            &suspended,
            SyncChange::Suspend
        ));
    }
}
