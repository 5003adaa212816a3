//! `/readyz?verbose` and `/livez?verbose` as the API server answers them: one line per
//! check (`[+]etcd ok`, `[-]informer-sync failed: reason withheld`), then `readyz check
//! passed` (200) or `readyz check failed` (500). Both answers carry the list.

use std::collections::BTreeMap;

use jiff::Timestamp;

use crate::model::findings::HealthCheck;

/// The checks of a verbose answer, in order; `None` when the text lists none (a proxy's
/// page, a server that does not serve the endpoint).
pub fn parse_verbose(text: &str) -> Option<Vec<(String, bool, String)>> {
    let checks: Vec<(String, bool, String)> = text
        .lines()
        .filter_map(|line| {
            let (ok, rest) = if let Some(rest) = line.strip_prefix("[+]") {
                (true, rest)
            } else if let Some(rest) = line.strip_prefix("[-]") {
                (false, rest)
            } else {
                return None;
            };
            let (name, message) = rest.split_once(' ').unwrap_or((rest, ""));
            Some((name.to_string(), ok, message.trim().to_string()))
        })
        .collect();
    (!checks.is_empty()).then_some(checks)
}

/// When each failing check was first seen failing, kept across reads.
#[derive(Debug, Default, Clone)]
pub struct FailingSince(BTreeMap<String, Timestamp>);

impl FailingSince {
    /// The checks of one read at `now`, each failing one with the time it was first seen
    /// failing (a check that passed since starts again).
    pub fn judge(
        &mut self,
        parsed: Vec<(String, bool, String)>,
        now: Timestamp,
    ) -> Vec<HealthCheck> {
        let failing: Vec<&str> = parsed
            .iter()
            .filter(|(_, ok, _)| !ok)
            .map(|(n, _, _)| n.as_str())
            .collect();
        self.0.retain(|name, _| failing.contains(&name.as_str()));
        parsed
            .into_iter()
            .map(|(name, ok, message)| {
                let failing_since = (!ok).then(|| *self.0.entry(name.clone()).or_insert(now));
                HealthCheck {
                    name,
                    ok,
                    message,
                    failing_since,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAILING: &str = "[+]ping ok\n[+]log ok\n[+]etcd ok\n[-]informer-sync failed: reason withheld\n[+]poststarthook/start-apiserver-admission-initializer ok\n[+]shutdown excluded: ok\nreadyz check failed\n";

    #[test]
    fn reads_each_check_and_remembers_since_when_it_fails() {
        let parsed = parse_verbose(FAILING).expect("checks");
        assert_eq!(parsed.len(), 6);
        assert_eq!(
            parsed[3],
            (
                "informer-sync".into(),
                false,
                "failed: reason withheld".into()
            )
        );
        assert_eq!(parsed[5], ("shutdown".into(), true, "excluded: ok".into()));
        let mut since = FailingSince::default();
        let t1: Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let t2: Timestamp = "2026-12-01T10:05:00Z".parse().unwrap();
        let first = since.judge(parsed.clone(), t1);
        assert_eq!(first[3].failing_since, Some(t1));
        let second = since.judge(parsed.clone(), t2);
        assert_eq!(
            second[3].failing_since,
            Some(t1),
            "still failing since the first read"
        );
        let healthy = parse_verbose("[+]informer-sync ok\nreadyz check passed\n").unwrap();
        assert!(since.judge(healthy, t2)[0].failing_since.is_none());
        assert_eq!(
            since.judge(parsed, t2)[3].failing_since,
            Some(t2),
            "failing anew"
        );
        assert_eq!(parse_verbose("ok"), None);
    }
}
