//! Stop conditions, pure: failed clusters, SLO burn rate from metric samples the executor
//! supplies, and missing evidence. Evaluated whenever a batch is executing, verifying or
//! soaking; any verdict other than "pass" halts the rollout until a person decides.

use std::collections::BTreeMap;
use std::time::Duration;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::spec::{FailedLimit, StopWhen, UnknownMetrics};
use crate::model::duration::format_duration;
use crate::model::ledger::ClusterId;

/// What the metrics said about one cluster over the SLO window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "reading",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum MetricReading {
    /// Errors ÷ requests over the window (0 when there were no errors).
    Known {
        /// Between 0 and 1.
        #[serde(alias = "error_ratio")]
        error_ratio: f64,
    },
    /// The query failed, returned nothing, or the series is stale.
    Unknown {
        /// Why, in words ("no samples in the last 5m", "Prometheus unreachable").
        why: String,
    },
}

/// One round of metric samples, for the clusters the run asked about.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Evidence {
    /// When the samples were taken.
    pub at: Option<Timestamp>,
    /// By cluster; a cluster asked about and missing here counts as unknown.
    #[serde(with = "readings")]
    pub readings: BTreeMap<ClusterId, MetricReading>,
    /// The same over the short window of a two-window condition (empty without one).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", with = "readings")]
    pub short_readings: BTreeMap<ClusterId, MetricReading>,
}

/// The short window's side of a two-window burn-rate halt.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShortBurn {
    /// Its burn rate.
    pub burn: f64,
    /// Its maximum.
    pub max_burn: f64,
    /// The short window.
    #[serde(with = "seconds")]
    pub window: Duration,
}

/// Why a rollout halted. Shown to the operator and journaled; the words name the evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "reason",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum HaltReason {
    /// Too many clusters failed.
    FailedClusters {
        /// Failed since the last resume.
        failed: Vec<String>,
        /// Clusters finished so far.
        finished: usize,
        /// The limit from `stopWhen.failedClusters`.
        limit: FailedLimit,
    },
    /// A changed cluster burns its error budget too fast.
    BurnRate {
        /// The worst cluster.
        cluster: String,
        /// Its burn rate.
        burn: f64,
        /// The limit.
        #[serde(alias = "max_burn")]
        max_burn: f64,
        /// The objective as a fraction.
        objective: f64,
        /// The SLO window (the long one of a two-window condition).
        #[serde(with = "seconds")]
        window: Duration,
        /// The short window's burn, when the condition has two windows (both exceeded).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        short: Option<ShortBurn>,
    },
    /// Evidence is missing and `unknownMetrics` is `stop`.
    MetricsUnknown {
        /// Each cluster without evidence, with why.
        clusters: Vec<(String, String)>,
    },
    /// A cluster's outcome could not be established.
    OutcomeUnknown {
        /// The cluster.
        cluster: String,
        /// Why.
        why: String,
    },
}

impl HaltReason {
    /// The clusters the halt names: the ones to look at first.
    pub fn clusters(&self) -> Vec<&str> {
        match self {
            HaltReason::FailedClusters { failed, .. } => {
                failed.iter().map(String::as_str).collect()
            }
            HaltReason::BurnRate { cluster, .. } | HaltReason::OutcomeUnknown { cluster, .. } => {
                vec![cluster.as_str()]
            }
            HaltReason::MetricsUnknown { clusters } => {
                clusters.iter().map(|(c, _)| c.as_str()).collect()
            }
        }
    }
}

impl std::fmt::Display for HaltReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HaltReason::FailedClusters {
                failed,
                finished,
                limit,
            } => {
                let limit = match limit {
                    FailedLimit::Count(n) => format!("{n}"),
                    FailedLimit::Percent(p) => format!("{p}% of finished clusters"),
                };
                write!(
                    f,
                    "{} of {finished} finished cluster(s) failed, stop limit {limit}: {}",
                    failed.len(),
                    failed.join(", ")
                )
            }
            HaltReason::BurnRate {
                cluster,
                burn,
                max_burn,
                objective,
                window,
                short: None,
            } => write!(
                f,
                "SLO burn rate {burn:.1}x on {cluster} exceeds the maximum {max_burn}x (objective {}% over {})",
                objective * 100.0,
                format_duration(*window)
            ),
            HaltReason::BurnRate {
                cluster,
                burn,
                max_burn,
                objective,
                window,
                short: Some(short),
            } => write!(
                f,
                "SLO burn rate on {cluster} exceeds both windows' maxima: {burn:.1}x over {} (maximum {max_burn}x) and {:.1}x over {} (maximum {}x) (objective {}%)",
                format_duration(*window),
                short.burn,
                format_duration(short.window),
                short.max_burn,
                objective * 100.0
            ),
            HaltReason::MetricsUnknown { clusters } => {
                let list: Vec<String> = clusters
                    .iter()
                    .map(|(c, why)| format!("{c}: {why}"))
                    .collect();
                write!(
                    f,
                    "metrics unknown for {} cluster(s) ({}); unknownMetrics is stop",
                    clusters.len(),
                    list.join("; ")
                )
            }
            HaltReason::OutcomeUnknown { cluster, why } => {
                write!(f, "outcome unknown on {cluster}: {why}")
            }
        }
    }
}

