//! The always-visible header: fleet summary by status, automation state, who you are,
//! the read-only badge, and UTC and local time.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::app::App;
use super::format::count;
use super::theme::{Slot, Theme};
use crate::model::live::ClusterStatus;

/// The slot a cluster status is drawn in. Unknown is not healthy, and never green.
pub fn status_slot(status: Option<ClusterStatus>) -> Slot {
    match status {
        Some(ClusterStatus::Synced) => Slot::Ok,
        Some(ClusterStatus::Degraded) => Slot::Warn,
        Some(ClusterStatus::IdentityMismatch) => Slot::Critical,
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
        Some(ClusterStatus::IdentityMismatch) => "IDMISMATCH",
        Some(ClusterStatus::Unknown) => "UNKNOWN",
        None => "no data",
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
    head.push(Span::raw(format!(
        "{}{total} clusters ",
        if compact { " " } else { "" }
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
        let label = if compact {
            short_label(status)
        } else {
            super::screens::ledger::status_label(status)
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
        Span::raw(format!(
            "nodes {}/{} ready",
            count(ready as i64),
            count(nodes as i64)
        )),
    ];
    // The clusters left out qualify the figures: narrow, they go with the node count,
    // which is kept longest.
    let left_out = total - usable.len();
    let not_counted = (left_out > 0).then(|| {
        Span::styled(
            format!(
                " ({} not counted)",
                crate::tui::format::counted(left_out as i64, "cluster")
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
            Span::raw(format!("GPUs {}/{} free", count(free), count(gpus))),
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

    let mut second = vec![Span::raw(" ")];
    // Read-only comes first: the switch after it is the fleet's, not this console's.
    if app.config.readonly {
        second.push(Span::styled(" READ-ONLY ", theme.style(Slot::Paused)));
        second.push(sep(theme));
    }
    // The fleet pause as the journal has it (the same switch the banner shows).
    let fleet_pause = app.activity.connected.then(|| {
        app.activity
            .journal
            .projection
            .pauses
            .get(&crate::model::run::PauseScope::Fleet)
    });
    second.push(match fleet_pause {
        Some(None) => Span::styled("AUTOMATION RUNNING", theme.style(Slot::Ok)),
        Some(Some(pause)) => Span::styled(
            format!(" AUTOMATION PAUSED ({}, by {}) ", pause.reason, pause.by),
            theme.style(Slot::Paused),
        ),
        // A shared journal that stopped answering: what is shown is the last known state.
        None if app.activity.team.is_some() => Span::styled(
            " JOURNAL UNREACHABLE: last known state, actions refused ",
            theme.style(Slot::Critical),
        ),
        None => Span::styled(
            "AUTOMATION UNKNOWN (no engine connected)",
            theme.style(Slot::Unknown),
        ),
    });
    second.push(sep(theme));
    let used: usize = second.iter().map(|s| s.width()).sum();
    second.push(Span::raw(app.who(width.saturating_sub(used + 1))));
    let utc = app.now.strftime("%H:%M:%S UTC").to_string();
    let local = app
        .now
        .to_zoned(app.config.local_tz.clone())
        .strftime("%H:%M %Z")
        .to_string();
    let clock = format!("{utc} · {local} ");
    let left: usize = second.iter().map(|s| s.width()).sum();
    let [l1, l2] = [
        Rect { height: 1, ..area },
        Rect {
            y: area.y + 1,
            height: 1,
            ..area
        },
    ];
    Paragraph::new(Line::from(first))
        .style(head)
        .render(l1, buf);
    let clock_cells = unicode_width::UnicodeWidthStr::width(clock.as_str());
    if left + clock_cells < width {
        let pad = width - left - clock_cells;
        second.push(Span::raw(" ".repeat(pad)));
        second.push(Span::styled(clock, theme.style(Slot::Muted)));
    }
    Paragraph::new(Line::from(second))
        .style(head)
        .render(l2, buf);
}
