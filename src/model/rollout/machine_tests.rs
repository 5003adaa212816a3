//! The rollout reducer's tests, over 600 lines: one scenario per behaviour, all driven
//! through the same helpers at the top; they split by phase (approval, verification, soak,
//! halts, restart) together with the reducer.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::*;
use crate::model::rollout::gates::MetricReading;
use crate::model::rollout::planner::{PlannedStage, RolloutPlan};
use crate::model::rollout::spec::{
    ApprovalPolicy, BurnRateLimit, FailedLimit, Pick, StopWhen, UnknownMetrics,
};
use crate::model::rollout::{AppliedSeen, Refusal, ReleaseDigest};
use crate::model::run::{Actor, RunId};

const SOAK: Duration = Duration::from_secs(600);

fn digest() -> ReleaseDigest {
    ReleaseDigest("sha256:new".into())
}

fn id(c: &str) -> ClusterId {
    ClusterId(c.into())
}

fn alice() -> Actor {
    Actor("alice@h".into())
}

fn bob() -> Actor {
    Actor("bob@h".into())
}

fn t(secs: i64) -> Timestamp {
    Timestamp::from_second(1_750_000_000 + secs).unwrap_or_default()
}

fn stage(name: &str, batches: &[&[&str]], approval: Approval) -> PlannedStage {
    PlannedStage {
        name: name.into(),
        pick: Pick::Ordered,
        approval,
        soak: SOAK,
        batches: batches
            .iter()
            .map(|b| b.iter().map(|c| id(c)).collect())
            .collect(),
        covers: Vec::new(),
        newly_covered: Vec::new(),
        untested_before: Vec::new(),
    }
}

fn stop(failed: u32, unknown: UnknownMetrics) -> StopWhen {
    StopWhen {
        failed_clusters: FailedLimit::Count(failed),
        slo_burn_rate: Some(BurnRateLimit {
            objective: 0.999,
            window: Duration::from_secs(3600),
            max_burn: 10.0,
            error_ratio_query: None,
            short: None,
        }),
        unknown_metrics: unknown,
    }
}

/// canary [a] (approval required), then wave [b, c] (auto).
fn run_with(applied: &[(&str, &str)], stop_when: StopWhen) -> RunState {
    let plan = RolloutPlan {
        release: "r".into(),
        targets: 3,
        combinations: 1,
        stages: vec![
            stage("canary", &[&["a"]], Approval::Required),
            stage("wave", &[&["b", "c"]], Approval::Auto),
        ],
        warnings: Vec::new(),
        live_drift: Vec::new(),
        not_observed: Vec::new(),
    };
    let applied: BTreeMap<ClusterId, ReleaseDigest> = applied
        .iter()
        .map(|(c, d)| (id(c), ReleaseDigest(d.to_string())))
        .collect();
    RunState::from_plan(
        RunId("ro-1".into()),
        alice(),
        digest(),
        &plan,
        stop_when,
        ApprovalPolicy::DistinctFromAuthor,
        &applied,
    )
}

fn run() -> RunState {
    run_with(&[], stop(1, UnknownMetrics::Stop))
}

fn ok(c: &str) -> Observation {
    Observation::Applied {
        cluster: id(c),
        result: Ok(digest()),
    }
}

fn pass(c: &str) -> Observation {
    Observation::Verified {
        cluster: id(c),
        outcome: VerifyOutcome::Pass,
    }
}

fn healthy(clusters: &[&str]) -> Observation {
    evidence(
        clusters
            .iter()
            .map(|c| {
                (
                    *c,
                    MetricReading::Known {
                        error_ratio: 0.0002,
                    },
                )
            })
            .collect(),
    )
}

fn evidence(readings: Vec<(&str, MetricReading)>) -> Observation {
    Observation::Evidence(Evidence {
        at: None,
        readings: readings.into_iter().map(|(c, r)| (id(c), r)).collect(),
        ..Evidence::default()
    })
}

fn applies(actions: &[Action]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Apply { cluster, .. } => Some(cluster.to_string()),
            _ => None,
        })
        .collect()
}

/// The run with its canary batch approved by bob at t(1) (its apply asked for).
fn canary_approved() -> RunState {
    let (s, _) = step(run(), t(0), Observation::Tick);
    let (s, _) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: bob(),
            note: "go".into(),
        },
    );
    s
}

fn refusal(actions: &[Action]) -> Option<&Refusal> {
    actions.iter().find_map(|a| match a {
        Action::Refused(r) => Some(r),
        _ => None,
    })
}

