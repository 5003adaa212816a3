//! The cluster drill-down's bottom panels beside its findings: the PDBs that would block
//! a drain, and the cluster's recent journal events.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::cluster_view::{panel, panel_line};
use super::table::scroll_offset;
use crate::i18n::counted;
use crate::t;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::fit;
use crate::tui::theme::Slot;

/// The PDBs panel. Without fresh data (`usable` false) the last seen blockers are still
/// listed, as the banner says, but none seen is not "none": that would read as safe to
/// drain.
pub(super) fn draw_pdbs(
    ctx: &Context,
    focused: bool,
    facts: &crate::tui::fleet_data::ClusterFacts,
    usable: bool,
    selected: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    // None seen without fresh data is not zero.
    let count = if usable || !facts.blocking_pdbs.is_empty() {
        facts.blocking_pdbs.len().to_string()
    } else {
        "?".into()
    };
    // `enter` lists a focused budget's pods and their nodes.
    let open = ctx
        .key_on(
            crate::tui::keymap::Context::Cluster,
            crate::tui::action::Action::Open,
        )
        .filter(|_| focused && !facts.blocking_pdbs.is_empty());
    let mut titles = Vec::new();
    if let Some(key) = open {
        titles.push(t!(lang, "fleet-pdbs-title-open", count = &count, key = key));
    }
    titles.extend([
        t!(lang, "fleet-pdbs-title", count = &count),
        t!(lang, "fleet-pdbs-title-medium", count = &count),
        t!(lang, "fleet-pdbs-title-short", count = &count),
    ]);
    let titles = titles
        .into_iter()
        .map(|title| format!(" {title} "))
        .collect();
    let inner = panel(ctx, titles, focused, area, buf);
    if facts.blocking_pdbs.is_empty() {
        let (text, slot) = if usable {
            (t!(lang, "fleet-pdbs-none"), Slot::Ok)
        } else {
            (t!(lang, "fleet-pdbs-unknown"), Slot::Unknown)
        };
        panel_line(buf, inner, 0, &Line::styled(text, t.style(slot)));
        return;
    }
    let height = usize::from(inner.height);
    let offset = scroll_offset(selected, facts.blocking_pdbs.len(), height);
    for (n, b) in facts
        .blocking_pdbs
        .iter()
        .skip(offset)
        .take(height)
        .enumerate()
    {
        let pdb = &facts.view.pdbs[b.pdb];
        // The numbers before the pods: on a narrow panel they are what is kept.
        let name = format!("{}/{}", pdb.namespace, pdb.name);
        let (has, needs) = (pdb.current_healthy, pdb.desired_healthy);
        let on = t!(
            lang,
            "fleet-pdb-on",
            pods = counted(lang, "fleet-count-pods", i64::from(b.pods)),
            nodes = counted(lang, "count-nodes", i64::from(b.nodes))
        );
        let (has, needs) = (has.to_string(), needs.to_string());
        let text = canvas::first_fitting(
            vec![
                t!(
                    lang,
                    "fleet-pdb-line-long",
                    name = &name,
                    has = &has,
                    needs = &needs,
                    on = on
                ),
                t!(
                    lang,
                    "fleet-pdb-line",
                    name = &name,
                    has = &has,
                    needs = &needs
                ),
                t!(
                    lang,
                    "fleet-pdb-line-short",
                    name = &name,
                    has = &has,
                    needs = &needs
                ),
                name.clone(),
            ],
            usize::from(inner.width.saturating_sub(2)),
        );
        // Below its minimum, a budget blocks until pods recover elsewhere: worse than
        // one that is merely spent.
        let style = if focused && offset + n == selected {
            t.style(Slot::Selection)
        } else if pdb.current_healthy < pdb.desired_healthy {
            t.style(Slot::Critical)
        } else {
            t.style(Slot::Warn)
        };
        panel_line(buf, inner, n as u16, &Line::styled(text, style));
    }
}

pub(super) fn draw_events(ctx: &Context, id: &str, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let inner = panel(
        ctx,
        vec![
            format!(" {} ", t!(lang, "fleet-events-title")),
            format!(" {} ", t!(lang, "fleet-events-title-short")),
        ],
        false,
        area,
        buf,
    );
    if !ctx.activity.connected {
        let text = t!(lang, "fleet-events-no-journal");
        panel_line(buf, inner, 0, &Line::styled(text, t.style(Slot::Unknown)));
        return;
    }
    let events: Vec<_> = ctx
        .activity
        .recent
        .iter()
        .rev()
        .filter(|e| e.cluster.as_deref() == Some(id))
        .take(usize::from(inner.height))
        .collect();
    if events.is_empty() {
        let text = t!(lang, "fleet-events-none");
        panel_line(buf, inner, 0, &Line::styled(text, t.style(Slot::Muted)));
    }
    let cells = usize::from(inner.width.saturating_sub(2));
    for (n, e) in events.iter().enumerate() {
        // What happened before who did it: a narrow panel leaves out who, then cuts what
        // happened after a whole word.
        let time = format!("{} ", e.at.strftime("%H:%M:%S"));
        let what = crate::tui::format::one_line(&e.text.text(lang));
        let who = format!(" · {}", e.actor);
        let room = cells.saturating_sub(time.len());
        let (what, who) =
            if unicode_width::UnicodeWidthStr::width(format!("{what}{who}").as_str()) <= room {
                (what, who)
            } else {
                (fit(&what, room), String::new())
            };
        let line = Line::from(vec![
            Span::styled(time, t.style(Slot::Muted)),
            Span::raw(what),
            Span::styled(who, t.style(Slot::Mark)),
        ]);
        panel_line(buf, inner, n as u16, &line);
    }
}
