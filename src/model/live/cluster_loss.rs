//! Losing a whole cluster, asked of the fleet snapshot: nothing inside a lost cluster can
//! take its pods, so the question is its siblings'. Those with fresh data are asked what
//! they would take ([`absorb_cluster_loss`]) when the lost cluster's pods are known, and
//! each says the room it has now; those without fresh data take nothing. The CLI's
//! `capacity --what-if cluster=C` and the console's `L` both answer from here.

use std::sync::Arc;

use crate::i18n::Msg;
use crate::model::capacity::{
    AbsorbReport, CapacityConfig, ClusterIndex, Scenario, WhatIfReport, absorb_cluster_loss,
    amount_msg, dim_msg, format_amount, joined, pods_msg, what_if,
};
use crate::model::fleet::{ClusterView, NodeName};
use crate::model::maintenance::MaintenanceHolds;
use crate::model::text::counted;

use super::{ClusterStatus, FleetSnapshot};

/// A sibling with fresh data, before it takes anything.
#[derive(Debug, Clone)]
pub struct SiblingRoom {
    /// Its id.
    pub cluster: Arc<str>,
    /// `Synced`, or `Degraded` (counted, but part of its data is missing).
    pub status: ClusterStatus,
    /// Its capacity with nothing lost (headroom per dimension).
    pub baseline: WhatIfReport,
}

/// The answer.
#[derive(Debug, Clone)]
pub struct ClusterLoss {
    /// What the siblings would take; `None` when the lost cluster has no fresh data, so
    /// which pods it would shed is unknown.
    pub absorbed: Option<AbsorbReport>,
    /// Each sibling with fresh data, in the order given.
    pub room_now: Vec<SiblingRoom>,
    /// Siblings without fresh data (or not in the snapshot): they take nothing.
    pub not_counted: Vec<Arc<str>>,
}

/// Whether `siblings` could take `lost`'s pods, each cluster as capacity sees it (nodes
/// maintenance holds left out, those approved batches reserve taking nothing).
pub fn cluster_loss(
    lost: &str,
    siblings: &[&str],
    snapshot: &FleetSnapshot,
    holds: &MaintenanceHolds,
    config: &CapacityConfig,
) -> ClusterLoss {
    let mut fresh = Vec::new();
    let mut not_counted = Vec::new();
    for id in siblings {
        match snapshot.cluster(id) {
            Some(c) if c.status.data_usable() => fresh.push(c),
            Some(c) => not_counted.push(Arc::clone(&c.id)),
            None => not_counted.push(Arc::from(*id)),
        }
    }
    let views: Vec<(Arc<ClusterView>, &[NodeName])> = fresh
        .iter()
        .map(|c| {
            let held = holds.of(&c.view.id);
            (held.apply(&c.view), held.reserved.as_slice())
        })
        .collect();
    let indexes: Vec<ClusterIndex> = views
        .iter()
        .map(|(view, _)| ClusterIndex::new(view, config))
        .collect();
    let asked: Vec<(&ClusterIndex, &[NodeName])> = indexes
        .iter()
        .zip(&views)
        .map(|(index, (_, reserved))| (index, *reserved))
        .collect();
    let room_now = asked
        .iter()
        .zip(&fresh)
        .map(|((index, reserved), sibling)| SiblingRoom {
            cluster: Arc::clone(&sibling.id),
            status: sibling.status,
            baseline: what_if(index, &Scenario::Baseline, reserved),
        })
        .collect();
    let absorbed = snapshot
        .cluster(lost)
        .filter(|c| c.status.data_usable())
        .map(|c| {
            let view = holds.of(&c.view.id).apply(&c.view);
            absorb_cluster_loss(&ClusterIndex::new(&view, config), &asked)
        });
    ClusterLoss {
        absorbed,
        room_now,
        not_counted,
    }
}