/// Drives the canary to "soaking with evidence", returning the state.
#[test]
fn a_soak_without_evidence_waits_for_evidence_gathered_as_it_ends() {
    // Soaking from t(3) for 600 s; no evidence came during it (the executor's interval
    // was longer than the soak).
    let s = canary_approved();
    let (s, _) = step(s, t(2), ok("a"));
    let (s, _) = step(s, t(3), pass("a"));
    assert!(
        !soak_awaits_evidence(&s, t(3 + 599)),
        "the soak is not over"
    );
    let (s, out) = step(s, t(3 + 600), Observation::Tick);
    assert_eq!(
        s.status,
        RolloutStatus::Running,
        "not halted for lack of evidence"
    );
    assert!(applies(&out).is_empty(), "nothing new starts meanwhile");
    assert!(
        out.contains(&Action::CollectEvidence {
            clusters: vec![id("a")]
        }),
        "{out:?}"
    );
    assert!(soak_awaits_evidence(&s, t(3 + 601)));

    // Healthy evidence gathered as it ends: the batch is done, the next one starts.
    let (done, out) = step(s.clone(), t(3 + 602), healthy(&["a"]));
    assert!(!soak_awaits_evidence(&done, t(3 + 602)));
    assert_eq!(done.batches[0].phase, BatchPhase::Done);
    assert_eq!(applies(&out), vec!["b", "c"]);

    // Evidence of a burn: halted, as during the soak.
    let (burnt, _) = step(
        s,
        t(3 + 602),
        evidence(vec![("a", MetricReading::Known { error_ratio: 0.5 })]),
    );
    assert!(matches!(
        &burnt.status,
        RolloutStatus::Halted {
            why: HaltReason::BurnRate { .. }
        }
    ));
}

fn canary_soaking() -> RunState {
    let s = canary_approved();
    let (s, _) = step(s, t(2), ok("a"));
    let (s, _) = step(s, t(3), pass("a"));
    let (s, _) = step(s, t(10), healthy(&["a"]));
    s
}

#[test]
fn a_pause_across_a_soaks_end_needs_evidence_from_after_it() {
    // Soaking from t(3) for 600 s with evidence at t(10); paused at t(20) and resumed an
    // hour later, after the soak's end.
    let s = canary_soaking();
    let (s, _) = step(
        s,
        t(20),
        Observation::Pause {
            by: bob(),
            reason: "look at the canary".into(),
        },
    );
    let (s, out) = step(
        s,
        t(3600),
        Observation::Resume {
            by: bob(),
            note: "carry on".into(),
        },
    );
    assert_eq!(s.status, RolloutStatus::Running);
    assert!(
        applies(&out).is_empty(),
        "nothing starts on old evidence: {out:?}"
    );
    assert!(soak_awaits_evidence(&s, t(3601)));
    // Evidence from now ends the soak.
    let (done, out) = step(s, t(3602), healthy(&["a"]));
    assert_eq!(done.batches[0].phase, BatchPhase::Done);
    assert_eq!(applies(&out), vec!["b", "c"]);
}

#[test]
fn the_canary_waits_for_approval_then_applies_verifies_soaks_and_the_next_stage_starts() {
    let (s, out) = step(run(), t(0), Observation::Tick);
    assert_eq!(s.batches[0].phase, BatchPhase::AwaitingApproval);
    assert!(out.contains(&Action::AwaitApproval { batch: 0 }));
    assert!(applies(&out).is_empty());

    let (s, out) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: bob(),
            note: "go".into(),
        },
    );
    assert_eq!(applies(&out), vec!["a"]);
    assert_eq!(s.items[&id("a")].phase, ItemPhase::Applying);
    assert_eq!(s.items[&id("a")].staged, Some(digest()));
    let key = out.iter().find_map(|a| match a {
        Action::Apply { key, .. } => Some(key.clone()),
        _ => None,
    });
    assert_eq!(key, Some(IdempotencyKey("ro-1/a/apply/intent#1".into())));

    let (s, out) = step(s, t(2), ok("a"));
    assert!(out.contains(&Action::Verify { cluster: id("a") }));
    assert_eq!(s.items[&id("a")].applied, Some(digest()));
    assert_eq!(s.batches[0].phase, BatchPhase::Verifying);

    let (s, out) = step(s, t(3), pass("a"));
    let until = t(3 + 600);
    assert!(matches!(s.batches[0].phase, BatchPhase::Soaking { until: u, .. } if u == until));
    assert!(out.contains(&Action::WakeAt(until)));
    assert!(out.contains(&Action::CollectEvidence {
        clusters: vec![id("a")]
    }));

    // Evidence during the soak, then the soak ends: the wave starts on its own.
    let (s, _) = step(s, t(10), healthy(&["a"]));
    let (s, out) = step(s, t(300), Observation::Tick);
    assert!(applies(&out).is_empty(), "still soaking");
    let (s, out) = step(s, until, Observation::Tick);
    assert_eq!(s.batches[0].phase, BatchPhase::Done);
    assert_eq!(s.current, 1);
    assert_eq!(applies(&out), vec!["b", "c"]);

    let (s, _) = step(s, t(700), ok("b"));
    let (s, _) = step(s, t(701), ok("c"));
    let (s, _) = step(s, t(702), pass("b"));
    let (s, _) = step(s, t(703), pass("c"));
    let (s, _) = step(s, t(704), healthy(&["a", "b", "c"]));
    let (s, out) = step(s, t(703 + 600), Observation::Tick);
    assert_eq!(s.status, RolloutStatus::Succeeded);
    assert!(out.iter().any(|a| matches!(
        a,
        Action::Journal {
            body: EventBody::RunStatusChanged { .. },
            ..
        }
    )));
}

