//! Draws the fleet's capacity: the totals per dimension (never summed across
//! dimensions), the clusters not counted, and one row per cluster with its use and GPU
//! shape.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;

use super::capacity::{CapacityState, FleetTotals, fleet_totals};
use super::capacity_view::{dimension_lines, header_in, listed};
use super::table::{Col, fit_columns, row, scroll_offset};
use crate::model::fleet::Dimension;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::{bar, count, percent};
use crate::tui::header::status_slot;
use crate::tui::theme::Slot;

fn not_counted_line(ctx: &Context, totals: &FleetTotals) -> Line<'static> {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    if totals.not_counted.is_empty() {
        return Line::styled(
            format!(
                " {}",
                crate::t!(lang, "cap-all-counted", n = totals.counted.to_string())
            ),
            t.style(Slot::Muted),
        );
    }
    let parts: Vec<String> = totals
        .not_counted
        .iter()
        .map(|(s, n)| format!("{n} {}", s.label()))
        .collect();
    Line::styled(
        format!(
            " {}",
            crate::t!(
                lang,
                "cap-some-counted",
                n = totals.counted.to_string(),
                parts = listed(lang, parts)
            )
        ),
        t.style(Slot::Unknown),
    )
}

/// Titles are message ids (see `header_in`).
const FLEET_COLS: [Col; 7] = [
    Col {
        title: "cap-col-cluster",
        width: 22,
    },
    Col {
        title: "cap-col-status",
        width: 16,
    },
    Col {
        title: "cap-col-cpu-used",
        width: 16,
    },
    Col {
        title: "cap-col-mem-used",
        width: 16,
    },
    Col {
        title: "cap-col-gpu-free",
        width: 11,
    },
    Col {
        title: "cap-col-pods-used",
        width: 16,
    },
    Col {
        title: "cap-col-largest-gang",
        width: 12,
    },
];

/// Draws the fleet capacity screen into `area`.
pub fn draw(state: &CapacityState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let totals = fleet_totals(ctx.snapshot, ctx.data);
    let mut lines = vec![Line::styled(
        format!(
            " {}",
            crate::t!(
                lang,
                "cap-fleet-heading",
                free = count(totals.gpus.0),
                total = count(totals.gpus.1)
            )
        ),
        t.style(Slot::Title),
    )];
    lines.extend(dimension_lines(
        ctx,
        &totals.allocatable,
        &totals.used,
        None,
        area.width,
    ));
    lines.push(not_counted_line(ctx, &totals));
    let rows = state.fleet_rows(ctx.rows);
    // The totals keep at most half the page: the list below is what is looked through.
    let lines = canvas::wrap_all(&lines, area.width);
    let top_h = (lines.len() as u16).min(area.height / 2);
    let [top, list] = Layout::vertical([Constraint::Length(top_h), Constraint::Min(0)]).areas(area);
    canvas::rows(buf, top, &lines, t.style(Slot::Muted));
    if list.height < 3 {
        return;
    }
    let pos = state
        .fleet_selected
        .as_ref()
        .and_then(|s| rows.iter().position(|r| r.id == *s))
        .unwrap_or(0);
    // Rows out of sight are said on a line of their own above the list, as the ledger
    // says them: a GPU cluster at the bottom is not left to be guessed at.
    let list = if rows.len() + 1 > usize::from(list.height) {
        let height = usize::from(list.height).saturating_sub(2);
        let offset = scroll_offset(pos, rows.len(), height);
        let above = if offset > 0 {
            crate::t!(lang, "cap-rows-above", n = offset.to_string())
        } else {
            String::new()
        };
        let note = format!(
            " {}",
            crate::t!(
                lang,
                "cap-rows",
                first = (offset + 1).to_string(),
                last = (offset + height).min(rows.len()).to_string(),
                total = rows.len().to_string(),
                above = above
            )
        );
        canvas::text(
            buf,
            list.x,
            list.y,
            list.width,
            &canvas::first_fitting(vec![note], usize::from(list.width)),
            t.style(if offset > 0 { Slot::Warn } else { Slot::Muted }),
        );
        Rect {
            y: list.y + 1,
            height: list.height - 1,
            ..list
        }
    } else {
        list
    };
    let chosen = fit_columns(&FLEET_COLS, &[0, 1, 4, 2, 3, 5, 6], list.width);
    let body = header_in(ctx, buf, list, &FLEET_COLS, &chosen);
    let height = usize::from(body.height);
    let offset = scroll_offset(pos, rows.len(), height);
    for (n, r) in rows.iter().skip(offset).take(height).enumerate() {
        let base = if offset + n == pos {
            t.style(Slot::Selection)
        } else {
            Style::new()
        };
        let facts = ctx.data.cluster(&r.id).filter(|_| r.usable());
        let unknown = ("?".to_owned(), t.style(Slot::Unknown));
        let used = |d: Dimension| match facts {
            Some(f) => {
                let (u, a) = (f.used.get(&d), f.allocatable.get(&d));
                let slot = if a > 0 && u * 100 / a >= 85 {
                    Slot::Warn
                } else {
                    Slot::Ok
                };
                (
                    format!("{} {:>4}", bar(u, a, 10), percent(u, a)),
                    t.style(slot),
                )
            }
            None => unknown.clone(),
        };
        let cells = vec![
            (r.id.clone(), Style::new()),
            (
                super::ledger::status_label(r.status).to_owned(),
                t.style(status_slot(r.status)),
            ),
            used(Dimension::Cpu),
            used(Dimension::Memory),
            // A cluster without GPUs has no GPU figure: "-", not "0/0".
            facts.map_or(unknown.clone(), |f| match f.gpu.total_gpus {
                0 => ("-".into(), t.style(Slot::Muted)),
                total => (format!("{}/{total}", f.gpus_free), Style::new()),
            }),
            used(Dimension::Pods),
            facts.map_or(unknown.clone(), |f| match f.gpu.total_gpus {
                0 => ("-".into(), t.style(Slot::Muted)),
                _ => (f.gpu.largest_gang.to_string(), Style::new()),
            }),
        ];
        row(
            buf,
            body,
            body.y + n as u16,
            &FLEET_COLS,
            &chosen,
            &cells,
            base,
        );
    }
}
