//! `fleetdeck capacity`: headroom per cluster and dimension, GPU shape, N−1 failure-domain
//! headroom, what-if scenarios and gang fits, each explained in a sentence.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use fleetdeck::t;

use super::capacity_lines::{
    ClusterCapacity, gang_line, gpu_line, limit_lines, render, scenario_line, worst_losses,
};
use super::capacity_siblings::siblings_line;
use super::live::observe;
use super::output::emit;
use super::settings::Settings;
use anyhow::{Context, bail};
use fleetdeck::model::capacity::{
    CapacityConfig, ClusterIndex, GangRequest, Scenario, cluster_report, gang_fit, gpu_shape,
    gpu_shape_after, what_if,
};
use fleetdeck::model::fleet::{ClusterView, NodeName};
use fleetdeck::model::live::ClusterSnapshot;
use fleetdeck::model::maintenance::{MaintenanceHolds, maintenance_holds};

/// A what-if given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhatIf {
    /// `zone=Z`: lose one failure domain.
    Zone(String),
    /// `node=a,b`: lose these nodes.
    Nodes(Vec<String>),
    /// `cluster=C`: lose the whole cluster.
    Cluster(String),
}

/// Parses `zone=Z`, `node=N,…` or `cluster=C`.
pub fn parse_what_if(text: &str) -> Result<WhatIf, String> {
    let (kind, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected zone=Z, node=N,… or cluster=C, found {text:?}"))?; // i18n: not for people (a value parser's error inside clap's, English like clap's)
    if value.trim().is_empty() {
        return Err(format!("{kind}= needs a value"));
    }
    match kind {
        "zone" => Ok(WhatIf::Zone(value.to_string())),
        "node" | "nodes" => Ok(WhatIf::Nodes(
            value
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect(),
        )),
        "cluster" => Ok(WhatIf::Cluster(value.to_string())),
        other => Err(format!(
            "unknown what-if {other:?}: expected zone, node or cluster" // i18n: not for people (a value parser's error inside clap's, English like clap's)
        )),
    }
}

fn cluster_capacity(
    snapshot: &ClusterSnapshot,
    config: &CapacityConfig,
    holds: &MaintenanceHolds,
    what: Option<&WhatIf>,
    gang: Option<&GangRequest>,
) -> ClusterCapacity {
    let mut out = ClusterCapacity {
        cluster: snapshot.id.to_string(),
        status: snapshot.status.label().to_string(),
        counted: snapshot.status.data_usable(),
        baseline: None,
        gpu: None,
        n_minus_one_worst: Vec::new(),
        what_if: None,
        siblings: None,
        gang: None,
        limits: Vec::new(),
        caveat: snapshot.facts.partial.clone(),
    };
    if !out.counted {
        return out;
    }
    let held = holds.of(&snapshot.view.id);
    let view = held.apply(&snapshot.view);
    let reserved = &held.reserved;
    let report = cluster_report(&view, config, reserved);
    out.baseline = Some(scenario_line(&report.baseline));
    out.gpu = gpu_line(&report.gpu);
    out.n_minus_one_worst = worst_losses(&report);
    out.limits = limit_lines(&report.limits);
    let index = ClusterIndex::new(&view, config);
    // A what-if applies to the clusters it names something of: a zone another region's
    // clusters do not have leaves them as they are.
    let scenario = what
        .filter(|w| applies_to(w, &snapshot.view, config))
        .map(|what| match what {
            WhatIf::Zone(zone) => Scenario::LoseFailureDomain {
                key: Arc::clone(&config.failure_domain_key),
                value: Arc::from(zone.as_str()),
            },
            WhatIf::Nodes(nodes) => {
                Scenario::LoseNodes(nodes.iter().map(|n| NodeName::from(n.as_str())).collect())
            }
            WhatIf::Cluster(_) => Scenario::LoseCluster,
        });
    if let Some(scenario) = &scenario {
        let mut line = scenario_line(&what_if(&index, scenario, reserved));
        // A cluster that is gone has no headroom left to speak of: its siblings' is the
        // question (`siblings`).
        if *scenario == Scenario::LoseCluster {
            line.headroom.clear();
        }
        out.what_if = Some(line);
    }
    // A cluster with none of the resource is no place for the gang: it is left out rather
    // than told "fits on 0 nodes" (fleet-wide, most clusters have no GPUs).
    let has_resource = |gang: &&GangRequest| {
        view.nodes
            .iter()
            .any(|n| n.allocatable.get(&gang.resource) > 0)
    };
    if let Some(gang) = gang.filter(has_resource) {
        let today = gang_fit(&gpu_shape(&index, reserved), gang);
        // What a job can still find once the what-if happened: the lost nodes gone, and
        // their pods holding GPUs where they were re-placed.
        let after = scenario
            .as_ref()
            .map(|scenario| gang_fit(&gpu_shape_after(&index, scenario, reserved), gang));
        out.gang = Some(gang_line(gang, scenario.as_ref(), after.as_ref(), &today));
    }
    out
}

/// Whether `what` names something in `view`: the cluster, one of its nodes, or the
/// failure domain of one of its nodes.
fn applies_to(what: &WhatIf, view: &ClusterView, config: &CapacityConfig) -> bool {
    match what {
        WhatIf::Cluster(id) => *view.id.0 == **id,
        WhatIf::Nodes(names) => view
            .nodes
            .iter()
            .any(|n| names.iter().any(|m| *n.name.0 == **m)),
        WhatIf::Zone(zone) => zones_of(view, config).any(|z| z == zone.as_str()),
    }
}

/// The failure-domain values of a cluster's nodes.
fn zones_of<'a>(
    view: &'a ClusterView,
    config: &'a CapacityConfig,
) -> impl Iterator<Item = &'a str> {
    view.nodes
        .iter()
        .filter_map(|n| n.labels.get(&config.failure_domain_key).map(|z| &**z))
}

