//! `fleetdeck gitops suspend|resume CLUSTER KIND NAMESPACE/NAME --reason …`: stop (or let
//! again) a GitOps tool syncing one object during an incident, journaled, on a cluster
//! whose identity matches the ledger's pin.

use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use fleetdeck::engine::gitops_sync::{GitOpsTarget, SyncChange, change_sync};
use fleetdeck::k8s::connect::ConnectOptions;
use fleetdeck::k8s::verified::verified_client;
use fleetdeck::model::findings::GitOpsKind;
use fleetdeck::model::run::Actor;

use fleetdeck::t;

use super::exit::Refused;
use super::journal_cmd::open;
use super::output::outln;
use super::settings::Settings;

/// `fleetdeck gitops …`
#[derive(Debug, Subcommand)]
pub enum GitOpsCommand {
    /// Stop the GitOps tool syncing an object (Flux `spec.suspend`, Argo CD's automated
    /// sync policy kept aside)
    Suspend(Target),
    /// Let it sync again (what suspend kept aside is put back)
    Resume(Target),
}

/// The object and why.
#[derive(Debug, clap::Args)]
pub struct Target {
    /// The cluster (ledger id)
    pub cluster: String,
    /// `application` (Argo CD), `kustomization` or `helmrelease` (Flux)
    pub kind: String,
    /// `NAMESPACE/NAME`
    pub object: String,
    /// Why (written on the object and in the journal)
    #[arg(long)]
    pub reason: String,
}

fn kind(lang: fleetdeck::i18n::Lang, text: &str) -> Result<GitOpsKind, Refused> {
    match text.to_ascii_lowercase().as_str() {
        "application" | "applications" | "app" | "apps" => Ok(GitOpsKind::ArgoApplication),
        "kustomization" | "kustomizations" | "ks" => Ok(GitOpsKind::FluxKustomization),
        "helmrelease" | "helmreleases" | "hr" => Ok(GitOpsKind::FluxHelmRelease),
        other => Err(Refused(t!(
            lang,
            "gitops-not-a-kind",
            kind = format!("{other:?}")
        ))),
    }
}

/// Runs a GitOps command.
pub fn run(settings: &Settings, command: &GitOpsCommand) -> anyhow::Result<ExitCode> {
    let (args, change) = match command {
        GitOpsCommand::Suspend(t) => (t, SyncChange::Suspend),
        GitOpsCommand::Resume(t) => (t, SyncChange::Resume),
    };
    if settings.readonly {
        return Err(Refused(t!(
            settings.lang,
            "gitops-readonly",
            verb = change.verb(),
            object = args.object.clone()
        ))
        .into());
    }
    let kind = kind(settings.lang, &args.kind)?;
    let (namespace, name) = args.object.split_once('/').ok_or_else(|| {
        Refused(t!(
            settings.lang,
            "gitops-not-namespace-name",
            object = format!("{:?}", args.object)
        ))
    })?;
    let target = GitOpsTarget {
        kind,
        namespace: namespace.to_string(),
        name: name.to_string(),
    };
    let ledger = fleetdeck::config::ledger_file::load(&settings.ledger_path()?)?;
    let cluster = ledger
        .cluster(&args.cluster)
        .with_context(|| {
            t!(
                settings.lang,
                "cluster-not-in-ledger",
                cluster = args.cluster.clone()
            )
        })
        .map_err(|e| Refused(e.to_string()))?
        .clone();
    let kubeconfig = fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig)?;
    let mut store = open(settings)?;
    let said = super::runtime()?.block_on(async {
        // Only the cluster the ledger pins is changed.
        let client = verified_client(&cluster, &kubeconfig, &ConnectOptions::default())
            .await
            .with_context(|| {
                t!(
                    settings.lang,
                    "gitops-refusing",
                    cluster = cluster.id.to_string(),
                    verb = change.verb(),
                    target = target.to_string()
                )
            })?;
        anyhow::Ok(
            change_sync(
                &mut store,
                &client.client,
                &cluster.id,
                &target,
                change,
                &args.reason,
                &Actor(settings.actor.clone()),
                super::journal_cmd::mode(settings),
            )
            .await?,
        )
    })?;
    outln!("{}", said.message.text(settings.lang))?;
    Ok(ExitCode::SUCCESS)
}
