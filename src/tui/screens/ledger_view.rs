//! Draws the ledger: every cluster with status and when it was last heard from, drift
//! highlighted, sorted (the key marked in the header), grouped and filtered as the ledger
//! state says; above it, what the first screen must not hide (kubeconfig contexts the
//! ledger does not list).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::ledger::{Column, Grouping, LedgerRow, LedgerState, Line as Row};
use super::table::{Col, fit_columns, no_match_in, row, scroll_offset, widths};
use crate::i18n::{Lang, counted};
use crate::model::duration::age;
use crate::t;
use crate::tui::canvas::{self, first_fitting};
use crate::tui::component::Context;
use crate::tui::format::{days_since, fit};
use crate::tui::header::status_slot;
use crate::tui::theme::Slot;
use unicode_width::UnicodeWidthStr;

/// Backups older than this are a warning.
const BACKUP_WARN_SECS: i64 = 2 * 86_400;
/// Restore drills older than this are a warning.
const DRILL_WARN_DAYS: i64 = 180;

// Titles are message ids (`Column::title_in`). Widths fit the longest usual values whole (`IdentityMismatch 40m ago`,
// `ap-southeast-1/ap-southeast-1a`, `v1.31.4 (ledger)`, `12/13, 1 zone down`); narrow
// screens drop whole columns by PRIORITY instead. In `Column::ALL` order.
pub(super) const COLS: [Col; 13] = [
    Col {
        title: "fleet-col-cluster",
        width: 18,
    },
    Col {
        title: "fleet-col-env",
        width: 11,
    },
    Col {
        title: "fleet-col-region",
        width: 30,
    },
    Col {
        title: "fleet-col-tier",
        width: 11,
    },
    Col {
        title: "fleet-col-k8s",
        width: 16,
    },
    Col {
        title: "fleet-col-nodes",
        width: 16,
    },
    Col {
        title: "fleet-col-gpus",
        width: 9,
    },
    Col {
        title: "fleet-col-status",
        width: 24,
    },
    Col {
        title: "fleet-col-findings",
        width: 8,
    },
    Col {
        title: "fleet-col-in-flight",
        width: 24,
    },
    Col {
        title: "fleet-col-owner",
        width: 16,
    },
    Col {
        title: "fleet-col-backup",
        width: 6,
    },
    Col {
        title: "fleet-col-drill",
        width: 10,
    },
];

/// Which columns survive narrow terminals, most important first.
const PRIORITY: [usize; 13] = [0, 7, 5, 9, 8, 1, 4, 6, 2, 3, 10, 11, 12];

/// The columns for `rows`: NODES and K8S as wide as their values need (a zone down or
/// a version only the ledger declares needs more room than `5/8` or `v1.31.4`), so that
/// IN FLIGHT keeps its place at 80 columns.
fn columns(lang: Lang, rows: &[LedgerRow]) -> [Col; 13] {
    let mut cols = COLS;
    // As wide as the English title at least, so that the columns stand where they do in
    // English.
    let title = |c: Column| c.title_in(lang).width().max(c.title_in(Lang::En).width()) + 1;
    // A zone down is named when it fits (up to 24 cells), else counted.
    let nodes = rows
        .iter()
        .map(|r| {
            let figures = format!("{}/{}", r.nodes.0, r.nodes.1);
            match r.zones_down.as_slice() {
                _ if !r.usable() => figures.len(),
                [] => figures.len(),
                zones => nodes_forms(lang, &figures, zones)[0].width(),
            }
        })
        .max()
        .unwrap_or(0);
    let k8s = rows
        .iter()
        .filter_map(|r| {
            let v = r.version.as_ref()?;
            Some(if r.version_live {
                v.len() + 1
            } else {
                t!(lang, "fleet-ledger-version-ledger", version = v).width()
            })
        })
        .max()
        .unwrap_or(1);
    cols[Column::Nodes as usize].width = nodes.max(title(Column::Nodes)).min(24) as u16;
    cols[Column::Version as usize].width = k8s.max(title(Column::Version)).min(18) as u16;
    cols
}

