//! The order a release's objects are applied in: defined, never the order a directory
//! happens to list its files in. Objects are taken by path (and position within their
//! file), then sorted, stably, so that the kinds others depend on go first — namespaces
//! before what lives in them, CRDs before their custom resources, service accounts and
//! RBAC before the workloads that run as them, ConfigMaps and Secrets before the pods that
//! mount them — as Helm's install order does. Kinds fleetdeck does not know (custom
//! resources, most of the time) go last, after every kind they might depend on.

use serde::Serialize;
use serde_json::Value;

use super::run_spec::ManifestText;

/// Kinds in the order they are applied; an object's rank is its kind's place here.
/// Namespaced kinds come after `Namespace`, workloads after everything they read, and
/// admission webhooks last, so that a webhook never blocks the creation of its own backend.
const KIND_ORDER: &[&str] = &[
    "PriorityClass",
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "APIService",
    "FlowSchema",
    "PriorityLevelConfiguration",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
];

/// One object of a release, where it comes from and what it is.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderedObject {
    /// The manifest file, relative to the manifest directory.
    pub path: String,
    /// Its position among the file's documents, from 1.
    pub document: usize,
    /// `apiVersion` as written.
    pub api_version: String,
    /// `kind` as written.
    pub kind: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, when written.
    pub namespace: Option<String>,
    /// The object itself, as JSON (what is sent to the server).
    #[serde(skip)]
    pub body: Value,
}

impl OrderedObject {
    /// `Kind namespace/name` (or `Kind name` for an object without a namespace), for plans
    /// and error messages.
    pub fn label(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} {ns}/{}", self.kind, self.name),
            None => format!("{} {}", self.kind, self.name),
        }
    }

    /// Where it was written: `path document N`.
    pub fn at(&self) -> String {
        format!("{} document {}", self.path, self.document)
    }
}

/// Why a release's objects cannot be put in order: a document that is not YAML, or one
/// without the fields an apply needs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ApplyOrderError(pub String);

/// The rank of `kind` in the apply order: its place in [`KIND_ORDER`], or after every
/// known kind.
fn rank(kind: &str) -> usize {
    KIND_ORDER
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(KIND_ORDER.len())
}

/// Every object of `manifests` in the order they are applied: by path (then position in
/// the file), stably re-sorted so that the kinds others depend on come first. Empty
/// documents (a trailing `---`) are skipped; a document without `apiVersion`, `kind` or
/// `metadata.name` is an error naming the file and document.
pub fn apply_order(manifests: &[ManifestText]) -> Result<Vec<OrderedObject>, ApplyOrderError> {
    let mut files: Vec<&ManifestText> = manifests.iter().collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut objects = Vec::new();
    for manifest in files {
        let documents = crate::yaml::documents_to_json(&manifest.text)
            .map_err(|e| ApplyOrderError(format!("{}: {e}", manifest.path)))?;
        for (index, body) in documents.into_iter().enumerate() {
            if body.is_null() {
                continue;
            }
            let at = format!("{} document {}", manifest.path, index + 1);
            let text = |pointer: &str| {
                body.pointer(pointer)
                    .and_then(Value::as_str)
                    .map(str::to_string)
            };
            let required = |pointer: &str, field: &str| {
                text(pointer).ok_or_else(|| ApplyOrderError(format!("{at}: {field} is missing")))
            };
            let api_version = required("/apiVersion", "apiVersion")?;
            let kind = required("/kind", "kind")?;
            let name = required("/metadata/name", "metadata.name")?;
            let namespace = text("/metadata/namespace");
            objects.push(OrderedObject {
                path: manifest.path.clone(),
                document: index + 1,
                api_version,
                kind,
                name,
                namespace,
                body,
            });
        }
    }
    // Stable: objects of one rank keep their path order.
    objects.sort_by_key(|o| rank(&o.kind));
    Ok(objects)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(path: &str, text: &str) -> ManifestText {
        ManifestText {
            path: path.into(),
            text: text.into(),
        }
    }

    fn labels(objects: &[OrderedObject]) -> Vec<String> {
        objects.iter().map(OrderedObject::label).collect()
    }

    const NAMESPACE: &str = "apiVersion: v1\nkind: Namespace\nmetadata: {name: webapp}\n";
    const CONFIG: &str =
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: webapp}\n";
    const DEPLOYMENT: &str =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: webapp}\n";

    #[test]
    fn files_go_by_path_whatever_order_they_were_listed_in() {
        let listed = vec![
            manifest("20-deployment.yaml", DEPLOYMENT),
            manifest("00-namespace.yaml", NAMESPACE),
            manifest("10-configmap.yaml", CONFIG),
        ];
        let order = apply_order(&listed).unwrap();
        assert_eq!(
            labels(&order),
            vec![
                "Namespace webapp",
                "ConfigMap webapp/settings",
                "Deployment webapp/web"
            ]
        );
        assert_eq!(order[0].at(), "00-namespace.yaml document 1");
    }

    #[test]
    fn kinds_others_depend_on_go_first_wherever_they_are_written() {
        // A single file written workload first, and a CRD in a later file than the
        // custom resource that needs it.
        let text = format!(
            "{DEPLOYMENT}---\n{CONFIG}---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: web, namespace: webapp}}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: web, namespace: webapp}}\n---\n{NAMESPACE}---\n"
        );
        let listed = vec![
            manifest("a/app.yaml", &text),
            manifest(
                "a/b-widget.yaml",
                "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: webapp}\n",
            ),
            manifest(
                "z-crd.yaml",
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n",
            ),
        ];
        assert_eq!(
            labels(&apply_order(&listed).unwrap()),
            vec![
                "Namespace webapp",
                "ServiceAccount webapp/web",
                "ConfigMap webapp/settings",
                "CustomResourceDefinition widgets.example.com",
                "RoleBinding webapp/web",
                "Deployment webapp/web",
                "Widget webapp/w",
            ]
        );
    }

    #[test]
    fn objects_of_one_kind_keep_path_then_document_order() {
        let listed = vec![
            manifest(
                "b.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b1}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b2}\n",
            ),
            manifest(
                "a.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a1}\n",
            ),
        ];
        assert_eq!(
            labels(&apply_order(&listed).unwrap()),
            vec!["ConfigMap a1", "ConfigMap b1", "ConfigMap b2"]
        );
    }

    #[test]
    fn a_document_without_a_name_is_refused_with_where_it_is() {
        let listed = vec![manifest(
            "x.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {}\n",
        )];
        assert_eq!(
            apply_order(&listed).unwrap_err().to_string(),
            "x.yaml document 2: metadata.name is missing"
        );
    }

    #[test]
    fn an_empty_trailing_document_is_not_an_object() {
        let listed = vec![manifest("x.yaml", &format!("{NAMESPACE}---\n"))];
        assert_eq!(apply_order(&listed).unwrap().len(), 1);
    }
}
