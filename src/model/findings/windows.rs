//! Rule 7: maintenance windows. The ledger's windows are enforced: a change (a node's
//! maintenance, a rollout's apply) that would start outside its cluster's window waits
//! and says until when, unless a person overrode the window (journaled, with a reason and
//! an end). The findings say which clusters have changes waiting for their window and
//! which run under an override.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

use super::{Finding, RuleId, Severity};
use crate::model::ledger::{
    Cluster, ClusterId, WindowState, describe_window, in_how_long, local_and_utc, window_state,
};

/// A person's override of a cluster's window: changes may start outside it until `until`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowOverride {
    /// The cluster.
    pub cluster: ClusterId,
    /// Who.
    pub by: String,
    /// Why.
    pub reason: String,
    /// When it was given.
    pub at: Timestamp,
    /// When it ends.
    pub until: Timestamp,
}

impl WindowOverride {
    /// Whether it allows changes at `now`.
    pub fn active(&self, now: Timestamp) -> bool {
        self.at <= now && now < self.until
    }
}

/// Why a change to a cluster must wait for its window, and until when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowHold {
    /// The cluster.
    pub cluster: ClusterId,
    /// The window, as people read it (`Sat, Sun 02:00 for 4h (Europe/Berlin)`).
    pub window: String,
    /// When it opens next; `None` when its time zone cannot be read (then it never
    /// counts as open: unknown is not a yes).
    pub opens_at: Option<Timestamp>,
    /// That instant in the window's zone and in UTC, or why it is unknown.
    pub opens: String,
}

impl WindowHold {
    /// The suffix of the journal record noting the wait (once per apply and opening).
    pub fn key_suffix(&self) -> String {
        match self.opens_at {
            Some(at) => format!("window-{}", at.as_second()),
            None => "window-unknown".into(),
        }
    }

    /// The wait in words, as of `now`.
    pub fn describe(&self, now: Timestamp) -> String {
        let when = match self.opens_at {
            Some(at) => format!("it opens at {} ({})", self.opens, in_how_long(now, at)),
            None => self.opens.clone(),
        };
        format!(
            "{} is outside its maintenance window ({}): {when}; a person may override it: `fleetdeck window override {} --for 4h --reason …`",
            self.cluster, self.window, self.cluster
        )
    }
}

/// The window's state at `now`, or why it cannot be known (its zone could not be loaded).
/// `None` when the ledger declares no window (changes are not restricted).
pub fn cluster_window(
    cluster: &Cluster,
    tz: Option<&TimeZone>,
    now: Timestamp,
) -> Option<Result<WindowState, String>> {
    let window = cluster.maintenance_window.as_ref()?;
    Some(match tz {
        Some(tz) => Ok(window_state(window, tz, now)),
        None => Err(format!(
            "its time zone {} cannot be read on this machine, so whether the window is open is unknown",
            window.timezone
        )),
    })
}

/// What holds a change to `cluster` at `now` for its window, if anything: nothing when
/// it declares no window, the window is open, or an override is active; `tz` is the
/// window's zone as loaded by the caller (`None`: it could not be).
pub fn window_hold(
    cluster: &Cluster,
    tz: Option<&TimeZone>,
    overrides: &[WindowOverride],
    now: Timestamp,
) -> Option<WindowHold> {
    let window = cluster.maintenance_window.as_ref()?;
    if overrides
        .iter()
        .any(|o| o.cluster == cluster.id && o.active(now))
    {
        return None;
    }
    let (opens_at, opens) = match cluster_window(cluster, tz, now)? {
        Ok(WindowState::Open { .. }) => return None,
        Ok(WindowState::Closed { opens_at, .. }) => match tz {
            Some(tz) if opens_at != Timestamp::MAX => (
                Some(opens_at),
                local_and_utc(opens_at, tz, &window.timezone),
            ),
            _ => (None, "it never opens (no day is declared)".into()),
        },
        Err(why) => (None, why),
    };
    Some(WindowHold {
        cluster: cluster.id.clone(),
        window: describe_window(window),
        opens_at,
        opens,
    })
}

