//! The always-visible header: fleet summary by status, automation state, who you are,
//! the read-only badge, and UTC and local time.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::app::App;
use super::canvas;
use super::format::count;
use super::theme::{Slot, Theme};
use crate::model::live::ClusterStatus;

/// The slot a cluster status is drawn in. Unknown is not healthy, and never green.
pub fn status_slot(status: Option<ClusterStatus>) -> Slot {
    match status {
        Some(ClusterStatus::Synced) => Slot::Ok,
        Some(ClusterStatus::Degraded) => Slot::Warn,
        // A cluster nothing can be read from because its credential is bad needs a
        // person (a login, a new token): as loud as an impostor.
        Some(ClusterStatus::IdentityMismatch | ClusterStatus::Credentials) => Slot::Critical,
        Some(ClusterStatus::Unreachable | ClusterStatus::Unknown | ClusterStatus::Connecting)
        | None => Slot::Unknown,
    }
}

fn sep(theme: &Theme) -> Span<'static> {
    Span::styled(" │ ", theme.style(Slot::Muted))
}

/// A short status word for a narrow header.
fn short_label(status: Option<ClusterStatus>) -> &'static str {
    match status {
        Some(ClusterStatus::Synced) => "ok",
        Some(ClusterStatus::Degraded) => "degr",
        Some(ClusterStatus::Connecting) => "conn",
        Some(ClusterStatus::Unreachable) => "unreach",
        Some(ClusterStatus::Credentials) => "creds",
        Some(ClusterStatus::IdentityMismatch) => "IDMISMATCH",
        Some(ClusterStatus::Unknown) => "UNKNOWN",
        // Never asked: the caller words a missing status in the reader's language.
        None => "",
    }
}

/// The first line as groups that are shown whole or not at all: cut in the middle, `nodes
/// 257/260` would read `nodes 257/2`, a wrong number. `compact` is the narrow form: short
/// status words, worst first, no title.
fn summary_groups(app: &App, theme: &Theme, compact: bool) -> Vec<Vec<Span<'static>>> {
    let mut groups: Vec<Vec<Span<'static>>> = Vec::new();
    let total = app.rows.len();
    let mut head = Vec::new();
    if !compact {
        head.push(Span::styled(" fleetdeck ", theme.style(Slot::Title)));
    }
    let lang = app.config.lang;
    head.push(Span::raw(format!(
        "{}{} ",
        if compact { " " } else { "" },
        crate::t!(lang, "header-clusters", n = count(total as i64))
    )));
    groups.push(head);
    let mut by_status: Vec<(Option<ClusterStatus>, usize)> = Vec::new();
    for row in &app.rows {
        match by_status.iter_mut().find(|(s, _)| *s == row.status) {
            Some(e) => e.1 += 1,
            None => by_status.push((row.status, 1)),
        }
    }
    if compact {
        by_status.sort_by_key(|(s, _)| super::screens::ledger::severity(*s));
    } else {
        by_status.sort_by_key(|(s, _)| std::cmp::Reverse(super::screens::ledger::severity(*s)));
    }
    for (status, n) in by_status {
        // Status names are kept as they are (GLOSSARY.md); "no data" is words.
        let label = if status.is_none() {
            crate::t!(lang, "header-no-data")
        } else if compact {
            short_label(status).to_owned()
        } else {
            super::screens::ledger::status_label(status).to_owned()
        };
        groups.push(vec![Span::styled(
            format!(" {n} {label}"),
            theme.style(status_slot(status)),
        )]);
    }
    let usable: Vec<_> = app.rows.iter().filter(|r| r.usable()).collect();
    let (ready, nodes) = usable
        .iter()
        .fold((0, 0), |a, r| (a.0 + r.nodes.0, a.1 + r.nodes.1));
    let (free, gpus) = usable
        .iter()
        .filter_map(|r| r.gpus)
        .fold((0, 0), |a, g| (a.0 + g.0, a.1 + g.1));
    let mut nodes_group = vec![
        sep(theme),
        Span::raw(crate::t!(
            lang,
            "header-nodes-ready",
            ready = count(ready as i64),
            total = count(nodes as i64)
        )),
    ];
    // The clusters left out qualify the figures: narrow, they go with the node count,
    // which is kept longest.
    let left_out = total - usable.len();
    let not_counted = (left_out > 0).then(|| {
        Span::styled(
            format!(
                " {}",
                crate::t!(
                    lang,
                    "header-not-counted",
                    clusters = crate::i18n::counted(lang, "count-clusters", left_out as i64)
                )
            ),
            theme.style(Slot::Unknown),
        )
    });
    if compact {
        nodes_group.extend(not_counted.clone());
    }
    groups.push(nodes_group);
    if gpus > 0 {
        groups.push(vec![
            sep(theme),
            Span::raw(crate::t!(
                lang,
                "header-gpus-free",
                free = count(free),
                total = count(gpus)
            )),
        ]);
    }
    if !compact {
        groups.extend(not_counted.map(|span| vec![span]));
    }
    groups
}

