//! The cluster drill-down's findings panel: the cluster's findings worst first, one line
//! each, with the key that opens the fleet-wide list (where evidence and how to clear
//! each one are shown).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use super::cluster_view::{panel, panel_line};
use super::findings_view::{severity_slot, short_label};
use crate::model::findings::Finding;
use crate::tui::action::Action;
use crate::tui::component::Context;
use crate::tui::format::{counted, fit, one_line};
use crate::tui::keymap::Context as Layer;
use crate::tui::theme::Slot;

/// The findings of cluster `id`, worst first (the fleet list's order).
pub fn of_cluster<'a>(ctx: &Context<'a>, id: &str) -> Vec<&'a Finding> {
    ctx.findings
        .judged
        .findings
        .iter()
        .filter(|f| f.cluster.as_str() == id)
        .collect()
}

/// One line for the head of a drill-down too narrow for the panel: how many findings,
/// the worst one, and the key that lists them.
pub fn head_line(ctx: &Context, id: &str) -> Line<'static> {
    let t = &ctx.config.theme;
    let found = of_cluster(ctx, id);
    let key = ctx
        .key_on(Layer::Global, Action::ScreenFindings)
        .map(|k| format!(" · {k} lists them"))
        .unwrap_or_default();
    match found.first() {
        None => Line::styled("findings: none in what could be read", t.style(Slot::Muted)),
        Some(worst) => Line::from(vec![
            Span::styled(
                format!(
                    "{}, worst {}: ",
                    counted(found.len() as i64, "finding"),
                    worst.severity.label()
                ),
                t.style(severity_slot(worst.severity)),
            ),
            Span::raw(one_line(&worst.summary)),
            Span::styled(key, t.style(Slot::Muted)),
        ]),
    }
}

/// Draws the panel into `area` (its top border carries the title).
pub fn draw(ctx: &Context, id: &str, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let found = of_cluster(ctx, id);
    let n = counted(found.len() as i64, "finding");
    let titles = match ctx.key_on(Layer::Global, Action::ScreenFindings) {
        Some(key) => vec![
            format!(" Findings ({n}) · {key} lists the whole fleet's "),
            format!(" Findings ({n}) · {key} all of them "),
            format!(" Findings ({}) ", found.len()),
        ],
        None => vec![
            format!(" Findings ({n}) "),
            format!(" Findings ({}) ", found.len()),
        ],
    };
    let inner = panel(ctx, titles, false, area, buf);
    if found.is_empty() {
        panel_line(
            buf,
            inner,
            0,
            &Line::styled("none in what could be read", t.style(Slot::Ok)),
        );
        return;
    }
    let cells = usize::from(inner.width.saturating_sub(2));
    let height = usize::from(inner.height);
    // When they do not all fit, the last row says how many more there are.
    let shown = if found.len() > height {
        height.saturating_sub(1)
    } else {
        found.len()
    };
    for (row, f) in found.iter().take(shown).enumerate() {
        // The rule before the summary: two findings about one object differ by it.
        let label = format!("{} ", short_label(f.severity));
        let rule = format!("{} ", f.rule.name());
        // The summary from its first word on, or not at all: a cut inside its first word
        // (a long kind name) reads as a word that is not there.
        let summary = one_line(&f.summary);
        let room = cells.saturating_sub(label.len() + rule.len());
        let first_word = summary.split(' ').next().map_or(0, |w| w.width());
        let summary = if first_word < room {
            fit(&summary, room)
        } else {
            String::new()
        };
        let line = Line::from(vec![
            Span::styled(label, t.style(severity_slot(f.severity))),
            Span::styled(rule, t.style(Slot::Muted)),
            Span::raw(summary),
        ]);
        panel_line(buf, inner, row as u16, &line);
    }
    if shown < found.len() {
        let more = format!("and {} more", found.len() - shown);
        panel_line(
            buf,
            inner,
            shown as u16,
            &Line::styled(fit(&more, cells), t.style(Slot::Muted)),
        );
    }
}
