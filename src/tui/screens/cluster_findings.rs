//! The cluster drill-down's findings panel: the cluster's findings worst first, one line
//! each, with the key that opens the fleet-wide list (where evidence and how to clear
//! each one are shown).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::cluster_view::{panel, panel_line};
use super::findings_view::{severity_label_in, severity_slot, short_label_in};
use crate::model::findings::Finding;
use crate::tui::action::Action;
use crate::tui::component::Context;
use crate::tui::format::{fit, one_line};
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
    let lang = ctx.config.lang;
    let found = of_cluster(ctx, id);
    let key = ctx
        .key_on(Layer::Global, Action::ScreenFindings)
        .map(|k| format!(" · {}", crate::t!(lang, "fd-panel-lists-them", key = k)))
        .unwrap_or_default();
    match found.first() {
        None => Line::styled(crate::t!(lang, "fd-panel-head-none"), t.style(Slot::Muted)),
        Some(worst) => Line::from(vec![
            Span::styled(
                // The space after the colon is the message's: a Chinese colon needs none.
                crate::t!(
                    lang,
                    "fd-panel-head",
                    findings = findings_count(lang, found.len()),
                    worst = severity_label_in(lang, worst.severity)
                ),
                t.style(severity_slot(worst.severity)),
            ),
            Span::raw(one_line(&worst.summary_in(lang))),
            Span::styled(key, t.style(Slot::Muted)),
        ]),
    }
}

/// `3 findings`, `1 finding`, `3 项发现`.
fn findings_count(lang: crate::i18n::Lang, n: usize) -> String {
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    crate::t!(
        lang,
        "fd-count",
        count = n,
        n = crate::model::text::count(n)
    )
}

/// Draws the panel into `area` (its top border carries the title).
pub fn draw(ctx: &Context, id: &str, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let found = of_cluster(ctx, id);
    let n = findings_count(lang, found.len());
    let len = found.len().to_string();
    let title = |id: &'static str, n: &str, key: &str| {
        format!(
            " {} ",
            crate::i18n::text(lang, id, &[("n", n.into()), ("key", key.into())])
        )
    };
    let titles = match ctx.key_on(Layer::Global, Action::ScreenFindings) {
        Some(key) => vec![
            title("fd-panel-title-fleet", &n, &key),
            title("fd-panel-title-all", &n, &key),
            title("fd-panel-title", &len, ""),
        ],
        None => vec![
            title("fd-panel-title", &n, ""),
            title("fd-panel-title", &len, ""),
        ],
    };
    let inner = panel(ctx, titles, false, area, buf);
    if found.is_empty() {
        panel_line(
            buf,
            inner,
            0,
            &Line::styled(crate::t!(lang, "fd-panel-none"), t.style(Slot::Ok)),
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
        let label = format!("{} ", short_label_in(lang, f.severity));
        let rule = format!("{} ", f.rule.name());
        // The summary from its first word on, or not at all: a cut inside its first word
        // (a long kind name) reads as a word that is not there. Chinese parts between
        // any two characters.
        let summary = one_line(&f.summary_in(lang));
        let room = cells.saturating_sub(label.width() + rule.width());
        let first_word = summary.split(' ').next().map_or(0, |w| {
            if w.chars().any(|c| c.width().unwrap_or(0) > 1) {
                2
            } else {
                w.width()
            }
        });
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
        let more = crate::t!(lang, "fd-panel-more", n = (found.len() - shown).to_string());
        panel_line(
            buf,
            inner,
            shown as u16,
            &Line::styled(fit(&more, cells), t.style(Slot::Muted)),
        );
    }
}
