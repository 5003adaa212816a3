//! Resource dimensions and per-dimension amounts. Amounts in different dimensions are
//! never added together: a vector is compared and combined dimension by dimension.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use thiserror::Error;

use super::ids::Interner;
use crate::model::quantity::{QuantityError, Scale, parse_quantity};

/// Resource name of whole NVIDIA GPUs (or time-sliced shares of them).
pub const GPU_RESOURCE: &str = "nvidia.com/gpu";
/// Prefix of MIG slice resources in the device plugin's "mixed" strategy.
pub const MIG_RESOURCE_PREFIX: &str = "nvidia.com/mig-";
/// Prefix of the per-driver attachable-volume limits some nodes report.
pub const ATTACHABLE_VOLUMES_PREFIX: &str = "attachable-volumes-";

/// One capacity dimension, with the unit its amounts are kept in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dimension {
    /// CPU, in millicores.
    Cpu,
    /// Memory, in bytes.
    Memory,
    /// `nvidia.com/gpu` devices (shares, on time-sliced nodes).
    Gpu,
    /// Pod slots (`pods` allocatable; every pod requests one).
    Pods,
    /// A MIG slice profile such as `1g.5gb` (`nvidia.com/mig-1g.5gb`), counted in slices.
    Mig(Arc<str>),
    /// Attachable volumes for one driver (`attachable-volumes-<driver>`), counted in
    /// volumes; only constrains nodes that report it.
    AttachableVolumes(Arc<str>),
}

impl Dimension {
    /// The unit its raw amounts are counted in, for scripts reading them.
    pub fn unit(&self) -> &'static str {
        match self {
            Dimension::Cpu => "millicores",
            Dimension::Memory => "bytes",
            Dimension::Gpu => "gpus",
            Dimension::Pods => "pods",
            Dimension::Mig(_) => "slices",
            Dimension::AttachableVolumes(_) => "volumes",
        }
    }

    /// Maps a Kubernetes resource name to the dimension fleetdeck tracks, or `None` for
    /// resources capacity does not model (ephemeral-storage, hugepages, other devices).
    /// MIG profiles and volume drivers (rare) get their own string; a vector's names are
    /// shared through an interner afterwards ([`ResourceVector::share_names`]).
    pub fn from_resource_name(name: &str) -> Option<Self> {
        match name {
            "cpu" => Some(Self::Cpu),
            "memory" => Some(Self::Memory),
            GPU_RESOURCE => Some(Self::Gpu),
            "pods" => Some(Self::Pods),
            _ => {
                if let Some(profile) = name.strip_prefix(MIG_RESOURCE_PREFIX) {
                    Some(Self::Mig(profile.into()))
                } else {
                    name.strip_prefix(ATTACHABLE_VOLUMES_PREFIX)
                        .map(|driver| Self::AttachableVolumes(driver.into()))
                }
            }
        }
    }

    /// The resource name as the API spells it (the inverse of
    /// [`Dimension::from_resource_name`]), for messages.
    pub fn resource_name(&self) -> String {
        match self {
            Self::Cpu => "cpu".to_owned(),
            Self::Memory => "memory".to_owned(),
            Self::Gpu => GPU_RESOURCE.to_owned(),
            Self::Pods => "pods".to_owned(),
            Self::Mig(p) => format!("{MIG_RESOURCE_PREFIX}{p}"),
            Self::AttachableVolumes(d) => format!("{ATTACHABLE_VOLUMES_PREFIX}{d}"),
        }
    }

    /// The integer unit this dimension's quantities are parsed into.
    pub fn scale(&self) -> Scale {
        match self {
            Self::Cpu => Scale::Milli,
            _ => Scale::Units,
        }
    }

    /// Whether a node that does not report this dimension has none of it (devices) rather
    /// than no limit on it (attachable volumes are only limited where reported).
    pub fn absent_means_zero(&self) -> bool {
        !matches!(self, Self::AttachableVolumes(_))
    }

    /// True for the GPU dimensions (whole GPUs and MIG slices), which sort first when
    /// placing pods because they are the scarcest and most fragmented.
    pub fn is_gpu(&self) -> bool {
        matches!(self, Self::Gpu | Self::Mig(_))
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cpu => f.write_str("CPU"),
            Self::Memory => f.write_str("memory"),
            Self::Gpu => f.write_str("GPU"),
            Self::Pods => f.write_str("pods"),
            Self::Mig(p) => write!(f, "MIG {p}"),
            Self::AttachableVolumes(d) => write!(f, "volumes ({d})"),
        }
    }
}

