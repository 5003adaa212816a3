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

impl DurationError {
    /// The same sentence as its English `Display`, as a message for the reader's
    /// language (what was written is shown as written).
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::i18n::Msg;
        match self {
            DurationError::Empty => Msg::new("validate-duration-empty"),
            DurationError::Malformed(text) => {
                Msg::new("validate-duration-malformed").arg("text", text)
            }
            DurationError::TooLarge(text) => {
                Msg::new("validate-duration-too-large").arg("text", text)
            }
        }
    }
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

/// Why a `since` (`--since`, a timeline's `since=`) could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SinceError {
    /// `-5m`: a duration already means "that long ago".
    #[error("a duration is written without a sign: {written} means {spelled} ago")]
    Signed {
        /// The duration without its sign (`5m`).
        written: String,
        /// It in words (`5 minutes`).
        spelled: String,
    },
    /// Neither a duration, a date nor a time.
    #[error(
        "expected a duration (8h: that long ago), a date (2026-11-30: midnight UTC) or an RFC 3339 time (2026-11-30T12:00:00Z)"
    )]
    Unreadable,
    /// So long ago that no time is that early.
    #[error("{0} ago is before the earliest time there is")]
    TooFar(String),
}

/// The instant `text` names, as of `now`: a duration is that long before `now` (`8h`),
/// a plain date its midnight UTC (`2026-11-30`, as the ledger reads dates), anything
/// else an RFC 3339 time (`2026-11-30T12:00:00Z`).
pub fn parse_since(text: &str, now: jiff::Timestamp) -> Result<jiff::Timestamp, SinceError> {
    let text = text.trim();
    if let Ok(duration) = parse_duration(text) {
        let too_far = || SinceError::TooFar(text.to_string());
        let ago = jiff::SignedDuration::try_from(duration).map_err(|_| too_far())?;
        return now.checked_sub(ago).map_err(|_| too_far());
    }
    if let Some(unsigned) = text.strip_prefix(['-', '+'])
        && let Ok(duration) = parse_duration(unsigned)
    {
        return Err(SinceError::Signed {
            written: unsigned.trim().to_string(),
            spelled: spell(duration),
        });
    }
    if let Ok(ts) = text.parse::<jiff::Timestamp>() {
        return Ok(ts);
    }
    if text.len() == 10
        && let Ok(date) = text.parse::<jiff::civil::Date>()
        && let Ok(midnight) = date.to_zoned(jiff::tz::TimeZone::UTC)
    {
        return Ok(midnight.timestamp());
    }
    Err(SinceError::Unreadable)
}

/// `5 minutes` for one unit, the file notation (`1h30m`) for several.
fn spell(duration: Duration) -> String {
    let secs = duration.as_secs();
    for (unit, size) in [("day", 86_400), ("hour", 3_600), ("minute", 60)] {
        if secs > 0 && secs.is_multiple_of(size) && secs / size < 1000 {
            let n = secs / size;
            return format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
        }
    }
    if secs < 60 {
        return format!("{secs} second{}", if secs == 1 { "" } else { "s" });
    }
    format_duration(duration)
}

/// Whether a duration field may be `0s`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zero {
    /// `0s` means "not at all" (a soak that may be skipped).
    Allowed,
    /// `0s` is refused (a timeout or deadline of nothing).
    Refused,
}

/// A duration field of a fleetdeck file, reported at the value's position when it is not
/// a duration (or is `0s` where `zero` refuses it).
pub fn read_duration(
    node: &crate::yaml::Node,
    field: &str,
    zero: Zero,
    diags: &mut crate::yaml::Diagnostics,
) -> Option<Duration> {
    let text = crate::yaml::string(node, field, diags)?;
    match parse_duration(&text) {
        Ok(d) if d.is_zero() && zero == Zero::Refused => {
            diags.error_said(
                node.pos,
                format!("field `{field}` must be longer than 0s"),
                crate::i18n::Msg::new("validate-longer-than-zero").arg("field", field),
            );
            None
        }
        Ok(d) => Some(d),
        Err(e) => {
            diags.error_said(
                node.pos,
                format!("field `{field}`: {e}"),
                crate::i18n::Msg::new("validate-field-duration-named")
                    .arg("field", field)
                    .arg("error", e.msg()),
            );
            None
        }
    }
}

/// How long ago `then` was at `now`, as every screen and report shows it: one unit,
/// truncated (`12s`, `5m`, `3h`, `2d`), switching unit only past two of the next
/// (`119s`, then `2m`), and `now` for a time ahead of `now` (clock skew), never a
/// negative age. An unknown time is the caller's to word (`-` in a table, `never`).
pub fn age(now: jiff::Timestamp, then: jiff::Timestamp) -> String {
    match now.as_second() - then.as_second() {
        s if s < 0 => "now".into(),
        s if s < 120 => format!("{s}s"),
        s if s < 7_200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3_600),
        s => format!("{}d", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_reads_durations_dates_and_times() {
        let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let at = |t: &str| t.parse::<jiff::Timestamp>().unwrap();
        assert_eq!(parse_since("90m", now), Ok(at("2026-12-01T08:30:00Z")));
        assert_eq!(
            parse_since("2026-11-30", now),
            Ok(at("2026-11-30T00:00:00Z"))
        );
        assert_eq!(
            parse_since("2026-11-30T12:00:00+01:00", now),
            Ok(at("2026-11-30T11:00:00Z"))
        );
        assert_eq!(
            parse_since("-5m", now).unwrap_err().to_string(),
            "a duration is written without a sign: 5m means 5 minutes ago"
        );
        assert_eq!(
            parse_since("+1h30m", now).unwrap_err().to_string(),
            "a duration is written without a sign: 1h30m means 90 minutes ago"
        );
        assert_eq!(
            parse_since("-1d", now).unwrap_err().to_string(),
            "a duration is written without a sign: 1d means 1 day ago"
        );
        for bad in ["abc", "", "-", "2026-11-31", "2026-11-30T12:00:00", "-abc"] {
            assert_eq!(parse_since(bad, now), Err(SinceError::Unreadable), "{bad}");
        }
        assert!(matches!(
            parse_since("99999999d", now),
            Err(SinceError::TooFar(_))
        ));
    }

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

    #[test]
    fn ages_take_one_unit_and_never_go_negative() {
        let now = jiff::Timestamp::from_second(1_800_000_000).unwrap();
        let ago = |s: i64| jiff::Timestamp::from_second(1_800_000_000 - s).unwrap();
        assert_eq!(age(now, ago(5)), "5s");
        assert_eq!(age(now, ago(119)), "119s");
        assert_eq!(age(now, ago(600)), "10m");
        assert_eq!(age(now, ago(3_540)), "59m");
        assert_eq!(age(now, ago(7_199)), "119m");
        assert_eq!(age(now, ago(3 * 3_600 + 720)), "3h");
        assert_eq!(age(now, ago(3 * 86_400)), "3d");
        assert_eq!(age(now, ago(-5)), "now");
    }
}
