//! The hooks adapter: what runs outside Kubernetes on the engine's behalf. Exec hooks start
//! a program by argv (never through a shell) under a deadline; Prometheus answers the
//! verification and stop-condition queries. Both translate; `model/` decides.

pub mod program;
pub mod prometheus;
