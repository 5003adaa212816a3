//! Draws capacity: fleet (`capacity_fleet_view.rs`) → cluster → failure domain. One bar
//! per dimension, never summed across dimensions; the GPU shape panel; what limits
//! headroom, in sentences; what-if results with the pods that would not fit.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Borders;

use super::capacity::CapacityState;
use super::capacity_panels::{
    cluster_loss_height, cluster_loss_panel, gpu_panel, what_if_height, what_if_panel,
};
use super::table::{Col, fit_columns, row, scroll_offset};
use crate::i18n::Lang;
use crate::model::capacity::amount_msg;
use crate::model::fleet::{Dimension, ResourceVector};
use crate::tui::action::Action;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::{bar, count, pad, percent};
use crate::tui::nav::CapacityScope;
use crate::tui::theme::Slot;

pub(super) const DIMS: [Dimension; 4] = [
    Dimension::Cpu,
    Dimension::Memory,
    Dimension::Gpu,
    Dimension::Pods,
];

pub(super) fn dim_name(lang: Lang, d: &Dimension) -> String {
    match d {
        Dimension::Cpu => crate::t!(lang, "cap-dim-cpu"),
        Dimension::Memory => crate::t!(lang, "cap-dim-memory"),
        Dimension::Gpu => crate::t!(lang, "cap-dim-gpu"),
        Dimension::Pods => crate::t!(lang, "cap-dim-pods"),
        _ => crate::t!(lang, "cap-dim-other"),
    }
}

/// `a, b, c` in the reader's punctuation (`a、b、c`).
pub(super) fn listed(lang: Lang, parts: Vec<String>) -> String {
    parts
        .into_iter()
        .reduce(|a, b| crate::t!(lang, "cap-join", a = a, b = b))
        .unwrap_or_default()
}

/// An amount with its unit in the reader's words (`1.5 cores`, `1.5 核`).
pub(super) fn amount(lang: Lang, d: &Dimension, amount: i64) -> String {
    amount_msg(d, amount).text(lang)
}

/// Writes the header row of `cols`, whose titles are message ids, in the reader's
/// language; the rows go below it, in the area returned.
pub(super) fn header_in(
    ctx: &Context,
    buf: &mut Buffer,
    area: Rect,
    cols: &[Col],
    chosen: &[usize],
) -> Rect {
    let lang = ctx.config.lang;
    let cells: Vec<(String, Style)> = cols
        .iter()
        .map(|c| (crate::i18n::text(lang, c.title, &[]), Style::new()))
        .collect();
    let style = ctx.config.theme.style(Slot::Title);
    row(buf, area, area.y, cols, chosen, &cells, style);
    Rect {
        y: area.y + 1,
        height: area.height.saturating_sub(1),
        ..area
    }
}

/// Draws the capacity screen at its scope.
pub fn draw(state: &CapacityState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    match &state.scope {
        CapacityScope::Fleet => super::capacity_fleet_view::draw(state, ctx, area, buf),
        CapacityScope::Cluster(id) => cluster(state, ctx, id, None, area, buf),
        CapacityScope::Domain(id, d) => cluster(state, ctx, id, Some(d), area, buf),
    }
}

/// An amount with its unit that a wrapped line never parts (`128 cores`, `1976 pod slots`).
pub(super) fn unbroken(lang: Lang, d: &Dimension, amount: i64) -> String {
    amount_msg(d, amount).text(lang).replace(' ', "\u{a0}")
}

/// One line per dimension: used of allocatable as a bar, and what is left.
pub(super) fn dimension_lines(
    ctx: &Context,
    alloc: &ResourceVector,
    used: &ResourceVector,
    headroom: Option<&ResourceVector>,
    width: u16,
) -> Vec<Line<'static>> {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let bar_width = usize::from(width.saturating_sub(60)).clamp(6, 30);
    DIMS.iter()
        // A cluster without GPUs has no GPU line to read.
        .filter(|d| **d != Dimension::Gpu || alloc.get(d) != 0 || used.get(d) != 0)
        .map(|d| {
            let (a, u) = (alloc.get(d), used.get(d));
            let left = headroom.map_or(a - u, |h| h.get(d));
            let slot = if left < 0 {
                Slot::Critical
            } else if a > 0 && u * 100 / a >= 85 {
                Slot::Warn
            } else {
                Slot::Ok
            };
            Line::from(vec![
                Span::styled(
                    format!(" {}", pad(&dim_name(lang, d), 7)),
                    t.style(Slot::Title),
                ),
                Span::styled(bar(u, a, bar_width), t.style(slot)),
                Span::raw(format!(" {:>4} ", percent(u, a))),
                Span::styled(
                    crate::t!(
                        lang,
                        "cap-used-of",
                        used = unbroken(lang, d, u),
                        total = unbroken(lang, d, a)
                    ),
                    t.style(Slot::Muted),
                ),
                Span::raw(" · "),
                Span::styled(
                    // Without a reserve this is what is left once the pods of nodes
                    // that do not count have a place: not just what is free.
                    if headroom.is_some() {
                        crate::t!(
                            lang,
                            "cap-headroom-amount",
                            amount = unbroken(lang, d, left)
                        )
                    } else {
                        crate::t!(lang, "cap-left-amount", amount = unbroken(lang, d, left))
                    },
                    t.style(slot),
                ),
            ])
        })
        .collect()
}

