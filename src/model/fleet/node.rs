//! The slim node view: what capacity and maintenance decide on, nothing more.

use std::sync::Arc;

use super::ids::NodeName;
use super::labels::Labels;
use super::resources::ResourceVector;
use super::taints::Taint;
use crate::model::quantity::QuantityError;

/// Label (or annotation) the NVIDIA device plugin sets to the number of time-slicing
/// replicas per physical GPU; the node then advertises `replicas × GPUs`.
pub const GPU_REPLICAS_LABEL: &str = "nvidia.com/gpu.replicas";

/// The node's Ready condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Readiness {
    /// Ready=True.
    Ready,
    /// Ready=False.
    NotReady,
    /// Ready=Unknown or no condition reported: treated as not healthy.
    Unknown,
}

/// Whether the node accepts new pods (`spec.unschedulable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Schedulability {
    /// Accepts new pods.
    Schedulable,
    /// Cordoned.
    Cordoned,
}

/// Whether fleetdeck (or a person through it) has the node in a maintenance step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaintenanceState {
    /// Not in maintenance.
    InService,
    /// Being drained, maintained or verified; its capacity does not count.
    UnderMaintenance,
}

/// A node as capacity sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeView {
    /// Node name.
    pub name: NodeName,
    /// All node labels (interned); topology, pools and selectors read these.
    pub labels: Labels,
    /// Ready condition.
    pub readiness: Readiness,
    /// Cordoned or not.
    pub schedulability: Schedulability,
    /// In a maintenance step or not.
    pub maintenance: MaintenanceState,
    /// Taints, all effects.
    pub taints: Box<[Taint]>,
    /// `status.allocatable` per modelled dimension; GPUs as advertised (shares when
    /// time-sliced).
    pub allocatable: ResourceVector,
    /// Time-slicing replicas per physical GPU (1 when not time-sliced).
    pub gpu_replicas: u32,
    /// Kubelet version as reported in node info.
    pub kubelet_version: Arc<str>,
}

impl NodeView {
    /// Physical GPUs on the node: advertised GPUs deflated by time-slicing replicas.
    pub fn physical_gpus(&self) -> i64 {
        self.allocatable.gpu() / i64::from(self.gpu_replicas.max(1))
    }

    /// The NVIDIA driver version GPU feature discovery labelled the node with, when it
    /// did: the full version newer releases write, else the major/minor/revision labels
    /// older ones write (the revision is empty for drivers versioned `550.120`).
    pub fn gpu_driver_version(&self) -> Option<Arc<str>> {
        let label = |key: &str| self.labels.get(key).filter(|v| !v.is_empty());
        if let Some(full) = label(GPU_DRIVER_LABEL) {
            return Some(Arc::clone(full));
        }
        let major = label(GPU_DRIVER_MAJOR_LABEL)?;
        let minor = label(GPU_DRIVER_MINOR_LABEL)?;
        Some(match label(GPU_DRIVER_REVISION_LABEL) {
            Some(revision) => format!("{major}.{minor}.{revision}").into(),
            None => format!("{major}.{minor}").into(),
        })
    }
}

/// GPU feature discovery's full driver version label.
pub const GPU_DRIVER_LABEL: &str = "nvidia.com/cuda.driver-version.full";
/// The driver's major version, as older GPU feature discovery releases label it.
pub const GPU_DRIVER_MAJOR_LABEL: &str = "nvidia.com/cuda.driver.major";
/// The driver's minor version (older releases).
pub const GPU_DRIVER_MINOR_LABEL: &str = "nvidia.com/cuda.driver.minor";
/// The driver's revision (older releases; empty when the driver has none).
pub const GPU_DRIVER_REVISION_LABEL: &str = "nvidia.com/cuda.driver.rev";

/// Reads the time-slicing replica count from the `nvidia.com/gpu.replicas` label or
/// annotation value; absent means 1, and so does 0, which NVIDIA's GPU feature discovery
/// writes when sharing is off (every MIG-enabled GPU). A value that is not a whole number
/// is an error rather than a guess, because guessing 1 would overstate GPUs by the real
/// factor.
pub fn gpu_replicas_from_label(value: Option<&str>) -> Result<u32, QuantityError> {
    let Some(value) = value else { return Ok(1) };
    // Digits only: "2.5", "1k" or "1e1" are not replica counts the device plugin writes,
    // and reading them as quantities would round them into one.
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(QuantityError::Malformed(value.to_owned()));
    }
    value
        .parse::<u32>()
        .map(|n| n.max(1))
        .map_err(|_| QuantityError::OutOfRange(value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_labelled(pairs: &[(&str, &str)]) -> NodeView {
        pairs
            .iter()
            .fold(
                crate::fixtures::capacity::node("n1", "a"),
                |node, (k, v)| node.label(k, v),
            )
            .build()
    }

    #[test]
    fn the_gpu_driver_is_read_from_either_generation_of_labels() {
        let full = node_labelled(&[
            (GPU_DRIVER_LABEL, "550.127.08"),
            (GPU_DRIVER_MAJOR_LABEL, "999"),
            (GPU_DRIVER_MINOR_LABEL, "1"),
        ]);
        assert_eq!(full.gpu_driver_version().as_deref(), Some("550.127.08"));
        let triple = node_labelled(&[
            (GPU_DRIVER_MAJOR_LABEL, "535"),
            (GPU_DRIVER_MINOR_LABEL, "104"),
            (GPU_DRIVER_REVISION_LABEL, "12"),
        ]);
        assert_eq!(triple.gpu_driver_version().as_deref(), Some("535.104.12"));
        let no_revision = node_labelled(&[
            (GPU_DRIVER_LABEL, ""),
            (GPU_DRIVER_MAJOR_LABEL, "550"),
            (GPU_DRIVER_MINOR_LABEL, "120"),
            (GPU_DRIVER_REVISION_LABEL, ""),
        ]);
        assert_eq!(no_revision.gpu_driver_version().as_deref(), Some("550.120"));
        let major_only = node_labelled(&[(GPU_DRIVER_MAJOR_LABEL, "550")]);
        assert_eq!(major_only.gpu_driver_version(), None);
        assert_eq!(node_labelled(&[]).gpu_driver_version(), None);
    }

    #[test]
    fn replicas_label() {
        assert_eq!(gpu_replicas_from_label(None), Ok(1));
        assert_eq!(gpu_replicas_from_label(Some("4")), Ok(4));
        assert_eq!(gpu_replicas_from_label(Some("0")), Ok(1), "sharing off");
        assert!(gpu_replicas_from_label(Some("four")).is_err());
        for not_a_count in ["2.5", "0.5", "1k", "1e1", "", "-2", "+2", "99999999999"] {
            assert!(
                gpu_replicas_from_label(Some(not_a_count)).is_err(),
                "{not_a_count:?}"
            );
        }
    }
}
