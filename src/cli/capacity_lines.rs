//! What `fleetdeck capacity` prints: one shape serves both outputs. JSON carries every
//! figure as a number (scripts compare them) and the table renders the same lines as text
//! (people read them).

use fleetdeck::model::capacity::{
    ClusterReport, GangFit, GangRequest, GpuShape, HeadroomLimit, Scenario, UnplacedGroup,
    WhatIfReport, format_amount,
};
use fleetdeck::model::text::counted;
use serde::Serialize;

/// One dimension's amounts: as text for people and as numbers in `unit` for scripts.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DimensionLine {
    pub dimension: String,
    pub allocatable: String,
    pub demand: String,
    pub reserve: String,
    pub headroom: String,
    pub unit: &'static str,
    pub allocatable_raw: i64,
    pub demand_raw: i64,
    pub reserve_raw: i64,
    pub headroom_raw: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnplacedLine {
    pub owner: String,
    pub pods: u32,
    pub reason: String,
}

impl UnplacedLine {
    pub fn of(group: &UnplacedGroup) -> Self {
        UnplacedLine {
            owner: format!(
                "{} {}/{}",
                group.owner.kind, group.namespace, group.owner.name
            ),
            pods: group.pods,
            reason: group.reason.to_string(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioLine {
    pub scenario: String,
    pub lost_nodes: u32,
    pub displaced_pods: u32,
    /// DaemonSet and static pods that go with the lost nodes (not displaced).
    pub staying_pods: u32,
    pub placed_pods: u32,
    pub unplaced: Vec<UnplacedLine>,
    /// Displaced pods whose move cannot be judged (they mount volumes the cluster will not
    /// let us read): the answer for them is unknown, not "placed".
    pub unknown_pods: u32,
    pub unknown: Vec<UnplacedLine>,
    pub headroom: Vec<DimensionLine>,
}

/// Single-node slots of `gpus` GPUs.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotLine {
    pub gpus: u32,
    pub slots: i64,
}

/// Free GPUs in one topology domain.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GpuDomainLine {
    pub key: String,
    pub value: String,
    pub free_gpus: i64,
    pub total_gpus: i64,
    pub whole_free_nodes: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GpuLine {
    pub free: i64,
    pub total: i64,
    pub slots: Vec<SlotLine>,
    pub largest_gang: i64,
    pub domains: Vec<GpuDomainLine>,
}

/// The failure domain whose loss leaves a dimension the least headroom.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorstLossLine {
    pub dimension: String,
    /// The failure-domain label key and the value lost.
    pub key: String,
    pub domain: String,
    pub headroom: String,
    pub unit: &'static str,
    pub headroom_raw: i64,
}

/// How a gang fits one state of the cluster.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GangFitLine {
    pub nodes_that_fit: u32,
    pub largest_on_one_node: i64,
    pub free_total: i64,
    /// Topology domains whose free GPUs add up to the gang spread over several of their
    /// nodes: the fit of a multi-node job, not of one pod (that is `nodesThatFit`).
    pub multi_node_domains_that_fit: Vec<GpuDomainFitLine>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GpuDomainFitLine {
    pub key: String,
    pub value: String,
    pub free_gpus: i64,
}

/// `--gang`: how it fits, after the what-if when one was asked (and today beside it).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GangLine {
    pub size: u32,
    /// As the request names it (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`).
    pub resource: String,
    /// The what-if the fit is after, when one was asked.
    pub what_if: Option<String>,
    pub fit: GangFitLine,
    /// Today's fit, beside a what-if's.
    pub today: Option<GangFitLine>,
}

/// What limits headroom: a stable kind for scripts, the sentence for people.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LimitLine {
    pub kind: &'static str,
    pub text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterCapacity {
    pub cluster: String,
    pub status: String,
    /// False when the cluster's data is not fresh: then nothing below is present.
    pub counted: bool,
    pub baseline: Option<ScenarioLine>,
    pub gpu: Option<GpuLine>,
    pub n_minus_one_worst: Vec<WorstLossLine>,
    pub what_if: Option<ScenarioLine>,
    /// `--what-if cluster=`: whether its siblings could take its pods.
    pub siblings: Option<super::capacity_siblings::SiblingsLine>,
    pub gang: Option<GangLine>,
    pub limits: Vec<LimitLine>,
    /// What the figures cannot take into account (a resource the cluster will not serve).
    pub caveat: Option<String>,
}

pub fn scenario_line(report: &WhatIfReport) -> ScenarioLine {
    ScenarioLine {
        scenario: report.scenario.to_string(),
        lost_nodes: report.lost_nodes,
        displaced_pods: report.displaced_pods,
        staying_pods: report.staying_pods,
        placed_pods: report.placed_pods,
        unplaced: report.unplaced.iter().map(UnplacedLine::of).collect(),
        unknown_pods: report.unknown_pods(),
        unknown: report.unknown.iter().map(UnplacedLine::of).collect(),
        headroom: report
            .allocatable
            .iter()
            .filter(|(dim, amount)| *amount != 0 || report.demand.get(dim) != 0)
            .map(|(dim, allocatable)| DimensionLine {
                dimension: dim.to_string(),
                allocatable: format_amount(&dim, allocatable),
                demand: format_amount(&dim, report.demand.get(&dim)),
                reserve: format_amount(&dim, report.reserve.get(&dim)),
                headroom: format_amount(&dim, report.headroom.get(&dim)),
                unit: dim.unit(),
                allocatable_raw: allocatable,
                demand_raw: report.demand.get(&dim),
                reserve_raw: report.reserve.get(&dim),
                headroom_raw: report.headroom.get(&dim),
            })
            .collect(),
    }
}

/// The GPU shape, for a cluster that has GPUs.
pub fn gpu_line(shape: &GpuShape) -> Option<GpuLine> {
    (shape.total_gpus > 0).then(|| GpuLine {
        free: shape.free_gpus,
        total: shape.total_gpus,
        slots: shape
            .slots
            .iter()
            .map(|s| SlotLine {
                gpus: s.size,
                slots: s.slots,
            })
            .collect(),
        largest_gang: shape.largest_gang,
        domains: shape
            .domains
            .iter()
            .map(|d| GpuDomainLine {
                key: d.key.to_string(),
                value: d.value.to_string(),
                free_gpus: d.free_gpus,
                total_gpus: d.total_gpus,
                whole_free_nodes: d.whole_free_nodes,
            })
            .collect(),
    })
}

/// The worst failure-domain loss per dimension, for the dimensions the cluster has.
pub fn worst_losses(report: &ClusterReport) -> Vec<WorstLossLine> {
    report
        .n_minus_one
        .worst
        .iter()
        // A dimension the cluster has none of has no headroom to lose.
        .filter(|w| report.baseline.allocatable.get(&w.dimension) != 0)
        .map(|w| WorstLossLine {
            dimension: w.dimension.to_string(),
            key: report.n_minus_one.key.to_string(),
            domain: w.domain.to_string(),
            headroom: format_amount(&w.dimension, w.headroom),
            unit: w.dimension.unit(),
            headroom_raw: w.headroom,
        })
        .collect()
}

pub fn limit_lines(limits: &[HeadroomLimit]) -> Vec<LimitLine> {
    limits
        .iter()
        .map(|l| LimitLine {
            kind: l.kind(),
            text: l.to_string(),
        })
        .collect()
}

fn gang_fit_line(fit: &GangFit) -> GangFitLine {
    GangFitLine {
        nodes_that_fit: fit.nodes_that_fit,
        largest_on_one_node: fit.largest_on_one_node,
        free_total: fit.free_total,
        multi_node_domains_that_fit: fit
            .domains_that_fit
            .iter()
            .map(|(key, value, free)| GpuDomainFitLine {
                key: key.to_string(),
                value: value.to_string(),
                free_gpus: *free,
            })
            .collect(),
    }
}

/// The gang's fit: `after` the what-if when there is one, with `today` beside it.
pub fn gang_line(
    request: &GangRequest,
    scenario: Option<&Scenario>,
    after: Option<&GangFit>,
    today: &GangFit,
) -> GangLine {
    let (fit, today) = match after {
        Some(after) => (gang_fit_line(after), Some(gang_fit_line(today))),
        None => (gang_fit_line(today), None),
    };
    GangLine {
        size: request.size,
        resource: request.resource.resource_name(),
        what_if: scenario.map(ToString::to_string),
        fit,
        today,
    }
}

/// `1 whole node`, `3 whole nodes`.
fn whole_nodes(n: u32) -> String {
    counted(i64::from(n), "whole node")
}

/// `1 pod`, `3 pods`.
pub fn pods(n: u32) -> String {
    counted(i64::from(n), "pod")
}

fn describe_fit(fit: &GangFitLine) -> String {
    let nodes = if fit.nodes_that_fit == 1 {
        "1 node".to_owned()
    } else {
        format!("{} nodes", fit.nodes_that_fit)
    };
    format!(
        "fits on {nodes}; largest on one node {}; {} free in total",
        fit.largest_on_one_node, fit.free_total
    )
}

fn describe_gang(gang: &GangLine) -> String {
    let request = format!("{}x{}", gang.size, gang.resource);
    match (&gang.what_if, &gang.today) {
        (Some(scenario), Some(today)) => format!(
            "{request} {scenario}: {} (today: {})",
            describe_fit(&gang.fit),
            describe_fit(today)
        ),
        _ => format!("{request}: {}", describe_fit(&gang.fit)),
    }
}

/// The table output: a block per cluster, then how many clusters were counted.
pub fn render(clusters: &[ClusterCapacity]) -> String {
    let mut out = String::new();
    for c in clusters {
        if !c.counted {
            out.push_str(&format!(
                "{} — {}: no fresh data, not counted\n",
                c.cluster, c.status
            ));
            // Lost already, perhaps: its siblings' room still answers.
            if let Some(siblings) = &c.siblings {
                out.push_str(&super::capacity_siblings::render(siblings));
            }
            out.push('\n');
            continue;
        }
        out.push_str(&format!("{} — {}\n", c.cluster, c.status));
        let mut table = super::output::Table::new(vec![
            "  DIMENSION",
            "ALLOCATABLE",
            "DEMAND",
            "RESERVE",
            "HEADROOM",
        ]);
        if let Some(b) = &c.baseline {
            for d in &b.headroom {
                table.row(vec![
                    format!("  {}", d.dimension),
                    d.allocatable.clone(),
                    d.demand.clone(),
                    d.reserve.clone(),
                    d.headroom.clone(),
                ]);
            }
        }
        out.push_str(&table.render());
        if let Some(gpu) = &c.gpu {
            let slots: Vec<String> = gpu
                .slots
                .iter()
                .map(|s| format!("{}:{}", s.gpus, s.slots))
                .collect();
            out.push_str(&format!(
                "  GPU shape: {} free of {}; slots {}; largest gang {}\n",
                gpu.free,
                gpu.total,
                slots.join(" "),
                gpu.largest_gang
            ));
            for d in &gpu.domains {
                out.push_str(&format!(
                    "    {}={}: {} free of {}, {} free\n",
                    d.key,
                    d.value,
                    d.free_gpus,
                    d.total_gpus,
                    whole_nodes(d.whole_free_nodes)
                ));
            }
        }
        for w in &c.n_minus_one_worst {
            out.push_str(&format!(
                "  N−1 worst: {}: {} after losing {}\n",
                w.dimension, w.headroom, w.domain
            ));
        }
        for l in &c.limits {
            out.push_str(&format!("  limit: {}\n", l.text));
        }
        if let Some(w) = &c.what_if {
            out.push_str(&format!(
                "  what-if {}: {} lost, {} displaced{}, {} placed, {} cannot be placed\n",
                w.scenario,
                counted(i64::from(w.lost_nodes), "node"),
                pods(w.displaced_pods),
                match w.staying_pods {
                    0 => String::new(),
                    n => format!(" ({} go with their nodes: DaemonSet, static)", pods(n)),
                },
                w.placed_pods,
                w.unplaced.iter().map(|u| u.pods).sum::<u32>()
            ));
            for u in &w.unplaced {
                out.push_str(&format!(
                    "    {} of {}: {}\n",
                    pods(u.pods),
                    u.owner,
                    u.reason
                ));
            }
            if w.unknown_pods > 0 {
                out.push_str(&format!(
                    "    UNKNOWN for {}: the answer above treats them as free to move, which nobody can tell\n",
                    pods(w.unknown_pods)
                ));
            }
            for u in &w.unknown {
                out.push_str(&format!(
                    "    {} of {}: {}\n",
                    pods(u.pods),
                    u.owner,
                    u.reason
                ));
            }
            for d in &w.headroom {
                out.push_str(&format!(
                    "    headroom after: {} {}\n",
                    d.dimension, d.headroom
                ));
            }
        }
        if let Some(siblings) = &c.siblings {
            out.push_str(&super::capacity_siblings::render(siblings));
        }
        if let Some(g) = &c.gang {
            out.push_str(&format!("  gang {}\n", describe_gang(g)));
        }
        if let Some(caveat) = &c.caveat {
            out.push_str(&format!("  caveat: {caveat}\n"));
        }
        out.push('\n');
    }
    let gangs: Vec<(&str, &GangLine)> = clusters
        .iter()
        .filter_map(|c| c.gang.as_ref().map(|g| (c.cluster.as_str(), g)))
        .collect();
    if let [(_, first), _, ..] = gangs.as_slice() {
        let fits: Vec<&str> = gangs
            .iter()
            .filter(|(_, g)| g.fit.nodes_that_fit > 0)
            .map(|(c, _)| *c)
            .collect();
        out.push_str(&format!(
            "gang {}x{}{}: fits on one node in {} of {} clusters with {}{}\n",
            first.size,
            first.resource,
            first
                .what_if
                .as_deref()
                .map(|w| format!(" {w}"))
                .unwrap_or_default(),
            fits.len(),
            gangs.len(),
            first.resource,
            if fits.is_empty() {
                String::new()
            } else {
                format!(": {}", fits.join(", "))
            }
        ));
    }
    let left_out: Vec<String> = clusters
        .iter()
        .filter(|c| !c.counted)
        .map(|c| format!("{} ({})", c.cluster, c.status))
        .collect();
    if clusters.len() > 1 || !left_out.is_empty() {
        out.push_str(&format!(
            "{} of {} clusters counted",
            clusters.len() - left_out.len(),
            clusters.len()
        ));
        if !left_out.is_empty() {
            out.push_str(&format!("; not counted: {}", left_out.join(", ")));
        }
        out.push('\n');
    }
    out
}
