//! Gang requests ("can 8 × nvidia.com/gpu fit on one node?") and their fit against a
//! cluster's GPU shape.

use std::sync::Arc;

use thiserror::Error;

use super::gpu_shape::GpuShape;
use crate::model::fleet::{Dimension, GPU_RESOURCE, MIG_RESOURCE_PREFIX};

/// A gang: `size` devices of one GPU resource that must all land on one node.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GangRequest {
    /// Devices in the gang.
    pub size: u32,
    /// `Dimension::Gpu` or a `Dimension::Mig` profile.
    pub resource: Dimension,
}

/// Why a gang request string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GangParseError {
    /// Not of the form `<count>x<resource>`.
    #[error("gang {0:?} is not of the form <count>x<resource>, e.g. 8xnvidia.com/gpu")]
    Malformed(String),
    /// The count is not a positive integer.
    #[error("gang count {0:?} is not a positive integer")]
    BadCount(String),
    /// The resource is not a GPU resource capacity models.
    #[error("gang resource {0:?} is not nvidia.com/gpu or nvidia.com/mig-<profile>")]
    UnsupportedResource(String),
}

impl GangRequest {
    /// Parses `8xnvidia.com/gpu` (also `8×nvidia.com/gpu`, `2xnvidia.com/mig-1g.5gb`).
    pub fn parse(s: &str) -> Result<Self, GangParseError> {
        let split = s
            .char_indices()
            .find(|(_, c)| matches!(c, 'x' | 'X' | '×'))
            .ok_or_else(|| GangParseError::Malformed(s.to_owned()))?;
        let (count, rest) = s.split_at(split.0);
        let resource = &rest[split.1.len_utf8()..];
        if count.is_empty() || resource.is_empty() {
            return Err(GangParseError::Malformed(s.to_owned()));
        }
        let size: u32 = count
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| GangParseError::BadCount(count.to_owned()))?;
        let resource = if resource == GPU_RESOURCE {
            Dimension::Gpu
        } else if let Some(profile) = resource
            .strip_prefix(MIG_RESOURCE_PREFIX)
            .filter(|p| !p.is_empty())
        {
            Dimension::Mig(Arc::from(profile))
        } else {
            return Err(GangParseError::UnsupportedResource(resource.to_owned()));
        };
        Ok(Self { size, resource })
    }
}

/// How a gang fits a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GangFit {
    /// The request.
    pub request: GangRequest,
    /// Nodes that can each take the whole gang now.
    pub nodes_that_fit: u32,
    /// Most free devices of the resource on any one node.
    pub largest_on_one_node: i64,
    /// Free devices of the resource in the cluster.
    pub free_total: i64,
    /// Topology domains (key, value) whose free GPUs add up to the gang, for multi-node
    /// jobs that need one NVLink/network domain rather than one node (whole GPUs only).
    pub domains_that_fit: Vec<(Arc<str>, Arc<str>, i64)>,
}

impl GangFit {
    /// Whether at least one node can take the whole gang.
    pub fn fits_on_one_node(&self) -> bool {
        self.nodes_that_fit > 0
    }
}

/// Checks a gang against a cluster's GPU shape.
pub fn gang_fit(shape: &GpuShape, request: &GangRequest) -> GangFit {
    let free_on = |n: &super::gpu_shape::NodeGpuFree| match &request.resource {
        Dimension::Mig(profile) => n
            .mig_free
            .iter()
            .find(|(p, _)| p == profile)
            .map_or(0, |(_, f)| *f),
        _ => n.free,
    };
    let size = i64::from(request.size);
    let nodes_that_fit = shape.per_node.iter().filter(|n| free_on(n) >= size).count();
    let domains_that_fit = if request.resource == Dimension::Gpu {
        shape
            .domains
            .iter()
            .filter(|d| d.free_gpus >= size)
            .map(|d| (Arc::clone(&d.key), Arc::clone(&d.value), d.free_gpus))
            .collect()
    } else {
        Vec::new()
    };
    GangFit {
        request: request.clone(),
        nodes_that_fit: u32::try_from(nodes_that_fit).unwrap_or(u32::MAX),
        largest_on_one_node: shape.per_node.iter().map(free_on).max().unwrap_or(0),
        free_total: shape.per_node.iter().map(free_on).sum(),
        domains_that_fit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gang_requests() {
        assert_eq!(
            GangRequest::parse("8xnvidia.com/gpu"),
            Ok(GangRequest {
                size: 8,
                resource: Dimension::Gpu
            })
        );
        assert_eq!(
            GangRequest::parse("2×nvidia.com/mig-1g.5gb"),
            Ok(GangRequest {
                size: 2,
                resource: Dimension::Mig("1g.5gb".into())
            })
        );
        assert!(matches!(
            GangRequest::parse("8nvidia.com/gpu"),
            Err(GangParseError::BadCount(_)) | Err(GangParseError::Malformed(_))
        ));
        assert!(matches!(
            GangRequest::parse("0xnvidia.com/gpu"),
            Err(GangParseError::BadCount(_))
        ));
        assert!(matches!(
            GangRequest::parse("ax"),
            Err(GangParseError::Malformed(_))
        ));
        assert!(matches!(
            GangRequest::parse("4xcpu"),
            Err(GangParseError::UnsupportedResource(_))
        ));
        assert!(matches!(
            GangRequest::parse("4xnvidia.com/mig-"),
            Err(GangParseError::UnsupportedResource(_))
        ));
        assert!(matches!(
            GangRequest::parse(""),
            Err(GangParseError::Malformed(_))
        ));
    }
}