/// Refuses a what-if that names nothing in the clusters it is asked of (a typo would
/// otherwise report full headroom): every node must exist, and the zone must be one of
/// theirs. Only clusters with fresh data can be checked.
fn check_targets(
    lang: fleetdeck::i18n::Lang,
    what: &WhatIf,
    clusters: &[&Arc<ClusterSnapshot>],
    config: &CapacityConfig,
) -> anyhow::Result<()> {
    let counted: Vec<&ClusterView> = clusters
        .iter()
        .filter(|c| c.status.data_usable())
        .map(|c| &*c.view)
        .collect();
    if counted.is_empty() {
        return Ok(());
    }
    let place = match clusters {
        [one] => t!(lang, "capacity-place-cluster", cluster = one.id.to_string()),
        _ => t!(lang, "capacity-place-any"),
    };
    match what {
        WhatIf::Cluster(_) => Ok(()),
        WhatIf::Zone(zone) => {
            let known: std::collections::BTreeSet<&str> =
                counted.iter().flat_map(|v| zones_of(v, config)).collect();
            if known.contains(zone.as_str()) {
                return Ok(());
            }
            let hint = fleetdeck::yaml::suggest(zone, known.iter().copied())
                .map(|z| t!(lang, "cli-did-you-mean", suggestion = z))
                .unwrap_or_default();
            bail!(t!(
                lang,
                "capacity-no-zone",
                zone = zone.clone(),
                place = place,
                hint = hint,
                key = config.failure_domain_key.to_string(),
                known = known.into_iter().collect::<Vec<_>>().join(", ")
            ))
        }
        WhatIf::Nodes(names) => {
            let missing: Vec<&String> = names
                .iter()
                .filter(|m| {
                    !counted
                        .iter()
                        .any(|v| v.nodes.iter().any(|n| *n.name.0 == ***m))
                })
                .collect();
            let Some(first) = missing.first() else {
                return Ok(());
            };
            let hint = fleetdeck::yaml::suggest(
                first,
                counted
                    .iter()
                    .flat_map(|v| v.nodes.iter().map(|n| &*n.name.0)),
            )
            .map(|n| t!(lang, "cli-did-you-mean", suggestion = n))
            .unwrap_or_default();
            let list: Vec<&str> = missing.iter().map(|m| m.as_str()).collect();
            bail!(t!(
                lang,
                "capacity-no-node",
                nodes = list.join(","),
                place = place,
                hint = hint
            ))
        }
    }
}

