//! Draws the maintenance screen: one swimlane per run with the steps as columns and each
//! node as a card in the column of the step it stands at; stuck cards stand out with their
//! age; below, the selected card in full with its grouped reasons and its owner.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Borders;

use super::maintenance::MaintenanceState;
use super::maintenance::{COLUMNS, column, current_status, item, lanes, reasons, selected};
use crate::model::duration::age;
use crate::model::run::{ItemId, ItemView, RunView, StepStatus};
use crate::tui::action::Action;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::{fit, pad};
use crate::tui::keymap::Context as Layer;
use crate::tui::theme::{Slot, Theme};
use unicode_width::UnicodeWidthStr;

const NAME: usize = 24;

/// The slot a step status is drawn in: stuck and failed stand out, a person's step is
/// paused-looking, running is plain.
pub fn step_slot(status: &StepStatus) -> Slot {
    match status {
        StepStatus::Blocked { .. } | StepStatus::Failed { .. } => Slot::Critical,
        StepStatus::HandedOff { .. } => Slot::Paused,
        StepStatus::Succeeded | StepStatus::Skipped => Slot::Ok,
        StepStatus::Running => Slot::Warn,
        StepStatus::Pending => Slot::Muted,
    }
}

fn card_text(ctx: &Context, status: &StepStatus, since: jiff::Timestamp) -> String {
    let (age, lang) = (age(ctx.now, since), ctx.config.lang);
    match status {
        StepStatus::Blocked { .. } => crate::t!(lang, "attn-stuck", age = age),
        StepStatus::HandedOff { to, .. } => format!("→{to} {age}"),
        StepStatus::Failed { .. } => format!("{} {age}", crate::t!(lang, "attn-failed")),
        StepStatus::Running => crate::t!(lang, "maint-card-running", age = age),
        other => other.word().to_string(),
    }
}

/// Draws the screen into `area`.
pub fn draw(state: &MaintenanceState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let projection = &ctx.activity.journal.projection;
    let runs = lanes(projection);
    if runs.is_empty() {
        let text = if ctx.activity.connected {
            let cluster = Layer::Cluster;
            let how = match (
                ctx.key_on(cluster, Action::Mark),
                ctx.key_on(cluster, Action::StartMaintenance),
            ) {
                // A read-only console starts nothing: no key to offer.
                (Some(mark), Some(start)) if !ctx.config.readonly => {
                    format!(
                        "{}{}",
                        lang.word_gap(),
                        crate::t!(
                            lang,
                            "maint-how",
                            mark = mark.to_string(),
                            start = start.to_string()
                        )
                    )
                }
                _ => String::new(),
            };
            format!("{}{how}", crate::t!(lang, "maint-none"))
        } else {
            crate::t!(lang, "maint-no-journal")
        };
        canvas::wrapped(
            buf,
            area,
            &[Line::styled(text, t.style(Slot::Muted))],
            t.style(Slot::Muted),
        );
        return;
    }
    let detail_h = if area.height >= 20 {
        10
    } else {
        area.height / 2
    };
    let [lanes_area, detail_area] =
        Layout::vertical([Constraint::Min(4), Constraint::Length(detail_h)]).areas(area);
    let sel = selected(state, projection);
    let width = usize::from(lanes_area.width);
    // The step grid when its columns can hold `STUCK 25m`; on a narrower screen each
    // card says its step and status in words.
    let grid = width >= NAME + 1 + COLUMNS.len() * 10;
    let col_w = (width.saturating_sub(NAME + 1) / COLUMNS.len()).max(6);
    let headers: Vec<Vec<Line>> = runs
        .iter()
        .map(|run| lane_header(ctx, run, width))
        .collect();
    // Where the selected card's line is, so only the visible window of lines is built:
    // a lane is its header lines, the column heads, one line per node and a blank line.
    let mut selected_line = 0;
    let mut n = 0;
    for (run, head) in runs.iter().zip(&headers) {
        if let Some((r, i)) = &sel
            && *r == run.id
            && let Some(pos) = run.order.iter().position(|x| x == i)
        {
            selected_line = n + head.len() + 1 + pos;
        }
        n += run.order.len() + head.len() + 2;
    }
    let total = n;
    let visible = usize::from(lanes_area.height);
    let offset = selected_line.saturating_sub(visible.saturating_sub(2));
    let shown = offset..offset + visible;
    let mut lines: Vec<Line> = Vec::new();
    let mut n = 0;
    for (run, head) in runs.iter().zip(headers) {
        let h = head.len();
        for (k, line) in head.into_iter().enumerate() {
            if shown.contains(&(n + k)) {
                lines.push(line);
            }
        }
        if shown.contains(&(n + h)) {
            let line = if grid {
                let node = crate::t!(lang, "maint-col-node");
                let mut text = format!("  {}", pad(&node, NAME - 2));
                for step in COLUMNS {
                    text.push_str(&format!(
                        "{:<col_w$}",
                        fit(&step_head(step, col_w - 1), col_w - 1)
                    ));
                }
                text
            } else {
                format!(
                    "  {}{}",
                    pad(&crate::t!(lang, "maint-col-node"), name_cells(width) + 1),
                    crate::t!(lang, "maint-col-step-status")
                )
            };
            lines.push(Line::styled(line, t.style(Slot::Muted)));
        }
        for (k, item_id) in run.order.iter().enumerate() {
            if !shown.contains(&(n + h + 1 + k)) {
                continue;
            }
            let is_sel = sel
                .as_ref()
                .is_some_and(|(r, i)| *r == run.id && i == item_id);
            let view = run.items.get(item_id);
            lines.push(if grid {
                card_line(ctx, item_id, view, is_sel, col_w)
            } else {
                card_words(ctx, item_id, view, is_sel, width)
            });
        }
        if shown.contains(&(n + h + 1 + run.order.len())) {
            lines.push(Line::raw(""));
        }
        n += run.order.len() + h + 2;
        if n >= shown.end {
            break;
        }
    }
    // Lanes below the window are counted on its last row.
    if total > shown.end && lines.len() >= visible && visible > 1 {
        lines.truncate(visible - 1);
        lines.push(Line::styled(
            canvas::more_text(total - (shown.end - 1), width),
            t.style(Slot::Muted),
        ));
    }
    canvas::rows(buf, lanes_area, &lines, t.style(Slot::Muted));
    detail(ctx, sel, detail_area, buf);
}

