//! The shift handover: everything the next person must know, built from the journal's
//! projection, the clusters' live statuses and the ledger. Pure, so the console's `H`
//! walkthrough, `fleetdeck handover` and its Markdown report say exactly the same thing.

use std::time::Duration;

use jiff::Timestamp;
use serde::Serialize;

use crate::model::duration::format_duration;
use crate::model::ledger::{ClusterId, Ledger};
use crate::model::live::ClusterStatus;
use crate::model::rollout::BatchPhase;
use crate::model::run::{Actor, Event, EventBody, ItemId, Projection, RunId, StepStatus};
use crate::model::text::one_line;

/// Notes that acknowledge a handover item start with this, then the item's key and `: `.
pub const ACK_PREFIX: &str = "handover ack ";

/// What an item is about; an acknowledgement is journaled against the same.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Subject {
    /// The run.
    pub run: Option<RunId>,
    /// The item of the run.
    pub item: Option<ItemId>,
    /// The cluster.
    pub cluster: Option<ClusterId>,
}

/// The sections of a handover, in the order they are walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Section {
    /// Pause switches in force.
    PausedAutomation,
    /// Rollout batches waiting for a person.
    AwaitingApproval,
    /// Steps stuck past their deadline.
    StuckSteps,
    /// Steps in a person's hands.
    HandedOff,
    /// Rollouts a stop condition halted.
    HaltedRollouts,
    /// What a failed or aborted run left half done: nodes left cordoned or stopped
    /// mid-step, a release on some clusters and not the others.
    LeftMidChange,
    /// Clusters that cannot be trusted.
    Clusters,
    /// Clusters whose data is fresh but that are not whole: Degraded data, nodes not
    /// ready, disruption budgets below their minimum.
    ClustersNotWhole,
    /// Ledger exceptions expiring soon (or expired).
    Exceptions,
    /// Notes written during the shift.
    Notes,
}

impl Section {
    /// The heading people read.
    pub fn heading(self) -> &'static str {
        match self {
            Section::PausedAutomation => "Paused automation",
            Section::AwaitingApproval => "Batches awaiting approval",
            Section::StuckSteps => "Stuck steps",
            Section::HandedOff => "Handed-off steps",
            Section::HaltedRollouts => "Halted rollouts",
            Section::LeftMidChange => "Left mid-change",
            Section::Clusters => "Clusters Unreachable / IdentityMismatch / UNKNOWN",
            Section::ClustersNotWhole => "Clusters with nodes down or budgets below minimum",
            Section::Exceptions => "Exceptions expiring soon",
            Section::Notes => "Open notes",
        }
    }

    /// The heading where space is short (the walkthrough's list); the full one is shown
    /// with the item.
    pub fn short_heading(self) -> &'static str {
        match self {
            Section::Clusters => "Untrusted clusters",
            Section::ClustersNotWhole => "Clusters not whole",
            other => other.heading(),
        }
    }
}

/// Someone read an item and said something about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ack {
    /// Who.
    pub by: Actor,
    /// When.
    pub at: Timestamp,
    /// What they said.
    pub note: String,
}

/// One thing the next person must know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandoverItem {
    /// Stable across refreshes; acknowledgements name it.
    pub key: String,
    /// Where it belongs.
    pub section: Section,
    /// One line.
    pub title: String,
    /// The facts: who, since when, why, owner, note.
    pub details: Vec<String>,
    /// Since when it stands, when known.
    pub since: Option<Timestamp>,
    /// What it is about.
    pub subject: Subject,
    /// Acknowledgements during the shift.
    pub acks: Vec<Ack>,
}

/// A cluster's status as the live view reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterHealth {
    /// Ledger id.
    pub id: ClusterId,
    /// Its status.
    pub status: ClusterStatus,
    /// The last error, in words.
    pub error: Option<String>,
    /// (Ready, all) nodes; (0, n) without fresh data.
    pub nodes_ready: (usize, usize),
    /// Disruption budgets with fewer healthy pods than they need, as
    /// `payments/orders has 1, needs 2`: drains there wait, and the workload is already
    /// short.
    pub budgets_below_minimum: Vec<String>,
}

