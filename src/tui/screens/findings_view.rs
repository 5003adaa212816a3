//! Draws the Findings screen: every finding of the fleet worst first (or as sorted), and
//! under the table the selected one's evidence, how to make it go away, and the weeks in
//! which several clusters' certificates expire.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::findings::{FindingColumn, FindingsState};
use super::table::{Col, fit_columns, no_match_text, row, scroll_offset, widths};
use crate::model::duration::age;
use crate::model::findings::{Finding, Severity};
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::fit;
use crate::tui::theme::Slot;

/// In `FindingColumn::ALL` order; SUMMARY is last and takes what is left.
const COLS: [Col; 5] = [
    Col {
        title: "SEVERITY",
        width: 9,
    },
    Col {
        title: "CLUSTER",
        width: 16,
    },
    Col {
        title: "RULE",
        width: 19,
    },
    Col {
        title: "SINCE",
        width: 9,
    },
    Col {
        title: "SUMMARY",
        width: 24,
    },
];

/// Which columns survive narrow terminals, most important first.
const PRIORITY: [usize; 5] = [0, 1, 4, 2, 3];

/// `CRIT`, `warn`, `info`: a severity where room is short (ledger column, panels).
pub fn short_label(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical => "CRIT",
        Severity::Warning => "warn",
        Severity::Info => "info",
    }
}

/// The slot a severity is drawn in.
pub fn severity_slot(severity: Severity) -> Slot {
    match severity {
        Severity::Critical => Slot::Critical,
        Severity::Warning => Slot::Warn,
        Severity::Info => Slot::Muted,
    }
}

fn cells(ctx: &Context, f: &Finding) -> Vec<(String, Style)> {
    let t = &ctx.config.theme;
    vec![
        (
            f.severity.label().to_string(),
            t.style(severity_slot(f.severity)),
        ),
        (f.cluster.to_string(), Style::new()),
        (f.rule.name(), t.style(Slot::Muted)),
        (
            match f.since {
                Some(s) if s <= ctx.now => age(ctx.now, s),
                _ => "-".to_string(),
            },
            t.style(Slot::Muted),
        ),
        (crate::model::text::one_line(&f.summary), Style::new()),
    ]
}

/// The summary line's parts.
fn summary(
    state: &FindingsState,
    ctx: &Context,
    shown: usize,
    total: usize,
) -> Vec<(u8, Span<'static>)> {
    let t = &ctx.config.theme;
    let muted = t.style(Slot::Muted);
    let counts = |s: Severity| {
        ctx.findings
            .judged
            .findings
            .iter()
            .filter(|f| f.severity == s)
            .count()
    };
    let mut parts = vec![
        (
            9,
            Span::styled(format!("{shown} of {total} findings"), muted),
        ),
        (
            8,
            Span::styled(
                format!(" · {} critical", counts(Severity::Critical)),
                t.style(Slot::Critical),
            ),
        ),
        (
            7,
            Span::styled(
                format!(" · {} warning", counts(Severity::Warning)),
                t.style(Slot::Warn),
            ),
        ),
        (
            4,
            Span::styled(format!(" · {} info", counts(Severity::Info)), muted),
        ),
    ];
    let arrow = if state.ascending { "↑" } else { "↓" };
    parts.push((
        5,
        Span::styled(format!(" · sort {} {arrow}", state.sort.title()), muted),
    ));
    let unknown = state.unknown_keys();
    if !unknown.is_empty() {
        parts.push((
            8,
            Span::styled(
                format!(" · filter: {}", unknown.join("; ")),
                t.style(Slot::Warn),
            ),
        ));
    }
    parts
}

