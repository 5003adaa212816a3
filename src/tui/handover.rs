//! `H`: the shift handover walkthrough. Built with the same pure function as
//! `fleetdeck handover` from the journal, the live statuses and the ledger; stepped
//! through item by item; each item can be acknowledged with a note (journaled).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::app::App;
use super::canvas;
use super::format::{fit, one_line};
use super::theme::Slot;
use super::view::{centred, overlay_block};
use crate::model::handover::{HandoverInput, HandoverItem, cluster_health, handover};

/// How far back the console's walkthrough looks by default: one shift
/// (`:handover 12h` looks further).
pub const SHIFT: std::time::Duration = std::time::Duration::from_secs(8 * 3600);
/// Exceptions expiring within this many days are listed.
pub const EXPIRING_DAYS: i64 = 14;

/// The walkthrough's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HandoverState {
    /// The item shown.
    pub index: usize,
    /// The items, rebuilt whenever the journal or the fleet changes.
    pub items: Vec<HandoverItem>,
    /// How far back it looks (the shift's length); `SHIFT` when unset.
    pub shift: Option<std::time::Duration>,
}

/// The handover items for the console's current view of the world.
pub fn build(app: &App) -> Vec<HandoverItem> {
    let clusters = cluster_health(&app.snapshot);
    let shift = app.handover.shift.unwrap_or(SHIFT);
    let since = jiff::SignedDuration::try_from(shift)
        .ok()
        .and_then(|d| app.now.checked_sub(d).ok())
        .unwrap_or(app.now);
    let input = HandoverInput {
        projection: &app.activity.journal.projection,
        events: &app.activity.journal.events,
        clusters: Some(&clusters),
        ledger: Some(&app.ledger),
        since,
        now: app.now,
        expiring_within_days: EXPIRING_DAYS,
    };
    handover(&input)
}

/// Draws the walkthrough over `area`.
pub fn draw(app: &App, state: &HandoverState, area: Rect, buf: &mut Buffer) {
    let t = &app.config.theme;
    let rect = centred(
        area,
        area.width.saturating_sub(4).min(140),
        area.height.saturating_sub(2),
    );
    let shift = crate::model::duration::format_duration(state.shift.unwrap_or(SHIFT));
    let item = if state.items.is_empty() {
        0
    } else {
        state.index + 1
    };
    let of = state.items.len();
    // A read-only console offers no key that writes (an acknowledgement is journaled).
    let ack = if app.config.readonly {
        ""
    } else {
        " · a acknowledge"
    };
    let title = canvas::first_fitting(
        vec![
            format!(
                "shift handover, last {shift} · item {item} of {of} · ←/→ step{ack} · esc closes"
            ),
            format!("handover, last {shift} · {item} of {of} · ←/→{ack} · esc"),
            format!("handover · {item} of {of}"),
        ],
        usize::from(rect.width.saturating_sub(4)),
    );
    let inner = overlay_block(app, rect, &title, buf);
    let muted = t.style(Slot::Muted);
    if state.items.is_empty() && !app.activity.connected {
        // Unknown is not "nothing": without the journal, pauses, approvals and stuck
        // steps cannot be seen at all.
        canvas::wrapped(
            buf,
            inner,
            &[
                Line::styled(
                    "Journal not connected: nothing can be handed over from it.",
                    t.style(Slot::Unknown),
                ),
                Line::raw(
                    "Pauses, batches awaiting approval, stuck or handed-off steps and notes are read from the journal; check the log and the journal file.",
                ),
            ],
            muted,
        );
        return;
    }
    if state.items.is_empty() {
        canvas::wrapped(
            buf,
            inner,
            &[
                Line::styled("Nothing to hand over.", t.style(Slot::Ok)),
                Line::raw(format!(
                    "No pause, no batch awaiting approval, no stuck or handed-off step, no halted rollout, no Unreachable / IdentityMismatch / UNKNOWN cluster, none with nodes down or a budget below its minimum, no exception expiring within 14 days, no note in the last {shift}."
                )),
            ],
            muted,
        );
        return;
    }
    // The list takes a third of a narrow overlay, at most 44 cells.
    let list_w = (inner.width / 3).clamp(16, 44);
    let [list, body] =
        Layout::horizontal([Constraint::Length(list_w), Constraint::Min(10)]).areas(inner);
    let mut lines = Vec::new();
    let mut section = None;
    for (i, item) in state.items.iter().enumerate() {
        if section != Some(item.section) {
            section = Some(item.section);
            lines.push(Line::styled(
                fit(
                    &item.section.short_heading().to_uppercase(),
                    usize::from(list_w).saturating_sub(1),
                ),
                t.style(Slot::Title),
            ));
        }
        let mark = if item.acks.is_empty() { " " } else { "✓" };
        let style = if i == state.index {
            t.style(Slot::Selection)
        } else {
            t.style(Slot::Text)
        };
        lines.push(Line::styled(
            format!(
                "{mark} {}",
                fit(
                    &one_line(&item.title),
                    usize::from(list_w).saturating_sub(4)
                )
            ),
            style,
        ));
    }
    let selected_line = lines
        .iter()
        .position(|l| l.style == t.style(Slot::Selection))
        .unwrap_or(0);
    let offset = selected_line.saturating_sub(usize::from(list.height).saturating_sub(2));
    let shown: Vec<Line> = lines.into_iter().skip(offset).collect();
    canvas::rows(buf, list, &shown, muted);
    let Some(item) = state.items.get(state.index) else {
        return;
    };
    let mut text = vec![
        Line::styled(item.section.heading(), t.style(Slot::Muted)),
        Line::styled(one_line(&item.title), t.style(Slot::Title)),
        Line::raw(""),
    ];
    for d in &item.details {
        text.push(Line::raw(format!("  {}", one_line(d))));
    }
    text.push(Line::raw(""));
    if item.acks.is_empty() {
        text.push(Line::styled(
            if app.config.readonly {
                "not acknowledged this shift"
            } else {
                "not acknowledged this shift · a acknowledges with a note (journaled)"
            },
            t.style(Slot::Warn),
        ));
    }
    for a in &item.acks {
        text.push(Line::from(vec![
            Span::styled("acknowledged ", t.style(Slot::Ok)),
            Span::raw(format!(
                "by {} at {}: {}",
                a.by,
                a.at.strftime("%H:%M UTC"),
                one_line(&a.note)
            )),
        ]));
    }
    let [_, body] = Layout::horizontal([Constraint::Length(1), Constraint::Min(1)]).areas(body);
    canvas::wrapped(buf, body, &text, muted);
}
