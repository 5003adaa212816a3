//! Draws the Findings screen: every finding of the fleet worst first (or as sorted), and
//! under the table the selected one's evidence, how to make it go away, and the weeks in
//! which several clusters' certificates expire.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::findings::{FindingColumn, FindingsState};
use super::table::{Col, fit_columns, row, scroll_offset, widths};
use crate::i18n::Lang;
use crate::model::duration::age;
use crate::model::findings::{Finding, Severity};
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::fit;
use crate::tui::theme::Slot;

/// In `FindingColumn::ALL` order; SUMMARY is last and takes what is left. The titles
/// shown are `FindingColumn::title_in`'s.
const COLS: [Col; 5] = [
    Col {
        title: "fd-col-severity",
        width: 9,
    },
    Col {
        title: "fd-col-cluster",
        width: 16,
    },
    Col {
        title: "fd-col-rule",
        width: 19,
    },
    Col {
        title: "fd-col-since",
        width: 9,
    },
    Col {
        title: "fd-col-summary",
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

/// `CRIT`, `warn`, `info` in `lang`.
pub fn short_label_in(lang: Lang, severity: Severity) -> String {
    match severity {
        Severity::Critical => crate::t!(lang, "fd-sev-short-critical"),
        Severity::Warning => crate::t!(lang, "fd-sev-short-warning"),
        Severity::Info => crate::t!(lang, "fd-sev-short-info"),
    }
}

/// `CRITICAL`, `warning`, `info` in `lang`.
pub fn severity_label_in(lang: Lang, severity: Severity) -> String {
    match severity {
        Severity::Critical => crate::t!(lang, "fd-sev-critical"),
        Severity::Warning => crate::t!(lang, "fd-sev-warning"),
        Severity::Info => crate::t!(lang, "fd-sev-info"),
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
    let lang = ctx.config.lang;
    vec![
        (
            severity_label_in(lang, f.severity),
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
        (
            crate::model::text::one_line(&f.summary_in(lang)),
            Style::new(),
        ),
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
    let lang = ctx.config.lang;
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
            Span::styled(
                crate::t!(
                    lang,
                    "fd-shown-of",
                    shown = shown.to_string(),
                    total = total.to_string()
                ),
                muted,
            ),
        ),
        (
            8,
            Span::styled(
                format!(
                    " · {}",
                    crate::t!(
                        lang,
                        "fd-n-critical",
                        n = counts(Severity::Critical).to_string()
                    )
                ),
                t.style(Slot::Critical),
            ),
        ),
        (
            7,
            Span::styled(
                format!(
                    " · {}",
                    crate::t!(
                        lang,
                        "fd-n-warning",
                        n = counts(Severity::Warning).to_string()
                    )
                ),
                t.style(Slot::Warn),
            ),
        ),
        (
            4,
            Span::styled(
                format!(
                    " · {}",
                    crate::t!(lang, "fd-n-info", n = counts(Severity::Info).to_string())
                ),
                muted,
            ),
        ),
    ];
    let arrow = if state.ascending { "↑" } else { "↓" };
    parts.push((
        5,
        Span::styled(
            format!(
                " · {}",
                crate::t!(
                    lang,
                    "fd-sort",
                    column = state.sort.title_in(lang),
                    arrow = arrow
                )
            ),
            muted,
        ),
    ));
    let unknown = state.unknown_keys(lang);
    if !unknown.is_empty() {
        parts.push((
            8,
            Span::styled(
                format!(
                    " · {}",
                    crate::t!(lang, "fd-filter", keys = unknown.join("; "))
                ),
                t.style(Slot::Warn),
            ),
        ));
    }
    parts
}

/// The selected finding in full: subject, evidence, the number, since when, the fix.
fn detail(ctx: &Context, f: &Finding) -> Vec<Line<'static>> {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let muted = t.style(Slot::Muted);
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("{} ", severity_label_in(lang, f.severity)),
            t.style(severity_slot(f.severity)),
        ),
        Span::raw(format!("{} · {}", f.cluster, f.subject)),
    ])];
    lines.extend(f.evidence.iter().map(|e| Line::raw(format!("  {e}"))));
    if let Some(since) = f.since {
        let when = since.strftime("%Y-%m-%d %H:%M UTC").to_string();
        lines.push(Line::styled(
            format!("  {}", crate::t!(lang, "fd-since", when = when)),
            muted,
        ));
    }
    lines.push(Line::styled(
        format!(
            "  {}",
            crate::t!(lang, "fd-to-clear", how = f.silence_in(lang))
        ),
        muted,
    ));
    lines
}

/// `certificates of 17 clusters expire in the week of 2027-01-11`, for the busy weeks.
fn expiry_lines(ctx: &Context) -> Vec<Line<'static>> {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    ctx.findings
        .judged
        .expiry_weeks
        .iter()
        .filter(|w| w.clusters.len() > 1)
        .map(|w| {
            Line::styled(
                crate::t!(
                    lang,
                    "fd-expiry-week",
                    n = w.clusters.len().to_string(),
                    week = w.week_of.to_string()
                ),
                t.style(Slot::Warn),
            )
        })
        .collect()
}

/// Draws the screen into `area`.
pub fn draw(state: &FindingsState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
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
    let titles: Vec<(String, Style)> = FindingColumn::ALL
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let title = if *c == state.sort {
                format!("{}{arrow}", c.title_in(lang))
            } else {
                c.title_in(lang)
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
            crate::t!(lang, "fd-none")
        } else {
            match ctx.key_hint(
                crate::tui::action::Action::Back,
                &crate::t!(lang, "tl-key-clears"),
            ) {
                Some(hint) => crate::t!(lang, "fd-no-match-key", hint = hint),
                None => crate::t!(lang, "fd-no-match"),
            }
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