/// A panel under a top border titled with the first of `titles` that fits.
pub(super) fn boxed(ctx: &Context, titles: &[String], area: Rect, buf: &mut Buffer) -> Rect {
    let t = &ctx.config.theme;
    let room = usize::from(area.width).saturating_sub(2);
    let title = canvas::first_fitting(titles.to_vec(), room);
    let title = Line::styled(format!(" {title} "), t.style(Slot::Title));
    canvas::panel(buf, area, Borders::TOP, t.style(Slot::Border), Some(&title))
}

fn cluster(
    state: &CapacityState,
    ctx: &Context,
    id: &str,
    domain: Option<&std::sync::Arc<str>>,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let live = ctx.snapshot.cluster(id);
    let loss = state.cluster_loss.as_ref().filter(|l| l.cluster == id);
    let (Some(cache), Some(facts)) = (state.report.as_ref(), ctx.data.cluster(id)) else {
        let status = live.map(|c| c.status);
        let text = format!(
            " {}",
            crate::t!(
                lang,
                "cap-untrusted",
                cluster = id,
                status = super::ledger::status_label(status)
            )
        );
        canvas::wrapped(
            buf,
            Rect {
                height: 2.min(area.height),
                ..area
            },
            &[Line::styled(text, t.style(Slot::Unknown))],
            t.style(Slot::Unknown),
        );
        // A cluster that cannot be read may be lost already: its siblings' room is the
        // question that still has an answer.
        if let Some(loss) = loss {
            let below = Rect {
                y: area.y + 2,
                height: area.height.saturating_sub(2),
                ..area
            };
            cluster_loss_panel(ctx, loss, below, buf);
        }
        return;
    };
    let report = &cache.report;
    let base = &report.baseline;
    let healthy = i64::from(report.domains.iter().map(|d| d.healthy_nodes).sum::<u32>());
    let mut top_lines = vec![Line::styled(
        format!(
            " {}",
            crate::t!(
                lang,
                "cap-cluster-heading",
                cluster = id,
                count = healthy,
                n = count(healthy)
            )
        ),
        t.style(Slot::Title),
    )];
    // The GPU shape only where there are GPUs: elsewhere its column is better spent.
    // Beside the bars it needs 100 columns; narrower, it says where to read it.
    let gpu_w = if area.width >= 100 && report.gpu.total_gpus > 0 {
        46
    } else {
        0
    };
    top_lines.extend(dimension_lines(
        ctx,
        &base.allocatable,
        &base.demand,
        Some(&base.headroom),
        area.width.saturating_sub(gpu_w),
    ));
    // Said over the domain table, whose free amounts it explains.
    if domain.is_none() {
        top_lines.extend(set_aside_line(ctx, report));
    }
    if gpu_w == 0 && report.gpu.total_gpus > 0 {
        top_lines.push(Line::styled(
            format!(
                " {}",
                crate::t!(
                    lang,
                    "cap-gpu-shape-left-out",
                    free = report.gpu.free_gpus,
                    total = report.gpu.total_gpus,
                    gang = report.gpu.largest_gang,
                    cluster = id
                )
            ),
            t.style(Slot::Muted),
        ));
    }
    let top_lines = canvas::wrap_all(&top_lines, area.width.saturating_sub(gpu_w));
    // The bars keep at most a third of the page; what they leave out is counted.
    let top_h = u16::try_from(top_lines.len())
        .unwrap_or(u16::MAX)
        .min((area.height / 3).max(3));
    // The panels below take the rows they need (wrapped lines counted), each up to a
    // third of the page; the domain table keeps the rest.
    let most = (area.height / 3).max(5);
    let limits_h = limits_height(report, lang, area.width).min(most);
    let what_if_h = if let Some(loss) = loss {
        cluster_loss_height(loss, most)
    } else if let Some(w) = state.what_if.as_ref().filter(|w| w.cluster == id) {
        what_if_height(w, area.width, most)
    } else {
        0
    };
    let [upper, lower, limits_area, what_if_area] = Layout::vertical([
        Constraint::Length(top_h),
        Constraint::Min(3),
        Constraint::Length(limits_h),
        Constraint::Length(what_if_h),
    ])
    .areas(area);
    let [bars, gpu_top] =
        Layout::horizontal([Constraint::Min(10), Constraint::Length(gpu_w)]).areas(upper);
    let [list, gpu_low] =
        Layout::horizontal([Constraint::Min(10), Constraint::Length(gpu_w)]).areas(lower);
    canvas::rows(buf, bars, &top_lines, t.style(Slot::Muted));
    if gpu_w > 0 {
        let gpu_area = Rect {
            height: gpu_top.height + gpu_low.height,
            ..gpu_top
        };
        gpu_panel(ctx, report, gpu_area, buf);
    }
    match domain {
        None => domain_table(state, ctx, report, list, buf),
        Some(d) => domain_nodes(state, ctx, facts, d, list, buf),
    }
    let inner = boxed(
        ctx,
        &[
            crate::t!(lang, "cap-limits-title"),
            crate::t!(lang, "cap-limits-title-short"),
        ],
        limits_area,
        buf,
    );
    let limit_lines: Vec<Line> = if report.limits.is_empty() {
        vec![Line::styled(
            format!(" {}", crate::t!(lang, "cap-limits-none")),
            t.style(Slot::Ok),
        )]
    } else {
        report
            .limits
            .iter()
            .map(|l| Line::styled(format!(" • {}", l.msg().text(lang)), t.style(Slot::Warn)))
            .collect()
    };
    canvas::wrapped(buf, inner, &limit_lines, t.style(Slot::Muted));
    if let Some(loss) = loss {
        cluster_loss_panel(ctx, loss, what_if_area, buf);
    } else if let Some(w) = state.what_if.as_ref().filter(|w| w.cluster == id) {
        what_if_panel(ctx, w, what_if_area, buf);
    }
}

