//! Effective pod requests, computed the way the scheduler computes them
//! (`k8s.io/component-helpers/resource.PodRequests`), from plain per-container data the
//! adapter extracts from a pod spec.

use super::resources::{Dimension, ResourceVector};

/// How an init container runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InitContainerKind {
    /// A classic init container: runs to completion before the next one starts.
    RunToCompletion,
    /// A sidecar (`restartPolicy: Always`): starts in order and keeps running alongside
    /// the app containers.
    Sidecar,
}

/// One init container's requests and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitContainerRequests {
    /// The container's resource requests.
    pub requests: ResourceVector,
    /// Classic init container or sidecar.
    pub kind: InitContainerKind,
}

/// The request-related parts of a pod spec.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodSpecRequests {
    /// App containers' requests.
    pub containers: Vec<ResourceVector>,
    /// Init containers (classic and sidecars) in spec order.
    pub init_containers: Vec<InitContainerRequests>,
    /// `spec.overhead` (RuntimeClass overhead).
    pub overhead: ResourceVector,
    /// `spec.resources.requests` (pod-level resources), which replace the container
    /// aggregate for CPU and memory when set.
    pub pod_level: Option<ResourceVector>,
}

/// Re-exported name for an app container's requests, for adapters that like the symmetry.
pub type ContainerRequests = ResourceVector;

/// The pod's effective requests per dimension:
/// `max(Σ app containers + Σ sidecars, max over init containers i of (init_i + sidecars
/// started before i, or the running sidecar total at a sidecar)) + overhead`, with pod-level
/// CPU/memory replacing the aggregate when given, and one pod slot.
pub fn effective_requests(spec: &PodSpecRequests) -> ResourceVector {
    let mut steady = ResourceVector::ZERO;
    for c in &spec.containers {
        steady.add_assign(c);
    }
    let mut sidecars = ResourceVector::ZERO;
    let mut init_peak = ResourceVector::ZERO;
    for init in &spec.init_containers {
        match init.kind {
            InitContainerKind::Sidecar => {
                // Sidecars keep running: they add to the steady state and to every
                // later init container's peak.
                steady.add_assign(&init.requests);
                sidecars.add_assign(&init.requests);
                init_peak.max_assign(&sidecars);
            }
            InitContainerKind::RunToCompletion => {
                init_peak.max_assign(&init.requests.plus(&sidecars));
            }
        }
    }
    steady.max_assign(&init_peak);
    if let Some(pod_level) = &spec.pod_level {
        for dim in [Dimension::Cpu, Dimension::Memory] {
            let amount = pod_level.get(&dim);
            if amount > 0 {
                steady.set(dim, amount);
            }
        }
    }
    steady.add_assign(&spec.overhead);
    steady.set(Dimension::Pods, 1);
    steady
}

#[cfg(test)]
mod tests {
    use super::*;

    const MI: i64 = 1 << 20;

    fn v(cpu: i64, mem_mi: i64) -> ResourceVector {
        ResourceVector::new(cpu, mem_mi * MI, 0, 0)
    }
    fn init(cpu: i64, mem_mi: i64) -> InitContainerRequests {
        InitContainerRequests {
            requests: v(cpu, mem_mi),
            kind: InitContainerKind::RunToCompletion,
        }
    }
    fn sidecar(cpu: i64, mem_mi: i64) -> InitContainerRequests {
        InitContainerRequests {
            requests: v(cpu, mem_mi),
            kind: InitContainerKind::Sidecar,
        }
    }

    #[test]
    fn app_containers_sum() {
        let spec = PodSpecRequests {
            containers: vec![v(100, 64), v(250, 128)],
            ..Default::default()
        };
        assert_eq!(
            effective_requests(&spec),
            ResourceVector::new(350, 192 * MI, 0, 1)
        );
    }

    #[test]
    fn big_init_container_dominates_per_dimension() {
        // Init wants 2 CPU / 64Mi; apps want 0.5 CPU / 1Gi. Per dimension max:
        // CPU 2000m from the init container, memory 1024Mi from the apps.
        let spec = PodSpecRequests {
            containers: vec![v(500, 1024)],
            init_containers: vec![init(2000, 64), init(1000, 512)],
            ..Default::default()
        };
        assert_eq!(
            effective_requests(&spec),
            ResourceVector::new(2000, 1024 * MI, 0, 1)
        );
    }

    #[test]
    fn sidecars_add_to_steady_state_and_to_later_inits() {
        // sidecar A (100m, 100Mi), then init B (1000m, 50Mi), then sidecar C (200m, 10Mi);
        // app 300m/200Mi.
        // Steady: 300+100+200 = 600m; 200+100+10 = 310Mi.
        // Init peaks: at A: 100m/100Mi; at B: 1000+100 = 1100m / 50+100 = 150Mi;
        // at C: 300m/110Mi. Max: 1100m / 150Mi.
        // Result: max(600, 1100) = 1100m; max(310, 150) = 310Mi.
        let spec = PodSpecRequests {
            containers: vec![v(300, 200)],
            init_containers: vec![sidecar(100, 100), init(1000, 50), sidecar(200, 10)],
            ..Default::default()
        };
        assert_eq!(
            effective_requests(&spec),
            ResourceVector::new(1100, 310 * MI, 0, 1)
        );
    }

    #[test]
    fn init_before_sidecar_does_not_see_it() {
        // init (1000m) runs before the sidecar (500m) starts: peak 1000m, steady
        // 200 + 500 = 700m. Result 1000m, not 1500m.
        let spec = PodSpecRequests {
            containers: vec![v(200, 0)],
            init_containers: vec![init(1000, 0), sidecar(500, 0)],
            ..Default::default()
        };
        assert_eq!(effective_requests(&spec).cpu_millis(), 1000);
    }

    #[test]
    fn overhead_is_added_after_the_max() {
        let spec = PodSpecRequests {
            containers: vec![v(500, 256)],
            init_containers: vec![init(1000, 0)],
            overhead: v(250, 120),
            ..Default::default()
        };
        assert_eq!(
            effective_requests(&spec),
            ResourceVector::new(1250, 376 * MI, 0, 1)
        );
    }

    #[test]
    fn pod_level_resources_replace_cpu_and_memory_only() {
        let mut app = v(500, 256);
        app.set(Dimension::Gpu, 1);
        let spec = PodSpecRequests {
            containers: vec![app],
            pod_level: Some(v(2000, 0)),
            overhead: v(100, 0),
            ..Default::default()
        };
        // CPU replaced by 2000 (+100 overhead); memory not set at pod level stays 256Mi.
        assert_eq!(
            effective_requests(&spec),
            ResourceVector::new(2100, 256 * MI, 1, 1)
        );
    }

    #[test]
    fn gpu_and_mig_requests_follow_the_same_rules() {
        let mut a = ResourceVector::new(0, 0, 2, 0);
        a.set(Dimension::Mig("1g.5gb".into()), 1);
        let spec = PodSpecRequests {
            containers: vec![a.clone(), ResourceVector::new(0, 0, 1, 0)],
            ..Default::default()
        };
        let r = effective_requests(&spec);
        assert_eq!(r.gpu(), 3);
        assert_eq!(r.get(&Dimension::Mig("1g.5gb".into())), 1);
    }
}