/// Findings about one cluster's window: changes waiting for it (`waiting` names them:
/// `rollout cni-1.17`, `maintenance reboot-n1`), and an override in force.
pub fn window_findings(
    cluster: &Cluster,
    tz: Option<&TimeZone>,
    overrides: &[WindowOverride],
    waiting: &[String],
    now: Timestamp,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(o) = overrides
        .iter()
        .filter(|o| o.cluster == cluster.id && o.active(now))
        .max_by_key(|o| o.until)
    {
        out.push(Finding {
            summary_msg: Some(crate::i18n::Msg::new("fd-window-override").arg("until", o.until.strftime("%Y-%m-%d %H:%M UTC").to_string()).arg("by", o.by.to_string())),
            silence_msg: Some(crate::i18n::Msg::new("fd-fix-window-override").arg("cluster", cluster.id.to_string())),
            cluster: cluster.id.clone(),
            rule: RuleId::WindowOverride,
            severity: Severity::Warning,
            key: "windowOverride".into(),
            subject: "maintenance window".into(),
            summary: format!(
                "changes may start outside the maintenance window until {} (override by {})",
                o.until.strftime("%Y-%m-%d %H:%M UTC"),
                o.by
            ),
            evidence: vec![
                format!("reason: {}", o.reason),
                format!("given at {}", o.at.strftime("%Y-%m-%d %H:%M UTC")),
                match &cluster.maintenance_window {
                    Some(w) => format!("window: {}", describe_window(w)),
                    None => "the ledger declares no window".into(),
                },
            ],
            measure: None,
            since: Some(o.at),
            severity_since: Some(o.at),
            silence: format!(
                "it ends by itself at its end; end it now with `fleetdeck window override {} --for 0s --reason …`",
                cluster.id
            ),
        });
    }
    if !waiting.is_empty()
        && let Some(hold) = window_hold(cluster, tz, overrides, now)
    {
        out.push(Finding {
            summary_msg: Some(
                crate::i18n::Msg::new("fd-outside-window")
                    .arg("count", waiting.len())
                    .arg("waiting", waiting.join(", ")),
            ),
            silence_msg: Some(crate::i18n::Msg::new("fd-fix-outside-window")),
            cluster: cluster.id.clone(),
            rule: RuleId::OutsideWindow,
            severity: Severity::Info,
            key: "outsideWindow".into(),
            subject: "maintenance window".into(),
            summary: format!(
                "outside its maintenance window: {} wait{} until it opens",
                waiting.join(", "),
                if waiting.len() == 1 { "s" } else { "" }
            ),
            evidence: vec![hold.describe(now)],
            measure: None,
            since: None,
            severity_since: None,
            silence:
                "wait for the window, or override it with a reason (`fleetdeck window override`)"
                    .into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ledger::test_ledger;

    fn cluster() -> Cluster {
        test_ledger(&["id: c1, context: c1, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building, maintenanceWindow: {days: [Sat], start: \"02:00\", duration: 4h, timezone: UTC}"])
            .clusters[0]
            .clone()
    }

    fn at(text: &str) -> Timestamp {
        text.parse().expect("a timestamp")
    }

    #[test]
    fn a_change_on_wednesday_waits_for_saturday_unless_overridden() {
        let c = cluster();
        let now = at("2026-12-02T12:00:00Z");
        let hold = window_hold(&c, Some(&TimeZone::UTC), &[], now).expect("held");
        assert_eq!(hold.opens_at, Some(at("2026-12-05T02:00:00Z")));
        assert_eq!(
            hold.describe(now),
            "c1 is outside its maintenance window (Sat 02:00 for 4h (UTC)): it opens at 2026-12-05 02:00 UTC (in 2d14h); a person may override it: `fleetdeck window override c1 --for 4h --reason …`"
        );
        let o = WindowOverride {
            cluster: c.id.clone(),
            by: "alice@ops".into(),
            reason: "CVE fix".into(),
            at: at("2026-12-02T11:00:00Z"),
            until: at("2026-12-02T15:00:00Z"),
        };
        assert_eq!(
            window_hold(&c, Some(&TimeZone::UTC), std::slice::from_ref(&o), now),
            None
        );
        // Past its end the override no longer counts.
        assert!(
            window_hold(
                &c,
                Some(&TimeZone::UTC),
                std::slice::from_ref(&o),
                at("2026-12-02T15:00:00Z")
            )
            .is_some()
        );
        // Inside the window nothing holds.
        assert_eq!(
            window_hold(&c, Some(&TimeZone::UTC), &[], at("2026-12-05T03:00:00Z")),
            None
        );
        // A zone that cannot be read never counts as open.
        let unknown = window_hold(&c, None, &[], at("2026-12-05T03:00:00Z")).expect("held");
        assert_eq!(unknown.opens_at, None);
        assert_eq!(unknown.key_suffix(), "window-unknown");
    }

    #[test]
    fn findings_name_waiting_changes_and_overrides() {
        let c = cluster();
        let now = at("2026-12-02T12:00:00Z");
        assert!(window_findings(&c, Some(&TimeZone::UTC), &[], &[], now).is_empty());
        let f = window_findings(&c, Some(&TimeZone::UTC), &[], &["rollout cni".into()], now);
        assert_eq!(f.len(), 1);
        crate::model::findings::says::assert_said_in_english(&f);
        assert_eq!(f[0].rule, RuleId::OutsideWindow);
        assert_eq!(
            f[0].summary,
            "outside its maintenance window: rollout cni waits until it opens"
        );
        let o = WindowOverride {
            cluster: c.id.clone(),
            by: "alice@ops".into(),
            reason: "CVE fix".into(),
            at: at("2026-12-02T11:00:00Z"),
            until: at("2026-12-02T15:00:00Z"),
        };
        let f = window_findings(&c, Some(&TimeZone::UTC), &[o], &["rollout cni".into()], now);
        crate::model::findings::says::assert_said_in_english(&f);
        assert_eq!(
            f.len(),
            1,
            "the override lets the change go: only the override is said"
        );
        assert_eq!(f[0].rule, RuleId::WindowOverride);
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(
            f[0].summary,
            "changes may start outside the maintenance window until 2026-12-02 15:00 UTC (override by alice@ops)"
        );
    }
}
