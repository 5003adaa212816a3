//! Draws the ledger: every cluster with status and data age, drift highlighted, sorted,
//! grouped and filtered as the ledger state says.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

use super::ledger::{Column, Grouping, LedgerRow, Line, status_label};
use super::table::{Col, fit_columns, header, no_match_text, row, scroll_offset};
use crate::tui::app::App;
use crate::tui::format::{age, days_since};
use crate::tui::header::status_slot;
use crate::tui::theme::Slot;

/// Backups older than this are a warning.
const BACKUP_WARN_SECS: i64 = 2 * 86_400;
/// Restore drills older than this are a warning.
const DRILL_WARN_DAYS: i64 = 180;

// Widths fit the longest usual values whole (`IdentityMismatch 40m`,
// `ap-southeast-1/ap-southeast-1a`, a maintenance run id); narrow screens drop whole
// columns by PRIORITY instead.
const COLS: [Col; 12] = [
    Col {
        title: "  CLUSTER",
        width: 18,
    },
    Col {
        title: "ENV",
        width: 11,
    },
    Col {
        title: "REGION/FD",
        width: 30,
    },
    Col {
        title: "TIER",
        width: 11,
    },
    Col {
        title: "K8S",
        width: 10,
    },
    Col {
        title: "NODES",
        width: 9,
    },
    Col {
        title: "GPUS",
        width: 9,
    },
    Col {
        title: "STATUS",
        width: 21,
    },
    Col {
        title: "IN FLIGHT",
        width: 24,
    },
    Col {
        title: "OWNER",
        width: 16,
    },
    Col {
        title: "BACKUP",
        width: 6,
    },
    Col {
        title: "DRILL",
        width: 10,
    },
];

/// Which columns survive narrow terminals, most important first.
const PRIORITY: [usize; 12] = [0, 7, 5, 1, 4, 6, 2, 8, 3, 9, 10, 11];

fn cells(app: &App, r: &LedgerRow) -> Vec<(String, Style)> {
    let t = &app.config.theme;
    let muted = t.style(Slot::Muted);
    let usable = r.usable();
    let mark = if app.ledger_state.marks.contains(&r.id) {
        "● "
    } else {
        "  "
    };
    let id_style = if app.ledger_state.marks.contains(&r.id) {
        t.style(Slot::Mark)
    } else {
        Style::new()
    };
    let version = match &r.version {
        Some(v) if r.version_drift => (format!("{v}≠"), t.style(Slot::Warn)),
        Some(v) if r.version_live => (v.clone(), Style::new()),
        Some(v) => (v.clone(), muted),
        None => ("-".into(), muted),
    };
    let nodes = if usable {
        let style = if r.nodes.0 == r.nodes.1 {
            t.style(Slot::Ok)
        } else {
            t.style(Slot::Warn)
        };
        (format!("{}/{}", r.nodes.0, r.nodes.1), style)
    } else if r.nodes.1 == 0 {
        // Nothing was ever read: the total is unknown too, not zero.
        ("?".into(), t.style(Slot::Unknown))
    } else {
        (format!("?/{}", r.nodes.1), t.style(Slot::Unknown))
    };
    let gpus = match r.gpus {
        Some((_, 0)) => ("-".into(), muted),
        Some((f, total)) => (format!("{f}/{total}"), Style::new()),
        None => ("?".into(), t.style(Slot::Unknown)),
    };
    let status = (
        format!("{} {}", status_label(r.status), age(app.now, r.last_ok)),
        t.style(status_slot(r.status)),
    );
    let backup = match r.backup {
        Some(b) if app.now.as_second() - b.as_second() > BACKUP_WARN_SECS => {
            (age(app.now, Some(b)), t.style(Slot::Warn))
        }
        Some(b) => (age(app.now, Some(b)), Style::new()),
        None => ("none".into(), t.style(Slot::Warn)),
    };
    let drill = match r.drill {
        Some(d) if days_since(app.now, d) > DRILL_WARN_DAYS => (d.to_string(), t.style(Slot::Warn)),
        Some(d) => (d.to_string(), Style::new()),
        None => ("never".into(), t.style(Slot::Warn)),
    };
    vec![
        (format!("{mark}{}", r.id), id_style),
        (r.env.clone(), Style::new().fg(t.accent(&r.env))),
        (format!("{}/{}", r.region, r.failure_domain), Style::new()),
        (r.tier.clone(), Style::new()),
        version,
        nodes,
        gpus,
        status,
        (
            r.change.clone().unwrap_or_else(|| "-".into()),
            if r.change.is_some() {
                t.style(Slot::Warn)
            } else {
                muted
            },
        ),
        match &r.owner {
            Some(o) => (o.clone(), Style::new()),
            None => ("(none)".into(), t.style(Slot::Warn)),
        },
        backup,
        drill,
    ]
}

