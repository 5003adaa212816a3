//! Draws the node page: the node's state, what it offers and holds, its taints and
//! labels, then every pod on it with what a drain would do to it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::cluster::readiness_label;
use super::node::{NodePageState, pod_rows};
use super::table::{Col, fit_columns, header_titled, row, scroll_offset, titles_in};
use crate::i18n::counted;
use crate::model::capacity::format_amount;
use crate::model::fleet::{Dimension, MaintenanceState, NodeView, Readiness, Schedulability};
use crate::t;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::fleet_data::{ClusterFacts, NodeSummary};
use crate::tui::format::fit;
use crate::tui::theme::Slot;
use unicode_width::UnicodeWidthStr;

// Narrow enough that 80 columns keep the pod, its readiness, its CPU and what a drain
// does to it (the last column takes what is left). Titles are message ids.
const COLS: [Col; 8] = [
    Col {
        title: "fleet-col-pod",
        width: 30,
    },
    Col {
        title: "fleet-col-pod-owner",
        width: 24,
    },
    Col {
        title: "fleet-col-pod-status",
        width: 11,
    },
    Col {
        title: "fleet-col-ready",
        width: 5,
    },
    Col {
        title: "fleet-col-cpu",
        width: 10,
    },
    Col {
        title: "fleet-col-memory",
        width: 9,
    },
    Col {
        title: "fleet-col-gpu",
        width: 4,
    },
    Col {
        title: "fleet-col-fate",
        width: 28,
    },
];
const PRIORITY: [usize; 8] = [0, 7, 3, 4, 5, 6, 1, 2];

/// Label keys people look for first on a node: where it is and what it is.
const FIRST_LABELS: [&str; 6] = [
    "node.kubernetes.io/instance-type",
    "topology.kubernetes.io/zone",
    "nvidia.com/gpu.product",
    "nvidia.com/gpu.clique",
    "nvidia.com/cuda.driver-version.full",
    "karpenter.sh/nodepool",
];

pub fn draw(state: &NodePageState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let facts = ctx.data.cluster(&state.cluster);
    let found = facts.and_then(|f| {
        f.view
            .nodes
            .iter()
            .position(|n| n.name.0 == state.node)
            .map(|i| (f, i))
    });
    let Some((facts, i)) = found else {
        let text = t!(
            lang,
            "fleet-node-not-found",
            node = state.node.to_string(),
            cluster = &state.cluster
        );
        canvas::wrapped(
            buf,
            Rect {
                x: area.x + 2,
                width: area.width.saturating_sub(2),
                ..area
            },
            &[Line::styled(text, t.style(Slot::Unknown))],
            t.style(Slot::Unknown),
        );
        return;
    };
    let node = &facts.view.nodes[i];
    let usable = ctx
        .snapshot
        .cluster(&state.cluster)
        .is_some_and(|c| c.status.data_usable());
    let head = head_lines(ctx, facts, node, &facts.nodes[i], usable, area.width);
    // The head wraps at words and keeps at most half the page (saying what it left out).
    let head = canvas::wrap_all(&head, area.width);
    let head_h = u16::try_from(head.len())
        .unwrap_or(u16::MAX)
        .min(area.height / 2);
    let [top, pods_area] =
        Layout::vertical([Constraint::Length(head_h + 1), Constraint::Min(2)]).areas(area);
    canvas::rows(
        buf,
        Rect {
            height: head_h,
            ..top
        },
        &head,
        t.style(Slot::Muted),
    );
    draw_pods(state, ctx, facts, pods_area, buf);
}

