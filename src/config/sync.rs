//! `[sync]` in `config.toml`: how hard fleetdeck may lean on the fleet's API servers —
//! how many clusters list at once when it starts, and each cluster's request budget.
//! Every key is optional; what is left out keeps its default.

use std::num::{NonZeroU32, NonZeroUsize};

use serde::{Deserialize, Serialize};

use crate::k8s::fleet_sync::FleetSyncOptions;

/// `[sync]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyncSection {
    /// Clusters whose first lists may run at the same time (default 32).
    pub initial_list_concurrency: Option<NonZeroUsize>,
    /// Sustained requests per second to one cluster (default 10).
    pub qps: Option<NonZeroU32>,
    /// Requests one cluster may receive in a burst above that (default 20).
    pub burst: Option<NonZeroU32>,
}

impl SyncSection {
    /// The fleet sync's options: these keys over the defaults.
    pub fn options(&self) -> FleetSyncOptions {
        let mut options = FleetSyncOptions::default();
        if let Some(n) = self.initial_list_concurrency {
            options.initial_list_concurrency = n.get();
        }
        let budget = &mut options.cluster.connect.budget;
        if let Some(qps) = self.qps {
            budget.qps = f64::from(qps.get());
        }
        if let Some(burst) = self.burst {
            budget.burst = burst.get();
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;

    #[test]
    fn sync_keys_override_the_defaults_and_zero_is_refused() {
        let config = Config::parse(
            "[sync]\ninitial_list_concurrency = 8\nqps = 5\n",
            Path::new("config.toml"),
        )
        .unwrap();
        let options = config.sync_options();
        assert_eq!(options.initial_list_concurrency, 8);
        assert_eq!(options.cluster.connect.budget.qps, 5.0);
        assert_eq!(options.cluster.connect.budget.burst, 20, "kept");
        let err = Config::parse("[sync]\nburst = 0\n", Path::new("config.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("config.toml:2:"), "{err}");
    }
}
