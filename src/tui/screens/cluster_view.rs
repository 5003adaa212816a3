//! Draws the cluster drill-down: who the cluster is and how fresh its data is, its nodes,
//! the PDBs that would block a drain, its findings, and recent journal events.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Borders;

use super::cluster::{ClusterState, Focus, maintenance_label, readiness_label};
use super::table::{Col, fit_columns, header_titled, no_match_in, row, scroll_offset, titles_in};
use crate::i18n::counted;
use crate::model::duration::age;
use crate::model::fleet::{Readiness, Schedulability};
use crate::model::live::{ClusterStatus, IdentityVerdict};
use crate::t;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::header::status_slot;
use crate::tui::theme::Slot;

/// Titles are message ids.
const COLS: [Col; 9] = [
    Col {
        title: "fleet-col-node",
        width: 26,
    },
    Col {
        title: "fleet-col-zone",
        width: 14,
    },
    Col {
        title: "fleet-col-block",
        width: 14,
    },
    Col {
        title: "fleet-col-ready",
        width: 8,
    },
    Col {
        title: "fleet-col-cordon",
        width: 6,
    },
    Col {
        title: "fleet-col-maintenance",
        width: 14,
    },
    Col {
        // Free of allocatable, as the header's fleet figure reads.
        title: "fleet-col-gpus-free",
        width: 9,
    },
    Col {
        title: "fleet-col-pods",
        width: 5,
    },
    Col {
        title: "fleet-col-counts",
        width: 24,
    },
];
const PRIORITY: [usize; 9] = [0, 3, 6, 7, 4, 1, 5, 8, 2];

