//! Draws the rollouts screen: the runs on the left; for the selected one its batches as a
//! timeline with progress, a grid of its clusters coloured by where each stands, the
//! gates, and which version/hardware combinations have been covered so far.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Borders;

use super::rollouts::RolloutsState;
use super::rollouts::{CellState, cell, gates, phase_text, progress, runs, selected_in, stage_of};
use crate::model::duration::age;
use crate::model::run::RunView;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::{bar, fit, fit_middle};
use crate::tui::theme::Slot;
use unicode_width::UnicodeWidthStr;

/// The slot a cluster cell is drawn in. Unknown is never green.
pub fn cell_slot(state: CellState) -> Slot {
    match state {
        CellState::Pending => Slot::Muted,
        CellState::Staged | CellState::Applied => Slot::Warn,
        CellState::Verified => Slot::Ok,
        CellState::Failed => Slot::Critical,
        CellState::Unknown => Slot::Unknown,
    }
}

/// Cells of a run list line besides the id: the selection mark (2), a space and the
/// longest status word (`awaiting-approval`).
const RUN_LIST_EXTRA: usize = 20;

/// Draws the screen into `area`.
pub fn draw(state: &RolloutsState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let projection = &ctx.activity.journal.projection;
    let all = runs(projection);
    if all.is_empty() {
        let text = if ctx.activity.connected {
            crate::t!(lang, "rollouts-none")
        } else {
            crate::t!(lang, "rollouts-no-journal")
        };
        canvas::wrapped(
            buf,
            area,
            &[Line::styled(text, t.style(Slot::Muted))],
            t.style(Slot::Muted),
        );
        return;
    }
    // Ids end in a number that tells runs of one rollout file apart: the list is as wide
    // as the longest id needs (up to a third of the screen) rather than cutting them. On a
    // narrow screen the list goes on top, a few rows high, and the run gets the width.
    let longest = all.iter().map(|r| r.id.as_str().width()).max().unwrap_or(0);
    let stacked = area.width < 100;
    let (list, body, list_w) = if stacked {
        let rows = u16::try_from(all.len() + 1).unwrap_or(u16::MAX).min(4);
        let [list, body] =
            Layout::vertical([Constraint::Length(rows), Constraint::Min(3)]).areas(area);
        (list, body, usize::from(area.width))
    } else {
        let list_w = (longest + RUN_LIST_EXTRA).clamp(34, usize::from(area.width / 3).max(34));
        let [list, body] = Layout::horizontal([
            Constraint::Length(u16::try_from(list_w).unwrap_or(34)),
            Constraint::Min(20),
        ])
        .areas(area);
        (list, body, list_w)
    };
    let id_cells = list_w.saturating_sub(RUN_LIST_EXTRA).min(longest.max(8));
    let current = selected_in(state, &all);
    // The list scrolls so that the selected run (the one the keys act on) stays in view.
    let rows = usize::from(list.height.saturating_sub(1)).max(1);
    let selected_at = current
        .and_then(|c| all.iter().position(|run| run.id == c.id))
        .unwrap_or(0);
    let first = (selected_at + 1).saturating_sub(rows);
    let heading = if all.len() > rows {
        crate::t!(
            lang,
            "rollouts-list-heading-more",
            n = all.len().to_string()
        )
    } else {
        crate::t!(lang, "rollouts-list-heading")
    };
    let mut lines = vec![Line::styled(heading, t.style(Slot::Muted))];
    for run in all.iter().skip(first).take(rows) {
        let is_sel = current.is_some_and(|c| c.id == run.id);
        let status = projection.effective_status(run);
        let style = if is_sel {
            t.style(Slot::Selection)
        } else {
            t.style(Slot::Text)
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!(
                    "{}{}",
                    if is_sel { "▶ " } else { "  " },
                    fit_middle(run.id.as_str(), id_cells)
                ),
                style,
            ),
            Span::styled(format!(" {}", status.word()), t.style(run_slot(&status))),
        ]));
    }
    canvas::rows(buf, list, &lines, t.style(Slot::Muted));
    let borders = if stacked { Borders::TOP } else { Borders::LEFT };
    let inner = canvas::panel(buf, body, borders, t.style(Slot::Border), None);
    if let Some(run) = current {
        detail(ctx, run, inner, buf);
    }
}

fn run_slot(status: &crate::model::run::RunStatus) -> Slot {
    use crate::model::run::RunStatus;
    match status {
        RunStatus::Halted { .. } => Slot::Critical,
        RunStatus::Paused | RunStatus::AwaitingApproval => Slot::Paused,
        RunStatus::Succeeded => Slot::Ok,
        RunStatus::Aborted => Slot::Muted,
        _ => Slot::Warn,
    }
}

