//! Reading what an upgrade check needs from one cluster, through its read identity: the
//! deprecated APIs its clients request (the API server's own `/metrics`,
//! `apiserver_requested_deprecated_apis`), every CRD's stored and served versions, and
//! the API versions its admission webhooks and APIServices name. The server's version and
//! the kubelets' come from the fleet view. What cannot be read is unknown.

use std::time::Duration;

use http_body_util::BodyExt;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration,
};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::kube_aggregator::pkg::apis::apiregistration::v1::APIService;
use kube::Api;
use kube::api::ListParams;

use super::reflect::describe_error;
use crate::model::findings::Read;
use crate::model::live::ClusterSnapshot;
use crate::model::upgrade::{DeprecatedRequest, StoredVersions, UpgradeFacts, VersionUse};

/// How long one read may take.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

async fn timed<T>(
    what: &str,
    read: impl std::future::Future<Output = Result<T, kube::Error>>,
) -> Result<T, String> {
    match tokio::time::timeout(READ_TIMEOUT, read).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(format!("{what}: {}", describe_error(&error))),
        Err(_) => Err(format!(
            "{what}: no answer within {}s",
            READ_TIMEOUT.as_secs()
        )),
    }
}

fn read<T>(result: Result<T, String>) -> Read<T> {
    match result {
        Ok(value) => Read::Known(value),
        Err(why) => Read::Unknown(why),
    }
}

/// The facts of `cluster` (as the fleet view has it) read through `client`.
pub async fn upgrade_facts(client: &kube::Client, cluster: &ClusterSnapshot) -> UpgradeFacts {
    let usable = cluster.status.data_usable();
    let not_usable = || {
        format!(
            "cluster is {}{}",
            cluster.status.label(),
            cluster
                .last_error
                .as_deref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        )
    };
    let server = match (&cluster.server_version, usable) {
        (Some(v), true) => Read::Known(v.clone()),
        _ => Read::Unknown(not_usable()),
    };
    let kubelets = if usable {
        Read::Known(
            cluster
                .kubelet_versions
                .iter()
                .map(|k| (k.version.to_string(), k.nodes))
                .collect(),
        )
    } else {
        Read::Unknown(not_usable())
    };
    if !usable {
        let why = not_usable();
        return UpgradeFacts {
            server,
            kubelets,
            deprecated_requests: Read::Unknown(why.clone()),
            stored_versions: Read::Unknown(why.clone()),
            version_uses: Read::Unknown(why),
        };
    }
    let (deprecated, stored, uses) = tokio::join!(
        deprecated_requests(client),
        stored_versions(client),
        version_uses(client)
    );
    UpgradeFacts {
        server,
        kubelets,
        deprecated_requests: read(deprecated),
        stored_versions: read(stored),
        version_uses: read(uses),
    }
}

async fn deprecated_requests(client: &kube::Client) -> Result<Vec<DeprecatedRequest>, String> {
    let request = http::Request::get("/metrics")
        .body(kube::client::Body::empty())
        .map_err(|e| format!("/metrics: {e}"))?;
    let response = timed("/metrics", client.send(request)).await?;
    let status = response.status();
    let bytes = tokio::time::timeout(READ_TIMEOUT, response.into_body().collect())
        .await
        .map_err(|_| "/metrics: the answer did not finish".to_string())?
        .map_err(|e| format!("/metrics: {e}"))?
        .to_bytes();
    if !status.is_success() {
        return Err(format!("/metrics: HTTP {}", status.as_u16()));
    }
    Ok(parse_deprecated(&String::from_utf8_lossy(&bytes)))
}