/// The lines above the pod table.
fn head_lines<'a>(
    ctx: &Context,
    facts: &ClusterFacts,
    node: &NodeView,
    f: &NodeSummary,
    usable: bool,
    width: u16,
) -> Vec<Line<'a>> {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let muted = t.style(Slot::Muted);
    let mut lines = vec![Line::from(vec![
        Span::styled(
            t!(lang, "fleet-node-title", node = node.name.to_string()),
            t.style(Slot::Title),
        ),
        Span::styled(
            format!(
                "  {}",
                t!(
                    lang,
                    "fleet-node-where",
                    cluster = facts.view.id.to_string(),
                    zone = f.zone.as_deref().unwrap_or("-"),
                    block = f.block.as_deref().unwrap_or("-"),
                    kubelet = node.kubelet_version.to_string()
                )
            ),
            muted,
        ),
    ])];
    let held = facts.held.under_maintenance.contains(&node.name);
    let reserved = facts.held.reserved.contains(&node.name);
    let slot = |good: bool, bad: Slot| super::cluster_view::judged(ctx, usable, good, bad);
    let counts = t!(
        lang,
        "fleet-node-counts",
        answer = super::cluster::counts_as_capacity(lang, usable, &f.health)
    );
    lines.push(Line::from(vec![
        Span::styled(
            readiness_label(node.readiness),
            slot(node.readiness == Readiness::Ready, Slot::Critical),
        ),
        Span::raw(" · "),
        Span::styled(
            if node.schedulability == Schedulability::Cordoned {
                t!(lang, "fleet-node-cordoned")
            } else {
                t!(lang, "fleet-node-not-cordoned")
            },
            slot(
                node.schedulability == Schedulability::Schedulable,
                Slot::Warn,
            ),
        ),
        Span::raw(" · "),
        Span::styled(
            if held {
                t!(lang, "fleet-node-held")
            } else if reserved {
                t!(lang, "fleet-node-reserved")
            } else {
                match node.maintenance {
                    MaintenanceState::InService => t!(lang, "fleet-node-in-service"),
                    MaintenanceState::UnderMaintenance => t!(lang, "fleet-in-maintenance"),
                }
            },
            if held || reserved {
                t.style(Slot::Warn)
            } else {
                muted
            },
        ),
        Span::raw(" · "),
        Span::styled(counts, slot(f.health.is_healthy(), Slot::Warn)),
    ]));
    let offers: Vec<String> = [
        Dimension::Cpu,
        Dimension::Memory,
        Dimension::Gpu,
        Dimension::Pods,
    ]
    .iter()
    .filter(|d| node.allocatable.get(d) != 0)
    .map(|d| match d {
        Dimension::Pods => t!(
            lang,
            "fleet-node-pods-used",
            used = f.used.get(d).to_string(),
            total = node.allocatable.get(d).to_string()
        ),
        _ => t!(
            lang,
            "fleet-node-requested",
            dimension = match d {
                Dimension::Memory => t!(lang, "fleet-dim-memory"),
                // `CPU`, `GPU`: the same in both languages.
                _ => d.to_string(),
            },
            used = format_amount(d, f.used.get(d)),
            total = format_amount(d, node.allocatable.get(d))
        ),
    })
    .collect();
    // On a narrow terminal, one line per dimension rather than a line cut at the GPUs.
    let joined = offers.join(" · ");
    if joined.width() <= usize::from(width) {
        lines.push(Line::raw(joined));
    } else {
        lines.extend(offers.into_iter().map(Line::raw));
    }
    let taints: Vec<String> = node
        .taints
        .iter()
        .map(|taint| match &taint.value {
            Some(v) => format!("{}={v}:{:?}", taint.key, taint.effect),
            None => format!("{}:{:?}", taint.key, taint.effect),
        })
        .collect();
    lines.push(Line::styled(
        if taints.is_empty() {
            t!(lang, "fleet-node-taints-none")
        } else {
            t!(lang, "fleet-node-taints", taints = taints.join(", "))
        },
        muted,
    ));
    let mut labels: Vec<String> = FIRST_LABELS
        .iter()
        .filter_map(|k| node.labels.get(k).map(|v| format!("{k}={v}")))
        .collect();
    labels.extend(
        node.labels
            .iter()
            .filter(|(k, _)| !FIRST_LABELS.contains(&&***k) && &***k != "kubernetes.io/hostname")
            .map(|(k, v)| format!("{k}={v}")),
    );
    let text = t!(lang, "fleet-node-labels", labels = labels.join(", "));
    lines.push(Line::styled(
        fit(&text, usize::from(width.saturating_sub(1))),
        muted,
    ));
    lines
}

fn draw_pods(
    state: &NodePageState,
    ctx: &Context,
    facts: &ClusterFacts,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let departure = state.departure(&facts.view, &ctx.config.capacity, &facts.held.reserved);
    let rows = pod_rows(&facts.view, &state.node, &departure);
    let trouble = rows.iter().filter(|r| r.fate.is_trouble()).count();
    let pods = counted(lang, "fleet-count-pods", rows.len() as i64);
    let title = if trouble == 0 {
        t!(lang, "fleet-node-pods", pods = pods)
    } else {
        t!(lang, "fleet-node-pods-trouble", pods = pods, n = trouble)
    };
    canvas::text(
        buf,
        area.x,
        area.y,
        area.width,
        &fit(&title, usize::from(area.width)),
        t.style(if trouble == 0 {
            Slot::Title
        } else {
            Slot::Warn
        }),
    );
    let table = Rect {
        y: area.y + 1,
        height: area.height.saturating_sub(1),
        ..area
    };
    if table.height == 0 {
        return;
    }
    // A wide screen gives pod and owner names room first: the drain column needs less
    // than what is left (pod names end in the hash that tells replicas apart).
    let mut cols = COLS;
    let (pod, owner) = match table.width {
        w if w >= 180 => (44, 34),
        w if w >= 150 => (36, 26),
        _ => (COLS[0].width, COLS[1].width),
    };
    cols[0].width = pod;
    cols[1].width = owner;
    let chosen = fit_columns(&cols, &PRIORITY, table.width);
    let titles = titles_in(lang, &cols);
    let body = header_titled(buf, table, &cols, &chosen, &titles, t.style(Slot::Title));
    if rows.is_empty() {
        canvas::text(
            buf,
            body.x + 2,
            body.y,
            body.width.saturating_sub(2),
            &fit(
                &t!(lang, "fleet-node-no-pods"),
                usize::from(body.width.saturating_sub(2)),
            ),
            t.style(Slot::Muted),
        );
        return;
    }
    let height = usize::from(body.height);
    let selected = state.selected.min(rows.len() - 1);
    let offset = scroll_offset(selected, rows.len(), height);
    for (n, r) in rows.iter().skip(offset).take(height).enumerate() {
        let fate_style = if r.fate.is_trouble() {
            t.style(Slot::Warn)
        } else {
            t.style(Slot::Muted)
        };
        let cells = vec![
            (r.name.clone(), Style::new()),
            (r.owner.clone(), t.style(Slot::Muted)),
            (r.phase.to_owned(), Style::new()),
            match r.ready {
                Some(true) => (t!(lang, "fleet-yes"), t.style(Slot::Muted)),
                Some(false) => (t!(lang, "fleet-no"), t.style(Slot::Warn)),
                None => ("-".to_owned(), t.style(Slot::Muted)),
            },
            (r.cpu.clone(), Style::new()),
            (r.memory.clone(), Style::new()),
            (r.gpu.clone(), Style::new()),
            (r.fate.label_in(lang), fate_style),
        ];
        let base = if offset + n == selected {
            t.style(Slot::Selection)
        } else {
            Style::new()
        };
        row(buf, body, body.y + n as u16, &cols, &chosen, &cells, base);
    }
}