#[test]
fn distinct_approver_refuses_the_author_and_automation_and_wrong_batches() {
    let (s, _) = step(run(), t(0), Observation::Tick);
    let (s, out) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: alice(),
            note: "mine".into(),
        },
    );
    assert_eq!(s.batches[0].phase, BatchPhase::AwaitingApproval);
    assert!(matches!(
        refusal(&out),
        Some(Refusal::AuthorCannotApprove { .. })
    ));
    assert!(refusal(&out).is_some_and(|r| r.to_string().contains("cannot approve")));
    assert!(applies(&out).is_empty());
    let (s, out) = step(
        s,
        t(2),
        Observation::Approve {
            batch: 0,
            by: Actor("executor/x".into()),
            note: String::new(),
        },
    );
    assert!(matches!(refusal(&out), Some(Refusal::OnlyAPerson { .. })));
    let (s, out) = step(
        s,
        t(3),
        Observation::Approve {
            batch: 1,
            by: bob(),
            note: String::new(),
        },
    );
    assert!(matches!(
        refusal(&out),
        Some(Refusal::NotAwaitingApproval { batch: 1, .. })
    ));
    let (s, out) = step(
        s,
        t(4),
        Observation::Approve {
            batch: 9,
            by: bob(),
            note: String::new(),
        },
    );
    assert!(refusal(&out).is_some());
    assert_eq!(s.batches[0].phase, BatchPhase::AwaitingApproval);
}

#[test]
fn a_burn_rate_halts_with_the_numbers_and_stops_new_items_until_a_person_resumes() {
    let s = canary_soaking();
    let (s, out) = step(
        s,
        t(20),
        evidence(vec![("a", MetricReading::Known { error_ratio: 0.05 })]),
    );
    let RolloutStatus::Halted { why } = &s.status else {
        panic!("not halted: {:?}", s.status);
    };
    assert!(
        why.to_string().contains("SLO burn rate 50.0x on a"),
        "{why}"
    );
    assert!(matches!(s.batches[0].phase, BatchPhase::Halted { .. }));
    assert!(out.iter().any(|a| matches!(
        a,
        Action::Journal {
            body: EventBody::RolloutHalted { .. },
            ..
        }
    )));
    // Time passes: nothing starts.
    let (s, out) = step(s, t(5000), Observation::Tick);
    assert!(applies(&out).is_empty());
    assert_eq!(s.current, 0);
    // Automation cannot resume.
    let (s, out) = step(
        s,
        t(5001),
        Observation::Resume {
            by: Actor("executor/x".into()),
            note: String::new(),
        },
    );
    assert!(matches!(refusal(&out), Some(Refusal::OnlyAPerson { .. })));
    assert!(matches!(s.status, RolloutStatus::Halted { .. }));
    // A person resumes: the batch soaks again and needs fresh evidence.
    let (s, out) = step(
        s,
        t(5002),
        Observation::Resume {
            by: bob(),
            note: "fixed".into(),
        },
    );
    assert_eq!(s.status, RolloutStatus::Running);
    assert!(matches!(
        s.batches[0].phase,
        BatchPhase::Soaking {
            evidence_at: None,
            ..
        }
    ));
    assert!(out.contains(&Action::WakeAt(t(5002 + 600))));
}

#[test]
fn missing_metrics_halt_as_unknown_whether_reported_or_absent() {
    let s = canary_soaking();
    let (s, _) = step(
        s,
        t(20),
        evidence(vec![(
            "a",
            MetricReading::Unknown {
                why: "no samples for 5m".into(),
            },
        )]),
    );
    let RolloutStatus::Halted { why } = &s.status else {
        panic!("not halted");
    };
    assert!(why.to_string().starts_with("metrics unknown"), "{why}");

    // No evidence at all during the soak: it does not end until evidence is gathered;
    // gathered and unknown, it halts naming why.
    let s = canary_approved();
    let (s, _) = step(s, t(2), ok("a"));
    let (s, _) = step(s, t(3), pass("a"));
    let (s, _) = step(
        s,
        t(4),
        evidence(vec![(
            "a",
            MetricReading::Unknown {
                why: "Prometheus unreachable".into(),
            },
        )]),
    );
    let RolloutStatus::Halted { why } = &s.status else {
        panic!("not halted");
    };
    assert!(why.to_string().contains("Prometheus unreachable"), "{why}");

    // unknownMetrics: ignore carries on.
    let (s, _) = step(
        run_with(&[], stop(1, UnknownMetrics::Ignore)),
        t(0),
        Observation::Tick,
    );
    let (s, _) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: bob(),
            note: "go".into(),
        },
    );
    let (s, _) = step(s, t(2), ok("a"));
    let (s, _) = step(s, t(3), pass("a"));
    let (s, _) = step(
        s,
        t(4),
        evidence(vec![("a", MetricReading::Unknown { why: "x".into() })]),
    );
    let (s, out) = step(s, t(3 + 600), Observation::Tick);
    assert_eq!(s.status, RolloutStatus::Running);
    assert_eq!(applies(&out), vec!["b", "c"]);
}