/// What the NODES cell says of the zones down, longest form first: the zone named,
/// counted, then shortest.
fn nodes_forms(lang: Lang, figures: &str, zones: &[String]) -> Vec<String> {
    match zones {
        [] => vec![figures.to_owned()],
        [zone] => vec![
            t!(lang, "fleet-ledger-zone-down", nodes = figures, zone = zone),
            t!(lang, "fleet-ledger-one-zone-down", nodes = figures),
            t!(lang, "fleet-ledger-zone-down-short", nodes = figures),
        ],
        zones => vec![
            t!(
                lang,
                "fleet-ledger-zones-down",
                nodes = figures,
                n = zones.len()
            ),
            t!(lang, "fleet-ledger-zones-down-short", nodes = figures),
        ],
    }
}

/// The columns the ledger shows in a table `width` cells wide, in display order: what
/// `s` cycles through.
pub fn visible_columns(lang: Lang, rows: &[LedgerRow], width: u16) -> Vec<Column> {
    fit_columns(&columns(lang, rows), &PRIORITY, width)
        .into_iter()
        .map(|i| Column::ALL[i])
        .collect()
}

fn cells(state: &LedgerState, ctx: &Context, r: &LedgerRow, width: &[u16]) -> Vec<(String, Style)> {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let muted = t.style(Slot::Muted);
    let usable = r.usable();
    let w = |c: Column| usize::from(width[c as usize]);
    let marked = state.marks.contains(&r.id);
    let mark = if marked { "● " } else { "  " };
    let id_style = if marked {
        t.style(Slot::Mark)
    } else {
        Style::new()
    };
    let version = match &r.version {
        Some(v) if r.version_drift => (format!("{v}≠"), t.style(Slot::Warn)),
        Some(v) if r.version_live => (v.clone(), Style::new()),
        // What the ledger declares, not what the cluster said: marked as such.
        Some(v) => (
            first_fitting(
                vec![
                    t!(lang, "fleet-ledger-version-ledger", version = v),
                    format!("{v}?"),
                ],
                w(Column::Version),
            ),
            muted,
        ),
        None => ("-".into(), muted),
    };
    let nodes = if usable {
        let (ready, total) = r.nodes;
        let slot = if !r.zones_down.is_empty() {
            Slot::Critical
        } else if ready == total {
            Slot::Ok
        } else {
            Slot::Warn
        };
        let figures = format!("{ready}/{total}");
        let text = first_fitting(nodes_forms(lang, &figures, &r.zones_down), w(Column::Nodes));
        (text, t.style(slot))
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
    let label = super::ledger::status_label_in(lang, r.status);
    let status = match r.last_ok {
        Some(_) => {
            let ago = r
                .last_ok
                .map_or_else(|| "-".to_string(), |t| age(ctx.now, t));
            first_fitting(
                vec![
                    t!(lang, "fleet-ledger-heard", status = &label, ago = &ago),
                    format!("{label} {ago}"),
                    label.clone(),
                ],
                w(Column::Status),
            )
        }
        None => first_fitting(
            vec![
                t!(lang, "fleet-ledger-never-heard", status = &label),
                label.clone(),
            ],
            w(Column::Status),
        ),
    };
    let backup = match r.backup {
        Some(b) if ctx.now.as_second() - b.as_second() > BACKUP_WARN_SECS => {
            (age(ctx.now, b), t.style(Slot::Warn))
        }
        Some(b) => (age(ctx.now, b), Style::new()),
        None => (t!(lang, "fleet-none"), t.style(Slot::Warn)),
    };
    let drill = match r.drill {
        Some(d) if days_since(ctx.now, d) > DRILL_WARN_DAYS => (d.to_string(), t.style(Slot::Warn)),
        Some(d) => (d.to_string(), Style::new()),
        None => (t!(lang, "fleet-never"), t.style(Slot::Warn)),
    };
    let change = match &r.change {
        Some(flight) => (
            flight.text(ctx.config.lang, &r.id, ctx.now, w(Column::Change)),
            t.style(flight.slot()),
        ),
        None => ("-".into(), muted),
    };
    vec![
        (format!("{mark}{}", r.id), id_style),
        (r.env.clone(), Style::new().fg(t.accent(&r.env))),
        (format!("{}/{}", r.region, r.failure_domain), Style::new()),
        (r.tier.clone(), Style::new()),
        version,
        nodes,
        gpus,
        (status, t.style(status_slot(r.status))),
        findings_cell(ctx, r),
        change,
        match &r.owner {
            Some(o) => (o.clone(), Style::new()),
            None => (t!(lang, "fleet-none-paren"), t.style(Slot::Warn)),
        },
        backup,
        drill,
    ]
}

/// `CRIT 2`, `warn 3`, `info 1`, `-`: the worst finding and how many there are.
fn findings_cell(ctx: &Context, r: &LedgerRow) -> (String, Style) {
    let t = &ctx.config.theme;
    match r.findings.and_then(|f| Some((f.worst?, f.total()))) {
        Some((worst, n)) => (
            format!("{} {n}", super::findings_view::short_label(worst)),
            t.style(super::findings_view::severity_slot(worst)),
        ),
        None => ("-".into(), t.style(Slot::Muted)),
    }
}

/// The summary line: what is shown and how it is sorted, then (as room allows) grouping,
/// marks and which rows are in sight; a filter that names nothing is never left out.
fn summary(
    state: &LedgerState,
    ctx: &Context,
    shown: usize,
    rows_note: Option<(String, bool)>,
) -> Vec<(u8, Span<'static>)> {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let muted = t.style(Slot::Muted);
    let mut parts = vec![
        (
            9,
            Span::styled(
                t!(
                    lang,
                    "fleet-ledger-shown",
                    shown = shown,
                    total = ctx.rows.len()
                ),
                muted,
            ),
        ),
        (
            5,
            Span::styled(
                format!(
                    " {}",
                    t!(
                        lang,
                        "fleet-ledger-sort",
                        order = state.sort.order_in(lang, state.ascending)
                    )
                ),
                muted,
            ),
        ),
    ];
    match state.grouping {
        Grouping::None => {}
        Grouping::Region => parts.push((
            4,
            Span::styled(format!(" {}", t!(lang, "fleet-ledger-by-region")), muted),
        )),
        Grouping::Env => parts.push((
            4,
            Span::styled(format!(" {}", t!(lang, "fleet-ledger-by-env")), muted),
        )),
    }
    if !state.marks.is_empty() {
        parts.push((
            6,
            Span::styled(
                format!(
                    " {}",
                    t!(lang, "fleet-ledger-marked", n = state.marks.len())
                ),
                muted,
            ),
        ));
    }
    let unknown = super::ledger::unknown_filter_keys(&state.filter, ctx.rows);
    if !unknown.is_empty() {
        parts.push((
            8,
            Span::styled(
                format!(
                    " {}",
                    t!(
                        lang,
                        "fleet-ledger-filter-unknown",
                        keys = unknown.join("; ")
                    )
                ),
                t.style(Slot::Warn),
            ),
        ));
    }
    if let Some((note, above)) = rows_note {
        let style = if above { t.style(Slot::Warn) } else { muted };
        parts.push((7, Span::styled(note, style)));
    }
    parts
}

/// `kubeconfig contexts not in the ledger: a, b (+3 more)`, or nothing.
fn unregistered_line(ctx: &Context, width: usize) -> Option<Line<'static>> {
    let contexts = &ctx.config.unregistered_contexts;
    if contexts.is_empty() {
        return None;
    }
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let what = counted(lang, "fleet-count-contexts", contexts.len() as i64);
    let forms: Vec<String> = (0..=contexts.len())
        .rev()
        .flat_map(|named| {
            let list = contexts[..named].join(", ");
            let more = contexts.len() - named;
            let tail = match (named, more) {
                (0, _) => String::new(),
                (_, 0) => t!(lang, "fleet-ledger-tail", list = &list),
                (_, more) => t!(lang, "fleet-ledger-tail-more", list = &list, n = more),
            };
            [
                t!(
                    lang,
                    "fleet-ledger-unregistered-reconcile",
                    what = &what,
                    tail = &tail
                ),
                t!(
                    lang,
                    "fleet-ledger-unregistered",
                    what = &what,
                    tail = &tail
                ),
            ]
        })
        .chain([
            t!(
                lang,
                "fleet-ledger-unregistered",
                what = &what,
                tail = String::new()
            ),
            t!(lang, "fleet-ledger-unregistered-short", n = contexts.len()),
        ])
        .collect();
    Some(Line::styled(
        first_fitting(forms, width),
        t.style(Slot::Warn),
    ))
}