/// Cells for a node's name in the narrow form of a lane.
fn name_cells(width: usize) -> usize {
    (width / 2).clamp(8, NAME)
}

/// A card on a narrow screen: the node, then its step and status in words.
fn card_words(
    ctx: &Context,
    item_id: &ItemId,
    view: Option<&ItemView>,
    is_sel: bool,
    width: usize,
) -> Line<'static> {
    let t = &ctx.config.theme;
    let name_w = name_cells(width);
    let name = Span::styled(
        format!(
            "{}{:<w$} ",
            if is_sel { "▶ " } else { "  " },
            fit(item_id.as_str(), name_w),
            w = name_w
        ),
        if is_sel {
            t.style(Slot::Selection)
        } else {
            t.style(Slot::Text)
        },
    );
    let room = width.saturating_sub(name_w + 3);
    let (text, style) = match view.and_then(|v| v.current_step().map(|(step, s)| (v, step, s))) {
        Some((v, _, _)) if column(v) == Some(COLUMNS.len() - 1) => {
            ("✓ done".to_owned(), t.style(Slot::Ok))
        }
        Some((v, step, s)) => {
            let mark = if retrying(v, &s.status).is_some() {
                " !"
            } else {
                ""
            };
            (
                format!("{step} {}{mark}", card_text(ctx, &s.status, s.since)),
                t.style(step_slot(&s.status)).add_modifier(Modifier::BOLD),
            )
        }
        None => ("pending".to_owned(), t.style(Slot::Muted)),
    };
    Line::from(vec![name, Span::styled(fit(&text, room), style)])
}

/// One node's line: its name, then a cell per step column.
fn card_line(
    ctx: &Context,
    item_id: &ItemId,
    view: Option<&ItemView>,
    is_sel: bool,
    col_w: usize,
) -> Line<'static> {
    let t = &ctx.config.theme;
    let at = view.and_then(column);
    let mut spans = vec![Span::styled(
        format!(
            "{}{:<w$}",
            if is_sel { "▶ " } else { "  " },
            fit(item_id.as_str(), NAME - 3),
            w = NAME - 2
        ),
        if is_sel {
            t.style(Slot::Selection)
        } else {
            t.style(Slot::Text)
        },
    )];
    for (c, _) in COLUMNS.iter().enumerate() {
        let cell = match (at, view) {
            (Some(a), Some(v)) if a == c => {
                let step = v.current_step().map(|(_, view)| view);
                match step {
                    Some(_) if c == COLUMNS.len() - 1 => {
                        Span::styled(format!("{:<col_w$}", "✓ done"), t.style(Slot::Ok))
                    }
                    // A step still trying while its last call was refused is marked:
                    // the detail says by what.
                    Some(s) if retrying(v, &s.status).is_some() => Span::styled(
                        pad(
                            &fit(
                                &format!("{} !", card_text(ctx, &s.status, s.since)),
                                col_w - 1,
                            ),
                            col_w,
                        ),
                        t.style(Slot::Warn).add_modifier(Modifier::BOLD),
                    ),
                    Some(s) => Span::styled(
                        pad(&fit(&card_text(ctx, &s.status, s.since), col_w - 1), col_w),
                        t.style(step_slot(&s.status)).add_modifier(Modifier::BOLD),
                    ),
                    None => Span::raw(format!("{:<col_w$}", "")),
                }
            }
            (Some(a), _) if c < a => Span::styled(format!("{:<col_w$}", "✓"), t.style(Slot::Muted)),
            (None, _) if c == 0 => Span::styled(
                format!("{:<col_w$}", fit("pending", col_w - 1)),
                t.style(Slot::Muted),
            ),
            _ => Span::styled(format!("{:<col_w$}", "·"), t.style(Slot::Muted)),
        };
        spans.push(cell);
    }
    Line::from(spans)
}