/// Draws the ledger screen.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.config.theme;
    let state = &app.ledger_state;
    let lines = state.lines(&app.rows);
    let shown = lines.iter().filter(|l| matches!(l, Line::Row(_))).count();
    let visible: Vec<usize> = lines
        .iter()
        .filter_map(|l| match l {
            Line::Row(i) => Some(*i),
            _ => None,
        })
        .collect();
    let selected = state.selected_pos(&app.rows, &visible);
    let arrow = if state.ascending { "↑" } else { "↓" };
    let group = match state.grouping {
        Grouping::None => String::new(),
        Grouping::Region => " · grouped by region".into(),
        Grouping::Env => " · grouped by env".into(),
    };
    let marks = if state.marks.is_empty() {
        String::new()
    } else {
        format!(" · {} marked", state.marks.len())
    };
    let unknown = super::ledger::unknown_filter_keys(&state.filter, &app.rows);
    let problems = if unknown.is_empty() {
        String::new()
    } else {
        format!(" · filter: {}", unknown.join("; "))
    };
    let summary = format!(
        "{shown} of {} clusters · sort {} {arrow}{group}{marks}{problems}",
        app.rows.len(),
        sort_title(state.sort)
    );
    let summary_width = ratatui::text::Span::raw(summary.as_str()).width();
    buf.set_stringn(
        area.x,
        area.y,
        &summary,
        usize::from(area.width),
        t.style(if unknown.is_empty() {
            Slot::Muted
        } else {
            Slot::Warn
        }),
    );
    if let Some(notice) = &app.config.notice
        && area.height > 4
    {
        buf.set_stringn(
            area.x,
            area.y + 1,
            notice,
            usize::from(area.width),
            t.style(Slot::Unknown),
        );
    }
    let top = if app.config.notice.is_some() && area.height > 4 {
        2
    } else {
        1
    };
    let table = Rect {
        y: area.y + top,
        height: area.height.saturating_sub(top),
        ..area
    };
    if table.height < 2 {
        return;
    }
    let chosen = fit_columns(&COLS, &PRIORITY, table.width);
    let body = header(buf, table, &COLS, &chosen, t.style(Slot::Title));
    if lines.is_empty() {
        let text = if app.rows.is_empty() {
            "the ledger has no clusters".to_string()
        } else {
            no_match_text(app, "cluster")
        };
        buf.set_stringn(
            body.x + 2,
            body.y,
            text,
            usize::from(body.width),
            t.style(Slot::Muted),
        );
        return;
    }
    let selected_line = lines
        .iter()
        .position(|l| *l == Line::Row(visible.get(selected).copied().unwrap_or(usize::MAX)))
        .unwrap_or(0);
    let height = usize::from(body.height);
    let offset = scroll_offset(selected_line, lines.len(), height);
    // Sorted worst first, the rows scrolled off the top are the ones that matter most:
    // say that some are out of sight, and which.
    if lines.len() > height {
        let last = (offset + height).min(lines.len());
        let above = if offset > 0 {
            format!(", {offset} above")
        } else {
            String::new()
        };
        let room = usize::from(area.width).saturating_sub(summary_width);
        let full = format!(" · rows {}–{last} of {}{above}", offset + 1, lines.len());
        let note = if full.chars().count() <= room {
            Some(full)
        } else {
            // A narrow terminal keeps the part that matters.
            Some(format!(" · ↑{offset}")).filter(|n| offset > 0 && n.chars().count() <= room)
        };
        if let Some(note) = note {
            buf.set_stringn(
                area.x
                    + u16::try_from(summary_width)
                        .unwrap_or(u16::MAX)
                        .min(area.width),
                area.y,
                note,
                room,
                if offset > 0 {
                    t.style(Slot::Warn)
                } else {
                    t.style(Slot::Muted)
                },
            );
        }
    }
    for (n, line) in lines.iter().skip(offset).take(height).enumerate() {
        let y = body.y + n as u16;
        match line {
            Line::Group(name, count) => {
                let text = format!("▾ {name} ({count})");
                buf.set_stringn(
                    body.x,
                    y,
                    text,
                    usize::from(body.width),
                    t.style(Slot::Title).add_modifier(Modifier::UNDERLINED),
                );
            }
            Line::Row(i) => {
                let r = &app.rows[*i];
                let base = if offset + n == selected_line {
                    t.style(Slot::Selection)
                } else {
                    Style::new()
                };
                row(buf, body, y, &COLS, &chosen, &cells(app, r), base);
            }
        }
    }
}

fn sort_title(c: Column) -> &'static str {
    c.title()
}