/// Every cluster's health as the live fleet view reports it.
pub fn cluster_health(snapshot: &crate::model::live::FleetSnapshot) -> Vec<ClusterHealth> {
    snapshot
        .clusters
        .iter()
        .map(|c| ClusterHealth {
            id: ClusterId(c.id.to_string()),
            status: c.status,
            error: c.last_error.clone(),
            nodes_ready: c.nodes_ready(),
            budgets_below_minimum: c
                .view
                .pdbs
                .iter()
                .filter(|pdb| pdb.current_healthy < pdb.desired_healthy)
                .map(|pdb| {
                    format!(
                        "{}/{} has {}, needs {}",
                        pdb.namespace, pdb.name, pdb.current_healthy, pdb.desired_healthy
                    )
                })
                .collect(),
        })
        .collect()
}

/// What is wrong with a cluster whose data is fresh, one fact per line; empty when it is
/// whole.
fn not_whole(c: &ClusterHealth) -> Vec<String> {
    if !c.status.data_usable() {
        return Vec::new();
    }
    let mut facts = Vec::new();
    if c.status == ClusterStatus::Degraded {
        facts.push(match &c.error {
            Some(why) => format!("data Degraded: {why}"),
            None => "data Degraded: part of it could not be read".into(),
        });
    }
    let (ready, total) = c.nodes_ready;
    if ready < total {
        facts.push(format!("{} of {total} nodes not ready", total - ready));
    }
    facts.extend(
        c.budgets_below_minimum
            .iter()
            .map(|b| format!("PDB {b} healthy: below its minimum")),
    );
    facts
}

/// Everything a handover is built from.
#[derive(Debug, Clone, Copy)]
pub struct HandoverInput<'a> {
    /// The journal's current state.
    pub projection: &'a Projection,
    /// Journal events of the shift (notes and acknowledgements are read from these).
    pub events: &'a [Event],
    /// Live statuses; `None` when the fleet was not checked.
    pub clusters: Option<&'a [ClusterHealth]>,
    /// The ledger, for exceptions.
    pub ledger: Option<&'a Ledger>,
    /// When the shift started.
    pub since: Timestamp,
    /// Now.
    pub now: Timestamp,
    /// Exceptions expiring within this many days are listed.
    pub expiring_within_days: i64,
}

/// `3h12m`, for ages in details.
pub fn age(now: Timestamp, then: Timestamp) -> String {
    let secs = (now.as_second() - then.as_second()).max(0);
    let secs = u64::try_from(secs).unwrap_or(0);
    // Seconds are noise past an hour.
    let secs = if secs >= 3_600 {
        secs - secs % 60
    } else {
        secs
    };
    format_duration(Duration::from_secs(secs))
}