/// A step's column head in `cells`: its name, or a short form that still tells the two
/// Verify steps apart (cut to `Veri…` they would read alike).
fn step_head(step: crate::model::maintenance::Step, cells: usize) -> String {
    use crate::model::maintenance::Step;
    let name = step.to_string();
    if name.len() <= cells {
        return name;
    }
    match step {
        Step::Precheck => "Check",
        Step::Cordon => "Cordn",
        Step::Drain => "Drain",
        Step::Maintain => "Maint",
        Step::VerifyNode => "VNode",
        Step::VerifyWorkloads => "VWork",
        Step::Uncordon => "Uncrd",
        Step::Done => "Done",
    }
    .to_string()
}

/// A lane's header: its run, status, stuck count, title and who started it on one line
/// (what needs a person kept longest on a narrow screen), then each pause holding it on
/// lines of its own, whole.
fn lane_header(ctx: &Context, run: &RunView, width: usize) -> Vec<Line<'static>> {
    let t = &ctx.config.theme;
    let projection = &ctx.activity.journal.projection;
    let status = projection.effective_status(run);
    let status_slot = match &status {
        crate::model::run::RunStatus::Halted { .. } => Slot::Critical,
        crate::model::run::RunStatus::Paused => Slot::Paused,
        crate::model::run::RunStatus::Succeeded => Slot::Ok,
        crate::model::run::RunStatus::Aborted => Slot::Muted,
        _ => Slot::Warn,
    };
    let stuck = run
        .items
        .values()
        .filter_map(current_status)
        .filter(|s| matches!(s, StepStatus::Blocked { .. }))
        .count();
    let mut parts = vec![
        (
            9,
            Span::styled(format!("▌{} ", run.id), t.style(Slot::Title)),
        ),
        (
            9,
            Span::styled(status.word().to_uppercase(), t.style(status_slot)),
        ),
    ];
    if stuck > 0 {
        parts.push((
            8,
            Span::styled(
                format!(
                    " · {}",
                    crate::t!(ctx.config.lang, "maint-stuck-count", n = stuck.to_string())
                ),
                t.style(Slot::Critical),
            ),
        ));
    }
    parts.push((5, Span::raw(format!(" · {}", run.title))));
    parts.push((
        3,
        Span::styled(
            format!(
                " · {}",
                crate::t!(
                    ctx.config.lang,
                    "maint-lane-by",
                    nodes = crate::i18n::counted(
                        ctx.config.lang,
                        "count-nodes",
                        run.order.len() as i64
                    ),
                    by = run.created_by.to_string(),
                    ago = age(ctx.now, run.created_at)
                )
            ),
            t.style(Slot::Muted),
        ),
    ));
    let mut lines = vec![canvas::fit_parts(parts, width)];
    for p in projection.pauses_for(run) {
        let pause = Line::styled(
            format!(
                "  {}",
                crate::t!(
                    ctx.config.lang,
                    "maint-paused-by",
                    scope = crate::tui::dialog_text::scope(ctx.config.lang, &p.scope),
                    by = p.by.to_string(),
                    reason = &p.reason
                )
            ),
            t.style(Slot::Paused),
        );
        lines.extend(canvas::wrap(&pause, width));
    }
    lines
}

