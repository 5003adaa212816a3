//! Placement: resource requests (CPU, memory, GPUs, pod count), node selectors and
//! required node affinity, taints and tolerations, unschedulable and NotReady nodes.
//! Used by the scheduler loop and by scenario generation.

use serde_json::Value;

use super::selector::{LabelSelector, string_pairs};

/// Requests or capacity in the dimensions the simulator schedules on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Res {
    /// Millicores.
    pub cpu_m: i64,
    /// Bytes.
    pub mem: i64,
    /// `nvidia.com/gpu`.
    pub gpu: i64,
    /// Pod slots.
    pub pods: i64,
}

impl Res {
    /// Adds another amount.
    pub fn add(&mut self, o: Res) {
        self.cpu_m += o.cpu_m;
        self.mem += o.mem;
        self.gpu += o.gpu;
        self.pods += o.pods;
    }

    /// Whether `extra` fits in `self - used`.
    pub fn fits(&self, used: &Res, extra: &Res) -> bool {
        used.cpu_m + extra.cpu_m <= self.cpu_m
            && used.mem + extra.mem <= self.mem
            && used.gpu + extra.gpu <= self.gpu
            && used.pods + extra.pods <= self.pods
    }
}

/// Parses a Kubernetes quantity (`250m`, `2`, `1.5`, `512Mi`, `1G`) into base units.
pub fn parse_quantity(s: &str) -> Option<f64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    let n: f64 = num.parse().ok()?;
    let mult = match suffix {
        "" => 1.0,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0f64.powi(4),
        _ => return None,
    };
    Some(n * mult)
}

fn q(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::String(s)) => parse_quantity(s).unwrap_or(0.0),
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        _ => 0.0,
    }
}

fn res_of(map: Option<&Value>) -> Res {
    Res {
        cpu_m: (q(map.and_then(|m| m.get("cpu"))) * 1000.0).round() as i64,
        mem: q(map.and_then(|m| m.get("memory"))) as i64,
        gpu: q(map.and_then(|m| m.get("nvidia.com/gpu"))) as i64,
        pods: q(map.and_then(|m| m.get("pods"))) as i64,
    }
}

/// The requests of a pod: the sum over its containers (limits stand in for missing
/// requests, as the API server defaults them), plus one pod slot.
pub fn pod_requests(pod: &Value) -> Res {
    let mut total = Res {
        pods: 1,
        ..Res::default()
    };
    if let Some(cs) = pod.pointer("/spec/containers").and_then(Value::as_array) {
        for c in cs {
            let req = res_of(c.pointer("/resources/requests"));
            let lim = res_of(c.pointer("/resources/limits"));
            total.add(Res {
                cpu_m: if req.cpu_m > 0 { req.cpu_m } else { lim.cpu_m },
                mem: if req.mem > 0 { req.mem } else { lim.mem },
                gpu: req.gpu.max(lim.gpu),
                pods: 0,
            });
        }
    }
    total
}

/// A node as the scheduler sees it.
#[derive(Debug, Clone)]
pub struct NodeFit {
    /// Node name.
    pub name: String,
    /// Node labels.
    pub labels: Vec<(String, String)>,
    /// `spec.taints`.
    pub taints: Vec<Value>,
    /// `status.allocatable`.
    pub alloc: Res,
    /// Requests of the pods bound to it.
    pub used: Res,
    /// Ready and not cordoned.
    pub schedulable: bool,
}

impl NodeFit {
    /// Reads a node object (usage starts at zero).
    pub fn of(node: &Value) -> NodeFit {
        let labels = string_pairs(node.pointer("/metadata/labels"));
        let ready = node
            .pointer("/status/conditions")
            .and_then(Value::as_array)
            .is_some_and(|cs| {
                cs.iter().any(|c| {
                    c.get("type").and_then(Value::as_str) == Some("Ready")
                        && c.get("status").and_then(Value::as_str) == Some("True")
                })
            });
        let cordoned = node
            .pointer("/spec/unschedulable")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        NodeFit {
            name: super::store::str_at(node, "/metadata/name"),
            labels,
            taints: node
                .pointer("/spec/taints")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            alloc: res_of(node.pointer("/status/allocatable")),
            used: Res::default(),
            schedulable: ready && !cordoned,
        }
    }

    /// The value of one of the node's labels.
    pub fn label(&self, k: &str) -> Option<&str> {
        self.labels
            .iter()
            .find(|(lk, _)| lk == k)
            .map(|(_, v)| v.as_str())
    }
}

/// The toleration (if any) that tolerates a taint.
pub fn toleration_for<'a>(tolerations: &'a [Value], taint: &Value) -> Option<&'a Value> {
    let s = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let (tkey, tval, teff) = (s(taint, "key"), s(taint, "value"), s(taint, "effect"));
    tolerations.iter().find(|t| {
        let (key, op, val, eff) = (s(t, "key"), s(t, "operator"), s(t, "value"), s(t, "effect"));
        let effect_ok = eff.is_empty() || eff == teff;
        let key_ok = if key.is_empty() {
            op == "Exists"
        } else {
            key == tkey && (op == "Exists" || val == tval)
        };
        effect_ok && key_ok
    })
}