fn detail(ctx: &Context, run: &RunView, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let projection = &ctx.activity.journal.projection;
    // The file and the plan are read only when the run or the journal changes (see
    // `App::refresh_rollout_plan`), never per frame.
    let selected = ctx
        .selected_rollout
        .as_ref()
        .filter(|selected| selected.run == run.id);
    let spec = selected.and_then(|s| s.spec.clone());
    let plan = selected.and_then(|s| s.plan.clone());
    let status = projection.effective_status(run);
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{} ", run.id), t.style(Slot::Title)),
        Span::raw(format!("{} · ", run.title)),
        Span::styled(
            super::rollouts::status_in(run, &status, lang),
            t.style(run_slot(&status)),
        ),
        Span::styled(
            format!(
                " · {}",
                crate::t!(
                    lang,
                    "rollouts-started-by",
                    by = run.created_by.to_string(),
                    ago = age(ctx.now, run.created_at)
                )
            ),
            t.style(Slot::Muted),
        ),
    ])];
    for p in projection.pauses_for(run) {
        lines.push(Line::styled(
            crate::t!(
                lang,
                "rollouts-paused-by",
                scope = crate::tui::dialog_text::scope(lang, &p.scope),
                by = p.by.to_string(),
                reason = &p.reason
            ),
            t.style(Slot::Paused),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        crate::t!(lang, "rollouts-batches"),
        t.style(Slot::Title),
    ));
    for (i, batch) in run.batches.iter().enumerate() {
        let (done, total) = progress(run, i);
        let stage = stage_of(plan.as_deref(), i)
            .map(|s| format!("{s} "))
            .unwrap_or_default();
        let mut phase = phase_text(run, i, ctx.now, lang);
        // Under way but held by a pause: what is in flight finishes, nothing new starts.
        if projection.batch_held(run, i) {
            phase.push_str(lang.word_gap());
            phase.push_str(&crate::t!(lang, "rollouts-batch-paused"));
        }
        let slot = match run.rollout.batches.get(&i) {
            Some(crate::model::rollout::BatchPhase::AwaitingApproval) => Slot::Paused,
            Some(crate::model::rollout::BatchPhase::Halted { .. }) => Slot::Critical,
            Some(crate::model::rollout::BatchPhase::Done) => Slot::Ok,
            None | Some(crate::model::rollout::BatchPhase::Pending) => Slot::Muted,
            _ => Slot::Warn,
        };
        lines.push(Line::from(vec![
            Span::raw(format!("  {:>2} {:<10}", i + 1, fit(&stage, 10))),
            Span::styled(bar(done as i64, total.max(1) as i64, 12), t.style(slot)),
            Span::raw(format!(" {done}/{total} ")),
            Span::styled(phase, t.style(slot)),
            Span::styled(
                format!(
                    "  {}",
                    fit(
                        &batch
                            .iter()
                            .map(|c| c.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        60
                    )
                ),
                t.style(Slot::Muted),
            ),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(
            format!("{}  ", crate::t!(lang, "rollouts-clusters")),
            t.style(Slot::Title),
        ),
        legend(ctx, CellState::Pending),
        legend(ctx, CellState::Staged),
        legend(ctx, CellState::Applied),
        legend(ctx, CellState::Verified),
        legend(ctx, CellState::Failed),
        legend(ctx, CellState::Unknown),
        Span::styled(
            format!(
                "!\u{a0}{}",
                crate::t!(lang, "rollouts-halted-on").replace(' ', "\u{a0}")
            ),
            t.style(Slot::Critical),
        ),
    ]));
    let cell_w = 20usize;
    let per_row = (usize::from(area.width).saturating_sub(2) / cell_w).max(1);
    // A cluster the halt names is drawn as the reason, whatever its own checks said (a
    // burn rate trips on a cluster that verified).
    let halted_on = super::rollouts::halted_on(run);
    for chunk in run.order.chunks(per_row) {
        let spans: Vec<Span> = chunk
            .iter()
            .map(|c| {
                let state = cell(run.items.get(c));
                let (glyph, slot) = if halted_on.contains(&c.as_str()) {
                    ('!', Slot::Critical)
                } else {
                    (state.glyph(), cell_slot(state))
                };
                Span::styled(
                    format!(
                        "{glyph} {:<w$}",
                        fit(c.as_str(), cell_w - 3),
                        w = cell_w - 2
                    ),
                    t.style(slot),
                )
            })
            .collect();
        let mut all = vec![Span::raw("  ")];
        all.extend(spans);
        lines.push(Line::from(all));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        crate::t!(lang, "rollouts-gates"),
        t.style(Slot::Title),
    ));
    if let Some(gates) = &ctx.config.rollout_gates {
        lines.push(Line::styled(format!("  {gates}"), t.style(Slot::Muted)));
    }
    for (alarm, text) in gates(run, spec.as_deref(), lang) {
        lines.push(Line::styled(
            format!("  {text}"),
            t.style(if alarm { Slot::Critical } else { Slot::Text }),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        crate::t!(lang, "rollouts-coverage"),
        t.style(Slot::Title),
    ));
    match &plan {
        Some(plan) => {
            let reached = selected.map_or(&[][..], |s| &s.reached[..]);
            for combination in reached {
                lines.push(Line::raw(format!("  ✓ {combination}")));
            }
            lines.push(Line::styled(
                format!(
                    "  {}",
                    crate::t!(
                        lang,
                        "rollouts-coverage-so-far",
                        reached = reached.len().to_string(),
                        total = plan.combinations.to_string()
                    )
                ),
                t.style(Slot::Muted),
            ));
        }
        None => lines.push(Line::styled(
            format!("  {}", crate::t!(lang, "rollouts-coverage-not-shown")),
            t.style(Slot::Muted),
        )),
    }
    canvas::wrapped(buf, area, &lines, t.style(Slot::Muted));
}

/// One entry of the grid's legend; its mark and word never part when the line wraps.
fn legend(ctx: &Context, state: CellState) -> Span<'static> {
    Span::styled(
        format!(
            "{}\u{a0}{}  ",
            state.glyph(),
            crate::i18n::text(ctx.config.lang, state.message(), &[])
        ),
        ctx.config.theme.style(cell_slot(state)),
    )
}
