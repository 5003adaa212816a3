//! Small text shapes the screens share: ages, counts, bars, padding.

use jiff::Timestamp;
use jiff::civil::Date;

/// `12s`, `5m`, `3h`, `2d`; `-` when unknown; `now` for future times (clock skew).
pub fn age(now: Timestamp, then: Option<Timestamp>) -> String {
    let Some(then) = then else { return "-".into() };
    let secs = now.as_second() - then.as_second();
    match secs {
        s if s < 0 => "now".into(),
        s if s < 120 => format!("{s}s"),
        s if s < 7_200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3_600),
        s => format!("{}d", s / 86_400),
    }
}

/// Whole days from `date` to `now` (UTC), for drills.
pub fn days_since(now: Timestamp, date: Date) -> i64 {
    let today = now.to_zoned(jiff::tz::TimeZone::UTC).date();
    i64::from((today - date).get_days())
}

/// `29120` → `29,120`.
pub fn count(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A bar of `width` cells filled to `part / whole` (clamped), with eighth-cell precision.
pub fn bar(part: i64, whole: i64, width: usize) -> String {
    if width == 0 {
        return String::new();
    }
    let frac = if whole <= 0 {
        0.0
    } else {
        (part as f64 / whole as f64).clamp(0.0, 1.0)
    };
    let eighths = (frac * (width * 8) as f64).round() as usize;
    let full = eighths / 8;
    let mut out = "█".repeat(full);
    if full < width {
        const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
        let rem = eighths % 8;
        let mut used = full;
        if rem > 0 {
            out.push_str(PARTS[rem]);
            used += 1;
        }
        out.push_str(&"░".repeat(width - used));
    }
    out
}

/// `part/whole` as a whole percent; `-` when the whole is zero.
pub fn percent(part: i64, whole: i64) -> String {
    if whole <= 0 {
        "-".into()
    } else {
        format!("{}%", part * 100 / whole)
    }
}

/// Cuts `text` to at most `width` characters, marking the cut with `…`.
pub fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `text` cut to `width` characters in the middle, keeping its start and its end: for
/// ids that differ only at the end (`ro-cni-1796020170` and `ro-cni-1796020170-2`), where
/// cutting the end would make them look the same.
pub fn fit_middle(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    if width < 3 {
        return fit(text, width);
    }
    let tail = (width - 1) / 2;
    let head = width - 1 - tail;
    let mut out: String = text.chars().take(head).collect();
    out.push('…');
    out.extend(text.chars().skip(count - tail));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_cut_in_the_middle_keep_their_ends_apart() {
        assert_eq!(fit_middle("ro-cni-1796020170", 18), "ro-cni-1796020170");
        let a = fit_middle("ro-cni-1796020170-1", 12);
        let b = fit_middle("ro-cni-1796020170-2", 12);
        assert_ne!(a, b);
        assert_eq!(a.chars().count(), 12);
        assert_eq!(b, "ro-cni…170-2");
        assert_eq!(fit_middle("abcdef", 2), "a…");
    }

    #[test]
    fn shapes() {
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        let ago = |s: i64| Some(Timestamp::from_second(1_800_000_000 - s).unwrap());
        assert_eq!(age(now, ago(5)), "5s");
        assert_eq!(age(now, ago(600)), "10m");
        assert_eq!(age(now, ago(3 * 86_400)), "3d");
        assert_eq!(age(now, ago(-5)), "now");
        assert_eq!(age(now, None), "-");
        assert_eq!(count(29_120), "29,120");
        assert_eq!(count(-1_000_000), "-1,000,000");
        assert_eq!(count(12), "12");
        assert_eq!(bar(1, 2, 4), "██░░");
        assert_eq!(bar(0, 0, 3), "░░░");
        assert_eq!(bar(5, 4, 3), "███");
        assert_eq!(bar(1, 2, 1), "▌");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(percent(1, 3), "33%");
    }
}
