//! `[capacity]` in `config.toml`: the capacity model's knobs — which node label is the
//! failure domain, which labels are GPU topology domains, which taints only dedicate a
//! node, the gang sizes reported, and the safety reserve per dimension. Every key is
//! optional; what is left out keeps its default ([`CapacityConfig::default`]).

use std::num::NonZeroU32;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize};

use crate::model::capacity::{CapacityConfig, SafetyReserve};

/// `[capacity]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapacitySection {
    /// Node label whose values are the failure domains for N−1 and what-ifs.
    pub failure_domain_key: Option<String>,
    /// Label keys of GPU topology domains, most specific first.
    pub topology_keys: Option<Vec<String>>,
    /// Taint keys that only dedicate a node to some workloads.
    pub dedication_taint_keys: Option<Vec<String>>,
    /// GPUs on one node reported as slots (e.g. `[1, 2, 4, 8]`).
    pub gang_sizes: Option<Vec<NonZeroU32>>,
    /// `[capacity.safety_reserve]`: percent held back per dimension.
    pub safety_reserve: Option<ReserveSection>,
}

/// `[capacity.safety_reserve]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReserveSection {
    /// CPU.
    pub cpu: Option<Percent>,
    /// Memory.
    pub memory: Option<Percent>,
    /// GPUs and MIG slices.
    pub gpu: Option<Percent>,
    /// Pod slots.
    pub pods: Option<Percent>,
    /// Attachable volumes.
    pub volumes: Option<Percent>,
}

/// A percentage, 0 to 100; anything else is refused where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Percent(pub u8);

impl<'de> Deserialize<'de> for Percent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = u32::deserialize(deserializer)?;
        u8::try_from(n)
            .ok()
            .filter(|n| *n <= 100)
            .map(Percent)
            .ok_or_else(|| serde::de::Error::custom(format!("{n} is not a percentage (0 to 100)")))
    }
}

impl CapacitySection {
    /// The capacity configuration: these keys over the defaults.
    pub fn config(&self) -> CapacityConfig {
        let mut config = CapacityConfig::default();
        let keys = |ks: &[String]| ks.iter().map(|k| Arc::from(k.as_str())).collect();
        if let Some(key) = &self.failure_domain_key {
            config.failure_domain_key = Arc::from(key.as_str());
        }
        if let Some(ks) = &self.topology_keys {
            config.topology_keys = keys(ks);
        }
        if let Some(ks) = &self.dedication_taint_keys {
            config.dedication_taint_keys = keys(ks);
        }
        if let Some(sizes) = &self.gang_sizes {
            let mut sizes: Vec<u32> = sizes.iter().map(|s| s.get()).collect();
            sizes.sort_unstable();
            sizes.dedup();
            config.gang_sizes = sizes;
        }
        if let Some(reserve) = &self.safety_reserve {
            let pick = |p: Option<Percent>, default: u8| p.map_or(default, |p| p.0);
            let base = config.safety_reserve;
            config.safety_reserve = SafetyReserve {
                cpu_percent: pick(reserve.cpu, base.cpu_percent),
                memory_percent: pick(reserve.memory, base.memory_percent),
                gpu_percent: pick(reserve.gpu, base.gpu_percent),
                pods_percent: pick(reserve.pods, base.pods_percent),
                volumes_percent: pick(reserve.volumes, base.volumes_percent),
            };
        }
        config
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;

    #[test]
    fn capacity_keys_override_the_defaults_and_keep_the_rest() {
        let config = Config::parse(
            "[capacity]\nfailure_domain_key = \"example.com/pod\"\ngang_sizes = [8, 4, 4]\n\n[capacity.safety_reserve]\ncpu = 10\ngpu = 25\n",
            Path::new("config.toml"),
        )
        .unwrap();
        let capacity = config.capacity_config();
        assert_eq!(&*capacity.failure_domain_key, "example.com/pod");
        assert_eq!(capacity.gang_sizes, vec![4, 8]);
        assert_eq!(capacity.safety_reserve.cpu_percent, 10);
        assert_eq!(capacity.safety_reserve.gpu_percent, 25);
        assert_eq!(capacity.safety_reserve.memory_percent, 0, "kept");
        let defaults = crate::model::capacity::CapacityConfig::default();
        assert_eq!(capacity.topology_keys, defaults.topology_keys, "kept");
    }

    #[test]
    fn the_documented_example_configuration_reads() {
        let readme = include_str!("../../docs/configuration.md");
        let start = readme
            .find("```toml\nledger = ")
            .expect("docs/configuration.md shows a config.toml");
        let block = &readme[start + "```toml\n".len()..];
        let block = &block[..block.find("```").expect("the block ends")];
        let config = Config::parse(block, Path::new("docs/configuration.md")).unwrap();
        let capacity = config.capacity_config();
        let defaults = crate::model::capacity::CapacityConfig::default();
        assert_eq!(
            capacity.topology_keys, defaults.topology_keys,
            "as documented"
        );
        assert_eq!(
            capacity.dedication_taint_keys,
            defaults.dedication_taint_keys
        );
        assert_eq!(capacity.gang_sizes, defaults.gang_sizes);
        assert_eq!(capacity.safety_reserve.pods_percent, 5);
        let sync = config.sync_options();
        let defaults = crate::k8s::fleet_sync::FleetSyncOptions::default();
        assert_eq!(
            sync.initial_list_concurrency,
            defaults.initial_list_concurrency
        );
        assert_eq!(sync.cluster.connect.budget, defaults.cluster.connect.budget);
    }

    #[test]
    fn a_bad_capacity_value_names_file_line_and_column() {
        let err = Config::parse(
            "[capacity]\ngang_sizes = [1, 0]\n",
            Path::new("config.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("config.toml:2:"), "{err}");
        let err = Config::parse(
            "[capacity.safety_reserve]\ncpu = 10\nmemory = 150\n",
            Path::new("config.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("config.toml:3:") && err.contains("150 is not a percentage"),
            "{err}"
        );
        let err = Config::parse("[capacity]\nzone = \"x\"\n", Path::new("config.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `zone`"), "{err}");
    }
}