/// Draws the ledger screen.
pub fn draw(state: &LedgerState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let lines = state.lines(ctx.rows);
    let shown = lines.iter().filter(|l| matches!(l, Row::Row(_))).count();
    let visible: Vec<usize> = lines
        .iter()
        .filter_map(|l| match l {
            Row::Row(i) => Some(*i),
            _ => None,
        })
        .collect();
    let selected = state.selected_pos(ctx.rows, &visible);
    let width = usize::from(area.width);
    // Lines above the table: the summary, the console's notice, the contexts the ledger
    // does not list. On a short screen the table keeps at least three rows.
    let mut above: Vec<Line> = Vec::new();
    if let Some(notice) = &ctx.config.notice {
        above.extend(canvas::wrap(
            &Line::styled(notice.clone(), t.style(Slot::Unknown)),
            width,
        ));
    }
    above.extend(unregistered_line(ctx, width));
    let room_above = usize::from(area.height).saturating_sub(5);
    if above.len() > room_above {
        above.truncate(room_above);
    }
    let top = 1 + above.len() as u16;
    let table = Rect {
        y: area.y + top,
        height: area.height.saturating_sub(top),
        ..area
    };
    let cols = columns(lang, ctx.rows);
    let chosen = fit_columns(&cols, &PRIORITY, table.width);
    let col_widths = widths(&cols, &chosen, table.width);
    let body = Rect {
        y: table.y + 1,
        height: table.height.saturating_sub(1),
        ..table
    };
    let selected_line = lines
        .iter()
        .position(|l| *l == Row::Row(visible.get(selected).copied().unwrap_or(usize::MAX)))
        .unwrap_or(0);
    let height = usize::from(body.height);
    let offset = scroll_offset(selected_line, lines.len(), height);
    // Sorted worst first, the rows scrolled off the top are the ones that matter most:
    // say that some are out of sight, and which.
    let rows_note = (lines.len() > height && height > 0).then(|| {
        let last = (offset + height).min(lines.len());
        let note = if offset > 0 {
            t!(
                lang,
                "fleet-ledger-rows-above",
                first = offset + 1,
                last = last,
                total = lines.len(),
                above = offset
            )
        } else {
            t!(
                lang,
                "fleet-ledger-rows",
                first = offset + 1,
                last = last,
                total = lines.len()
            )
        };
        let note = format!(" {note}");
        (note, offset > 0)
    });
    let summary = canvas::fit_parts(summary(state, ctx, shown, rows_note), width);
    canvas::line(buf, area.x, area.y, area.width, &summary);
    for (i, line) in above.iter().enumerate() {
        canvas::line(buf, area.x, area.y + 1 + i as u16, area.width, line);
    }
    if table.height < 2 {
        return;
    }
    // The header marks the sort key with its direction.
    let arrow = if state.ascending { "↑" } else { "↓" };
    let titles: Vec<(String, Style)> = Column::ALL
        .iter()
        .enumerate()
        .map(|(i, c)| {
            // The first column's title sits over the ids, past the marks.
            let pad = if *c == Column::Id { "  " } else { "" };
            let title = if *c == state.sort {
                format!("{pad}{}{arrow}", c.title_in(lang))
            } else {
                format!("{pad}{}", c.title_in(lang))
            };
            (fit(&title, usize::from(col_widths[i])), Style::new())
        })
        .collect();
    row(
        buf,
        table,
        table.y,
        &cols,
        &chosen,
        &titles,
        t.style(Slot::Title),
    );
    if lines.is_empty() {
        let text = if ctx.rows.is_empty() {
            t!(lang, "fleet-ledger-empty")
        } else {
            no_match_in(ctx, &t!(lang, "fleet-noun-cluster"))
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
        return;
    }
    for (n, line) in lines.iter().skip(offset).take(height).enumerate() {
        let y = body.y + n as u16;
        match line {
            Row::Group(name, count) => {
                let text = fit(&format!("▾ {name} ({count})"), usize::from(body.width));
                canvas::text(
                    buf,
                    body.x,
                    y,
                    body.width,
                    &text,
                    t.style(Slot::Title).add_modifier(Modifier::UNDERLINED),
                );
            }
            Row::Row(i) => {
                let r = &ctx.rows[*i];
                let base = if offset + n == selected_line {
                    t.style(Slot::Selection)
                } else {
                    Style::new()
                };
                row(
                    buf,
                    body,
                    y,
                    &cols,
                    &chosen,
                    &cells(state, ctx, r, &col_widths),
                    base,
                );
            }
        }
    }
}
