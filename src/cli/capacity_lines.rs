//! What `fleetdeck capacity` prints: one shape serves both outputs. JSON carries every
//! figure as a number (scripts compare them) and the table renders the same lines as text
//! (people read them).

use fleetdeck::i18n::{self, Lang};
use fleetdeck::model::capacity::{
    ClusterReport, GangFit, GangRequest, GpuShape, HeadroomLimit, Scenario, UnplacedGroup,
    WhatIfReport, format_amount,
};
use fleetdeck::t;
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
fn whole_nodes(lang: Lang, n: u32) -> String {
    i18n::counted(lang, "count-whole-nodes", i64::from(n))
}

/// `1 pod`, `3 pods`.
fn pods(lang: Lang, n: u32) -> String {
    i18n::counted(lang, "count-pods", i64::from(n))
}

fn describe_fit(lang: Lang, fit: &GangFitLine) -> String {
    t!(
        lang,
        "capacity-fit",
        nodes = i18n::counted(lang, "count-nodes", i64::from(fit.nodes_that_fit)),
        largest = fit.largest_on_one_node.to_string(),
        free = fit.free_total.to_string()
    )
}

fn describe_gang(lang: Lang, gang: &GangLine) -> String {
    let request = format!("{}x{}", gang.size, gang.resource);
    match (&gang.what_if, &gang.today) {
        (Some(scenario), Some(today)) => t!(
            lang,
            "capacity-gang-what-if",
            request = request,
            scenario = scenario.clone(),
            fit = describe_fit(lang, &gang.fit),
            today = describe_fit(lang, today)
        ),
        _ => format!("{request}: {}", describe_fit(lang, &gang.fit)),
    }
}

/// The table output: a block per cluster, then how many clusters were counted.
pub fn render(lang: Lang, clusters: &[ClusterCapacity]) -> String {
    let mut out = String::new();
    for c in clusters {
        if !c.counted {
            out.push_str(&t!(
                lang,
                "capacity-not-counted",
                cluster = c.cluster.clone(),
                status = c.status.to_string()
            ));
            out.push('\n');
            // Lost already, perhaps: its siblings' room still answers.
            if let Some(siblings) = &c.siblings {
                out.push_str(&super::capacity_siblings::render(siblings));
            }
            out.push('\n');
            continue;
        }
        out.push_str(&format!("{} — {}\n", c.cluster, c.status));
        let mut headers = super::output::Table::in_lang(
            lang,
            vec!["DIMENSION", "ALLOCATABLE", "DEMAND", "RESERVE", "HEADROOM"],
        )
        .headers()
        .to_vec();
        // The dimensions are indented under the cluster's line, their header too.
        headers[0] = format!("  {}", headers[0]);
        let mut table = super::output::Table::with_headers(headers);
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
            let line = t!(
                lang,
                "capacity-gpu-shape",
                free = gpu.free.to_string(),
                total = gpu.total.to_string(),
                slots = slots.join(" "),
                largest = gpu.largest_gang.to_string()
            );
            out.push_str(&format!("  {line}\n"));
            for d in &gpu.domains {
                let line = t!(
                    lang,
                    "capacity-gpu-domain",
                    key = d.key.clone(),
                    value = d.value.clone(),
                    free = d.free_gpus.to_string(),
                    total = d.total_gpus.to_string(),
                    nodes = whole_nodes(lang, d.whole_free_nodes)
                );
                out.push_str(&format!("    {line}\n"));
            }
        }
        for w in &c.n_minus_one_worst {
            let line = t!(
                lang,
                "capacity-n-minus-one",
                dimension = w.dimension.to_string(),
                headroom = w.headroom.to_string(),
                domain = w.domain.to_string()
            );
            out.push_str(&format!("  {line}\n"));
        }
        for l in &c.limits {
            let line = t!(lang, "capacity-limit", limit = l.text.clone());
            out.push_str(&format!("  {line}\n"));
        }
        if let Some(w) = &c.what_if {
            let staying = match w.staying_pods {
                0 => String::new(),
                n => t!(lang, "capacity-staying", pods = pods(lang, n)),
            };
            let line = t!(
                lang,
                "capacity-what-if",
                scenario = w.scenario.to_string(),
                lost = i18n::counted(lang, "count-nodes", i64::from(w.lost_nodes)),
                displaced = pods(lang, w.displaced_pods),
                staying = staying,
                placed = w.placed_pods.to_string(),
                unplaced = w.unplaced.iter().map(|u| u.pods).sum::<u32>().to_string()
            );
            out.push_str(&format!("  {line}\n"));
            let group = |u: &UnplacedLine| {
                t!(
                    lang,
                    "capacity-pods-of",
                    pods = pods(lang, u.pods),
                    owner = u.owner.clone(),
                    reason = u.reason.clone()
                )
            };
            for u in &w.unplaced {
                out.push_str(&format!("    {}\n", group(u)));
            }
            if w.unknown_pods > 0 {
                let line = t!(
                    lang,
                    "capacity-unknown-pods",
                    pods = pods(lang, w.unknown_pods)
                );
                out.push_str(&format!("    {line}\n"));
            }
            for u in &w.unknown {
                out.push_str(&format!("    {}\n", group(u)));
            }
            for d in &w.headroom {
                let line = t!(
                    lang,
                    "capacity-headroom-after",
                    dimension = d.dimension.to_string(),
                    headroom = d.headroom.to_string()
                );
                out.push_str(&format!("    {line}\n"));
            }
        }
        if let Some(siblings) = &c.siblings {
            out.push_str(&super::capacity_siblings::render(siblings));
        }
        if let Some(g) = &c.gang {
            let line = t!(lang, "capacity-gang", gang = describe_gang(lang, g));
            out.push_str(&format!("  {line}\n"));
        }
        if let Some(caveat) = &c.caveat {
            let line = t!(lang, "capacity-caveat", caveat = caveat.to_string());
            out.push_str(&format!("  {line}\n"));
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
        out.push_str(&t!(
            lang,
            "capacity-gang-fleet",
            request = format!("{}x{}", first.size, first.resource),
            what_if = first
                .what_if
                .as_deref()
                .map(|w| format!(" {w}"))
                .unwrap_or_default(),
            fits = fits.len().to_string(),
            count = gangs.len().to_string(),
            resource = first.resource.clone(),
            list = if fits.is_empty() {
                String::new()
            } else {
                format!(": {}", fits.join(", "))
            }
        ));
        out.push('\n');
    }
    let left_out: Vec<String> = clusters
        .iter()
        .filter(|c| !c.counted)
        .map(|c| format!("{} ({})", c.cluster, c.status))
        .collect();
    if clusters.len() > 1 || !left_out.is_empty() {
        out.push_str(&t!(
            lang,
            "capacity-counted",
            counted = (clusters.len() - left_out.len()).to_string(),
            count = clusters.len().to_string()
        ));
        if !left_out.is_empty() {
            let list = left_out.join(", ");
            out.push_str(&t!(lang, "capacity-left-out", list = list));
        }
        out.push('\n');
    }
    out
}
