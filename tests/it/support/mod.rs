//! What the tests share, compiled once: the binary run as a user runs it (`cli`), the
//! journal a test runs on, SQLite or PostgreSQL, and `on_both_backends!` (`backend`), the
//! simulator served on loopback (`sim`), a rollout's workspace and in-process executors
//! (`rollout`), executor processes (`executor`), what a run through a failure must leave
//! (`checks`), the console in tmux (`tmux`), a real
//! Prometheus (`prometheus`) and the simulator's conformance table (`conformance`).

#[macro_use]
pub mod backend;
pub mod checks;
pub mod cli;
pub mod conformance;
pub mod credentials;
pub mod executor;
pub mod prometheus;
pub mod proxy;
pub mod rollout;
pub mod sim;
pub mod team;
pub mod tmux;