#[test]
fn failed_clusters_halt_at_the_limit_and_a_resume_accepts_them() {
    let (s, _) = step(
        run_with(&[], stop(2, UnknownMetrics::Stop)),
        t(0),
        Observation::Tick,
    );
    let (s, _) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: bob(),
            note: "go".into(),
        },
    );
    let (s, _) = step(
        s,
        t(2),
        Observation::Applied {
            cluster: id("a"),
            result: Err("helm: timed out".into()),
        },
    );
    assert!(matches!(s.items[&id("a")].phase, ItemPhase::Failed { .. }));
    assert_eq!(s.status, RolloutStatus::Running, "1 failure, limit 2");
    let (s, _) = step(s, t(3), healthy(&["a"]));
    let (s, _) = step(s, t(2 + 600), Observation::Tick);
    assert_eq!(s.current, 1);
    let (s, _) = step(
        s,
        t(700),
        Observation::Verified {
            cluster: id("b"),
            outcome: VerifyOutcome::Pass,
        },
    );
    let (s, _) = step(
        s,
        t(701),
        Observation::Applied {
            cluster: id("b"),
            result: Err("boom".into()),
        },
    );
    let RolloutStatus::Halted { why } = &s.status else {
        panic!("not halted");
    };
    assert_eq!(
        why.to_string(),
        "2 of 2 finished cluster(s) failed, stop limit 2: a, b"
    );
    // c is still applying: its outcome is recorded, but nothing new starts.
    let (s, out) = step(s, t(702), ok("c"));
    assert_eq!(s.items[&id("c")].applied, Some(digest()));
    assert!(out.contains(&Action::Verify { cluster: id("c") }));
    let (s, _) = step(s, t(703), pass("c"));
    let (s, _) = step(
        s,
        t(704),
        Observation::Resume {
            by: bob(),
            note: "known flake".into(),
        },
    );
    assert_eq!(s.status, RolloutStatus::Running);
    assert_eq!(s.accepted_failures, 2);
}

#[test]
fn an_unknown_verification_halts_and_a_resume_verifies_again() {
    let s = canary_approved();
    let (s, _) = step(s, t(2), ok("a"));
    let (s, _) = step(
        s,
        t(3),
        Observation::Verified {
            cluster: id("a"),
            outcome: VerifyOutcome::Unknown {
                why: "API unreachable".into(),
            },
        },
    );
    let RolloutStatus::Halted { why } = &s.status else {
        panic!("not halted");
    };
    assert_eq!(why.to_string(), "outcome unknown on a: API unreachable");
    let (s, out) = step(
        s,
        t(4),
        Observation::Resume {
            by: bob(),
            note: "back".into(),
        },
    );
    assert!(out.contains(&Action::Verify { cluster: id("a") }));
    assert_eq!(s.batches[0].phase, BatchPhase::Verifying);
    assert!(
        applies(&out).is_empty(),
        "verifying again never applies again"
    );
}

#[test]
fn a_cluster_that_already_runs_the_digest_is_verified_not_applied() {
    let s = run_with(
        &[("a", "sha256:new"), ("b", "sha256:old")],
        stop(1, UnknownMetrics::Stop),
    );
    let (s, _) = step(s, t(0), Observation::Tick);
    let (s, out) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: bob(),
            note: "go".into(),
        },
    );
    // The journal says so; the cluster's release record is read before anything else.
    assert!(applies(&out).is_empty());
    assert_eq!(
        out.last(),
        Some(&Action::ObserveApplied { cluster: id("a") })
    );
    let (_, out) = step(s.clone(), t(1), Observation::Tick);
    assert_eq!(
        out,
        vec![Action::ObserveApplied { cluster: id("a") }],
        "asked again each tick until it answers"
    );
    let (s, out) = step(
        s,
        t(1),
        Observation::Reconciled {
            cluster: id("a"),
            seen: AppliedSeen::Digest { digest: digest() },
        },
    );
    assert!(applies(&out).is_empty());
    assert!(out.contains(&Action::Verify { cluster: id("a") }));
    assert_eq!(s.items[&id("a")].phase, ItemPhase::Verifying);
    assert_eq!(
        s.items[&id("a")].staged,
        None,
        "nothing staged: nothing to apply"
    );
    let (_, out) = step(s.clone(), t(1), Observation::Tick);
    assert!(out.is_empty(), "confirmed: nothing more to read: {out:?}");
    let (s, _) = step(s, t(2), pass("a"));
    let (s, _) = step(s, t(3), healthy(&["a"]));
    let (_, out) = step(s, t(2 + 600), Observation::Tick);
    assert_eq!(
        applies(&out),
        vec!["b", "c"],
        "b runs an older digest: applied"
    );
}