/// Whether a toleration list tolerates a taint.
pub fn tolerates(tolerations: &[Value], taint: &Value) -> bool {
    toleration_for(tolerations, taint).is_some()
}

/// What a pod requires of a node besides resources, read once per pod (placement
/// checks it against every node).
pub struct Constraints {
    selector: Vec<(String, String)>,
    affinity: Vec<LabelSelector>,
    tolerations: Vec<Value>,
}

impl Constraints {
    /// Reads a pod (or pod template).
    pub fn of(pod: &Value) -> Constraints {
        let selector = string_pairs(pod.pointer("/spec/nodeSelector"));
        let affinity = pod
            .pointer("/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms")
            .and_then(Value::as_array)
            .map(|terms| terms.iter().map(LabelSelector::from_object).collect())
            .unwrap_or_default();
        let tolerations = pod
            .pointer("/spec/tolerations")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Constraints {
            selector,
            affinity,
            tolerations,
        }
    }

    /// Whether a node satisfies them: selector, required affinity, taints.
    pub fn allow(&self, node: &NodeFit) -> bool {
        self.selector
            .iter()
            .all(|(k, v)| node.label(k) == Some(v.as_str()))
            && (self.affinity.is_empty() || self.affinity.iter().any(|t| t.matches(&node.labels)))
            && node.taints.iter().all(|taint| {
                let effect = taint
                    .get("effect")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                effect == "PreferNoSchedule" || tolerates(&self.tolerations, taint)
            })
    }
}

/// Whether `pod` may run on `node` ignoring resources: selector, affinity, taints.
pub fn matches_node(node: &NodeFit, pod: &Value) -> bool {
    Constraints::of(pod).allow(node)
}

/// Picks a node for a pod: feasible nodes only; GPU pods go to the fullest node that
/// still fits (to keep large GPU slots free), other pods to the least loaded node
/// (spreading, like the default scheduler's LeastAllocated score). Ties by name.
pub fn choose(nodes: &[NodeFit], pod: &Value, req: &Res) -> Option<usize> {
    choose_where(nodes, pod, req, |_| true)
}

/// [`choose`] among the nodes `allow` accepts as well: what the pod itself says is not
/// all that binds it (the zone of its volumes, a spread its owner prefers).
pub fn choose_where(
    nodes: &[NodeFit],
    pod: &Value,
    req: &Res,
    allow: impl Fn(&NodeFit) -> bool,
) -> Option<usize> {
    let constraints = Constraints::of(pod);
    let score = |n: &NodeFit| -> i64 {
        if req.gpu > 0 {
            n.used.gpu * 1000 - n.used.cpu_m / n.alloc.cpu_m.max(1)
        } else {
            let cpu = n.used.cpu_m * 1000 / n.alloc.cpu_m.max(1);
            let mem = n.used.mem / (n.alloc.mem / 1000).max(1);
            -(cpu + mem)
        }
    };
    nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            n.schedulable && n.alloc.fits(&n.used, req) && constraints.allow(n) && allow(n)
        })
        .max_by(|(_, a), (_, b)| score(a).cmp(&score(b)).then(b.name.cmp(&a.name)))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(name: &str, gpus: i64, taint: bool) -> NodeFit {
        NodeFit {
            name: name.into(),
            labels: vec![("gpu".into(), (gpus > 0).to_string())],
            taints: if taint {
                vec![json!({"key": "nvidia.com/gpu", "effect": "NoSchedule"})]
            } else {
                vec![]
            },
            alloc: Res {
                cpu_m: 4000,
                mem: 1 << 34,
                gpu: gpus,
                pods: 110,
            },
            used: Res::default(),
            schedulable: true,
        }
    }

    #[test]
    fn quantities() {
        assert_eq!(parse_quantity("250m"), Some(0.25));
        assert_eq!(parse_quantity("1Gi"), Some(1073741824.0));
        assert_eq!(parse_quantity("x"), None);
    }

    #[test]
    fn taints_and_gpus_decide_placement() {
        let nodes = vec![node("cpu", 0, false), node("gpu", 8, true)];
        let plain = json!({"spec": {"containers": [{"resources": {"requests": {"cpu": "1"}}}]}});
        assert_eq!(choose(&nodes, &plain, &pod_requests(&plain)), Some(0));
        let gpu = json!({"spec": {"containers": [{"resources": {"limits": {"nvidia.com/gpu": "2"}}}],
            "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}]}});
        assert_eq!(choose(&nodes, &gpu, &pod_requests(&gpu)), Some(1));
        let nine = json!({"spec": {"containers": [{"resources": {"limits": {"nvidia.com/gpu": "9"}}}],
            "tolerations": [{"operator": "Exists"}]}});
        assert_eq!(choose(&nodes, &nine, &pod_requests(&nine)), None);
    }
}
