//! Simulated time: real time multiplied by a speed factor (`--speed 60` makes a
//! simulated minute pass every real second).

use std::time::{Duration, Instant};

use jiff::Timestamp;

/// The fleet's clock. Cheap to copy.
#[derive(Debug, Clone, Copy)]
pub struct SimClock {
    real_start: Instant,
    sim_start: Timestamp,
    speed: f64,
}

impl SimClock {
    /// A clock starting now, running `speed` times faster than real time (min 0.01).
    pub fn new(speed: f64) -> Self {
        SimClock {
            real_start: Instant::now(),
            sim_start: Timestamp::now(),
            speed: if speed.is_finite() {
                speed.max(0.01)
            } else {
                1.0
            },
        }
    }

    /// When the fleet started, in simulated wall-clock time.
    pub fn started(&self) -> Timestamp {
        self.sim_start
    }

    /// The speed factor.
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Simulated seconds elapsed since the fleet started.
    pub fn elapsed_secs(&self) -> f64 {
        self.real_start.elapsed().as_secs_f64() * self.speed
    }

    /// The current simulated wall-clock time.
    pub fn now(&self) -> Timestamp {
        let nanos = (self.elapsed_secs() * 1e9) as i64;
        self.sim_start
            .checked_add(jiff::SignedDuration::from_nanos(nanos))
            .unwrap_or(self.sim_start)
    }

    /// The current simulated time as an RFC 3339 string with second precision, the
    /// format of `metav1.Time`.
    pub fn now_rfc3339(&self) -> String {
        rfc3339(self.now())
    }

    /// The real duration that a simulated duration takes.
    pub fn real(&self, sim: Duration) -> Duration {
        sim.div_f64(self.speed)
    }

    /// The real instant at which `sim_secs` simulated seconds since start are reached.
    pub fn real_instant_at(&self, sim_secs: f64) -> Instant {
        self.real_start + Duration::from_secs_f64((sim_secs / self.speed).max(0.0))
    }
}

/// Formats a timestamp as `metav1.Time` does (`2025-01-02T03:04:05Z`).
pub fn rfc3339(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Parses a `metav1.Time` string.
pub fn parse_time(s: &str) -> Option<Timestamp> {
    s.parse().ok()
}

impl SimClock {
    /// Simulated seconds since start at which `ts` falls (negative if before start).
    pub fn secs_at(&self, ts: Timestamp) -> f64 {
        ts.duration_since(self.sim_start).as_secs_f64()
    }

    /// The simulated timestamp `secs` simulated seconds after start.
    pub fn at_secs(&self, secs: f64) -> Timestamp {
        self.sim_start
            .checked_add(jiff::SignedDuration::from_nanos((secs * 1e9) as i64))
            .unwrap_or(self.sim_start)
    }
}
