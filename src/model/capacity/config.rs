//! Knobs of the capacity model, with defaults that match common cloud GPU fleets.

use std::sync::Arc;

use crate::model::fleet::{Dimension, ResourceVector};

/// Default failure-domain label.
pub const ZONE_LABEL: &str = "topology.kubernetes.io/zone";
/// Default rack label. There is no standard rack label; this one follows the
/// `topology.kubernetes.io/` convention and is configurable.
pub const RACK_LABEL: &str = "topology.kubernetes.io/rack";

/// Percent of healthy allocatable held back per dimension, so that headroom is what is
/// left above the safety margin, not above zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SafetyReserve {
    /// CPU percent.
    pub cpu_percent: u8,
    /// Memory percent.
    pub memory_percent: u8,
    /// GPU (and MIG) percent.
    pub gpu_percent: u8,
    /// Pod-slot percent.
    pub pods_percent: u8,
    /// Attachable-volume percent.
    pub volumes_percent: u8,
}

impl SafetyReserve {
    /// No reserve.
    pub const NONE: Self = Self::uniform(0);

    /// The same percent in every dimension.
    pub const fn uniform(percent: u8) -> Self {
        Self {
            cpu_percent: percent,
            memory_percent: percent,
            gpu_percent: percent,
            pods_percent: percent,
            volumes_percent: percent,
        }
    }

    /// The percent held back in `dim`, capped at 100.
    pub fn percent(&self, dim: &Dimension) -> u8 {
        let p = match dim {
            Dimension::Cpu => self.cpu_percent,
            Dimension::Memory => self.memory_percent,
            Dimension::Gpu | Dimension::Mig(_) => self.gpu_percent,
            Dimension::Pods => self.pods_percent,
            Dimension::AttachableVolumes(_) => self.volumes_percent,
        };
        p.min(100)
    }

    /// The amount held back from `allocatable`, per dimension, rounded up (a reserve
    /// of 10% of 8 GPUs holds back one whole GPU, not 0.8 of one).
    pub fn amount_for(&self, allocatable: &ResourceVector) -> ResourceVector {
        let mut reserve = ResourceVector::ZERO;
        for (dim, amount) in allocatable.iter() {
            let percent = i128::from(self.percent(&dim));
            let held = (i128::from(amount.max(0)) * percent + 99) / 100;
            // `held` <= `amount` because percent <= 100, so the conversion cannot fail.
            reserve.set(dim, i64::try_from(held).unwrap_or(i64::MAX));
        }
        reserve
    }
}

impl Default for SafetyReserve {
    fn default() -> Self {
        Self::NONE
    }
}

/// Configuration of the capacity model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapacityConfig {
    /// Node label whose values are the failure domains for N−1 (default: zone).
    pub failure_domain_key: Arc<str>,
    /// Topology label keys for GPU free-capacity-per-domain, most specific first.
    pub topology_keys: Vec<Arc<str>>,
    /// NoSchedule/NoExecute taint keys that only dedicate a node to some workloads (honoured
    /// through tolerations when placing). Any other such taint makes the node unhealthy:
    /// an unknown taint is treated as a problem, not as capacity.
    pub dedication_taint_keys: Vec<Arc<str>>,
    /// Safety reserve per dimension.
    pub safety_reserve: SafetyReserve,
    /// Gang sizes (GPUs on one node) reported as slots, ascending.
    pub gang_sizes: Vec<u32>,
}

impl Default for CapacityConfig {
    fn default() -> Self {
        let keys = |ks: &[&str]| ks.iter().map(|k| Arc::from(*k)).collect();
        Self {
            failure_domain_key: Arc::from(ZONE_LABEL),
            topology_keys: keys(&[
                "nvidia.com/gpu.clique",
                "cloud.google.com/gce-topology-block",
                "topology.k8s.aws/network-node-layer-3",
                RACK_LABEL,
                ZONE_LABEL,
            ]),
            dedication_taint_keys: keys(&["nvidia.com/gpu", "amd.com/gpu", "dedicated", "sku"]),
            safety_reserve: SafetyReserve::NONE,
            gang_sizes: vec![1, 2, 4, 8],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_rounds_up_per_dimension() {
        let alloc = ResourceVector::new(64_000, 1000, 8, 110);
        let reserve = SafetyReserve {
            cpu_percent: 10,
            memory_percent: 25,
            gpu_percent: 10,
            pods_percent: 0,
            volumes_percent: 0,
        };
        // 10% of 64000m = 6400m; 25% of 1000 = 250; 10% of 8 GPUs = 0.8 -> 1; 0 pods.
        assert_eq!(
            reserve.amount_for(&alloc),
            ResourceVector::new(6400, 250, 1, 0)
        );
        assert_eq!(
            SafetyReserve::uniform(200).amount_for(&alloc),
            ResourceVector::new(64_000, 1000, 8, 110)
        );
    }
}
