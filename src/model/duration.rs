//! Durations as people write them in fleetdeck files: `90s`, `15m`, `4h`, `1h30m`, `2d`.

use std::time::Duration;

/// Why a duration could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Nothing was written.
    #[error("empty duration")]
    Empty,
    /// A number without a unit, or a unit without a number.
    #[error("malformed duration {0:?}: expected a number followed by d, h, m or s, e.g. 1h30m")]
    Malformed(String),
    /// Larger than any sensible schedule.
    #[error("duration {0:?} is too large")]
    TooLarge(String),
}

/// Parses `[<n>d][<n>h][<n>m][<n>s]` (at least one part, units in any order is refused).
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(DurationError::Empty);
    }
    let malformed = || DurationError::Malformed(text.to_string());
    let mut total: u64 = 0;
    let mut digits = String::new();
    let mut last_unit_rank = 0;
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let (rank, seconds) = match c {
            'd' => (1, 86_400),
            'h' => (2, 3_600),
            'm' => (3, 60),
            's' => (4, 1),
            _ => return Err(malformed()),
        };
        if digits.is_empty() || rank <= last_unit_rank {
            return Err(malformed());
        }
        last_unit_rank = rank;
        let n: u64 = digits
            .parse()
            .map_err(|_| DurationError::TooLarge(text.to_string()))?;
        total = n
            .checked_mul(seconds)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(|| DurationError::TooLarge(text.to_string()))?;
        digits.clear();
    }
    if !digits.is_empty() {
        return Err(malformed());
    }
    Ok(Duration::from_secs(total))
}

/// Writes a duration back in the same notation (`1h30m`), the shortest form.
pub fn format_duration(duration: Duration) -> String {
    let mut secs = duration.as_secs();
    if secs == 0 {
        return "0s".to_string();
    }
    let mut out = String::new();
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] {
        if secs >= size {
            out.push_str(&format!("{}{unit}", secs / size));
            secs %= size;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_compound_durations() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("2d"), Ok(Duration::from_secs(172_800)));
        assert_eq!(format_duration(Duration::from_secs(5400)), "1h30m");
    }

    #[test]
    fn refuses_malformed_durations() {
        for bad in ["", "h", "10", "1x", "30m1h", "1h1h", "-5m", "1.5h"] {
            assert!(parse_duration(bad).is_err(), "{bad} should be refused");
        }
        assert!(matches!(
            parse_duration("99999999999999999999d"),
            Err(DurationError::TooLarge(_))
        ));
    }
}
