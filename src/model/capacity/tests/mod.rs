//! Capacity tests with hand-computed answers; each test states its arithmetic.

mod absorb;
mod gpu;
mod n_minus_one;
mod placement_never_overcommits;
mod whatif;
