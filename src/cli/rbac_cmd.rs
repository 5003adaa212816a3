//! `fleetdeck rbac`: the ClusterRoles each of fleetdeck's jobs needs (read, maintenance,
//! release), and bindings to the accounts that do them, as manifests to apply with
//! `kubectl apply -f -`. One identity per job, each with only its job's rights.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use fleetdeck::config::OutputFormat;
use fleetdeck::k8s::rbac::{Holder, Touched, binding, cluster_role};
use fleetdeck::model::ledger::Job;
use fleetdeck::model::rollout::{ReleaseAction, apply_order, read_rollout};
use fleetdeck::t;

use super::output::write_out;
use super::settings::Settings;

/// The flags of `fleetdeck rbac`.
#[derive(Debug, clap::Args)]
pub struct RbacArgs {
    /// Only this job: read, maintenance or release
    #[arg(long, value_name = "JOB")]
    pub job: Option<String>,
    /// A rollout file: the release role also gets what its manifests create and update
    #[arg(long, value_name = "FILE")]
    pub rollout: Option<std::path::PathBuf>,
    /// Bind a job's role to an account, as JOB=user:NAME, JOB=group:NAME or JOB=serviceaccount:NAMESPACE/NAME (repeatable)
    #[arg(long, value_name = "JOB=HOLDER")]
    pub bind: Vec<String>,
}

fn job_named(settings: &Settings, name: &str) -> anyhow::Result<Job> {
    Job::ALL
        .into_iter()
        .find(|j| j.name() == name.trim())
        .with_context(|| t!(settings.lang, "rbac-unknown-job", job = name))
}

/// What a release's manifests create and update, kind by kind (`Deployment` →
/// `apps`/`deployments`), from a rollout file.
fn touched(settings: &Settings, file: &Path) -> anyhow::Result<Vec<Touched>> {
    let read = |text: &str| {
        let report = read_rollout(text);
        (report.spec, report.diagnostics)
    };
    let Some(spec) = super::spec_file::read_spec(settings.lang, file, read)? else {
        anyhow::bail!(
            "{}",
            t!(
                settings.lang,
                "rbac-rollout-invalid",
                path = file.display().to_string()
            )
        );
    };
    if matches!(spec.release.action, ReleaseAction::Exec(_)) {
        return Ok(Vec::new());
    }
    let manifests = super::rollout_cmd::manifests_of(settings.lang, file, &spec)?;
    let texts = super::rollout_cmd::manifest_texts(settings.lang, &manifests)?;
    let objects = apply_order(&texts)?;
    let mut out: Vec<Touched> = objects
        .iter()
        .map(|o| Touched {
            group: o
                .api_version
                .rsplit_once('/')
                .map_or(String::new(), |(g, _)| g.to_string()),
            resource: plural(&o.kind),
        })
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

/// A kind's resource name as the API server serves it: lower case, plural (the rules
/// Kubernetes' own kinds follow; a custom resource whose plural is irregular names it in
/// its CRD, and the role can be edited to match).
fn plural(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    match lower.as_str() {
        "endpoints" => lower,
        _ if lower.ends_with('y') && !lower.ends_with("ey") => {
            format!("{}ies", &lower[..lower.len() - 1])
        }
        _ if lower.ends_with('s') || lower.ends_with('x') || lower.ends_with("ch") => {
            format!("{lower}es")
        }
        _ => format!("{lower}s"),
    }
}

/// Runs `fleetdeck rbac`.
pub fn run(settings: &Settings, args: &RbacArgs) -> anyhow::Result<ExitCode> {
    let jobs: Vec<Job> = match &args.job {
        Some(name) => vec![job_named(settings, name)?],
        None => Job::ALL.to_vec(),
    };
    let touched = match &args.rollout {
        Some(file) => touched(settings, file)?,
        None => Vec::new(),
    };
    let mut items = Vec::new();
    for job in &jobs {
        items.push(serde_json::to_value(cluster_role(*job, &touched))?);
    }
    for bind in &args.bind {
        let (job, holder) = bind
            .split_once('=')
            .with_context(|| t!(settings.lang, "rbac-bad-bind", bind = bind.as_str()))?;
        let job = job_named(settings, job)?;
        let holder = Holder::parse(holder)
            .with_context(|| t!(settings.lang, "rbac-bad-bind", bind = bind.as_str()))?;
        items.push(serde_json::to_value(binding(job, &holder))?);
    }
    // Manifests to apply carry their apiVersion and kind.
    for item in &mut items {
        if let Some(map) = item.as_object_mut() {
            let kind = if map.contains_key("roleRef") {
                "ClusterRoleBinding"
            } else {
                "ClusterRole"
            };
            map.insert("apiVersion".into(), "rbac.authorization.k8s.io/v1".into());
            map.insert("kind".into(), kind.into());
        }
    }
    match settings.output {
        OutputFormat::Json => write_out(format!(
            "{}\n",
            serde_json::to_string_pretty(&serde_json::json!({
                "apiVersion": "v1",
                "kind": "List",
                "items": items,
            }))?
        ))?,
        _ => {
            let documents: Vec<String> =
                items.iter().map(fleetdeck::yaml::to_yaml_string).collect();
            write_out(documents.join("---\n"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_served_by_their_plurals() {
        for (kind, plural_name) in [
            ("Deployment", "deployments"),
            ("NetworkPolicy", "networkpolicies"),
            ("Ingress", "ingresses"),
            ("Service", "services"),
            ("Endpoints", "endpoints"),
            ("ConfigMap", "configmaps"),
        ] {
            assert_eq!(plural(kind), plural_name);
        }
    }
}