/// A resource list entry that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("resource {resource}: {source}")]
pub struct ResourceError {
    /// The resource name as the API reported it.
    pub resource: String,
    /// What was wrong with its quantity.
    #[source]
    pub source: QuantityError,
}

/// Amounts per dimension. The four dimensions every node and pod has are plain fields;
/// MIG profiles and volume drivers, which few objects carry, live in a small sorted list
/// that stays unallocated for everything else.
///
/// Amounts are signed so that headroom can go negative; parsing never produces negatives.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ResourceVector {
    cpu_millis: i64,
    memory_bytes: i64,
    gpu: i64,
    pods: i64,
    /// Sorted by dimension, no duplicates; only `Mig` and `AttachableVolumes` keys.
    extended: Vec<(Dimension, i64)>,
}

impl ResourceVector {
    /// The zero vector.
    pub const ZERO: Self = Self {
        cpu_millis: 0,
        memory_bytes: 0,
        gpu: 0,
        pods: 0,
        extended: Vec::new(),
    };

    /// A vector with just the four common dimensions set.
    pub fn new(cpu_millis: i64, memory_bytes: i64, gpu: i64, pods: i64) -> Self {
        Self {
            cpu_millis,
            memory_bytes,
            gpu,
            pods,
            extended: Vec::new(),
        }
    }

