//! `enter` on a PodDisruptionBudget of the drill-down: the pods it covers, the node each
//! runs on, its readiness and whether the budget refuses its eviction now — which nodes a
//! drain would get stuck on, and why. `enter` on a pod opens its node's page.

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

use super::table::{Col, fit_columns, header_titled, row, scroll_offset, titles_in};
use crate::i18n::counted;
use crate::model::fleet::{ClusterView, PdbView};
use crate::t;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::theme::Slot;
use crate::tui::view::{centred, overlay_block};

/// The open list: which budget of which cluster, and the selected pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdbPodsState {
    /// The cluster.
    pub cluster: String,
    /// The budget's namespace.
    pub namespace: Arc<str>,
    /// The budget's name.
    pub name: Arc<str>,
    /// The selected pod's position.
    pub selected: usize,
}

/// One pod the budget covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoveredPod {
    /// `namespace/name`.
    pub pod: String,
    /// The node it runs on, if scheduled.
    pub node: Option<Arc<str>>,
    /// Its `Ready` condition.
    pub ready: bool,
    /// Whether the budget refuses its eviction now (as the eviction API would).
    pub refused: bool,
}

/// The budget and the pods it covers in `view`, refused ones first, then by node.
pub fn covered(
    view: &ClusterView,
    namespace: &str,
    name: &str,
) -> Option<(PdbView, Vec<CoveredPod>)> {
    let index = view
        .pdbs
        .iter()
        .position(|p| &*p.namespace == namespace && &*p.name == name)?;
    let pdb = view.pdbs[index].clone();
    let mut pods: Vec<CoveredPod> = view
        .pods
        .iter()
        .filter(|p| p.pdb == u32::try_from(index).ok() && p.phase.holds_resources())
        .map(|p| CoveredPod {
            pod: format!("{}/{}", p.namespace, p.name),
            node: p.node.as_ref().map(|n| Arc::clone(&n.0)),
            ready: p.ready,
            refused: pdb.refuses_eviction(p.ready),
        })
        .collect();
    pods.sort_by(|a, b| {
        b.refused
            .cmp(&a.refused)
            .then_with(|| a.node.cmp(&b.node))
            .then_with(|| a.pod.cmp(&b.pod))
    });
    Some((pdb, pods))
}

/// Titles are message ids.
const COLS: [Col; 4] = [
    Col {
        title: "fleet-col-pod",
        width: 26,
    },
    Col {
        title: "fleet-col-node",
        width: 20,
    },
    Col {
        title: "fleet-col-ready",
        width: 5,
    },
    Col {
        title: "fleet-col-eviction",
        width: 14,
    },
];

/// Draws the list over `area`.
pub fn draw(state: &PdbPodsState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let rect = centred(
        area,
        area.width.saturating_sub(4).min(90),
        area.height.saturating_sub(2),
    );
    let found = ctx
        .snapshot
        .cluster(&state.cluster)
        .and_then(|c| covered(&c.view, &state.namespace, &state.name));
    let pdb = format!("{}/{}", state.namespace, state.name);
    let title = canvas::first_fitting(
        vec![
            t!(
                lang,
                "fleet-pdb-title-long",
                pdb = &pdb,
                cluster = &state.cluster,
                open = "enter", // i18n: not for people (a key)
                close = "esc"   // i18n: not for people (a key)
            ),
            t!(lang, "fleet-pdb-title", pdb = &pdb, close = "esc"), // i18n: not for people (a key)
            // i18n: not for people (a name: PDB is kept as a term in every language)
            format!("PDB {pdb}"),
        ],
        usize::from(rect.width.saturating_sub(4)),
    );
    let inner = overlay_block(&ctx.config.theme, rect, &title, buf);
    let Some((pdb, pods)) = found else {
        canvas::wrapped(
            buf,
            inner,
            &[Line::styled(
                t!(lang, "fleet-pdb-gone"),
                t.style(Slot::Unknown),
            )],
            t.style(Slot::Unknown),
        );
        return;
    };
    if inner.height < 3 {
        return;
    }
    let nodes = {
        let mut n: Vec<&Arc<str>> = pods.iter().filter_map(|p| p.node.as_ref()).collect();
        n.sort();
        n.dedup();
        n.len()
    };
    let summary = Line::styled(
        t!(
            lang,
            "fleet-pdb-summary",
            has = pdb.current_healthy.to_string(),
            needs = pdb.desired_healthy.to_string(),
            allowed = pdb.disruptions_allowed.max(0).to_string(),
            pods = counted(lang, "fleet-count-pods", pods.len() as i64),
            nodes = counted(lang, "count-nodes", nodes as i64),
        ),
        t.style(if pdb.blocks_eviction() {
            Slot::Warn
        } else {
            Slot::Ok
        }),
    );
    let used = canvas::wrapped(
        buf,
        Rect {
            height: 2.min(inner.height),
            ..inner
        },
        &[summary],
        t.style(Slot::Muted),
    );
    let table = Rect {
        y: inner.y + used + 1,
        height: inner.height.saturating_sub(used + 1),
        ..inner
    };
    let chosen = fit_columns(&COLS, &[0, 1, 3, 2], table.width);
    let titles = titles_in(lang, &COLS);
    let body = header_titled(buf, table, &COLS, &chosen, &titles, t.style(Slot::Title));
    let height = usize::from(body.height);
    let selected = state.selected.min(pods.len().saturating_sub(1));
    let offset = scroll_offset(selected, pods.len(), height);
    for (n, p) in pods.iter().skip(offset).take(height).enumerate() {
        let base = if offset + n == selected {
            t.style(Slot::Selection)
        } else {
            Style::new()
        };
        let cells = vec![
            (p.pod.clone(), Style::new()),
            (
                p.node
                    .as_deref()
                    .map_or_else(|| t!(lang, "fleet-not-scheduled"), str::to_owned),
                Style::new(),
            ),
            (
                if p.ready {
                    t!(lang, "fleet-yes")
                } else {
                    t!(lang, "fleet-no")
                },
                t.style(if p.ready { Slot::Muted } else { Slot::Warn }),
            ),
            if p.refused {
                (t!(lang, "fleet-eviction-refused"), t.style(Slot::Critical))
            } else {
                (t!(lang, "fleet-eviction-allowed"), t.style(Slot::Ok))
            },
        ];
        row(buf, body, body.y + n as u16, &COLS, &chosen, &cells, base);
    }
}