fn when(t: Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// Builds the handover, sections in walking order.
pub fn handover(input: &HandoverInput<'_>) -> Vec<HandoverItem> {
    let now = input.now;
    let p = input.projection;
    let mut items = Vec::new();
    for pause in p.pauses.values() {
        let by = if pause.by_guard {
            format!(
                "{} (mass-failure guard: only a person may resume)",
                pause.by
            )
        } else {
            pause.by.to_string()
        };
        let mut subject = Subject::default();
        let mut held = Vec::new();
        match &pause.scope {
            crate::model::run::PauseScope::Cluster { cluster }
            | crate::model::run::PauseScope::FailureDomain { cluster, .. } => {
                subject.cluster = Some(cluster.clone());
            }
            crate::model::run::PauseScope::Run { run } => {
                subject.run = Some(run.clone());
                if let Some(view) = p.runs.get(run) {
                    held = approved_but_held(view, now);
                }
            }
            crate::model::run::PauseScope::Fleet => {}
        }
        let mut details = vec![
            format!("why: {}", pause.reason),
            format!("by: {by}"),
            format!(
                "since: {} ({} ago)",
                when(pause.since),
                age(now, pause.since)
            ),
        ];
        details.extend(held);
        details.extend(held_mid_change(p, &pause.scope));
        items.push(HandoverItem {
            key: format!("pause/{}", pause.scope),
            section: Section::PausedAutomation,
            title: format!("{} paused: {}", pause.scope, pause.reason),
            details,
            since: Some(pause.since),
            subject,
            acks: Vec::new(),
        });
    }
    for run in p.runs.values() {
        // A finished run waits for nobody and nothing follows in it: only what it left
        // half done (nodes in a person's hands included) is still there.
        if run.status.is_final() {
            items.extend(left_mid_change(run, now));
            continue;
        }
        for (batch, phase) in &run.rollout.batches {
            if *phase != BatchPhase::AwaitingApproval {
                continue;
            }
            let clusters: Vec<&str> = run
                .batches
                .get(*batch)
                .map(|b| b.iter().map(|c| c.as_str()).collect())
                .unwrap_or_default();
            items.push(HandoverItem {
                key: format!("approve/{}/{batch}", run.id),
                section: Section::AwaitingApproval,
                title: format!(
                    "{}: batch {} awaits approval ({})",
                    run.id,
                    batch + 1,
                    crate::model::text::counted(clusters.len() as i64, "cluster")
                ),
                details: vec![
                    format!("rollout: {}", run.title),
                    format!("clusters: {}", clusters.join(", ")),
                    format!("started by: {}", run.created_by),
                ],
                since: None,
                subject: Subject {
                    run: Some(run.id.clone()),
                    ..Subject::default()
                },
                acks: Vec::new(),
            });
        }
        for item_id in &run.order {
            let Some(item) = run.items.get(item_id) else {
                continue;
            };
            let Some(step) = &item.current else { continue };
            let Some(view) = item.steps.get(step) else {
                continue;
            };
            let subject = Subject {
                run: Some(run.id.clone()),
                item: Some(item_id.clone()),
                cluster: run.cluster.clone(),
            };
            let key = format!("step/{}/{item_id}/{step}", run.id);
            match &view.status {
                StepStatus::Blocked { reason } => {
                    let mut details = vec![format!(
                        "stuck for {} (since {})",
                        age(now, view.since),
                        when(view.since)
                    )];
                    details.extend(reason.split("; ").map(|r| format!("why: {r}")));
                    if let Some(c) = &run.cluster {
                        details.push(format!("cluster: {c}"));
                    }
                    items.push(HandoverItem {
                        key,
                        section: Section::StuckSteps,
                        title: format!("{item_id} {step} stuck in {}", run.id),
                        details,
                        since: Some(view.since),
                        subject,
                        acks: Vec::new(),
                    });
                }
                StepStatus::HandedOff { to, note } => {
                    let (by, since) = item
                        .handoff
                        .as_ref()
                        .map_or((view.by.clone(), view.since), |h| (h.by.clone(), h.since));
                    // Taking a step over is handing it to oneself.
                    let how = if by == *to {
                        "taken over"
                    } else {
                        "handed off"
                    };
                    let mut details = vec![format!("owner: {to}")];
                    if !note.trim().is_empty() {
                        details.push(format!("note: {note}"));
                    }
                    details.push(format!(
                        "{how} by {by} {} ago ({})",
                        age(now, since),
                        when(since)
                    ));
                    items.push(HandoverItem {
                        key,
                        section: Section::HandedOff,
                        title: format!("{item_id} {step} in {} is with {to} ({how})", run.id),
                        details,
                        since: Some(since),
                        subject,
                        acks: Vec::new(),
                    });
                }
                _ => {}
            }
        }
        items.extend(left_mid_change(run, now));
        if let Some(why) = &run.rollout.halted {
            items.push(HandoverItem {
                key: format!("halted/{}", run.id),
                section: Section::HaltedRollouts,
                title: format!("{} halted: {why}", run.id),
                details: vec![
                    format!("rollout: {}", run.title),
                    format!("why: {why}"),
                    "resume or abort it: nothing resumes on its own".to_string(),
                ],
                since: None,
                subject: Subject {
                    run: Some(run.id.clone()),
                    ..Subject::default()
                },
                acks: Vec::new(),
            });
        }
    }
    for c in input.clusters.unwrap_or(&[]) {
        if !matches!(
            c.status,
            ClusterStatus::Unreachable | ClusterStatus::IdentityMismatch | ClusterStatus::Unknown
        ) {
            continue;
        }
        let mut details = vec![format!("status: {}", c.status.label())];
        if let Some(e) = &c.error {
            details.push(format!("last error: {e}"));
        }
        if c.status == ClusterStatus::IdentityMismatch {
            details.push("every action on it is refused until the ledger pin is checked".into());
        }
        items.push(HandoverItem {
            key: format!("cluster/{}/{}", c.id, c.status.label()),
            section: Section::Clusters,
            title: format!("{} is {}", c.id, c.status.label()),
            details,
            since: None,
            subject: Subject {
                cluster: Some(c.id.clone()),
                ..Subject::default()
            },
            acks: Vec::new(),
        });
    }
    for c in input.clusters.unwrap_or(&[]) {
        let facts = not_whole(c);
        let Some((first, more)) = facts.split_first() else {
            continue;
        };
        // Keyed by what is wrong, so an acknowledgement does not go on covering a
        // cluster that got worse.
        let (ready, total) = c.nodes_ready;
        items.push(HandoverItem {
            key: format!(
                "cluster/{}/not-whole/{}/{}/{}",
                c.id,
                c.status.label(),
                total - ready,
                c.budgets_below_minimum.len()
            ),
            section: Section::ClustersNotWhole,
            title: format!("{}: {first}", c.id),
            details: more.to_vec(),
            since: None,
            subject: Subject {
                cluster: Some(c.id.clone()),
                ..Subject::default()
            },
            acks: Vec::new(),
        });
    }
    if let Some(ledger) = input.ledger {
        let today = now.to_zoned(jiff::tz::TimeZone::UTC).date();
        for cluster in &ledger.clusters {
            for e in &cluster.exceptions {
                let days = i64::from((e.expires - today).get_days());
                if days > input.expiring_within_days {
                    continue;
                }
                let when = if days < 0 {
                    format!("expired {} days ago", -days)
                } else {
                    format!("expires in {days} days")
                };
                items.push(HandoverItem {
                    key: format!("exception/{}/{}", cluster.id, e.what),
                    section: Section::Exceptions,
                    title: format!(
                        "{}: exception \"{}\" {when} ({})",
                        cluster.id, e.what, e.expires
                    ),
                    details: vec![
                        format!("owner: {}", e.owner),
                        format!("reason: {}", e.reason),
                        format!("exit criteria: {}", e.exit_criteria),
                    ],
                    since: None,
                    subject: Subject {
                        cluster: Some(cluster.id.clone()),
                        ..Subject::default()
                    },
                    acks: Vec::new(),
                });
            }
        }
    }
    let mut acks: Vec<(String, Ack)> = Vec::new();
    for event in input.events {
        let e = &event.event;
        if e.time < input.since {
            continue;
        }
        let EventBody::Note { text } = &e.body else {
            continue;
        };
        // Only what people wrote: the executor's own notes (a step's instructions, the
        // record of acting on a return) are not notes anyone left for the next shift.
        if !e.key.is_command() {
            continue;
        }
        if let Some(rest) = text.strip_prefix(ACK_PREFIX) {
            let (key, note) = rest.split_once(": ").unwrap_or((rest, ""));
            acks.push((
                key.to_string(),
                Ack {
                    by: e.actor.clone(),
                    at: e.time,
                    note: note.to_string(),
                },
            ));
            continue;
        }
        let about: Vec<String> = [
            e.run.as_ref().map(|r| format!("run {r}")),
            e.item.as_ref().map(|i| format!("node {i}")),
            e.cluster.as_ref().map(|c| format!("cluster {c}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        items.push(HandoverItem {
            key: format!("note/{}", event.seq.0),
            section: Section::Notes,
            title: format!("{}: {text}", e.actor),
            details: vec![
                format!("at: {} ({} ago)", when(e.time), age(now, e.time)),
                format!(
                    "about: {}",
                    if about.is_empty() {
                        "the fleet".to_string()
                    } else {
                        about.join(", ")
                    }
                ),
            ],
            since: Some(e.time),
            subject: Subject {
                run: e.run.clone(),
                item: e.item.clone(),
                cluster: e.cluster.clone(),
            },
            acks: Vec::new(),
        });
    }
    for item in &mut items {
        item.acks = acks
            .iter()
            .filter(|(k, _)| *k == item.key)
            .map(|(_, a)| a.clone())
            .collect();
    }
    items.sort_by_key(|i| i.section);
    items
}

/// For a pause: the nodes it holds between cordon and uncordon, run by run. A node left
/// cordoned mid-drain while automation waits is what the next person must not miss.
fn held_mid_change(
    p: &crate::model::run::Projection,
    scope: &crate::model::run::PauseScope,
) -> Vec<String> {
    use crate::model::maintenance::mid_maintenance;
    use crate::model::run::PauseScope;
    p.runs
        .values()
        .filter(|run| !run.status.is_final() && !run.is_rollout())
        .filter(|run| match scope {
            PauseScope::Fleet => true,
            PauseScope::Cluster { cluster } | PauseScope::FailureDomain { cluster, .. } => {
                run.cluster.as_ref() == Some(cluster)
            }
            PauseScope::Run { run: id } => run.id == *id,
        })
        .flat_map(|run| {
            run.items
                .iter()
                .filter(|(_, item)| mid_maintenance(item))
                .map(move |(id, item)| {
                    let step = item.current_step().map_or_else(
                        || "between steps".to_owned(),
                        |(name, step)| format!("at {name}: {}", item.status_word(&step.status)),
                    );
                    format!("holds {id} of {} mid-maintenance ({step})", run.id)
                })
        })
        .collect()
}

/// For a paused rollout: the batches a person approved that wait for the resume.
fn approved_but_held(run: &crate::model::run::RunView, now: Timestamp) -> Vec<String> {
    run.approvals
        .iter()
        .filter_map(|(by, at, batch, _)| {
            let batch = (*batch)?;
            let waiting = matches!(
                run.rollout.batches.get(&batch),
                Some(BatchPhase::AwaitingApproval | BatchPhase::Executing | BatchPhase::Pending)
            );
            waiting.then(|| {
                format!(
                    "holds back batch {}, approved by {by} {} ago: it starts once resumed",
                    batch + 1,
                    age(now, *at)
                )
            })
        })
        .collect()
}

/// What `run` left half done, when it can no longer finish it by itself: the nodes of an
/// aborted or halted maintenance between cordon and uncordon, a node whose step failed,
/// and an aborted rollout's release on some of its clusters only. Nodes in a person's
/// hands are listed with them instead.
fn left_mid_change(run: &crate::model::run::RunView, now: Timestamp) -> Vec<HandoverItem> {
    use crate::model::maintenance::{left_cordoned, mid_maintenance};
    let subject = |item: Option<&ItemId>| Subject {
        run: Some(run.id.clone()),
        item: item.cloned(),
        cluster: run.cluster.clone(),
    };
    // Who ended it, when and why: the first thing the next person asks.
    let aborted = run.aborted.as_ref().map(|(by, at, note)| {
        format!(
            "aborted by {by} {} ago ({}): {note}",
            age(now, *at),
            when(*at)
        )
    });
    let mut out = Vec::new();
    if run.is_rollout() {
        if run.status != crate::model::run::RunStatus::Aborted {
            return out;
        }
        let clusters = |keep: &dyn Fn(&crate::model::run::ItemView) -> bool| -> Vec<&str> {
            run.order
                .iter()
                .filter(|id| run.items.get(*id).is_some_and(keep))
                .map(|id| id.0.as_str())
                .collect()
        };
        let on = clusters(&|i| i.applied.is_some());
        // An apply the abort did not stop: its outcome is not known yet.
        let in_flight = clusters(&|i| i.applied.is_none() && !i.open_intents.is_empty());
        if on.is_empty() && in_flight.is_empty() {
            return out;
        }
        let mut details = vec![format!("rollout: {}", run.title)];
        details.extend(aborted);
        if !on.is_empty() {
            details.push(format!("release on: {}", on.join(", ")));
        }
        if !in_flight.is_empty() {
            details.push(format!(
                "apply in flight on: {} (outcome pending: check what these clusters run)",
                in_flight.join(", ")
            ));
        }
        details.push(
            "the other clusters run what they ran before; a rollback is a rollout of the \
             previous release"
                .into(),
        );
        out.push(HandoverItem {
            key: format!("left/{}", run.id),
            section: Section::LeftMidChange,
            title: format!(
                "{} aborted with its release on {} of {} clusters{}",
                run.id,
                on.len(),
                run.order.len(),
                if in_flight.is_empty() {
                    String::new()
                } else {
                    format!(", {} more in flight", in_flight.len())
                }
            ),
            details,
            since: run.aborted.as_ref().map(|(_, at, _)| *at),
            subject: subject(None),
            acks: Vec::new(),
        });
        return out;
    }
    let stopped = matches!(
        run.status,
        crate::model::run::RunStatus::Aborted | crate::model::run::RunStatus::Halted { .. }
    );
    for id in &run.order {
        let Some(item) = run.items.get(id) else {
            continue;
        };
        let current = item.current_step();
        let failed = current.filter(|(_, v)| matches!(v.status, StepStatus::Failed { .. }));
        // In a person's hands or stuck, in a run that is not over: listed as such already.
        // Once the run is over, nothing it could do follows, so it is left mid-change.
        let listed = !run.status.is_final()
            && current.is_some_and(|(_, v)| {
                matches!(
                    v.status,
                    StepStatus::HandedOff { .. } | StepStatus::Blocked { .. }
                )
            });
        if listed || !mid_maintenance(item) || !(stopped || failed.is_some()) {
            continue;
        }
        let cordoned = left_cordoned(item);
        let mut details = Vec::new();
        match (failed, current) {
            (Some((step, view)), _) => details.push(format!(
                "{step} {}, set by {} {} ago ({})",
                view.status,
                view.by,
                age(now, view.since),
                when(view.since)
            )),
            (None, Some((step, view))) => match &view.status {
                StepStatus::HandedOff { to, .. } => details.push(format!(
                    "stood at {step}, in {to}'s hands (since {}): the run is over, so a \
                     return is refused and nothing follows",
                    when(view.since)
                )),
                status => details.push(format!("stood at {step}: {status}")),
            },
            (None, None) => {}
        }
        details.push(format!("run: {} ({})", run.title, run.status));
        details.extend(aborted.clone());
        details.push(if cordoned {
            "fleetdeck cordoned the node and never uncordoned it: check it, then uncordon it \
             (kubectl uncordon) once it is fit, or finish it in a new maintenance run"
                .into()
        } else {
            "fleetdeck had not cordoned it; pods may have been evicted".into()
        });
        if let Some(cluster) = &run.cluster {
            details.push(format!("cluster: {cluster}"));
        }
        out.push(HandoverItem {
            key: format!("left/{}/{id}", run.id),
            section: Section::LeftMidChange,
            title: format!(
                "{id} in {} left {}",
                run.id,
                if cordoned { "cordoned" } else { "mid-step" }
            ),
            details,
            since: current.map(|(_, v)| v.since),
            subject: subject(Some(id)),
            acks: Vec::new(),
        });
    }
    out
}

/// The handover as a Markdown report.
pub fn to_markdown(items: &[HandoverItem], input: &HandoverInput<'_>) -> String {
    let mut out = format!(
        "# Shift handover\n\nFrom {} to {} · {} item(s)\n",
        when(input.since),
        when(input.now),
        items.len()
    );
    if input.clusters.is_none() {
        out.push_str(
            "\nCluster statuses were not checked (no ledger, `--wait-synced 0s`, or the fleet could not be synced).\n",
        );
    }
    let mut section = None;
    for item in items {
        if section != Some(item.section) {
            section = Some(item.section);
            out.push_str(&format!("\n## {}\n\n", item.section.heading()));
        }
        // One line each: a note's own line breaks (or a `## ` it starts a line with) must
        // not end the list item or open a heading of its own.
        out.push_str(&format!("- **{}**\n", one_line(item.title.trim())));
        for d in &item.details {
            out.push_str(&format!("  - {}\n", one_line(d)));
        }
        for a in &item.acks {
            out.push_str(&format!(
                "  - acknowledged by {} at {}: {}\n",
                a.by,
                when(a.at),
                one_line(&a.note)
            ));
        }
    }
    if items.is_empty() {
        out.push_str("\nNothing to hand over: no pause, no waiting batch, no stuck or handed-off step, no halted rollout, no troubled cluster, no expiring exception, no note.\n");
    }
    out
}

#[cfg(test)]
#[path = "handover_tests.rs"]
mod tests;