/// The nodes maintenance holds, from the journal; none when there is no journal yet
/// (reading must not create one).
fn maintenance_holds_of(settings: &Settings) -> anyhow::Result<MaintenanceHolds> {
    if let fleetdeck::journal::JournalTarget::Sqlite(path) = &settings.journal
        && !path.exists()
    {
        return Ok(MaintenanceHolds::default());
    }
    let journal = super::journal_cmd::open(settings)?;
    let projection = fleetdeck::journal::JournalStore::projection(&journal).with_context(|| {
        fleetdeck::t!(
            settings.lang,
            "ctx-journal",
            target = settings.journal.describe()
        )
    })?;
    Ok(maintenance_holds(&projection))
}

/// Runs `fleetdeck capacity`.
pub fn run(
    settings: &Settings,
    cluster: Option<&str>,
    what: Option<&str>,
    gang: Option<&str>,
    siblings: Option<&str>,
    wait: Duration,
) -> anyhow::Result<ExitCode> {
    let what = what
        .map(parse_what_if)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let gang = gang
        .map(GangRequest::parse)
        .transpose()
        .context(t!(settings.lang, "capacity-gang-expects"))?;
    if siblings.is_some() && !matches!(what, Some(WhatIf::Cluster(_))) {
        bail!(t!(settings.lang, "capacity-siblings-needs-what-if"));
    }
    let only = match (&what, cluster) {
        (Some(WhatIf::Cluster(c)), Some(asked)) if c != asked => {
            bail!(t!(
                settings.lang,
                "capacity-two-clusters",
                asked = asked,
                lost = c.clone()
            ));
        }
        (Some(WhatIf::Cluster(c)), _) => Some(c.clone()),
        (_, Some(c)) => Some(c.to_string()),
        _ => None,
    };
    let (ledger, snapshot) = observe(settings, wait)?;
    if let Some(id) = &only
        && ledger.cluster(id).is_none()
    {
        bail!(t!(
            settings.lang,
            "cluster-not-in-ledger",
            cluster = format!("{id:?}")
        ));
    }
    let config = &settings.capacity;
    let holds = maintenance_holds_of(settings)?;
    let asked: Vec<&Arc<ClusterSnapshot>> = snapshot
        .clusters
        .iter()
        .filter(|c| only.as_deref().is_none_or(|id| &*c.id == id))
        .collect();
    if let Some(what) = &what {
        check_targets(settings.lang, what, &asked, config)?;
    }
    let mut clusters: Vec<ClusterCapacity> = asked
        .iter()
        .map(|c| cluster_capacity(c, config, &holds, what.as_ref(), gang.as_ref()))
        .collect();
    if let (Some(WhatIf::Cluster(lost)), [only]) = (&what, clusters.as_mut_slice()) {
        only.siblings = Some(siblings_line(
            lost, &ledger, &snapshot, &holds, config, siblings,
        )?);
    }
    emit(settings.output, &clusters, || {
        render(settings.lang, &clusters)
    })?;
    // Like `snapshot`: a cluster left out for want of fresh data is worth a non-zero exit,
    // so a script never takes a partial answer for the whole one.
    // And an answer that is unknown for some pods (volumes that cannot be read) is not
    // a whole answer either.
    let whole = clusters
        .iter()
        .all(|c| c.counted && c.what_if.as_ref().is_none_or(|w| w.unknown_pods == 0));
    Ok(if whole {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_if_grammar() {
        assert_eq!(
            parse_what_if("zone=eu-1a"),
            Ok(WhatIf::Zone("eu-1a".into()))
        );
        assert_eq!(
            parse_what_if("node=a, b,"),
            Ok(WhatIf::Nodes(vec!["a".into(), "b".into()]))
        );
        assert_eq!(
            parse_what_if("cluster=c1"),
            Ok(WhatIf::Cluster("c1".into()))
        );
        assert!(parse_what_if("rack=r1").is_err());
        assert!(parse_what_if("zone=").is_err());
        assert!(parse_what_if("zone").is_err());
    }
}
