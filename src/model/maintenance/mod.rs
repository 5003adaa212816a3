//! Node maintenance: the file, the per-node state machine, the batch planner and the mass-failure guard.
