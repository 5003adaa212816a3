//! The capacity screen's side panels: the GPU shape of a cluster and a what-if's result
//! with the pods that would not fit.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::capacity::{ClusterLossView, WhatIfView};
use super::capacity_view::{DIMS, amount, boxed, dim_name};
use crate::model::capacity::pods_msg;
use crate::tui::action::Action;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::{bar, fit_middle};
use crate::tui::theme::Slot;
use unicode_width::UnicodeWidthStr;

pub(super) fn gpu_panel(
    ctx: &Context,
    report: &crate::model::capacity::ClusterReport,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let inner = boxed(ctx, &[crate::t!(lang, "cap-gpu-shape")], area, buf);
    let g = &report.gpu;
    let mut lines = vec![Line::raw(format!(
        " {}",
        crate::t!(
            lang,
            "cap-gpu-free-of",
            free = g.free_gpus.to_string(),
            total = g.total_gpus.to_string(),
            gang = g.largest_gang.to_string()
        )
    ))];
    let slots: Vec<String> = g
        .slots
        .iter()
        .map(|s| format!("{}×{}", s.slots, s.size))
        .collect();
    lines.push(Line::raw(format!(
        " {}",
        crate::t!(
            lang,
            "cap-gpu-slots",
            slots = if slots.is_empty() {
                "-".into()
            } else {
                slots.join("  ")
            }
        )
    )));
    lines.push(Line::styled(
        format!(" {}", crate::t!(lang, "cap-gpu-per-domain")),
        t.style(Slot::Title),
    ));
    if g.domains.is_empty() {
        lines.push(Line::styled(
            format!("  {}", crate::t!(lang, "cap-gpu-no-domains")),
            t.style(Slot::Muted),
        ));
    }
    let labels: Vec<String> = g
        .domains
        .iter()
        .map(|d| format!("{}={}", d.key.rsplit('/').next().unwrap_or(&d.key), d.value))
        .collect();
    // The figures whole, then the label in what is left (cut in its middle).
    let figures: Vec<String> = g
        .domains
        .iter()
        .map(|d| format!(" {}/{} · {}", d.free_gpus, d.total_gpus, d.whole_free_nodes))
        .collect();
    let figures_w = figures.iter().map(|f| f.width()).max().unwrap_or(0);
    let label_room = usize::from(inner.width).saturating_sub(figures_w + 8);
    for ((d, label), figures) in g
        .domains
        .iter()
        .zip(domain_cells(&labels, label_room))
        .zip(figures)
    {
        lines.push(Line::from(vec![
            Span::styled(label, Style::new()),
            Span::styled(bar(d.free_gpus, d.total_gpus, 8), t.style(Slot::Ok)),
            Span::raw(figures),
        ]));
    }
    let lines = canvas::wrap_all(&lines, inner.width);
    canvas::rows(buf, inner, &lines, t.style(Slot::Muted));
}

/// The domain labels as cells of one width, at most `room` with their margins, cut in the
/// middle rather than at the end, since two NVLink cliques or zones often differ only in
/// their last characters.
fn domain_cells(labels: &[String], room: usize) -> Vec<String> {
    let longest = labels.iter().map(|l| l.width()).max().unwrap_or(0);
    let cells = longest.min(room.saturating_sub(4).max(6));
    labels
        .iter()
        .map(|label| format!("  {:<cells$}  ", fit_middle(label, cells)))
        .collect()
}

/// Rows the what-if panel wants: its title, the counts, the drain's budgets, the headroom
/// line (two when a narrow screen wraps it) and the pods that would not fit, at most 10.
pub(super) fn what_if_height(w: &WhatIfView, width: u16, most: u16) -> u16 {
    let headroom = if width < 120 { 2 } else { 1 };
    let rows = 2 + usize::from(!w.blocking.is_empty()) + headroom + w.report.unplaced.len();
    u16::try_from(rows).unwrap_or(u16::MAX).min(most)
}