fn groups_width(groups: &[Vec<Span<'static>>]) -> usize {
    groups.iter().flatten().map(Span::width).sum()
}

/// The groups that fit in `width`, whole and in order, with `…` where some had to go.
fn fit_groups(groups: Vec<Vec<Span<'static>>>, width: usize) -> Vec<Span<'static>> {
    if groups_width(&groups) <= width {
        return groups.into_iter().flatten().collect();
    }
    let mut out = Vec::new();
    let mut used = 0;
    for group in groups {
        let w: usize = group.iter().map(Span::width).sum();
        if used + w + 2 > width {
            break;
        }
        used += w;
        out.extend(group);
    }
    out.push(Span::raw(" …"));
    out
}

/// The second line's parts, each with how long it is kept on a narrow terminal: the
/// read-only badge and the automation switch first, then what waits for a person, then
/// who you are, then the clock. `compact` is the narrow form of the counts.
fn second_line(app: &App, theme: &Theme, width: usize) -> Line<'static> {
    let lang = app.config.lang;
    let mut parts: Vec<(u8, Span<'static>)> = vec![(9, Span::raw(" "))];
    // Read-only comes first: the switch after it is the fleet's, not this console's.
    if app.config.readonly {
        parts.push((
            9,
            Span::styled(
                format!(" {} ", crate::t!(lang, "header-readonly")),
                theme.style(Slot::Paused),
            ),
        ));
        parts.push((9, sep(theme)));
    }
    // The fleet pause as the journal has it (the same switch the banner shows).
    let fleet_pause = app.activity.connected.then(|| {
        app.activity
            .journal
            .projection
            .pauses
            .get(&crate::model::run::PauseScope::Fleet)
    });
    let automation = match fleet_pause {
        Some(None) => Span::styled(
            crate::t!(lang, "header-automation-running"),
            theme.style(Slot::Ok),
        ),
        // The banner below says why, whole; here the reason gives way first.
        Some(Some(pause)) => {
            let by = pause.by.to_string();
            let full = crate::t!(
                lang,
                "header-automation-paused-why",
                reason = pause.reason.as_str(),
                by = by.as_str()
            );
            let short = crate::t!(lang, "header-automation-paused-by", by = by.as_str());
            let text = [full, short, crate::t!(lang, "header-automation-paused")]
                .into_iter()
                .map(|t| format!(" {t} "))
                .find(|t| t.width() + 2 <= width)
                .unwrap_or_else(|| format!(" {} ", crate::t!(lang, "header-paused")));
            Span::styled(text, theme.style(Slot::Paused))
        }
        // A shared journal that stopped answering: what is shown is the last known state.
        None if app.activity.team.is_some() => Span::styled(
            format!(
                " {} ",
                if width >= 80 {
                    crate::t!(lang, "header-journal-unreachable-long")
                } else {
                    crate::t!(lang, "header-journal-unreachable")
                }
            ),
            theme.style(Slot::Critical),
        ),
        None => Span::styled(
            if width >= 60 {
                crate::t!(lang, "header-automation-unknown-long")
            } else {
                crate::t!(lang, "header-automation-unknown")
            },
            theme.style(Slot::Unknown),
        ),
    };
    parts.push((9, automation));
    // What waits for a person, counted beside the switch (each count shown only when
    // there is one): the first screen says it before any other screen is opened.
    let urgent = &app.urgent;
    let said = |id: &str, n: usize| crate::i18n::text(lang, id, &[("n", n.into())]);
    let counts = [
        (
            urgent.awaiting_approval,
            "header-awaiting-approval",
            "header-to-approve",
            Slot::Paused,
        ),
        (
            urgent.halted,
            "header-halted",
            "header-halted",
            Slot::Critical,
        ),
        (urgent.stuck, "header-stuck", "header-stuck", Slot::Critical),
    ];
    let long: usize = counts
        .iter()
        .filter(|(n, ..)| *n > 0)
        .map(|(n, word, ..)| format!(" · {}", said(word, *n)).width())
        .sum();
    let compact = long + 60 > width;
    for (n, word, short, slot) in counts {
        if n > 0 {
            let word = if compact { short } else { word };
            parts.push((
                8,
                Span::styled(format!(" · {}", said(word, n)), theme.style(slot)),
            ));
        }
    }
    // Expired ledger exceptions: loud, but nothing stops for them.
    let today = app.now.to_zoned(app.config.local_tz.clone()).date();
    let expired = crate::model::ledger::expired_exceptions(&app.ledger, today).len();
    let loud = |text: String| Span::styled(format!(" · {text}"), theme.style(Slot::Critical));
    if expired > 0 {
        let exceptions = crate::i18n::counted(lang, "count-exceptions", expired as i64);
        let said = crate::t!(lang, "header-ledger-expired", exceptions = exceptions);
        parts.push((8, loud(said)));
    }
    // Events this console read that the journal lost (a failover under asynchronous
    // replication): what they said may have happened, so a person must look.
    if let Some(first) = app.activity.lost.first() {
        let events = crate::i18n::counted(lang, "count-events", app.activity.lost.len() as i64);
        let seq = first.seq.to_string();
        let said = crate::t!(lang, "header-journal-went-back", events = events, seq = seq);
        parts.push((9, loud(said)));
    }
    // Journal rows nobody can read: skipped, so the journal goes on, and said here, so
    // nobody takes what is shown for all there is (`fleetdeck journal` names each).
    let unreadable = app.activity.journal.projection.unreadable.len();
    if unreadable > 0 {
        let events = crate::i18n::counted(lang, "count-events", unreadable as i64);
        let said = crate::t!(lang, "header-journal-unreadable-rows", events = events);
        parts.push((8, loud(said)));
    }
    // Who you are (in team mode as the database sees you, and who else is connected),
    // with its separator: one part, so that both go together.
    let used: usize = parts.iter().map(|(_, s)| s.width()).sum();
    let who = app.who(width.saturating_sub(used + 3));
    parts.push((6, Span::raw(format!(" │ {who}"))));
    let utc = app.now.strftime("%H:%M:%S UTC").to_string();
    let local = app
        .now
        .to_zoned(app.config.local_tz.clone())
        .strftime("%H:%M %Z")
        .to_string();
    let clock = format!("{utc} · {local} ");
    let mut line = canvas::fit_parts(parts, width);
    let left = line.width();
    let clock_cells = clock.width();
    if left + clock_cells < width {
        line.spans
            .push(Span::raw(" ".repeat(width - left - clock_cells)));
        line.spans
            .push(Span::styled(clock, theme.style(Slot::Muted)));
    }
    line
}

/// Draws the two header lines.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.config.theme;
    let head = theme.style(Slot::Header);
    buf.set_style(area, head);
    let width = usize::from(area.width);
    let full = summary_groups(app, theme, false);
    let first = if groups_width(&full) <= width {
        full.into_iter().flatten().collect()
    } else {
        fit_groups(summary_groups(app, theme, true), width)
    };
    canvas::line(buf, area.x, area.y, area.width, &Line::from(first));
    if area.height > 1 {
        let second = second_line(app, theme, width);
        canvas::line(buf, area.x, area.y + 1, area.width, &second);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::fixtures::console as fixtures;

    #[test]
    fn the_header_says_a_ledger_exception_expired() {
        let mut app = fixtures::app();
        let quiet = crate::tui::tests::render(&app, 200, 12);
        assert!(!quiet.contains("EXPIRED"), "{quiet}");
        let mut ledger = (*app.ledger).clone();
        ledger.clusters[0]
            .exceptions
            .push(crate::model::ledger::Exception {
                what: "kernel 5.4 pinned".into(),
                reason: "indexer".into(),
                owner: "team-search".into(),
                exit_criteria: "indexer 4.2".into(),
                // The fixtures' today is 2026-11-28: it expired yesterday.
                expires: jiff::civil::date(2026, 11, 27),
            });
        app.ledger = Arc::new(ledger);
        let screen = crate::tui::tests::render(&app, 200, 12);
        assert!(screen.contains("LEDGER: 1 exception EXPIRED"), "{screen}");
    }

    #[test]
    fn the_header_says_how_many_journal_rows_were_skipped_unread() {
        let mut app = fixtures::app();
        let quiet = crate::tui::tests::render(&app, 200, 12);
        assert!(!quiet.contains("UNREADABLE"), "{quiet}");
        let mut projection = (*app.activity.journal.projection).clone();
        for seq in [41, 57] {
            projection
                .unreadable
                .push(crate::model::run::UnreadableEvent {
                    seq: crate::model::run::Sequence(seq),
                    kind: "operator.note".into(),
                    reason: "its payload is not JSON this version can read".into(),
                });
        }
        app.activity.journal.projection = Arc::new(projection);
        let screen = crate::tui::tests::render(&app, 200, 12);
        assert!(
            screen.contains("JOURNAL: 2 events UNREADABLE, skipped"),
            "{screen}"
        );
        app.config.lang = crate::i18n::Lang::ZhCn;
        let screen = crate::tui::tests::render(&app, 200, 12);
        assert!(screen.contains("无法读取"), "{screen}");
    }

    #[test]
    fn the_header_says_the_journal_lost_events_the_console_had_read() {
        let mut app = fixtures::app();
        app.activity.lost = vec![
            crate::tui::LostLine {
                seq: 121,
                text: crate::i18n::Msg::new("tl-ev-note").arg("text", "cordon n1"),
            },
            crate::tui::LostLine {
                seq: 122,
                text: crate::i18n::Msg::new("tl-ev-note").arg("text", "evict"),
            },
        ];
        let screen = crate::tui::tests::render(&app, 200, 12);
        assert!(
            screen.contains("JOURNAL WENT BACK: 2 events read are gone (from #121)"),
            "{screen}"
        );
        let narrow = crate::tui::tests::render(&app, 80, 12);
        assert!(
            narrow.contains("JOURNAL WENT BACK"),
            "kept first on 80 columns: {narrow}"
        );
    }
}