#[test]
fn a_cluster_the_journal_wrongly_says_runs_the_digest_is_applied() {
    // Rebuilt under the same id: the journal's latest release for it is the run's, but
    // its release record shows nothing.
    let s = run_with(&[("a", "sha256:new")], stop(1, UnknownMetrics::Stop));
    let (s, _) = step(s, t(0), Observation::Tick);
    let approve = Observation::Approve {
        batch: 0,
        by: bob(),
        note: "go".into(),
    };
    let (s, _) = step(s, t(1), approve);
    let seen = |seen| Observation::Reconciled {
        cluster: id("a"),
        seen,
    };
    // Unreadable: nothing decided.
    let (s, out) = step(
        s,
        t(2),
        seen(AppliedSeen::Unreachable {
            why: "timeout".into(),
        }),
    );
    assert!(out.is_empty(), "{out:?}");
    let (paused, _) = step(
        s.clone(),
        t(3),
        Observation::Pause {
            by: bob(),
            reason: "wait".into(),
        },
    );
    let (s, out) = step(s, t(3), seen(AppliedSeen::Nothing));
    assert_eq!(applies(&out), ["a"]);
    assert!(matches!(s.items[&id("a")].phase, ItemPhase::Applying));
    assert!(!s.items[&id("a")].confirming);
    assert_eq!(s.items[&id("a")].applied, None);

    // Paused meanwhile: the apply waits for the resume, like any new one.
    let (paused, out) = step(paused, t(4), seen(AppliedSeen::Nothing));
    assert!(applies(&out).is_empty());
    assert_eq!(paused.items[&id("a")].phase, ItemPhase::Pending);
    let (_, out) = step(
        paused,
        t(5),
        Observation::Resume {
            by: bob(),
            note: "go on".into(),
        },
    );
    assert_eq!(applies(&out), ["a"]);
}

#[test]
fn a_release_record_unreadable_for_too_long_halts_the_run_and_a_resume_asks_again() {
    use crate::model::rollout::RECORD_READ_LIMIT;
    let unreadable = |at| {
        (
            at,
            Observation::Reconciled {
                cluster: id("a"),
                seen: AppliedSeen::Unreachable {
                    why: "identity mismatch".into(),
                },
            },
        )
    };
    let limit = RECORD_READ_LIMIT.as_secs();
    // Confirming a journaled release, and settling an apply after a restart, alike.
    let confirming = {
        let s = run_with(&[("a", "sha256:new")], stop(1, UnknownMetrics::Stop));
        let (s, _) = step(s, t(0), Observation::Tick);
        step(
            s,
            t(1),
            Observation::Approve {
                batch: 0,
                by: bob(),
                note: "go".into(),
            },
        )
        .0
    };
    let settling = step(canary_approved(), t(1), Observation::Restarted).0;
    for s in [confirming, settling] {
        let (at, seen) = unreadable(t(1 + limit - 1));
        let (s, out) = step(s, at, seen);
        assert_eq!(s.status, RolloutStatus::Running, "within the limit");
        assert!(out.is_empty(), "{out:?}");
        let (at, seen) = unreadable(t(1 + limit));
        let (s, _) = step(s, at, seen);
        assert!(
            matches!(&s.status, RolloutStatus::Halted { why: HaltReason::OutcomeUnknown { cluster, why } }
                if cluster == "a" && why.contains("could not be read for 10 minutes: identity mismatch")),
            "{:?}",
            s.status
        );
        assert_eq!(
            s.items[&id("a")].phase,
            ItemPhase::Applying,
            "still to be settled"
        );
        // A person resumes: the record is asked for again, with a fresh allowance.
        let (s, _) = step(
            s,
            t(2000),
            Observation::Resume {
                by: bob(),
                note: "fixed the pin".into(),
            },
        );
        let (_, out) = step(s.clone(), t(2001), Observation::Tick);
        assert_eq!(out, vec![Action::ObserveApplied { cluster: id("a") }]);
        let (at, seen) = unreadable(t(2000 + limit - 1));
        let (s, _) = step(s, at, seen);
        assert_eq!(s.status, RolloutStatus::Running);
    }
}

#[test]
fn a_run_journaled_before_records_were_read_first_replays_as_decided() {
    let mut s = run_with(&[("a", "sha256:new")], stop(1, UnknownMetrics::Stop));
    s.confirm_applied = false;
    let (s, _) = step(s, t(0), Observation::Tick);
    let (s, out) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: bob(),
            note: "go".into(),
        },
    );
    assert!(
        out.contains(&Action::Verify { cluster: id("a") }),
        "{out:?}"
    );
    assert_eq!(s.items[&id("a")].phase, ItemPhase::Verifying);
}