/// `lines` cut to `rows`, the last one saying how many were left out (and where to read
/// them all), so a panel never drops lines silently.
pub(super) fn cut_with_more(
    mut lines: Vec<Line<'static>>,
    rows: usize,
    width: u16,
    whole: &str,
    lang: crate::i18n::Lang,
    style: Style,
) -> Vec<Line<'static>> {
    if lines.len() > rows && rows > 0 {
        let left = lines.len() - (rows - 1);
        lines.truncate(rows - 1);
        let width = usize::from(width);
        let text = canvas::first_fitting(
            vec![
                format!(
                    "  {}",
                    crate::t!(lang, "cap-more-where", n = left.to_string(), whole = whole)
                ),
                format!("  {}", crate::t!(lang, "cap-more", n = left.to_string())),
            ],
            width,
        );
        lines.push(Line::styled(text, style));
    }
    lines
}

pub(super) fn what_if_panel(ctx: &Context, w: &WhatIfView, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let r = &w.report;
    let clear = ctx
        .key_hint(Action::WhatIfClear, &crate::t!(lang, "cap-key-clears"))
        .map(|hint| format!(" · {hint}"))
        .unwrap_or_default();
    let scenario = crate::t!(lang, "cap-what-if-of", scenario = r.scenario.msg());
    let inner = boxed(
        ctx,
        &[
            format!("{scenario}{clear}"),
            scenario,
            crate::t!(lang, "cap-what-if"),
        ],
        area,
        buf,
    );
    let unplaced = r.unplaced_pods();
    let mut lines = vec![Line::from(vec![
        Span::raw(format!(
            " {} · ",
            crate::t!(
                lang,
                "cap-what-if-counts",
                nodes = crate::i18n::counted(lang, "count-nodes", i64::from(r.lost_nodes)),
                pods = pods_msg(i64::from(r.displaced_pods)),
                placed = r.placed_pods.to_string()
            )
        )),
        Span::styled(
            crate::t!(lang, "cap-would-not-fit", n = unplaced.to_string()),
            if unplaced > 0 {
                t.style(Slot::Critical)
            } else {
                t.style(Slot::Ok)
            },
        ),
        Span::styled(
            match r.staying_pods {
                0 => String::new(),
                n => format!(" · {}", crate::t!(lang, "cap-staying", n = n.to_string())),
            },
            t.style(Slot::Muted),
        ),
    ])];
    if !w.blocking.is_empty() {
        let budgets: Vec<String> = w
            .blocking
            .iter()
            .map(|b| {
                crate::t!(
                    lang,
                    "cap-blocking-pdb",
                    namespace = b.namespace.to_string(),
                    name = b.name.to_string(),
                    pods = pods_msg(i64::from(b.pods)),
                    healthy = b.current_healthy.to_string(),
                    needs = b.desired_healthy.to_string()
                )
            })
            .collect();
        lines.push(Line::styled(
            format!(
                " {}",
                crate::t!(lang, "cap-drain-would-wait", budgets = budgets.join(", "))
            ),
            t.style(Slot::Warn),
        ));
    }
    let mut heads = vec![Span::raw(format!(" {} ", crate::t!(lang, "cap-headroom")))];
    for d in &DIMS {
        let (before, after) = (w.baseline.get(d), r.headroom.get(d));
        heads.push(Span::styled(
            format!("{} ", dim_name(lang, d)),
            t.style(Slot::Title),
        ));
        heads.push(Span::styled(
            format!(
                "{} → {}   ",
                amount(lang, d, before),
                amount(lang, d, after)
            ),
            if after < 0 {
                t.style(Slot::Critical)
            } else {
                Style::new()
            },
        ));
    }
    lines.push(Line::from(heads));
    for g in &r.unplaced {
        lines.push(Line::styled(
            format!(
                "  {} {}/{}: {} — {}",
                g.owner.kind,
                g.namespace,
                g.owner.name,
                pods_msg(i64::from(g.pods)).text(lang),
                g.reason.msg().text(lang)
            ),
            t.style(Slot::Critical),
        ));
    }
    // The headroom line wraps on a narrow screen rather than losing its last dimensions.
    let lines = cut_with_more(
        canvas::wrap_all(&lines, inner.width),
        usize::from(inner.height),
        inner.width,
        &crate::t!(lang, "cap-taller-shows"),
        lang,
        t.style(Slot::Muted),
    );
    canvas::rows(buf, inner, &lines, t.style(Slot::Muted));
}