/// Draws the drill-down of its cluster.
pub fn draw(state: &ClusterState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let id = state.id.as_str();
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let live = ctx.snapshot.cluster(id);
    let ledger = ctx.ledger.cluster(id);
    let status = live.map(|c| c.status);
    let mut info = vec![Span::styled(id.to_owned(), t.style(Slot::Title))];
    if let Some(c) = ledger {
        info.push(Span::raw("  "));
        info.push(Span::styled(
            c.env.clone(),
            Style::new().fg(t.accent(&c.env)),
        ));
        let owner = c
            .owner
            .clone()
            .unwrap_or_else(|| t!(lang, "fleet-none-paren"));
        info.push(Span::raw(format!(
            "  {}",
            t!(
                lang,
                "fleet-cluster-where",
                place = format!("{}/{}", c.region, c.failure_domain),
                tier = &c.tier,
                owner = owner
            )
        )));
    }
    let label = super::ledger::status_label_in(lang, status);
    let status_text = match live.and_then(|c| c.facts.last_ok) {
        // The age is of the last sign of life (an event or a watch bookmark).
        Some(last_ok) => t!(
            lang,
            "fleet-cluster-heard",
            status = &label,
            ago = age(ctx.now, last_ok)
        ),
        // "Unreachable -" read as a glitch: say that nothing was ever read.
        None => t!(lang, "fleet-cluster-never-synced", status = &label),
    };
    let mut facts_line = vec![Span::styled(status_text, t.style(status_slot(status)))];
    if let Some(c) = live {
        let ledger_version = ledger
            .and_then(|l| l.versions.get("kubernetes"))
            .map_or("-", String::as_str);
        let drift = ctx.data.version_drift(id);
        facts_line.push(Span::raw(" · k8s ")); // i18n: not for people (the product's name)
        facts_line.push(Span::styled(
            t!(
                lang,
                "fleet-cluster-versions",
                live = c.server_version.as_deref().unwrap_or("?"),
                ledger = ledger_version
            ),
            if drift {
                t.style(Slot::Warn)
            } else {
                Style::new()
            },
        ));
        let (verdict, slot) = match &c.identity_verdict {
            // A verdict is only as current as the data: a cluster that stopped answering
            // was matching when last checked, which vouches for nothing now.
            Some(IdentityVerdict::Match) if !c.status.data_usable() => {
                (t!(lang, "fleet-identity-matched-then"), Slot::Unknown)
            }
            Some(IdentityVerdict::Match) => (t!(lang, "fleet-identity-matching"), Slot::Ok),
            Some(IdentityVerdict::NotPinned) => (t!(lang, "fleet-identity-not-pinned"), Slot::Warn),
            // The reason (two UIDs or servers) gets a line of its own below: at the end
            // of this one it was cut where the pinned value is.
            Some(IdentityVerdict::Mismatch { .. }) => {
                (t!(lang, "fleet-identity-mismatch-below"), Slot::Critical)
            }
            None => (t!(lang, "fleet-identity-not-checked"), Slot::Unknown),
        };
        facts_line.push(Span::raw(" · "));
        facts_line.push(Span::styled(verdict, t.style(slot)));
        // Unknown counts are not shown as zero: nothing read from a cluster is no data
        // (one that stopped answering keeps its last seen figures, as said below).
        let unknown = !c.status.data_usable() && c.view.nodes.is_empty() && c.view.pods.is_empty();
        let (counts, slot) = if unknown {
            (t!(lang, "fleet-cluster-no-counts"), Slot::Unknown)
        } else {
            (
                format!(
                    "{} · {}",
                    counted(lang, "count-nodes", c.view.nodes.len() as i64),
                    counted(lang, "fleet-count-pods", c.view.pods.len() as i64)
                ),
                Slot::Muted,
            )
        };
        facts_line.push(Span::styled(format!(" · {counts}"), t.style(slot)));
    }
    // Why the figures cannot be trusted (a mismatch, data that is not fresh or is
    // partial) comes right after who the cluster is: on a short screen it is what is kept.
    let mut head = vec![Line::from(info)];
    if let Some(IdentityVerdict::Mismatch { reason }) =
        live.and_then(|c| c.identity_verdict.as_ref())
    {
        head.push(Line::styled(
            t!(lang, "fleet-identity-mismatch", reason = reason),
            t.style(Slot::Critical),
        ));
    }
    if let Some(c) = live.filter(|c| !c.status.data_usable()) {
        // A mismatch's reason already has its line above.
        let mismatch = match &c.identity_verdict {
            Some(IdentityVerdict::Mismatch { reason }) => Some(reason.as_str()),
            _ => None,
        };
        // A credential's problem has lines of its own below.
        let why = c
            .last_error
            .as_deref()
            .filter(|e| mismatch.is_none_or(|reason| !e.contains(reason)))
            .filter(|_| c.status != ClusterStatus::Credentials);
        let what = if c.view.nodes.is_empty() && c.view.pods.is_empty() {
            t!(lang, "fleet-cluster-nothing-read")
        } else {
            t!(lang, "fleet-cluster-last-seen")
        };
        let status = c.status.label();
        let text = match why {
            Some(why) => t!(
                lang,
                "fleet-cluster-not-fresh-why",
                status = status,
                what = what,
                why = why
            ),
            None => t!(
                lang,
                "fleet-cluster-not-fresh",
                status = status,
                what = what
            ),
        };
        head.push(Line::styled(text, t.style(Slot::Unknown)));
    }
    // What the cluster is reached with, and what keeps it out when that is the problem.
    if let (Some(c), Some(l)) = (live, ledger) {
        head.extend(super::cluster_credential::lines(ctx, c, &l.context));
    }
    // Degraded data counts, but the operator must know what it lacks (a resource the
    // cluster will not serve, objects that cannot be read).
    if let Some(c) = live.filter(|c| c.status == ClusterStatus::Degraded) {
        let why = c
            .facts
            .partial
            .clone()
            .or_else(|| c.last_error.clone())
            .unwrap_or_else(|| t!(lang, "fleet-cluster-partial"));
        head.push(Line::styled(
            t!(lang, "fleet-cluster-degraded", why = why),
            t.style(Slot::Warn),
        ));
    }
    // The head wraps at words; a long one keeps at most a third of the page, saying how
    // many of its lines it left out.
    head.push(Line::from(facts_line));
    // Where the findings panel does not fit, the worst finding and the count are a line.
    if area.width < THREE_PANELS_FROM || area.height < 14 {
        head.push(super::cluster_findings::head_line(ctx, id));
    }
    let head = canvas::wrap_all(&head, area.width);
    // A cluster without fresh data lists only last-seen nodes: the head may take half.
    let share = if status.is_some_and(|s| s.data_usable()) {
        3
    } else {
        2
    };
    let head_height = u16::try_from(head.len())
        .unwrap_or(u16::MAX)
        .min((area.height / share).max(2));
    let node_rows = ctx
        .data
        .cluster(id)
        .map_or(0, |facts| state.visible(facts).len());
    let panels = panel_height(area.height, head_height, node_rows);
    let [top, nodes_area, bottom] = Layout::vertical([
        Constraint::Length(head_height),
        Constraint::Min(3),
        Constraint::Length(panels),
    ])
    .areas(area);
    canvas::rows(buf, top, &head, t.style(Slot::Muted));
    let Some(facts) = ctx.data.cluster(id) else {
        canvas::text(
            buf,
            nodes_area.x + 2,
            nodes_area.y,
            nodes_area.width.saturating_sub(2),
            &t!(lang, "fleet-cluster-no-data-yet"),
            t.style(Slot::Unknown),
        );
        return;
    };
    let usable = status.is_some_and(|s| s.data_usable());
    let visible = state.visible(facts);
    let selected = state.selected_pos(facts, &visible);
    let chosen = fit_columns(&COLS, &PRIORITY, nodes_area.width);
    let mut titles = titles_in(lang, &COLS);
    // The node's title sits over the names, past the marks.
    titles[0] = format!("  {}", titles[0]);
    let body = header_titled(
        buf,
        nodes_area,
        &COLS,
        &chosen,
        &titles,
        t.style(Slot::Title),
    );
    let height = usize::from(body.height);
    let offset = scroll_offset(selected, visible.len(), height);
    let muted = t.style(Slot::Muted);
    for (n, &i) in visible.iter().skip(offset).take(height).enumerate() {
        let node = &facts.view.nodes[i];
        let f = &facts.nodes[i];
        let marked = state.marks.contains(&node.name.0);
        let ok_or = |good: bool, bad: Slot| judged(ctx, usable, good, bad);
        let health = super::cluster::counts_as_capacity(lang, usable, &f.health);
        let cells = vec![
            (
                format!("{}{}", if marked { "● " } else { "  " }, node.name),
                if marked {
                    t.style(Slot::Mark)
                } else {
                    Style::new()
                },
            ),
            (f.zone.as_deref().unwrap_or("-").to_owned(), Style::new()),
            (f.block.as_deref().unwrap_or("-").to_owned(), muted),
            (
                readiness_label(node.readiness).to_owned(),
                ok_or(node.readiness == Readiness::Ready, Slot::Critical),
            ),
            (
                if node.schedulability == Schedulability::Cordoned {
                    t!(lang, "fleet-yes")
                } else {
                    "-".to_owned()
                },
                if node.schedulability == Schedulability::Cordoned {
                    t.style(Slot::Warn)
                } else {
                    muted
                },
            ),
            (maintenance_label(lang, node.maintenance), muted),
            (
                if f.gpu_total > 0 {
                    format!("{}/{}", f.gpu_free, f.gpu_total)
                } else {
                    "-".into()
                },
                if f.gpu_total > 0 { Style::new() } else { muted },
            ),
            (f.pods.to_string(), Style::new()),
            (health, ok_or(f.health.is_healthy(), Slot::Warn)),
        ];
        let focus_nodes = state.focus == Focus::Nodes;
        let base = if offset + n == selected && focus_nodes {
            t.style(Slot::Selection)
        } else {
            Style::new()
        };
        row(buf, body, body.y + n as u16, &COLS, &chosen, &cells, base);
    }
    if visible.is_empty() {
        // "No match" only when a filter is active; otherwise there is no node to show.
        let (text, style) = if !state.filter.is_empty() {
            (no_match_in(ctx, &t!(lang, "fleet-noun-node")), muted)
        } else if usable {
            (t!(lang, "fleet-cluster-no-nodes"), muted)
        } else {
            (
                t!(lang, "fleet-cluster-no-node-data"),
                t.style(Slot::Unknown),
            )
        };
        canvas::wrapped(
            buf,
            Rect {
                x: body.x + 2,
                width: body.width.saturating_sub(2),
                ..body
            },
            &[Line::styled(text, style)],
            style,
        );
    }
    if bottom.height == 0 {
        // Too short for the panels: say they are left out, on the table's last row.
        if body.height > 1 {
            let note = canvas::first_fitting(
                vec![
                    t!(lang, "fleet-panels-left-out"),
                    t!(lang, "fleet-panels-left-out-short"),
                ],
                usize::from(body.width),
            );
            canvas::text(buf, body.x, body.bottom() - 1, body.width, &note, muted);
        }
        return;
    }
    // Three panels where they fit; on a narrower screen the findings are a line of the
    // head instead, and the PDBs and the journal keep their room.
    let (left, right) = if bottom.width >= THREE_PANELS_FROM {
        let [l, m, r] = Layout::horizontal([Constraint::Ratio(1, 3); 3]).areas(bottom);
        super::cluster_findings::draw(ctx, id, m, buf);
        (l, r)
    } else {
        let [l, r] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(bottom);
        (l, r)
    };
    super::cluster_panels::draw_pdbs(
        ctx,
        state.focus == Focus::Pdbs,
        facts,
        usable,
        state.pdb_selected,
        left,
        buf,
    );
    super::cluster_panels::draw_events(ctx, id, right, buf);
}