/// The failed-clusters condition: `failed` counts failures since the last resume (a
/// person who resumed accepted the earlier ones), `finished` every cluster with a final
/// outcome. Halts when the count reaches the limit.
pub fn failed_gate(stop: &StopWhen, failed: &[ClusterId], finished: usize) -> Option<HaltReason> {
    let reached = match stop.failed_clusters {
        FailedLimit::Count(n) => failed.len() >= n as usize,
        FailedLimit::Percent(p) => {
            !failed.is_empty() && finished > 0 && failed.len() as f64 * 100.0 / finished as f64 >= p
        }
    };
    reached.then(|| HaltReason::FailedClusters {
        failed: failed.iter().map(|c| c.0.clone()).collect(),
        finished,
        limit: stop.failed_clusters,
    })
}

/// A reading as a burn rate (error ratio ÷ budget), or why it is not one.
fn burn_of(reading: Option<&MetricReading>, budget: f64) -> Result<f64, String> {
    match reading {
        Some(MetricReading::Known { error_ratio })
            if error_ratio.is_finite() && *error_ratio >= 0.0 =>
        {
            Ok(error_ratio / budget)
        }
        Some(MetricReading::Known { error_ratio }) => {
            Err(format!("error ratio {error_ratio} is not a ratio"))
        }
        Some(MetricReading::Unknown { why }) => Err(why.clone()),
        None => Err("no sample".to_string()),
    }
}

/// The SLO conditions over the clusters the release reached (`watched`). A burn rate
/// above the limit halts whatever else is known (it is evidence of harm); missing
/// evidence halts unless `unknownMetrics: ignore`. Without an SLO condition, passes.
/// With two windows, a cluster's burn halts only when both windows exceed their maxima;
/// a long window above its maximum whose short window is unknown is missing evidence.
pub fn metrics_gate(
    stop: &StopWhen,
    watched: &[ClusterId],
    evidence: &Evidence,
) -> Option<HaltReason> {
    let limit = stop.slo_burn_rate.as_ref()?;
    let budget = 1.0 - limit.objective;
    let mut worst: Option<(&ClusterId, f64, Option<ShortBurn>)> = None;
    let mut unknown = Vec::new();
    for cluster in watched {
        match evidence.readings.get(cluster) {
            Some(MetricReading::Known { error_ratio })
                if error_ratio.is_finite() && *error_ratio >= 0.0 =>
            {
                let burn = error_ratio / budget;
                if burn <= limit.max_burn || worst.as_ref().is_some_and(|(_, b, _)| burn <= *b) {
                    continue;
                }
                let short = match &limit.short {
                    None => None,
                    Some(short) => match burn_of(evidence.short_readings.get(cluster), budget) {
                        Ok(short_burn) if short_burn > short.max_burn => Some(ShortBurn {
                            burn: short_burn,
                            max_burn: short.max_burn,
                            window: short.window,
                        }),
                        // The burn has stopped (or not started) on the short window.
                        Ok(_) => continue,
                        Err(why) => {
                            unknown.push((
                                cluster.0.clone(),
                                format!(
                                    "over the short window {}: {why}",
                                    format_duration(short.window)
                                ),
                            ));
                            continue;
                        }
                    },
                };
                worst = Some((cluster, burn, short));
            }
            Some(MetricReading::Known { error_ratio }) => unknown.push((
                cluster.0.clone(),
                format!("error ratio {error_ratio} is not a ratio"),
            )),
            Some(MetricReading::Unknown { why }) => unknown.push((cluster.0.clone(), why.clone())),
            None => unknown.push((cluster.0.clone(), "no sample".to_string())),
        }
    }
    if let Some((cluster, burn, short)) = worst {
        return Some(HaltReason::BurnRate {
            cluster: cluster.0.clone(),
            burn,
            max_burn: limit.max_burn,
            objective: limit.objective,
            window: limit.window,
            short,
        });
    }
    (!unknown.is_empty() && stop.unknown_metrics == UnknownMetrics::Stop)
        .then_some(HaltReason::MetricsUnknown { clusters: unknown })
}

