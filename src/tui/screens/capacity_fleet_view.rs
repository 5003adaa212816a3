//! Draws the fleet's capacity: the totals per dimension (never summed across
//! dimensions), the clusters not counted, and one row per cluster with its use and GPU
//! shape.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;

use super::capacity::{CapacityState, FleetTotals, fleet_totals};
use super::capacity_view::dimension_lines;
use super::table::{Col, fit_columns, header, row, scroll_offset};
use crate::model::fleet::Dimension;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::{bar, count, percent};
use crate::tui::header::status_slot;
use crate::tui::theme::Slot;

fn not_counted_line(ctx: &Context, totals: &FleetTotals) -> Line<'static> {
    let t = &ctx.config.theme;
    if totals.not_counted.is_empty() {
        return Line::styled(
            format!(" all {} clusters counted", totals.counted),
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
            " {} clusters counted; not counted (data not usable): {}",
            totals.counted,
            parts.join(", ")
        ),
        t.style(Slot::Unknown),
    )
}

const FLEET_COLS: [Col; 7] = [
    Col {
        title: "CLUSTER",
        width: 22,
    },
    Col {
        title: "STATUS",
        width: 16,
    },
    Col {
        title: "CPU USED",
        width: 16,
    },
    Col {
        title: "MEM USED",
        width: 16,
    },
    Col {
        title: "GPU FREE",
        width: 11,
    },
    Col {
        title: "PODS USED",
        width: 16,
    },
    Col {
        title: "LARGEST GANG",
        width: 12,
    },
];

/// Draws the fleet capacity screen into `area`.
pub fn draw(state: &CapacityState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let totals = fleet_totals(ctx.snapshot, ctx.data);
    let mut lines = vec![Line::styled(
        format!(
            " Fleet · {} GPUs free of {}",
            count(totals.gpus.0),
            count(totals.gpus.1)
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
            format!(", {offset} above")
        } else {
            String::new()
        };
        let note = format!(
            " rows {}–{} of {}{above}",
            offset + 1,
            (offset + height).min(rows.len()),
            rows.len()
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
    let body = header(buf, list, &FLEET_COLS, &chosen, t.style(Slot::Title));
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
