//! When a cluster's maintenance window is open: the weekly window the ledger declares
//! (`days`, local `start`, `duration`, `timezone`), read at an instant. Pure: the caller
//! loads the time zone (the time-zone database is the caller's) and passes it in.
//!
//! A window opens at `start` local time on each of its days and stays open for
//! `duration`, so a window may run past midnight (Sat 22:00 for 4h closes Sun 02:00) and
//! windows on consecutive days may join (a 24h window on Sat and Sun is one of 48h). A
//! local start that does not exist (a spring-forward gap) opens at the first instant after
//! it, as jiff's compatible disambiguation reads it.

use std::time::Duration;

use jiff::civil::Weekday as CivilWeekday;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp, ToSpan};
use serde::Serialize;

use super::types::{MaintenanceWindow, Weekday};
use crate::model::duration::format_duration;

/// Whether a window is open at an instant, and the next change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum WindowState {
    /// Open now, until `closes_at`.
    #[serde(rename_all = "camelCase")]
    Open {
        /// When it closes (the end of every window it runs into).
        closes_at: Timestamp,
    },
    /// Closed now; it next opens at `opens_at` and closes at `closes_at`.
    #[serde(rename_all = "camelCase")]
    Closed {
        /// When it opens next.
        opens_at: Timestamp,
        /// When that opening closes.
        closes_at: Timestamp,
    },
}

impl WindowState {
    /// Whether changes may start now.
    pub fn is_open(&self) -> bool {
        matches!(self, WindowState::Open { .. })
    }
}

fn civil(day: Weekday) -> CivilWeekday {
    match day {
        Weekday::Mon => CivilWeekday::Monday,
        Weekday::Tue => CivilWeekday::Tuesday,
        Weekday::Wed => CivilWeekday::Wednesday,
        Weekday::Thu => CivilWeekday::Thursday,
        Weekday::Fri => CivilWeekday::Friday,
        Weekday::Sat => CivilWeekday::Saturday,
        Weekday::Sun => CivilWeekday::Sunday,
    }
}

/// Every opening `(start, end)` whose start lies within eight days either side of `now`,
/// in order. Eight days cover the longest window (a week) that may still be open now and
/// the next opening of any window with at least one day.
fn openings(
    window: &MaintenanceWindow,
    tz: &TimeZone,
    now: Timestamp,
) -> Vec<(Timestamp, Timestamp)> {
    let today = now.to_zoned(tz.clone()).date();
    let length = SignedDuration::try_from(window.duration).unwrap_or(SignedDuration::ZERO);
    let mut out = Vec::new();
    for offset in -8i64..=8 {
        let Ok(date) = today.checked_add(offset.days()) else {
            continue;
        };
        if !window.days.iter().any(|d| civil(*d) == date.weekday()) {
            continue;
        }
        let Ok(start) = date.to_datetime(window.start).to_zoned(tz.clone()) else {
            continue;
        };
        let start = start.timestamp();
        let Ok(end) = start.checked_add(length) else {
            continue;
        };
        out.push((start, end));
    }
    out
}

/// The window's state at `now` in time zone `tz` (the window's own `timezone`, loaded by
/// the caller). A window with no day never opens: it reads closed, opening and closing
/// at the far future, and the ledger refuses such a window anyway.
pub fn window_state(window: &MaintenanceWindow, tz: &TimeZone, now: Timestamp) -> WindowState {
    let openings = openings(window, tz, now);
    // Joined: an opening that starts before (or as) the previous one ends extends it.
    let mut joined: Vec<(Timestamp, Timestamp)> = Vec::new();
    for (start, end) in openings {
        match joined.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => joined.push((start, end)),
        }
    }
    if let Some((_, end)) = joined.iter().find(|(s, e)| *s <= now && now < *e) {
        // Open for more than a week from now: the openings join without a gap (every
        // day around the clock), so it never closes.
        let week = jiff::SignedDuration::from_hours(7 * 24);
        let never = now
            .checked_add(week)
            .is_ok_and(|in_a_week| *end > in_a_week);
        return WindowState::Open {
            closes_at: if never { Timestamp::MAX } else { *end },
        };
    }
    match joined.iter().find(|(s, _)| *s > now) {
        Some((start, end)) => WindowState::Closed {
            opens_at: *start,
            closes_at: *end,
        },
        None => WindowState::Closed {
            opens_at: Timestamp::MAX,
            closes_at: Timestamp::MAX,
        },
    }
}