/// The clusters among `watched` whose short window burns above its maximum while their
/// long window is known and at or below its own: the two-window gate holds for them (the
/// burn may be a spike, or the start of one the long window has yet to see). Empty
/// without a two-window condition.
pub fn short_window_only(
    stop: &StopWhen,
    watched: &[ClusterId],
    evidence: &Evidence,
) -> std::collections::BTreeSet<ClusterId> {
    let Some(limit) = stop.slo_burn_rate.as_ref() else {
        return Default::default();
    };
    let Some(short) = limit.short else {
        return Default::default();
    };
    let budget = 1.0 - limit.objective;
    watched
        .iter()
        .filter(|c| {
            let long = burn_of(evidence.readings.get(*c), budget);
            let short_burn = burn_of(evidence.short_readings.get(*c), budget);
            matches!((long, short_burn), (Ok(l), Ok(s)) if l <= limit.max_burn && s > short.max_burn)
        })
        .cloned()
        .collect()
}

/// Journal payloads key readings by cluster id text.
mod readings {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::MetricReading;
    use crate::model::ledger::ClusterId;

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<ClusterId, MetricReading>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let plain: BTreeMap<&str, &MetricReading> =
            map.iter().map(|(k, v)| (k.0.as_str(), v)).collect();
        plain.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<ClusterId, MetricReading>, D::Error> {
        let plain = BTreeMap::<String, MetricReading>::deserialize(d)?;
        Ok(plain.into_iter().map(|(k, v)| (ClusterId(k), v)).collect())
    }
}