/// Rows the cluster-loss panel wants: its title, headline and lines, at most 12.
pub(super) fn cluster_loss_height(v: &ClusterLossView, most: u16) -> u16 {
    let lines = v.loss.lines().len().max(1) + 3;
    u16::try_from(lines).unwrap_or(u16::MAX).min(most)
}

/// A whole cluster lost: what its siblings would take, or their room when its pods are
/// unknown.
pub(super) fn cluster_loss_panel(ctx: &Context, v: &ClusterLossView, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let clear = ctx
        .key_hint(Action::WhatIfClear, &crate::t!(lang, "cap-key-clears"))
        .map(|hint| format!(" · {hint}"))
        .unwrap_or_default();
    let lose = crate::t!(lang, "cap-lose-whole", cluster = &v.cluster);
    let inner = boxed(
        ctx,
        &[
            format!(
                "{lose} · {}{clear}",
                crate::t!(lang, "cap-siblings", chosen = &v.chosen_by)
            ),
            format!("{lose}{clear}"),
            lose,
        ],
        area,
        buf,
    );
    let stuck = v.loss.absorbed.as_ref().map(|r| r.unplaced_pods());
    let headline_style = match stuck {
        None => t.style(Slot::Unknown),
        Some(0) => t.style(Slot::Ok),
        Some(_) => t.style(Slot::Critical),
    };
    let mut lines = vec![Line::styled(
        format!(" {}", v.loss.headline_msg().text(lang)),
        headline_style,
    )];
    let said = v.loss.lines();
    if v.loss.room_now.is_empty() && v.loss.not_counted.is_empty() {
        lines.push(Line::styled(
            format!("  {}", crate::t!(lang, "cap-no-sibling")),
            t.style(Slot::Warn),
        ));
    }
    for l in said {
        let style = if l.trouble {
            t.style(Slot::Critical)
        } else {
            Style::new()
        };
        lines.push(Line::styled(format!("  {}", l.msg.text(lang)), style));
    }
    let whole = crate::t!(lang, "cap-cli-has-all", cluster = &v.cluster);
    let lines = cut_with_more(
        canvas::wrap_all(&lines, inner.width),
        usize::from(inner.height),
        inner.width,
        &whole,
        lang,
        t.style(Slot::Muted),
    );
    canvas::rows(buf, inner, &lines, t.style(Slot::Muted));
}

#[cfg(test)]
mod tests {
    use super::{cut_with_more, domain_cells};
    use crate::i18n::Lang;
    use ratatui::style::Style;
    use ratatui::text::Line;

    #[test]
    fn a_cut_panel_says_how_many_lines_it_left_out() {
        let lines: Vec<Line> = (1..=5).map(|i| Line::raw(format!("line {i}"))).collect();
        let cut = cut_with_more(
            lines.clone(),
            3,
            40,
            "the CLI has all",
            Lang::En,
            Style::new(),
        );
        let text: Vec<String> = cut.iter().map(|l| l.to_string()).collect();
        assert_eq!(text, ["line 1", "line 2", "  … 3 more (the CLI has all)"]);
        assert_eq!(
            cut_with_more(lines, 5, 40, "x", Lang::En, Style::new()).len(),
            5
        );
    }

    #[test]
    fn long_domain_labels_keep_the_end_that_tells_them_apart() {
        let labels = [
            "gpu.clique=7612ab34-cd56-ef78-9012-3456789a.1".to_string(),
            "gpu.clique=7612ab34-cd56-ef78-9012-3456789a.2".to_string(),
        ];
        let cells = domain_cells(&labels, 30);
        assert_ne!(cells[0], cells[1], "{cells:?}");
        assert!(cells[0].trim_end().ends_with(".1"), "{cells:?}");
        assert_eq!(cells[0].chars().count(), cells[1].chars().count());
        // Short labels are not padded past their own length.
        let short = domain_cells(&["zone=a".to_string()], 160);
        assert_eq!(short, ["  zone=a  "]);
    }
}