/// The selected finding in full: subject, evidence, the number, since when, the fix.
fn detail(ctx: &Context, f: &Finding) -> Vec<Line<'static>> {
    let t = &ctx.config.theme;
    let muted = t.style(Slot::Muted);
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("{} ", f.severity.label()),
            t.style(severity_slot(f.severity)),
        ),
        Span::raw(format!("{} · {}", f.cluster, f.subject)),
    ])];
    lines.extend(f.evidence.iter().map(|e| Line::raw(format!("  {e}"))));
    if let Some(since) = f.since {
        let when = since.strftime("%Y-%m-%d %H:%M UTC").to_string();
        lines.push(Line::styled(format!("  since {when}"), muted));
    }
    lines.push(Line::styled(format!("  to clear it: {}", f.silence), muted));
    lines
}

/// `certificates of 17 clusters expire in the week of 2027-01-11`, for the busy weeks.
fn expiry_lines(ctx: &Context) -> Vec<Line<'static>> {
    let t = &ctx.config.theme;
    ctx.findings
        .judged
        .expiry_weeks
        .iter()
        .filter(|w| w.clusters.len() > 1)
        .map(|w| {
            Line::styled(
                format!(
                    "certificates of {} clusters expire in the week of {}",
                    w.clusters.len(),
                    w.week_of
                ),
                t.style(Slot::Warn),
            )
        })
        .collect()
}

/// Draws the screen into `area`.
pub fn draw(state: &FindingsState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let all = &ctx.findings.judged.findings;
    let rows = state.rows(all);
    let selected = state.selected_pos(&rows);
    let width = usize::from(area.width);
    let summary = canvas::fit_parts(summary(state, ctx, rows.len(), all.len()), width);
    canvas::line(buf, area.x, area.y, area.width, &summary);
    if area.height < 4 {
        return;
    }
    // Below the table: the selected finding in full (a third of the screen at most,
    // none on a very short one) and the busy expiry weeks.
    let mut below: Vec<Line> = rows
        .get(selected)
        .map(|f| detail(ctx, f))
        .unwrap_or_default();
    below.extend(expiry_lines(ctx));
    let wrapped = canvas::wrap_all(&below, area.width);
    let room = if area.height >= 16 {
        (area.height / 3).max(4)
    } else {
        0
    };
    let below_height = (wrapped.len() as u16).min(room);
    let table = Rect {
        y: area.y + 1,
        height: area
            .height
            .saturating_sub(1 + below_height + u16::from(below_height > 0)),
        ..area
    };
    let chosen = fit_columns(&COLS, &PRIORITY, table.width);
    let col_widths = widths(&COLS, &chosen, table.width);
    let arrow = if state.ascending { "↑" } else { "↓" };
    let titles: Vec<(String, Style)> = COLS
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let title = if FindingColumn::ALL[i] == state.sort {
                format!("{}{arrow}", c.title)
            } else {
                c.title.to_owned()
            };
            (fit(&title, usize::from(col_widths[i])), Style::new())
        })
        .collect();
    row(
        buf,
        table,
        table.y,
        &COLS,
        &chosen,
        &titles,
        t.style(Slot::Title),
    );
    let body = Rect {
        y: table.y + 1,
        height: table.height.saturating_sub(1),
        ..table
    };
    if rows.is_empty() {
        let text = if all.is_empty() {
            "no findings in what could be read".to_string()
        } else {
            no_match_text(ctx, "finding")
        };
        canvas::wrapped(
            buf,
            Rect {
                x: body.x + 2,
                width: body.width.saturating_sub(2),
                ..body
            },
            &[Line::styled(text, t.style(Slot::Muted))],
            t.style(Slot::Muted),
        );
    } else {
        let height = usize::from(body.height);
        let offset = scroll_offset(selected, rows.len(), height);
        for (n, f) in rows.iter().skip(offset).take(height).enumerate() {
            let base = if offset + n == selected {
                t.style(Slot::Selection)
            } else {
                Style::new()
            };
            row(
                buf,
                body,
                body.y + n as u16,
                &COLS,
                &chosen,
                &cells(ctx, f),
                base,
            );
        }
    }
    if below_height > 0 {
        let panel = Rect {
            y: area.y + area.height - below_height,
            height: below_height,
            ..area
        };
        canvas::rows(buf, panel, &wrapped, t.style(Slot::Muted));
    }
}