/// One line of the answer in words, and whether it is trouble (pods that cannot move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LossLine {
    /// The sentence.
    pub text: String,
    /// The same sentence as a message, for the reader's language.
    pub msg: Msg,
    /// Whether it says pods would have nowhere to go.
    pub trouble: bool,
}

impl ClusterLoss {
    /// The answer in one line: how many pods the siblings would take, or that the lost
    /// cluster's pods are unknown.
    pub fn headline(&self) -> String {
        match &self.absorbed {
            Some(report) => format!(
                "{} of {} placed, {} cannot move",
                report.placed_pods,
                counted(i64::from(report.displaced_pods), "pod"),
                report.unplaced_pods()
            ),
            None => "its pods are unknown without fresh data; the room they have now:".into(),
        }
    }

    /// [`headline`](Self::headline) as a message.
    pub fn headline_msg(&self) -> Msg {
        match &self.absorbed {
            Some(report) => Msg::new("cap-loss-headline")
                .arg("placed", report.placed_pods.to_string())
                .arg("pods", pods_msg(i64::from(report.displaced_pods)))
                .arg("unplaced", report.unplaced_pods().to_string()),
            None => Msg::new("cap-loss-headline-unknown"),
        }
    }

    /// The answer's details, a sentence per line, as the CLI and the console print them:
    /// what each sibling takes and its headroom before → after (or, with the lost
    /// cluster's pods unknown, each sibling's headroom now), the siblings that take
    /// nothing and why, the pods none takes, and the siblings not counted.
    pub fn lines(&self) -> Vec<LossLine> {
        let line = |text: String, msg: Msg| LossLine {
            text,
            msg,
            trouble: false,
        };
        let headroom_msg = |parts: Vec<Msg>| joined(parts);
        let mut out = Vec::new();
        match &self.absorbed {
            Some(report) => {
                for s in report.siblings.iter().filter(|s| s.placed_pods > 0) {
                    let changed: Vec<_> = s
                        .absorbed
                        .iter()
                        .filter(|(_, amount)| *amount != 0)
                        .map(|(dim, _)| dim)
                        .collect();
                    let changes: Vec<String> = changed
                        .iter()
                        .map(|dim| {
                            format!(
                                "{dim} {} → {}",
                                format_amount(dim, s.headroom_before.get(dim)),
                                format_amount(dim, s.headroom_after.get(dim))
                            )
                        })
                        .collect();
                    let change_msgs = changed.iter().map(|dim| {
                        Msg::new("cap-loss-change")
                            .arg("dim", dim_msg(dim))
                            .arg("before", amount_msg(dim, s.headroom_before.get(dim)))
                            .arg("after", amount_msg(dim, s.headroom_after.get(dim)))
                    });
                    out.push(line(
                        format!(
                            "{}: takes {}; headroom {}",
                            s.cluster,
                            counted(i64::from(s.placed_pods), "pod"),
                            changes.join(", ")
                        ),
                        Msg::new("cap-loss-takes")
                            .arg("cluster", s.cluster.to_string())
                            .arg("pods", pods_msg(i64::from(s.placed_pods)))
                            .arg("headroom", headroom_msg(change_msgs.collect())),
                    ));
                }
                let idle = |runs: bool| -> Vec<&str> {
                    report
                        .siblings
                        .iter()
                        .filter(|s| s.placed_pods == 0 && s.runs_any == runs)
                        .map(|s| s.cluster.as_str())
                        .collect()
                };
                let (outrun, strangers) = (idle(true), idle(false));
                if !outrun.is_empty() {
                    out.push(line(
                        format!(
                            "take nothing (the others had more room): {}",
                            outrun.join(", ")
                        ),
                        Msg::new("cap-loss-take-nothing").arg("clusters", outrun.join(", ")),
                    ));
                }
                if !strangers.is_empty() {
                    out.push(line(
                        format!("run none of its workloads: {}", strangers.join(", ")),
                        Msg::new("cap-loss-run-none").arg("clusters", strangers.join(", ")),
                    ));
                }
                for g in &report.unplaced {
                    out.push(LossLine {
                        text: format!(
                            "{} of {} {}/{}: {}",
                            counted(i64::from(g.pods), "pod"),
                            g.owner.kind,
                            g.namespace,
                            g.owner.name,
                            g.reason
                        ),
                        msg: Msg::new("cap-loss-unplaced")
                            .arg("pods", pods_msg(i64::from(g.pods)))
                            .arg("kind", g.owner.kind.to_string())
                            .arg("namespace", g.namespace.to_string())
                            .arg("name", g.owner.name.to_string())
                            .arg("reason", g.reason.msg()),
                        trouble: true,
                    });
                }
            }
            None => {
                for room in &self.room_now {
                    let b = &room.baseline;
                    let dims: Vec<_> = b
                        .allocatable
                        .iter()
                        .filter(|(dim, amount)| *amount != 0 || b.demand.get(dim) != 0)
                        .map(|(dim, _)| dim)
                        .collect();
                    let headroom: Vec<String> = dims
                        .iter()
                        .map(|dim| format!("{dim} {}", format_amount(dim, b.headroom.get(dim))))
                        .collect();
                    let headroom_msgs = dims.iter().map(|dim| {
                        Msg::new("cap-loss-dim-amount")
                            .arg("dim", dim_msg(dim))
                            .arg("amount", amount_msg(dim, b.headroom.get(dim)))
                    });
                    let status = match room.status {
                        ClusterStatus::Synced => String::new(),
                        other => format!(" ({})", other.label()),
                    };
                    out.push(line(
                        format!("{}{status}: headroom {}", room.cluster, headroom.join(", ")),
                        Msg::new("cap-loss-room")
                            .arg("cluster", format!("{}{status}", room.cluster))
                            .arg("headroom", headroom_msg(headroom_msgs.collect())),
                    ));
                }
            }
        }
        if !self.not_counted.is_empty() {
            let names: Vec<&str> = self.not_counted.iter().map(|c| &**c).collect();
            out.push(line(
                format!(
                    "not counted (no fresh data, taking nothing): {}",
                    names.join(", ")
                ),
                Msg::new("cap-loss-not-counted").arg("clusters", names.join(", ")),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::capacity::{cluster, node, pod};
    use crate::model::fleet::ClusterId;
    use crate::model::live::ClusterSnapshot;

    fn member(id: &str, status: ClusterStatus, with_pod: bool) -> Arc<ClusterSnapshot> {
        let pods = if with_pod {
            vec![
                pod("web-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                    .cpu(1_000)
                    .build(),
            ]
        } else {
            Vec::new()
        };
        let mut view = cluster(vec![node("n1", "a").build()], pods);
        view.id = ClusterId::from(id);
        let mut snapshot = ClusterSnapshot::connecting(id);
        snapshot.status = status;
        snapshot.view = Arc::new(view);
        Arc::new(snapshot)
    }

    fn fleet(members: Vec<Arc<ClusterSnapshot>>) -> FleetSnapshot {
        FleetSnapshot {
            clusters: Arc::from(members),
            ..FleetSnapshot::empty()
        }
    }

    #[test]
    fn siblings_with_fresh_data_are_asked_and_the_others_take_nothing() {
        let snapshot = fleet(vec![
            member("lost", ClusterStatus::Synced, true),
            member("a", ClusterStatus::Degraded, true),
            member("b", ClusterStatus::Unreachable, true),
        ]);
        let ask = |snapshot: &FleetSnapshot| {
            cluster_loss(
                "lost",
                &["a", "b", "gone"],
                snapshot,
                &MaintenanceHolds::default(),
                &CapacityConfig::default(),
            )
        };
        let loss = ask(&snapshot);
        let absorbed = loss.absorbed.expect("the lost cluster's pods are known");
        assert_eq!((absorbed.displaced_pods, absorbed.placed_pods), (1, 1));
        assert_eq!(&*absorbed.siblings[0].cluster.0, "a");
        let room: Vec<(&str, ClusterStatus)> = loss
            .room_now
            .iter()
            .map(|r| (&*r.cluster, r.status))
            .collect();
        assert_eq!(room, [("a", ClusterStatus::Degraded)]);
        assert!(loss.room_now[0].baseline.headroom.cpu_millis() > 0);
        assert_eq!(
            loss.not_counted.iter().map(|c| &**c).collect::<Vec<_>>(),
            ["b", "gone"]
        );
        // Without fresh data on the lost cluster its pods are unknown: only the room.
        let unknown = fleet(vec![
            member("lost", ClusterStatus::Unreachable, true),
            member("a", ClusterStatus::Synced, true),
        ]);
        let loss = ask(&unknown);
        assert!(loss.absorbed.is_none());
        assert_eq!(loss.room_now.len(), 1);
        assert_eq!(
            loss.headline(),
            "its pods are unknown without fresh data; the room they have now:"
        );
        said_in_english_and_chinese(&loss);
        let said: Vec<String> = loss.lines().into_iter().map(|l| l.text).collect();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].starts_with("a: headroom CPU "), "{said:?}");
        assert_eq!(
            said[1],
            "not counted (no fresh data, taking nothing): b, gone"
        );
    }

    /// The messages say in English exactly what the lines say, and have Chinese.
    fn said_in_english_and_chinese(loss: &ClusterLoss) {
        use crate::i18n::Lang;
        assert_eq!(loss.headline_msg().text(Lang::En), loss.headline());
        assert_ne!(loss.headline_msg().text(Lang::ZhCn), loss.headline());
        for line in loss.lines() {
            assert_eq!(line.msg.text(Lang::En), line.text);
            let zh = line.msg.text(Lang::ZhCn);
            assert!(zh != line.text && !zh.contains('{'), "{zh}");
        }
    }

    #[test]
    fn the_answer_says_what_each_sibling_takes_and_what_none_does() {
        let mut lost = cluster(
            vec![node("n1", "a").build()],
            vec![
                pod("web-1", Some("n1"))
                    .owner("shop", "ReplicaSet", "web-5f6c7d8e9a")
                    .cpu(1_000)
                    .build(),
                pod("db-0", Some("n1"))
                    .owner("data", "StatefulSet", "db")
                    .domain("topology.kubernetes.io/zone", "a")
                    .build(),
            ],
        );
        lost.id = ClusterId::from("lost");
        let mut snapshot = ClusterSnapshot::connecting("lost");
        snapshot.status = ClusterStatus::Synced;
        snapshot.view = Arc::new(lost);
        let fleet = fleet(vec![
            Arc::new(snapshot),
            member("a", ClusterStatus::Synced, true),
            member("idle", ClusterStatus::Synced, false),
        ]);
        let loss = cluster_loss(
            "lost",
            &["a", "idle"],
            &fleet,
            &MaintenanceHolds::default(),
            &CapacityConfig::default(),
        );
        assert_eq!(loss.headline(), "1 of 2 pods placed, 1 cannot move");
        let said = loss.lines();
        said_in_english_and_chinese(&loss);
        use crate::i18n::Lang;
        assert_eq!(
            loss.headline_msg().text(Lang::ZhCn),
            "2 个 Pod 中 1 个已安置，1 个无法迁移"
        );
        assert!(
            said[0]
                .msg
                .text(Lang::ZhCn)
                .starts_with("a：接收 1 个 Pod；余量 CPU "),
            "{}",
            said[0].msg.text(Lang::ZhCn)
        );
        assert!(
            said[0].text.starts_with("a: takes 1 pod; headroom CPU ") && !said[0].trouble,
            "{said:?}"
        );
        assert_eq!(said[1].text, "run none of its workloads: idle");
        assert!(said[2].trouble, "{said:?}");
        assert!(
            said[2].text.starts_with("1 pod of StatefulSet data/db: "),
            "{said:?}"
        );
        assert_eq!(said.len(), 3);
    }
}