/// `Sat, Sun 02:00 for 4h (Europe/Berlin)`, as people read the ledger's window.
pub fn describe_window(window: &MaintenanceWindow) -> String {
    let days: Vec<&str> = window
        .days
        .iter()
        .map(|d| Weekday::NAMES[*d as usize])
        .collect();
    format!(
        "{} {:02}:{:02} for {} ({})",
        days.join(", "),
        window.start.hour(),
        window.start.minute(),
        format_duration(window.duration),
        window.timezone
    )
}

/// `in 3d7h`, `in 45m`: how far `then` is from `now`, to the minute (seconds are noise
/// for a window days away); `now` when it is not ahead.
pub fn in_how_long(now: Timestamp, then: Timestamp) -> String {
    let secs = then.as_second() - now.as_second();
    if secs <= 0 {
        return "now".into();
    }
    let secs = u64::try_from(secs).unwrap_or(0);
    let rounded = if secs >= 60 { secs - secs % 60 } else { secs };
    format!("in {}", format_duration(Duration::from_secs(rounded)))
}

/// `2026-12-05 02:00 Europe/Berlin (01:00 UTC)`: an instant in the window's own zone,
/// with UTC beside it when the zone is another.
pub fn local_and_utc(t: Timestamp, tz: &TimeZone, zone_name: &str) -> String {
    let local = t.to_zoned(tz.clone());
    let utc = t.to_zoned(TimeZone::UTC);
    if zone_name.eq_ignore_ascii_case("UTC") {
        return utc.strftime("%Y-%m-%d %H:%M UTC").to_string();
    }
    // The UTC date only where it is not the local one.
    let utc_text = if utc.date() == local.date() {
        utc.strftime("%H:%M UTC").to_string()
    } else {
        utc.strftime("%Y-%m-%d %H:%M UTC").to_string()
    };
    format!(
        "{} {zone_name} ({utc_text})",
        local.strftime("%Y-%m-%d %H:%M")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::time;

    fn window(days: &[Weekday], start: (i8, i8), hours: u64, zone: &str) -> MaintenanceWindow {
        MaintenanceWindow {
            days: days.to_vec(),
            start: time(start.0, start.1, 0, 0),
            duration: Duration::from_secs(hours * 3600),
            timezone: zone.into(),
        }
    }

    fn at(text: &str) -> Timestamp {
        text.parse().expect("a timestamp")
    }

    fn berlin() -> TimeZone {
        TimeZone::get("Europe/Berlin").expect("the tz database has Europe/Berlin")
    }

    #[test]
    fn closed_on_a_weekday_opens_on_saturday_in_its_own_zone() {
        // 2026-12-02 is a Wednesday. Sat 2026-12-05 02:00 in Berlin (UTC+1) is 01:00 UTC.
        let w = window(&[Weekday::Sat, Weekday::Sun], (2, 0), 4, "Europe/Berlin");
        let state = window_state(&w, &berlin(), at("2026-12-02T12:00:00Z"));
        assert_eq!(
            state,
            WindowState::Closed {
                opens_at: at("2026-12-05T01:00:00Z"),
                closes_at: at("2026-12-05T05:00:00Z"),
            }
        );
        assert_eq!(
            in_how_long(at("2026-12-02T12:00:00Z"), at("2026-12-05T01:00:00Z")),
            "in 2d13h"
        );
    }

    #[test]
    fn open_inside_and_closed_at_its_end() {
        let w = window(&[Weekday::Sat], (2, 0), 4, "UTC");
        let tz = TimeZone::UTC;
        assert_eq!(
            window_state(&w, &tz, at("2026-12-05T02:00:00Z")),
            WindowState::Open {
                closes_at: at("2026-12-05T06:00:00Z")
            }
        );
        // The end is not inside: the next opening is a week later.
        assert_eq!(
            window_state(&w, &tz, at("2026-12-05T06:00:00Z")),
            WindowState::Closed {
                opens_at: at("2026-12-12T02:00:00Z"),
                closes_at: at("2026-12-12T06:00:00Z"),
            }
        );
    }

    #[test]
    fn a_window_past_midnight_is_open_on_the_next_day() {
        // Fri 22:00 for 4h: Saturday 01:00 is inside Friday's opening.
        let w = window(&[Weekday::Fri], (22, 0), 4, "UTC");
        assert_eq!(
            window_state(&w, &TimeZone::UTC, at("2026-12-05T01:00:00Z")),
            WindowState::Open {
                closes_at: at("2026-12-05T02:00:00Z")
            }
        );
    }

    #[test]
    fn consecutive_day_windows_join_into_one_opening() {
        // Sat and Sun 00:00 for 24h: open from Saturday 00:00 to Monday 00:00.
        let w = window(&[Weekday::Sat, Weekday::Sun], (0, 0), 24, "UTC");
        assert_eq!(
            window_state(&w, &TimeZone::UTC, at("2026-12-05T10:00:00Z")),
            WindowState::Open {
                closes_at: at("2026-12-07T00:00:00Z")
            }
        );
        assert_eq!(
            window_state(&w, &TimeZone::UTC, at("2026-12-03T10:00:00Z")),
            WindowState::Closed {
                opens_at: at("2026-12-05T00:00:00Z"),
                closes_at: at("2026-12-07T00:00:00Z"),
            }
        );
    }

    #[test]
    fn every_day_around_the_clock_never_closes() {
        let all = [
            Weekday::Mon,
            Weekday::Tue,
            Weekday::Wed,
            Weekday::Thu,
            Weekday::Fri,
            Weekday::Sat,
            Weekday::Sun,
        ];
        let w = window(&all, (0, 0), 24, "UTC");
        assert_eq!(
            window_state(&w, &TimeZone::UTC, at("2026-12-02T12:00:00Z")),
            WindowState::Open {
                closes_at: Timestamp::MAX
            }
        );
        // 23 hours a day leaves an hour closed every night.
        let w = window(&all, (0, 0), 23, "UTC");
        assert_eq!(
            window_state(&w, &TimeZone::UTC, at("2026-12-02T12:00:00Z")),
            WindowState::Open {
                closes_at: at("2026-12-02T23:00:00Z")
            }
        );
    }

    #[test]
    fn summer_time_moves_the_utc_instant_not_the_local_start() {
        // Sat 2027-07-03 02:00 in Berlin is UTC+2: 00:00 UTC.
        let w = window(&[Weekday::Sat], (2, 0), 1, "Europe/Berlin");
        assert_eq!(
            window_state(&w, &berlin(), at("2027-07-01T00:00:00Z")),
            WindowState::Closed {
                opens_at: at("2027-07-03T00:00:00Z"),
                closes_at: at("2027-07-03T01:00:00Z"),
            }
        );
    }

    #[test]
    fn describes_the_window_and_instants_in_its_zone() {
        let w = window(&[Weekday::Sat, Weekday::Sun], (2, 0), 4, "Europe/Berlin");
        assert_eq!(describe_window(&w), "Sat, Sun 02:00 for 4h (Europe/Berlin)");
        assert_eq!(
            local_and_utc(at("2026-12-05T01:00:00Z"), &berlin(), "Europe/Berlin"),
            "2026-12-05 02:00 Europe/Berlin (01:00 UTC)"
        );
        assert_eq!(
            local_and_utc(at("2026-12-05T01:00:00Z"), &TimeZone::UTC, "UTC"),
            "2026-12-05 01:00 UTC"
        );
        let shanghai = TimeZone::get("Asia/Shanghai").expect("the tz database has it");
        assert_eq!(
            local_and_utc(at("2026-12-04T18:00:00Z"), &shanghai, "Asia/Shanghai"),
            "2026-12-05 02:00 Asia/Shanghai (2026-12-04 18:00 UTC)"
        );
    }
}
