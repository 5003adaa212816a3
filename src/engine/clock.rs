//! Where the engine reads the time. The executor asks its clock for every timestamp it
//! journals and every deadline it judges, so a test can run it at a fixed or stepped time
//! and production reads the system clock in one place.

use std::fmt;
use std::sync::Arc;

use jiff::Timestamp;

/// A source of the current time, shared by clones.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> Timestamp + Send + Sync>);

impl Clock {
    /// The system's wall clock.
    pub fn system() -> Self {
        Clock(Arc::new(Timestamp::now))
    }

    /// A clock that reads `at` for ever (a test's frozen time).
    pub fn fixed(at: Timestamp) -> Self {
        Clock(Arc::new(move || at))
    }

    /// A clock that asks `now` (a test's stepped or offset time).
    pub fn from_fn(now: impl Fn() -> Timestamp + Send + Sync + 'static) -> Self {
        Clock(Arc::new(now))
    }

    /// The current time by this clock.
    pub fn now(&self) -> Timestamp {
        (self.0)()
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Clock({})", self.now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_reads_its_time_and_a_stepped_one_moves() {
        let at: Timestamp = "2026-12-01T03:00:00Z".parse().unwrap();
        assert_eq!(Clock::fixed(at).now(), at);
        let ticks = std::sync::atomic::AtomicI64::new(0);
        let stepped = Clock::from_fn(move || {
            let n = ticks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            at + jiff::SignedDuration::from_secs(n * 60)
        });
        assert_eq!(stepped.now(), at);
        assert_eq!(
            stepped.clone().now(),
            at + jiff::SignedDuration::from_secs(60)
        );
    }

    #[test]
    fn the_system_clock_is_the_wall_clock() {
        let before = Timestamp::now();
        let read = Clock::system().now();
        assert!(read >= before && read <= Timestamp::now());
    }
}