/// Titles are message ids (see [`header_in`]).
const DOMAIN_COLS: [Col; 6] = [
    Col {
        title: "cap-col-failure-domain",
        width: 18,
    },
    Col {
        title: "cap-col-nodes",
        width: 9,
    },
    Col {
        title: "cap-col-cpu-free",
        width: 14,
    },
    Col {
        title: "cap-col-mem-free",
        width: 12,
    },
    Col {
        title: "cap-col-gpu-free",
        width: 9,
    },
    Col {
        title: "cap-col-pods-free",
        width: 10,
    },
];

/// Rows the limits panel needs: its title and each limit as wrapped at `width`.
fn limits_height(report: &crate::model::capacity::ClusterReport, lang: Lang, width: u16) -> u16 {
    let lines: Vec<Line> = report
        .limits
        .iter()
        .map(|l| Line::raw(format!(" • {}", l.msg().text(lang))))
        .collect();
    canvas::wrapped_height(&lines, width).max(1) + 1
}

/// Why the domains' free amounts add up to more than the headroom: the pods of nodes that
/// do not count (cordoned, not ready, in maintenance) still need a place, and the safety
/// reserve is held back. Said only when something is set aside, so the two figures on one
/// screen are never left to disagree unexplained.
fn set_aside_line(
    ctx: &Context,
    report: &crate::model::capacity::ClusterReport,
) -> Option<Line<'static>> {
    let mut free = ResourceVector::ZERO;
    for d in &report.domains {
        free.add_assign(&d.free);
    }
    let lang = ctx.config.lang;
    let parts: Vec<String> = DIMS
        .iter()
        .filter_map(|d| {
            let aside = free.get(d) - report.baseline.headroom.get(d);
            (aside > 0).then(|| format!("{} {}", dim_name(lang, d), unbroken(lang, d, aside)))
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    Some(Line::styled(
        format!(
            " {}",
            crate::t!(lang, "cap-set-aside", parts = listed(lang, parts))
        ),
        ctx.config.theme.style(Slot::Muted),
    ))
}

fn domain_table(
    state: &CapacityState,
    ctx: &Context,
    report: &crate::model::capacity::ClusterReport,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let keys: Vec<String> = ctx
        .key_hint(Action::Open, &crate::t!(lang, "cap-key-opens"))
        .into_iter()
        .chain(ctx.key_hint(Action::WhatIfLose, &crate::t!(lang, "cap-key-loses-one")))
        .collect();
    let keys = if keys.is_empty() {
        String::new()
    } else {
        format!(" · {}", keys.join(" · "))
    };
    let inner = boxed(
        ctx,
        &[
            format!("{}{keys}", crate::t!(lang, "cap-domains-title-long")),
            format!("{}{keys}", crate::t!(lang, "cap-domains-title")),
            crate::t!(lang, "cap-domains-title"),
        ],
        area,
        buf,
    );
    if inner.height < 2 {
        return;
    }
    let chosen = fit_columns(&DOMAIN_COLS, &[0, 1, 2, 3, 4, 5], inner.width);
    let body = header_in(ctx, buf, inner, &DOMAIN_COLS, &chosen);
    let sel = state
        .domain_selected
        .min(report.domains.len().saturating_sub(1));
    let offset = scroll_offset(sel, report.domains.len(), usize::from(body.height));
    for (n, d) in report
        .domains
        .iter()
        .skip(offset)
        .take(usize::from(body.height))
        .enumerate()
    {
        let base = if offset + n == sel {
            t.style(Slot::Selection)
        } else {
            Style::new()
        };
        let cells = vec![
            (
                d.domain
                    .clone()
                    .map_or_else(|| crate::t!(lang, "cap-no-label"), |d| d.to_string()),
                Style::new(),
            ),
            (
                format!("{}/{}", d.healthy_nodes, d.nodes),
                if d.healthy_nodes == d.nodes {
                    t.style(Slot::Ok)
                } else {
                    t.style(Slot::Warn)
                },
            ),
            (
                amount(lang, &Dimension::Cpu, d.free.cpu_millis()),
                Style::new(),
            ),
            (
                amount(lang, &Dimension::Memory, d.free.memory_bytes()),
                Style::new(),
            ),
            (d.free.gpu().to_string(), Style::new()),
            (d.free.pods().to_string(), Style::new()),
        ];
        row(
            buf,
            body,
            body.y + n as u16,
            &DOMAIN_COLS,
            &chosen,
            &cells,
            base,
        );
    }
}

/// The columns of a failure domain's node list.
const NODE_COLS: [Col; 6] = [
    Col {
        title: "cap-col-node",
        width: 26,
    },
    Col {
        title: "cap-col-capacity",
        width: 11,
    },
    Col {
        title: "cap-col-cpu-free",
        width: 12,
    },
    Col {
        title: "cap-col-mem-free",
        width: 10,
    },
    Col {
        title: "cap-col-gpu-free",
        width: 8,
    },
    Col {
        title: "cap-col-pods-free",
        width: 9,
    },
];

fn domain_nodes(
    state: &CapacityState,
    ctx: &Context,
    facts: &crate::tui::fleet_data::ClusterFacts,
    domain: &str,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let lose = ctx
        .key_hint(Action::WhatIfLose, &crate::t!(lang, "cap-key-loses-domain"))
        .map(|hint| format!(" · {hint}"))
        .unwrap_or_default();
    let inner = boxed(
        ctx,
        &[
            format!("{}{lose}", crate::t!(lang, "cap-nodes-in", domain = domain)),
            crate::t!(lang, "cap-nodes-in", domain = domain),
        ],
        area,
        buf,
    );
    let nodes: Vec<usize> = (0..facts.nodes.len())
        .filter(|i| facts.nodes[*i].zone.as_deref() == Some(domain))
        .collect();
    if inner.height < 2 {
        return;
    }
    // A table: a narrow screen drops whole columns (what is free last of all).
    let chosen = fit_columns(&NODE_COLS, &[0, 2, 3, 1, 4, 5], inner.width);
    let body = header_in(ctx, buf, inner, &NODE_COLS, &chosen);
    let sel = state.node_selected.min(nodes.len().saturating_sub(1));
    let offset = scroll_offset(sel, nodes.len(), usize::from(body.height));
    for (n, &i) in nodes
        .iter()
        .skip(offset)
        .take(usize::from(body.height))
        .enumerate()
    {
        let node = &facts.view.nodes[i];
        let f = &facts.nodes[i];
        let free = node.allocatable.minus(&f.used);
        let base = if offset + n == sel {
            t.style(Slot::Selection)
        } else {
            Style::new()
        };
        let counted = if f.health.is_healthy() {
            (crate::t!(lang, "cap-counted"), Style::new())
        } else {
            (crate::t!(lang, "cap-not-counted"), t.style(Slot::Warn))
        };
        let cells = vec![
            (node.name.0.to_string(), Style::new()),
            counted,
            (
                amount(lang, &Dimension::Cpu, free.cpu_millis()),
                Style::new(),
            ),
            (
                amount(lang, &Dimension::Memory, free.memory_bytes()),
                Style::new(),
            ),
            (format!("{}/{}", f.gpu_free, f.gpu_total), Style::new()),
            (free.pods().to_string(), Style::new()),
        ];
        row(
            buf,
            body,
            body.y + n as u16,
            &NODE_COLS,
            &chosen,
            &cells,
            base,
        );
    }
}