/// The `apiserver_requested_deprecated_apis` samples of a Prometheus text exposition
/// whose value is not 0.
pub fn parse_deprecated(text: &str) -> Vec<DeprecatedRequest> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("apiserver_requested_deprecated_apis{") else {
            continue;
        };
        let Some((labels, value)) = rest.rsplit_once('}') else {
            continue;
        };
        if value.trim().parse::<f64>().is_ok_and(|v| v == 0.0) {
            continue;
        }
        let label = |name: &str| -> String {
            labels
                .split(',')
                .filter_map(|pair| pair.split_once('='))
                .find(|(k, _)| k.trim() == name)
                .map(|(_, v)| v.trim().trim_matches('"').to_string())
                .unwrap_or_default()
        };
        let removed = label("removed_release");
        out.push(DeprecatedRequest {
            group: label("group"),
            version: label("version"),
            resource: label("resource"),
            removed_release: (!removed.is_empty()).then_some(removed),
        });
    }
    out
}

async fn stored_versions(client: &kube::Client) -> Result<Vec<StoredVersions>, String> {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let list = timed(
        "list customresourcedefinitions",
        api.list(&ListParams::default()),
    )
    .await?;
    Ok(list
        .items
        .into_iter()
        .map(|crd| StoredVersions {
            crd: crd.metadata.name.unwrap_or_default(),
            stored: crd
                .status
                .and_then(|s| s.stored_versions)
                .unwrap_or_default(),
            served: crd
                .spec
                .versions
                .iter()
                .filter(|v| v.served)
                .map(|v| v.name.clone())
                .collect(),
        })
        .collect())
}

async fn version_uses(client: &kube::Client) -> Result<Vec<VersionUse>, String> {
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    let mutating: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let services: Api<APIService> = Api::all(client.clone());
    let params = ListParams::default();
    let (validating, mutating, services) = tokio::join!(
        timed(
            "list validatingwebhookconfigurations",
            validating.list(&params)
        ),
        timed("list mutatingwebhookconfigurations", mutating.list(&params)),
        timed("list apiservices", services.list(&params)),
    );
    let mut out = Vec::new();
    let rule_use =
        |by: String, groups: Option<Vec<String>>, versions: Option<Vec<String>>| VersionUse {
            by,
            groups: groups.unwrap_or_default(),
            versions: versions.unwrap_or_default(),
        };
    for config in validating?.items {
        let name = config.metadata.name.unwrap_or_default();
        for webhook in config.webhooks.unwrap_or_default() {
            for rule in webhook.rules.unwrap_or_default() {
                out.push(rule_use(
                    format!(
                        "ValidatingWebhookConfiguration/{name} webhook {}",
                        webhook.name
                    ),
                    rule.api_groups,
                    rule.api_versions,
                ));
            }
        }
    }
    for config in mutating?.items {
        let name = config.metadata.name.unwrap_or_default();
        for webhook in config.webhooks.unwrap_or_default() {
            for rule in webhook.rules.unwrap_or_default() {
                out.push(rule_use(
                    format!(
                        "MutatingWebhookConfiguration/{name} webhook {}",
                        webhook.name
                    ),
                    rule.api_groups,
                    rule.api_versions,
                ));
            }
        }
    }
    for service in services?.items {
        let Some(spec) = service.spec else { continue };
        out.push(VersionUse {
            by: format!("APIService/{}", service.metadata.name.unwrap_or_default()),
            groups: vec![spec.group.unwrap_or_default()],
            versions: vec![spec.version.unwrap_or_default()],
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deprecated_requests_are_read_from_the_api_server_s_metrics() {
        let text = "# HELP apiserver_requested_deprecated_apis [STABLE] Gauge …\n# TYPE apiserver_requested_deprecated_apis gauge\napiserver_requested_deprecated_apis{group=\"flowcontrol.apiserver.k8s.io\",removed_release=\"1.32\",resource=\"flowschemas\",subresource=\"\",version=\"v1beta3\"} 1\napiserver_requested_deprecated_apis{group=\"batch\",removed_release=\"1.25\",resource=\"cronjobs\",subresource=\"\",version=\"v1beta1\"} 0\napiserver_request_total{code=\"200\"} 5\n";
        assert_eq!(
            parse_deprecated(text),
            [DeprecatedRequest {
                group: "flowcontrol.apiserver.k8s.io".into(),
                version: "v1beta3".into(),
                resource: "flowschemas".into(),
                removed_release: Some("1.32".into()),
            }]
        );
    }
}