fn detail(
    ctx: &Context,
    sel: Option<(crate::model::run::RunId, crate::model::run::ItemId)>,
    area: Rect,
    buf: &mut Buffer,
) {
    let t: &Theme = &ctx.config.theme;
    let lang = ctx.config.lang;
    let title = Line::styled(
        format!(" {} ", crate::t!(lang, "maint-selected-node")),
        t.style(Slot::Title),
    );
    let inner = canvas::panel(buf, area, Borders::TOP, t.style(Slot::Border), Some(&title));
    let projection = &ctx.activity.journal.projection;
    let Some((run, item_id)) = sel else { return };
    let Some(view) = item(projection, &run, &item_id) else {
        return;
    };
    let mut lines = Vec::new();
    let step = view
        .current
        .as_ref()
        .map_or("-".to_string(), |s| s.to_string());
    let head = match view.current_step().map(|(_, step)| step) {
        Some(s) => vec![
            Span::styled(format!("{item_id} "), t.style(Slot::Title)),
            Span::raw(format!(
                "{}{}",
                crate::t!(
                    lang,
                    "maint-in-step",
                    run = run.to_string(),
                    step = step.to_string()
                ),
                lang.word_gap()
            )),
            Span::styled(view.status_word(&s.status), t.style(step_slot(&s.status))),
            Span::raw(format!(
                " {}",
                crate::t!(
                    lang,
                    "maint-for",
                    age = age(ctx.now, s.since),
                    by = s.by.to_string()
                )
            )),
        ],
        None => vec![
            Span::styled(format!("{item_id} "), t.style(Slot::Title)),
            Span::raw(crate::t!(lang, "maint-not-started", run = run.to_string())),
        ],
    };
    lines.push(Line::from(head));
    if let Some(call) = view
        .current_step()
        .and_then(|(_, s)| retrying(view, &s.status))
    {
        lines.push(Line::styled(
            crate::t!(
                lang,
                "maint-last-try",
                ago = age(ctx.now, call.at),
                why = call.why.to_string()
            ),
            t.style(Slot::Warn),
        ));
    }
    // What a running step waits for (a PDB that would refuse, capacity, a cluster that
    // may not be changed), before it is overdue.
    if let Some(waiting) = view
        .waiting
        .as_ref()
        .filter(|_| current_status(view) == Some(&StepStatus::Running))
    {
        lines.push(Line::styled(
            crate::t!(
                lang,
                "maint-waits",
                age = age(ctx.now, waiting.since),
                why = waiting.why.to_string()
            ),
            t.style(Slot::Warn),
        ));
    }
    // The keys a person has here, as the keymap binds them; none in read-only mode.
    let keys = |hints: &[(Action, String)]| -> Option<String> {
        if ctx.config.readonly {
            return None;
        }
        let said: Vec<String> = hints
            .iter()
            .filter_map(|(action, does)| {
                ctx.key_on(Layer::Maintenance, *action)
                    .map(|key| format!("{key} {does}"))
            })
            .collect();
        (!said.is_empty()).then(|| said.join(" · "))
    };
    match current_status(view) {
        Some(StepStatus::Blocked { reason }) => {
            lines.push(Line::styled(
                crate::t!(lang, "maint-stuck-because"),
                t.style(Slot::Critical),
            ));
            for r in reasons(reason) {
                lines.push(Line::raw(format!("  • {r}")));
            }
            if let Some(keys) = keys(&[
                (Action::HandOff, crate::t!(lang, "maint-hands-off")),
                (Action::TakeOver, crate::t!(lang, "maint-takes-over")),
            ]) {
                lines.push(Line::styled(
                    format!("{keys} · {}", crate::t!(lang, "maint-nothing-forced")),
                    t.style(Slot::Muted),
                ));
            }
        }
        Some(StepStatus::HandedOff { to, note }) => {
            let since = view
                .handoff
                .as_ref()
                .map(|h| {
                    format!(
                        "{}{}",
                        lang.word_gap(),
                        crate::t!(
                            lang,
                            "maint-owner-since",
                            by = h.by.to_string(),
                            ago = age(ctx.now, h.since)
                        )
                    )
                })
                .unwrap_or_default();
            lines.push(Line::styled(
                crate::t!(lang, "maint-owner", to = to.to_string(), since = since),
                t.style(Slot::Paused),
            ));
            // A multi-line note keeps its line breaks, indented under the first line.
            let space = lang.word_gap();
            let first = format!("{}{space}", crate::t!(lang, "maint-note"));
            let rest = " ".repeat(first.width());
            for (i, part) in note.lines().enumerate() {
                let lead = if i == 0 { &first } else { &rest };
                lines.push(Line::raw(format!("{lead}{part}")));
            }
            if let Some(keys) = keys(&[(Action::ReturnItem, crate::t!(lang, "maint-returns"))]) {
                lines.push(Line::styled(keys, t.style(Slot::Muted)));
            }
        }
        Some(StepStatus::Failed { error }) => {
            lines.push(Line::styled(
                crate::t!(lang, "maint-failed", error = error.to_string()),
                t.style(Slot::Critical),
            ));
        }
        _ => {}
    }
    if !view.open_intents.is_empty() {
        lines.push(Line::styled(
            crate::t!(
                lang,
                "maint-open-intents",
                n = view.open_intents.len().to_string()
            ),
            t.style(Slot::Warn),
        ));
    }
    canvas::wrapped(buf, inner, &lines, t.style(Slot::Muted));
}

/// The call the item's running step last had refused, while the step keeps trying.
fn retrying<'v>(
    view: &'v crate::model::run::ItemView,
    status: &StepStatus,
) -> Option<&'v crate::model::run::FailedCall> {
    view.last_failed_call
        .as_ref()
        .filter(|call| *status == StepStatus::Running && call.step == view.current)
}