#[test]
fn after_a_restart_the_applied_digest_decides_whether_to_apply_again() {
    let s = canary_approved();
    // The executor died after the intent: no outcome. A new one replays and restarts.
    let (s, out) = step(s.clone(), t(100), Observation::Restarted);
    assert_eq!(out, vec![Action::ObserveApplied { cluster: id("a") }]);

    // The cluster has it: verify, never apply.
    let (happened, out) = step(
        s.clone(),
        t(101),
        Observation::Reconciled {
            cluster: id("a"),
            seen: AppliedSeen::Digest { digest: digest() },
        },
    );
    assert!(applies(&out).is_empty());
    assert!(out.contains(&Action::Verify { cluster: id("a") }));
    assert_eq!(happened.items[&id("a")].applied, Some(digest()));

    // It does not: apply again under a new attempt's key.
    let (_, out) = step(
        s.clone(),
        t(101),
        Observation::Reconciled {
            cluster: id("a"),
            seen: AppliedSeen::Nothing,
        },
    );
    assert_eq!(
        out.iter().find_map(|a| match a {
            Action::Apply { key, .. } => Some(key.0.clone()),
            _ => None,
        }),
        Some("ro-1/a/apply/intent#2".to_string())
    );

    // Cannot tell: ask again on the next tick, decide nothing.
    let (s, out) = step(
        s,
        t(101),
        Observation::Reconciled {
            cluster: id("a"),
            seen: AppliedSeen::Unreachable {
                why: "timeout".into(),
            },
        },
    );
    assert!(applies(&out).is_empty());
    let (_, out) = step(s, t(130), Observation::Tick);
    assert_eq!(out, vec![Action::ObserveApplied { cluster: id("a") }]);
}

#[test]
fn an_apply_that_reported_before_a_restart_is_folded_as_reported_not_applied_again() {
    use crate::model::rollout::{apply_result, unfolded_applies};
    let s = canary_approved();
    // The executor journaled the failed apply's outcome, then died before folding it.
    let journaled: BTreeMap<String, serde_json::Value> = BTreeMap::from([(
        "ro-1/a/apply/intent#1".to_string(),
        serde_json::json!({"Err": "configmaps is forbidden"}),
    )]);
    let outcome_of = |key: &IdempotencyKey| journaled.get(&key.0).and_then(apply_result);
    let reports = unfolded_applies(&s, outcome_of);
    assert_eq!(
        reports,
        vec![Observation::Applied {
            cluster: id("a"),
            result: Err("configmaps is forbidden".into()),
        }]
    );
    let (s, _) = step(s, t(100), reports[0].clone());
    let (s, out) = step(s, t(100), Observation::Restarted);
    assert!(
        matches!(s.items[&id("a")].phase, ItemPhase::Failed { .. }),
        "{:?}",
        s.items[&id("a")].phase
    );
    assert!(
        out.is_empty(),
        "nothing to settle, nothing applied: {out:?}"
    );

    // An outcome of another attempt, or none at all, leaves the apply to be settled by
    // reading the cluster.
    let s = canary_approved();
    assert!(unfolded_applies(&s, |_| None).is_empty());
    let next_attempt =
        |key: &IdempotencyKey| (key.0 == "ro-1/a/apply/intent#2").then(|| Ok(digest()));
    assert!(unfolded_applies(&s, next_attempt).is_empty());
    // Outcomes settled by reading the cluster carry what was seen too.
    assert_eq!(
        apply_result(&serde_json::json!({"Ok": digest(), "observed": {"seen": "nothing"}})),
        Some(Ok(digest()))
    );
}

/// The apply outcome a step journaled, if any: its key, intent, verdict and detail.
fn settled(out: &[Action]) -> Option<(String, String, bool, serde_json::Value)> {
    out.iter().find_map(|a| match a {
        Action::Journal {
            cluster: Some(_),
            key,
            body: EventBody::Outcome { intent, ok, detail },
        } => Some((key.0.clone(), intent.0.clone(), *ok, detail.clone())),
        _ => None,
    })
}