    /// Reads a Kubernetes resource list (`requests`, `allocatable`, `overhead`) given as
    /// name/quantity string pairs; resources capacity does not model are skipped and a
    /// malformed quantity is an error.
    pub fn from_resource_list<'a>(
        list: impl IntoIterator<Item = (&'a str, &'a str)>,
        interner: &mut Interner,
    ) -> Result<Self, ResourceError> {
        let mut v = Self::ZERO;
        for (name, quantity) in list {
            let Some(dim) = Dimension::from_resource_name(name) else {
                continue;
            };
            let amount = parse_quantity(quantity, dim.scale()).map_err(|source| ResourceError {
                resource: name.to_owned(),
                source,
            })?;
            v.set(dim, amount);
        }
        v.share_names(interner);
        Ok(v)
    }

    /// Replaces the names of MIG and attachable-volume dimensions with `interner`'s shared
    /// copies, for vectors read without an interner at hand (a no-op for the common four).
    pub fn share_names(&mut self, interner: &mut Interner) {
        for (dim, _) in &mut self.extended {
            match dim {
                Dimension::Mig(name) | Dimension::AttachableVolumes(name) => {
                    *name = interner.intern(name);
                }
                _ => {}
            }
        }
    }

    /// CPU in millicores.
    pub fn cpu_millis(&self) -> i64 {
        self.cpu_millis
    }
    /// Memory in bytes.
    pub fn memory_bytes(&self) -> i64 {
        self.memory_bytes
    }
    /// `nvidia.com/gpu` devices or shares.
    pub fn gpu(&self) -> i64 {
        self.gpu
    }
    /// Pod slots.
    pub fn pods(&self) -> i64 {
        self.pods
    }

    /// The amount in `dim` (zero when not present).
    pub fn get(&self, dim: &Dimension) -> i64 {
        match dim {
            Dimension::Cpu => self.cpu_millis,
            Dimension::Memory => self.memory_bytes,
            Dimension::Gpu => self.gpu,
            Dimension::Pods => self.pods,
            _ => self.extended_amount(dim).unwrap_or(0),
        }
    }

    /// The amount of an extended dimension, distinguishing "not reported" (`None`).
    fn extended_amount(&self, dim: &Dimension) -> Option<i64> {
        self.extended
            .binary_search_by(|(d, _)| d.cmp(dim))
            .ok()
            .map(|i| self.extended[i].1)
    }

    /// Whether the vector reports `dim` at all (always true for the common four).
    pub fn reports(&self, dim: &Dimension) -> bool {
        match dim {
            Dimension::Cpu | Dimension::Memory | Dimension::Gpu | Dimension::Pods => true,
            _ => self.extended_amount(dim).is_some(),
        }
    }

    /// Sets the amount in `dim`.
    pub fn set(&mut self, dim: Dimension, amount: i64) {
        match dim {
            Dimension::Cpu => self.cpu_millis = amount,
            Dimension::Memory => self.memory_bytes = amount,
            Dimension::Gpu => self.gpu = amount,
            Dimension::Pods => self.pods = amount,
            _ => match self.extended.binary_search_by(|(d, _)| d.cmp(&dim)) {
                Ok(i) => self.extended[i].1 = amount,
                Err(i) => self.extended.insert(i, (dim, amount)),
            },
        }
    }

    /// Every dimension present, common four first, with its amount.
    pub fn iter(&self) -> impl Iterator<Item = (Dimension, i64)> + '_ {
        [
            (Dimension::Cpu, self.cpu_millis),
            (Dimension::Memory, self.memory_bytes),
            (Dimension::Gpu, self.gpu),
            (Dimension::Pods, self.pods),
        ]
        .into_iter()
        .chain(self.extended.iter().cloned())
    }

    /// The MIG and attachable-volume entries only.
    pub fn extended(&self) -> &[(Dimension, i64)] {
        &self.extended
    }

    /// Combines two vectors dimension by dimension with `op`; an extended dimension
    /// present on only one side meets zero on the other.
    fn combine(&mut self, other: &Self, op: impl Fn(i64, i64) -> i64) {
        self.cpu_millis = op(self.cpu_millis, other.cpu_millis);
        self.memory_bytes = op(self.memory_bytes, other.memory_bytes);
        self.gpu = op(self.gpu, other.gpu);
        self.pods = op(self.pods, other.pods);
        for (dim, amount) in &other.extended {
            match self.extended.binary_search_by(|(d, _)| d.cmp(dim)) {
                Ok(i) => self.extended[i].1 = op(self.extended[i].1, *amount),
                Err(i) => self.extended.insert(i, (dim.clone(), op(0, *amount))),
            }
        }
    }

    /// Adds `other` dimension by dimension (saturating: totals over a fleet cannot wrap).
    pub fn add_assign(&mut self, other: &Self) {
        self.combine(other, i64::saturating_add);
    }

    /// Subtracts `other` dimension by dimension.
    pub fn sub_assign(&mut self, other: &Self) {
        self.combine(other, i64::saturating_sub);
    }

    /// Keeps the larger amount in each dimension.
    pub fn max_assign(&mut self, other: &Self) {
        self.combine(other, i64::max);
    }

    /// `self + other` as a new vector.
    pub fn plus(&self, other: &Self) -> Self {
        let mut v = self.clone();
        v.add_assign(other);
        v
    }

    /// `self - other` as a new vector.
    pub fn minus(&self, other: &Self) -> Self {
        let mut v = self.clone();
        v.sub_assign(other);
        v
    }

    /// The first dimension in which a request of `self` does not fit into `free`, as the
    /// scheduler's fit check sees it: a zero request always fits (even on an overcommitted
    /// node), and attachable volumes only limit nodes that report them.
    pub fn first_shortfall(&self, free: &Self) -> Option<Dimension> {
        let core = [
            (Dimension::Gpu, self.gpu, free.gpu),
            (Dimension::Pods, self.pods, free.pods),
            (Dimension::Cpu, self.cpu_millis, free.cpu_millis),
            (Dimension::Memory, self.memory_bytes, free.memory_bytes),
        ];
        for (dim, need, have) in core {
            if need > 0 && need > have {
                return Some(dim);
            }
        }
        for (dim, need) in &self.extended {
            if *need <= 0 {
                continue;
            }
            let have = match free.extended_amount(dim) {
                Some(have) => have,
                None if dim.absent_means_zero() => 0,
                None => continue,
            };
            if *need > have {
                return Some(dim.clone());
            }
        }
        None
    }

    /// Whether a request of `self` fits into `free` (see [`Self::first_shortfall`]).
    pub fn fits_in(&self, free: &Self) -> bool {
        // The four common dimensions decide almost every check; only look at the
        // extended list when the pod has one.
        if (self.gpu > 0 && self.gpu > free.gpu)
            || (self.pods > 0 && self.pods > free.pods)
            || (self.cpu_millis > 0 && self.cpu_millis > free.cpu_millis)
            || (self.memory_bytes > 0 && self.memory_bytes > free.memory_bytes)
        {
            return false;
        }
        self.extended.is_empty() || self.first_shortfall(free).is_none()
    }

    /// Whether any dimension is negative.
    pub fn any_negative(&self) -> bool {
        self.iter().any(|(_, a)| a < 0)
    }

    /// Total order used to sort pods largest-first for first-fit decreasing: GPU devices
    /// first, then MIG slices, then the dominant share of CPU and memory relative to
    /// `reference` (typically the cluster's allocatable).
    pub fn decreasing_order(&self, other: &Self, reference: &Self) -> Ordering {
        let mig = |v: &Self| {
            v.extended
                .iter()
                .filter(|(d, _)| matches!(d, Dimension::Mig(_)))
                .map(|(_, a)| *a)
                .sum::<i64>()
        };
        other
            .gpu
            .cmp(&self.gpu)
            .then_with(|| mig(other).cmp(&mig(self)))
            .then_with(|| {
                other
                    .dominant_share(reference)
                    .total_cmp(&self.dominant_share(reference))
            })
    }

    /// The largest share of `reference` this vector takes in CPU or memory; only used
    /// to order pods, never as an amount.
    pub fn dominant_share(&self, reference: &Self) -> f64 {
        let share = |need: i64, total: i64| {
            if total > 0 {
                need as f64 / total as f64
            } else {
                0.0
            }
        };
        share(self.cpu_millis, reference.cpu_millis)
            .max(share(self.memory_bytes, reference.memory_bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_resource_list_and_skips_unmodelled_resources() {
        let mut interner = Interner::new();
        let v = ResourceVector::from_resource_list(
            [
                ("cpu", "7910m"),
                ("memory", "60Gi"),
                ("nvidia.com/gpu", "8"),
                ("pods", "110"),
                ("nvidia.com/mig-1g.5gb", "7"),
                ("attachable-volumes-aws-ebs", "39"),
                ("ephemeral-storage", "100Gi"),
                ("hugepages-2Mi", "0"),
            ],
            &mut interner,
        )
        .expect("valid list");
        assert_eq!(v.cpu_millis(), 7910);
        assert_eq!(v.memory_bytes(), 60 << 30);
        assert_eq!(v.gpu(), 8);
        assert_eq!(v.pods(), 110);
        assert_eq!(v.get(&Dimension::Mig("1g.5gb".into())), 7);
        assert_eq!(v.get(&Dimension::AttachableVolumes("aws-ebs".into())), 39);
        assert_eq!(v.extended().len(), 2);
    }

    #[test]
    fn malformed_quantity_names_the_resource() {
        let mut interner = Interner::new();
        let err = ResourceVector::from_resource_list([("memory", "lots")], &mut interner)
            .expect_err("must reject");
        assert_eq!(err.resource, "memory");
    }

    #[test]
    fn dimensions_are_never_summed_together() {
        let mut a = ResourceVector::new(1000, 10, 1, 1);
        a.set(Dimension::Mig("1g.5gb".into()), 2);
        let mut b = ResourceVector::new(500, 5, 0, 1);
        b.set(Dimension::Mig("2g.10gb".into()), 1);
        a.add_assign(&b);
        assert_eq!(a.cpu_millis(), 1500);
        assert_eq!(a.memory_bytes(), 15);
        assert_eq!(a.gpu(), 1);
        assert_eq!(a.pods(), 2);
        assert_eq!(a.get(&Dimension::Mig("1g.5gb".into())), 2);
        assert_eq!(a.get(&Dimension::Mig("2g.10gb".into())), 1);
        a.max_assign(&ResourceVector::new(100, 100, 0, 0));
        assert_eq!((a.cpu_millis(), a.memory_bytes()), (1500, 100));
    }

    #[test]
    fn fit_check_follows_the_scheduler() {
        let free = ResourceVector::new(1000, -5, 2, 3);
        // Zero memory request fits even though the node is overcommitted on memory.
        assert!(ResourceVector::new(500, 0, 1, 1).fits_in(&free));
        assert_eq!(
            ResourceVector::new(500, 1, 0, 1).first_shortfall(&free),
            Some(Dimension::Memory)
        );
        assert_eq!(
            ResourceVector::new(0, 0, 4, 1).first_shortfall(&free),
            Some(Dimension::Gpu)
        );
        // MIG slices are absent on this node: none available.
        let mut mig = ResourceVector::new(0, 0, 0, 1);
        mig.set(Dimension::Mig("1g.5gb".into()), 1);
        assert!(!mig.fits_in(&free));
        // Volumes are unlimited where the node does not report them, limited where it does.
        let mut vol = ResourceVector::new(0, 0, 0, 1);
        vol.set(Dimension::AttachableVolumes("aws-ebs".into()), 2);
        assert!(vol.fits_in(&free));
        let mut limited = free.clone();
        limited.set(Dimension::AttachableVolumes("aws-ebs".into()), 1);
        assert!(!vol.fits_in(&limited));
    }

    #[test]
    fn gpu_pods_sort_first() {
        let reference = ResourceVector::new(10_000, 1000, 8, 100);
        let big_cpu = ResourceVector::new(9000, 10, 0, 1);
        let one_gpu = ResourceVector::new(100, 10, 1, 1);
        let two_gpu = ResourceVector::new(100, 10, 2, 1);
        let mut pods = [big_cpu.clone(), one_gpu.clone(), two_gpu.clone()];
        pods.sort_by(|a, b| a.decreasing_order(b, &reference));
        assert_eq!(pods, [two_gpu, one_gpu, big_cpu]);
    }
}
