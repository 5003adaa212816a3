//! The Kubernetes adapter: kube clients per ledger cluster, watches kept as slim views,
//! identity checks, and the fleet snapshot they feed. It translates; `model/` decides.

pub mod budget;
pub mod cluster_store;
pub mod cluster_sync;
pub mod connect;
pub mod credentials;
pub mod findings;
pub mod fleet_sync;
pub mod job_clients;
pub mod json_reader;
pub mod json_skip;
pub mod kube_port;
pub mod kubeconfig;
pub(crate) mod node_events;
pub mod nodes;
pub mod pdb_index;
pub mod project;
pub mod rbac;
pub mod reflect;
pub mod retry;
pub mod rollout_kube;
pub mod slim;
pub mod slim_de;
pub mod tls;
pub mod upgrade_facts;
pub mod verified;