#[test]
fn an_apply_settled_after_a_restart_closes_its_intent() {
    use crate::model::run::{Event, NewEvent, Projection, Sequence};
    let (s, _) = step(run(), t(0), Observation::Tick);
    let (s, out) = step(
        s,
        t(1),
        Observation::Approve {
            batch: 0,
            by: bob(),
            note: "go".into(),
        },
    );
    assert_eq!(applies(&out), ["a"]);
    let (s, _) = step(s, t(100), Observation::Restarted);
    let reconciled = |seen| {
        let (_, out) = step(
            s.clone(),
            t(101),
            Observation::Reconciled {
                cluster: id("a"),
                seen,
            },
        );
        out
    };
    let intent = "ro-1/a/apply/intent#1";
    let outcome_key = "ro-1/a/apply/intent#1/outcome";

    // Applied before the executor died: closed as done, with what the cluster showed.
    let seen = AppliedSeen::Digest { digest: digest() };
    let (key, settled_intent, ok, detail) =
        settled(&reconciled(seen.clone())).expect("an outcome for the intent");
    assert_eq!(
        (key.as_str(), settled_intent.as_str(), ok),
        (outcome_key, intent, true)
    );
    assert_eq!(detail["Ok"], serde_json::json!(digest()));
    assert_eq!(detail["observed"], serde_json::json!(seen));

    // Never applied: closed as not done, naming the apply that replaces it.
    let out = reconciled(AppliedSeen::Nothing);
    let (key, settled_intent, ok, detail) = settled(&out).expect("an outcome for the intent");
    assert_eq!(
        (key.as_str(), settled_intent.as_str(), ok),
        (outcome_key, intent, false)
    );
    assert_eq!(
        detail["Err"],
        "not done; applied again as ro-1/a/apply/intent#2"
    );
    // The outcome comes before the new intent, in the same journal transaction.
    let outcome_at = out.iter().position(|a| {
        matches!(
            a,
            Action::Journal {
                body: EventBody::Outcome { .. },
                ..
            }
        )
    });
    let apply_at = out.iter().position(|a| matches!(a, Action::Apply { .. }));
    assert!(outcome_at < apply_at, "{out:?}");

    // Cannot tell yet: the intent stays open.
    let unreachable = AppliedSeen::Unreachable {
        why: "timeout".into(),
    };
    assert_eq!(settled(&reconciled(unreachable)), None);

    // Folded, the intent and its outcome leave nothing open.
    let event = |seq: i64, key: &str, body: EventBody| Event {
        seq: Sequence(seq),
        token: None,
        event: NewEvent::new(
            t(seq),
            Actor("executor/x".into()),
            IdempotencyKey(key.into()),
            body,
        )
        .with_run(RunId("ro-1".into()))
        .with_item(ItemId("a".into()))
        .with_cluster(id("a")),
    };
    let events = vec![
        event(
            1,
            "plan",
            EventBody::RunPlanned {
                title: "r".into(),
                items: vec!["a".into()],
                batches: vec![vec!["a".into()]],
                spec: serde_json::Value::Null,
            },
        ),
        event(
            2,
            intent,
            EventBody::Intent {
                action: "apply".into(),
                detail: serde_json::Value::Null,
                identity: None,
            },
        ),
        event(
            3,
            outcome_key,
            EventBody::Outcome {
                intent: IdempotencyKey(intent.into()),
                ok,
                detail,
            },
        ),
    ];
    let p = Projection::replay(&events);
    assert!(
        p.runs[&RunId("ro-1".into())].items[&ItemId("a".into())]
            .open_intents
            .is_empty()
    );
}

#[test]
fn pausing_stops_new_items_reverts_nothing_and_resuming_continues() {
    let s = canary_soaking();
    let (s, out) = step(
        s,
        t(20),
        Observation::Pause {
            by: Actor("executor/x".into()),
            reason: "fleet freeze".into(),
        },
    );
    assert!(matches!(s.status, RolloutStatus::Paused { .. }));
    assert!(out.iter().all(|a| matches!(a, Action::Journal { .. })));
    let (s, out) = step(s, t(2000), Observation::Tick);
    assert!(applies(&out).is_empty());
    assert_eq!(
        s.items[&id("a")].applied,
        Some(digest()),
        "nothing reverted"
    );
    let (s, out) = step(
        s,
        t(2001),
        Observation::Resume {
            by: bob(),
            note: "thawed".into(),
        },
    );
    // The soak ended during the pause: it ends on evidence from after it.
    assert!(applies(&out).is_empty());
    let (s, out) = step(s, t(2002), healthy(&["a"]));
    assert_eq!(applies(&out), vec!["b", "c"]);
    assert_eq!(s.current, 1);
}

#[test]
fn an_abort_is_final_and_belongs_to_a_person() {
    let s = canary_soaking();
    let (s, out) = step(
        s,
        t(20),
        Observation::Abort {
            by: Actor("executor/x".into()),
            note: String::new(),
        },
    );
    assert!(refusal(&out).is_some());
    let (s, _) = step(
        s,
        t(21),
        Observation::Abort {
            by: bob(),
            note: "wrong release".into(),
        },
    );
    assert!(matches!(s.status, RolloutStatus::Aborted { .. }));
    let (s, out) = step(s, t(5000), Observation::Tick);
    assert!(applies(&out).is_empty());
    let (_, out) = step(
        s,
        t(5001),
        Observation::Resume {
            by: bob(),
            note: String::new(),
        },
    );
    assert!(matches!(refusal(&out), Some(Refusal::NotNow { .. })));
}