/// Durations in journal payloads, as whole seconds.
pub(crate) mod seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(d.as_secs())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_secs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rollout::spec::BurnRateLimit;

    fn stop(unknown: UnknownMetrics) -> StopWhen {
        StopWhen {
            failed_clusters: FailedLimit::Count(2),
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

    fn ids(names: &[&str]) -> Vec<ClusterId> {
        names.iter().map(|n| ClusterId(n.to_string())).collect()
    }

    fn evidence(readings: &[(&str, MetricReading)]) -> Evidence {
        Evidence {
            at: None,
            readings: readings
                .iter()
                .map(|(c, r)| (ClusterId(c.to_string()), r.clone()))
                .collect(),
            short_readings: BTreeMap::new(),
        }
    }

    fn known(error_ratio: f64) -> MetricReading {
        MetricReading::Known { error_ratio }
    }

    #[test]
    fn two_windows_halt_only_when_both_exceed_and_the_evidence_shows_both() {
        // Objective 99%: budget 1%. Long 1h max 10x, short 5m max 10x.
        let mut s = stop(UnknownMetrics::Stop);
        if let Some(limit) = s.slo_burn_rate.as_mut() {
            limit.objective = 0.99;
            limit.short = Some(crate::model::rollout::ShortWindow {
                window: Duration::from_secs(300),
                max_burn: 10.0,
            });
        }
        let watched = ids(&["a", "b"]);
        // a: long 5% (5x), short 20% (20x): high on the short window only — passes.
        // b: long 12% (12x), short 8% (8x): the burn has stopped — passes.
        let mut ev = evidence(&[("a", known(0.05)), ("b", known(0.12))]);
        ev.short_readings = [("a", known(0.20)), ("b", known(0.08))]
            .into_iter()
            .map(|(c, r)| (ClusterId(c.into()), r))
            .collect();
        assert_eq!(metrics_gate(&s, &watched, &ev), None);
        // a is named as burning on its short window only (the findings say so).
        assert_eq!(
            short_window_only(&s, &watched, &ev)
                .into_iter()
                .map(|c| c.0)
                .collect::<Vec<_>>(),
            vec!["a".to_string()]
        );
        // b's short window now at 15% (15x): both exceed — halt, with both numbers.
        ev.short_readings.insert(ClusterId("b".into()), known(0.15));
        let why = metrics_gate(&s, &watched, &ev).expect("halt");
        assert_eq!(
            why.to_string(),
            "SLO burn rate on b exceeds both windows' maxima: 12.0x over 1h (maximum 10x) and 15.0x over 5m (maximum 10x) (objective 99%)"
        );
        // b's short window unknown while its long one exceeds: missing evidence.
        ev.short_readings.remove(&ClusterId("b".into()));
        let why = metrics_gate(&s, &watched, &ev).expect("halt");
        assert_eq!(
            why.to_string(),
            "metrics unknown for 1 cluster(s) (b: over the short window 5m: no sample); unknownMetrics is stop"
        );
        // Round trip through the journal's JSON keeps the short side.
        ev.short_readings.insert(ClusterId("b".into()), known(0.15));
        let halt = metrics_gate(&s, &watched, &ev).expect("halt");
        let json = serde_json::to_value(&halt).expect("json");
        let short_burn = json["short"]["burn"].as_f64().expect("a number");
        assert!((short_burn - 15.0).abs() < 1e-9, "{json}");
        assert_eq!(
            serde_json::from_value::<HaltReason>(json).expect("back"),
            halt
        );
    }

    #[test]
    fn burn_rate_names_the_worst_cluster_and_the_numbers() {
        let ev = evidence(&[
            (
                "a",
                MetricReading::Known {
                    error_ratio: 0.0005,
                },
            ),
            ("b", MetricReading::Known { error_ratio: 0.02 }),
            ("c", MetricReading::Known { error_ratio: 0.015 }),
        ]);
        let why =
            metrics_gate(&stop(UnknownMetrics::Stop), &ids(&["a", "b", "c"]), &ev).expect("halt");
        assert_eq!(
            why.to_string(),
            "SLO burn rate 20.0x on b exceeds the maximum 10x (objective 99.9% over 1h)"
        );
        let calm = evidence(&[("a", MetricReading::Known { error_ratio: 0.005 })]);
        assert_eq!(
            metrics_gate(&stop(UnknownMetrics::Stop), &ids(&["a"]), &calm),
            None
        );
    }

    #[test]
    fn missing_evidence_stops_unless_ignored_but_harm_always_stops() {
        let ev = evidence(&[(
            "a",
            MetricReading::Unknown {
                why: "scrape failing".into(),
            },
        )]);
        let why = metrics_gate(&stop(UnknownMetrics::Stop), &ids(&["a", "b"]), &ev).expect("halt");
        assert_eq!(
            why.to_string(),
            "metrics unknown for 2 cluster(s) (a: scrape failing; b: no sample); unknownMetrics is stop"
        );
        assert_eq!(
            metrics_gate(&stop(UnknownMetrics::Ignore), &ids(&["a", "b"]), &ev),
            None
        );
        let mixed = evidence(&[("b", MetricReading::Known { error_ratio: 0.5 })]);
        assert!(matches!(
            metrics_gate(&stop(UnknownMetrics::Ignore), &ids(&["a", "b"]), &mixed),
            Some(HaltReason::BurnRate { .. })
        ));
        let nan = evidence(&[(
            "a",
            MetricReading::Known {
                error_ratio: f64::NAN,
            },
        )]);
        assert!(metrics_gate(&stop(UnknownMetrics::Stop), &ids(&["a"]), &nan).is_some());
    }

    #[test]
    fn failed_clusters_by_count_and_by_percent() {
        let s = stop(UnknownMetrics::Stop);
        assert_eq!(failed_gate(&s, &ids(&["a"]), 5), None);
        let why = failed_gate(&s, &ids(&["a", "b"]), 5).expect("halt");
        assert_eq!(
            why.to_string(),
            "2 of 5 finished cluster(s) failed, stop limit 2: a, b"
        );
        let pct = StopWhen {
            failed_clusters: FailedLimit::Percent(10.0),
            ..s
        };
        assert_eq!(failed_gate(&pct, &ids(&["a"]), 20), None);
        assert!(failed_gate(&pct, &ids(&["a"]), 10).is_some());
        assert_eq!(failed_gate(&pct, &[], 10), None);
    }

    #[test]
    fn evidence_round_trips_through_json() {
        let ev = evidence(&[("a", MetricReading::Unknown { why: "x".into() })]);
        let json = serde_json::to_value(&ev).expect("json");
        assert_eq!(serde_json::from_value::<Evidence>(json).expect("back"), ev);
    }
}