/// The width from which the PDB, findings and journal panels sit side by side.
const THREE_PANELS_FROM: u16 = 120;

/// Rows for the PDB and journal panels. They shrink before they go (at 80×24, the size
/// terminals open at, blocking PDBs are what a drain decision needs most), and take the
/// rows a short node list leaves, up to 12.
fn panel_height(height: u16, head: u16, node_rows: usize) -> u16 {
    let floor = match height {
        h if h >= 20 => 8,
        h if h >= 14 => 5,
        _ => return 0,
    };
    // The node table: its header, its rows, at least 3 in all.
    let nodes = u16::try_from(node_rows + 1).unwrap_or(u16::MAX).max(3);
    let spare = height.saturating_sub(head).saturating_sub(nodes);
    let most = height.saturating_sub(head).saturating_sub(3);
    spare.clamp(floor, 12).min(most)
}

/// One line of a bottom panel, a column short of its right edge so that the left panel's
/// text never runs into the right one's.
pub(super) fn panel_line(buf: &mut Buffer, inner: Rect, row: u16, line: &Line<'_>) {
    canvas::line(
        buf,
        inner.x + 1,
        inner.y + row,
        inner.width.saturating_sub(2),
        line,
    );
}

/// A judgement's colour: unknown without fresh data, else good or `bad`.
pub(super) fn judged(ctx: &Context, usable: bool, good: bool, bad: Slot) -> Style {
    let t = &ctx.config.theme;
    if !usable {
        t.style(Slot::Unknown)
    } else if good {
        t.style(Slot::Ok)
    } else {
        t.style(bad)
    }
}