#[test]
fn journal_keys_are_unique_and_the_projection_folds_the_events() {
    use crate::model::run::{Event, NewEvent, Projection, Sequence};
    let mut s = run();
    let mut actions = Vec::new();
    let script = vec![
        (0, Observation::Tick),
        (
            1,
            Observation::Approve {
                batch: 0,
                by: bob(),
                note: "go".into(),
            },
        ),
        (2, ok("a")),
        (3, pass("a")),
        (4, healthy(&["a"])),
        (603, Observation::Tick),
        (604, ok("b")),
        (
            605,
            evidence(vec![("b", MetricReading::Known { error_ratio: 0.5 })]),
        ),
    ];
    for (at, obs) in script {
        let (next, out) = step(s, t(at), obs);
        s = next;
        actions.extend(out);
    }
    let mut keys = BTreeSet::new();
    let mut events = vec![Event {
        seq: Sequence(1),
        token: None,
        event: NewEvent::new(
            t(0),
            alice(),
            IdempotencyKey("plan".into()),
            EventBody::RunPlanned {
                title: "r".into(),
                items: vec!["a".into(), "b".into(), "c".into()],
                batches: vec![vec!["a".into()], vec!["b".into(), "c".into()]],
                spec: serde_json::Value::Null,
            },
        )
        .with_run(RunId("ro-1".into())),
    }];
    for action in &actions {
        if let Action::Journal { cluster, key, body } = action {
            assert!(keys.insert(key.clone()), "duplicate key {key}");
            let mut e = NewEvent::new(t(0), Actor("executor/x".into()), key.clone(), body.clone())
                .with_run(RunId("ro-1".into()));
            if let Some(c) = cluster {
                e = e.with_item(ItemId(c.to_string())).with_cluster(c.clone());
            }
            events.push(Event {
                seq: Sequence(events.len() as i64 + 1),
                token: None,
                event: e,
            });
        }
    }
    let p = Projection::replay(&events);
    let view = &p.runs[&RunId("ro-1".into())];
    assert!(p.ignored.is_empty(), "{:?}", p.ignored);
    assert_eq!(view.rollout.batches[&0], BatchPhase::Done);
    assert!(matches!(
        view.rollout.batches[&1],
        BatchPhase::Halted { .. }
    ));
    assert!(matches!(&view.status, RunStatus::Halted { why } if why.contains("burn rate")));
    assert_eq!(view.items[&ItemId("a".into())].applied, Some(digest()));
    assert_eq!(view.items[&ItemId("c".into())].staged, Some(digest()));
    assert_eq!(view.items[&ItemId("c".into())].applied, None);
    // The approval is the person's own event (the operator command); the executor's
    // events do not repeat it.
    assert!(view.approvals.is_empty());
}

#[test]
fn observations_round_trip_through_the_journal() {
    let all = vec![
        Observation::Tick,
        Observation::Approve {
            batch: 1,
            by: bob(),
            note: "n".into(),
        },
        ok("a"),
        Observation::Applied {
            cluster: id("a"),
            result: Err("x".into()),
        },
        pass("a"),
        evidence(vec![("a", MetricReading::Unknown { why: "x".into() })]),
        Observation::Reconciled {
            cluster: id("a"),
            seen: AppliedSeen::Nothing,
        },
        Observation::Restarted,
    ];
    for obs in all {
        let json = serde_json::to_value(&obs).expect("json");
        assert_eq!(
            serde_json::from_value::<Observation>(json).expect("back"),
            obs
        );
    }
}

/// The run with its canary batch waiting, then approved by `by`: the state and what the
/// approval produced.
fn canary_approved_by(by: Actor) -> (RunState, Vec<Action>) {
    let (s, _) = step(run(), t(0), Observation::Tick);
    let approve = Observation::Approve {
        batch: 0,
        by,
        note: "canary ok".into(),
    };
    step(s, t(1), approve)
}

#[test]
fn an_approval_is_journaled_once_by_the_person_not_again_by_the_executor() {
    let (s, out) = canary_approved_by(bob());
    let journaled = journaled(&out);
    assert!(
        !journaled
            .iter()
            .any(|b| matches!(b, EventBody::RunApproved { .. })),
        "the person's approval is the only run.approved: {journaled:#?}"
    );
    assert!(journaled.contains(&EventBody::RolloutBatch {
        batch: 0,
        phase: BatchPhase::Executing,
    }));
    assert_eq!(s.batches[0].approved_by, Some(bob()));
}

/// The event bodies `out` journals.
fn journaled(out: &[Action]) -> Vec<EventBody> {
    out.iter()
        .filter_map(|a| match a {
            Action::Journal { body, .. } => Some(body.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_pause_a_resume_and_an_abort_are_journaled_once_by_the_person_not_again_by_the_executor() {
    let (s, _) = canary_approved_by(bob());
    let pause = Observation::Pause {
        by: bob(),
        reason: "error budget".into(),
    };
    let (s, out) = step(s, t(2), pause);
    assert!(matches!(s.status, RolloutStatus::Paused { .. }));
    let bodies = journaled(&out);
    assert!(
        !bodies.iter().any(|b| matches!(b, EventBody::Paused { .. })),
        "{bodies:#?}"
    );
    let resume = Observation::Resume {
        by: bob(),
        note: "budget back".into(),
    };
    let (s, out) = step(s, t(3), resume);
    assert_eq!(s.status, RolloutStatus::Running);
    let bodies = journaled(&out);
    assert!(
        !bodies
            .iter()
            .any(|b| matches!(b, EventBody::Resumed { .. })),
        "{bodies:#?}"
    );
    let abort = Observation::Abort {
        by: bob(),
        note: "bad canary".into(),
    };
    let (s, out) = step(s, t(4), abort);
    assert!(matches!(s.status, RolloutStatus::Aborted { .. }));
    let bodies = journaled(&out);
    assert!(
        !bodies
            .iter()
            .any(|b| matches!(b, EventBody::Aborted { .. })),
        "{bodies:#?}"
    );
}