/// A bottom panel with the first of `titles` that fits its top border.
pub(super) fn panel(
    ctx: &Context,
    titles: Vec<String>,
    focused: bool,
    area: Rect,
    buf: &mut Buffer,
) -> Rect {
    let t = &ctx.config.theme;
    let title = canvas::first_fitting(titles, usize::from(area.width));
    let border = if focused {
        t.style(Slot::Title)
    } else {
        t.style(Slot::Border)
    };
    let title = Line::styled(title, t.style(Slot::Title));
    canvas::panel(buf, area, Borders::TOP, border, Some(&title))
}

#[cfg(test)]
mod tests {
    use super::panel_height;

    #[test]
    fn the_bottom_panels_shrink_before_they_go_and_take_what_a_short_node_list_leaves() {
        // (height, head lines, node rows) → panel rows
        let cases = [
            // 80×24: 19 rows; 13 nodes want 14 and leave 3, the panels keep 5.
            ((19, 2, 13), 5),
            // 8 nodes leave 8.
            ((19, 2, 8), 8),
            // A tall terminal and few nodes: the panels take up to 12.
            ((35, 2, 13), 12),
            ((35, 2, 40), 8),
            // Too short for panels at all.
            ((13, 2, 1), 0),
            // A long head never squeezes the node table under 3 rows.
            ((14, 8, 1), 3),
        ];
        for ((height, head, nodes), rows) in cases {
            assert_eq!(
                panel_height(height, head, nodes),
                rows,
                "{height} rows, {head} of head, {nodes} nodes"
            );
        }
    }
}
