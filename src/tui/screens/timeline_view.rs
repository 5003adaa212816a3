//! Draws the timeline: journal events oldest first with the newest at the bottom, the
//! live-tail state, and the selected event in full when opened.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::table::scroll_offset;
use super::timeline::TimelineState;
use super::timeline::{problems, selected_pos, visible};
use crate::i18n::Lang;
use crate::model::run::{Event, describe, describe_msg};
use crate::tui::action::Action;
use crate::tui::canvas;
use crate::tui::component::Context;
use crate::tui::format::{fit, fit_middle, one_line, pad};
use crate::tui::theme::Slot;
use crate::tui::view::{centred, overlay_block};

fn kind_slot(kind: &str) -> Slot {
    if kind.starts_with("operator.") {
        Slot::Paused
    } else if kind.starts_with("guard.") || kind == "rollout.halted" {
        Slot::Critical
    } else {
        Slot::Text
    }
}

/// Draws the screen into `area`.
pub fn draw(state: &TimelineState, ctx: &Context, area: Rect, buf: &mut Buffer) {
    let t = &ctx.config.theme;
    let lang = ctx.config.lang;
    let events = &ctx.activity.journal.events;
    let shown = visible(state, events, ctx.now);
    // The feed leaves out the engine's raw observations: sequence numbers have gaps.
    let muted = t.style(Slot::Muted);
    let tail = match (state.follow, ctx.key_hint(Action::Follow, "")) {
        (true, Some(key)) => crate::t!(lang, "tl-live-tail-key", key = key),
        (true, None) => crate::t!(lang, "tl-live-tail"),
        (false, Some(key)) => crate::t!(lang, "tl-paused-tail-key", key = key),
        (false, None) => crate::t!(lang, "tl-paused-tail"),
    };
    let tail = format!(" · {tail}");
    let mut parts = vec![
        (
            9,
            Span::styled(
                crate::t!(
                    lang,
                    "tl-events-of",
                    shown = shown.len().to_string(),
                    total = events.len().to_string()
                ),
                muted,
            ),
        ),
        (
            3,
            // The space before it is the message's: Chinese brackets need none.
            Span::styled(crate::t!(lang, "tl-not-listed"), muted),
        ),
    ];
    // Terms the filter cannot read are said (and not applied), right after the count.
    let problems = problems(&state.filter.text, ctx.now, lang);
    if !problems.is_empty() {
        parts.push((
            8,
            Span::styled(
                format!(
                    " · {}",
                    crate::t!(lang, "tl-not-applied", problems = problems.join(" · "))
                ),
                t.style(Slot::Warn),
            ),
        ));
    }
    parts.push((7, Span::styled(tail, muted)));
    if !state.filter.is_empty() {
        parts.push((
            6,
            Span::styled(
                format!(
                    " · {}",
                    crate::t!(lang, "tl-filter", filter = &state.filter.text)
                ),
                muted,
            ),
        ));
    }
    let summary = canvas::fit_parts(parts, usize::from(area.width));
    canvas::line(buf, area.x, area.y, area.width, &summary);
    if area.height < 3 {
        return;
    }
    if shown.is_empty() && !events.is_empty() {
        canvas::wrapped(
            buf,
            Rect::new(
                area.x + 2,
                area.y + 2,
                area.width.saturating_sub(2),
                area.height - 2,
            ),
            &[Line::styled(no_match(ctx), muted)],
            muted,
        );
    }
    // What happened is the point of a row: on a narrow terminal the other columns give
    // way (KIND goes, since WHAT says it in words) rather than squeezing WHAT to nothing.
    let (actor_w, kind_w, cluster_w) = if area.width >= 120 {
        (22, 18, 16)
    } else {
        (12, 0, 12)
    };
    let kind_head = if kind_w > 0 {
        format!("{} ", pad(&crate::t!(lang, "tl-col-kind"), kind_w))
    } else {
        String::new()
    };
    let cols = format!(
        "  {} {} {} {kind_head}{} {}",
        pad(&crate::t!(lang, "tl-col-seq"), 6),
        pad(&crate::t!(lang, "tl-col-time"), 8),
        pad(&crate::t!(lang, "tl-col-actor"), actor_w),
        pad(&crate::t!(lang, "tl-col-cluster"), cluster_w),
        crate::t!(lang, "tl-col-what")
    );
    canvas::text(buf, area.x, area.y + 1, area.width, &cols, muted);
    let height = usize::from(area.height - 2);
    let pos = selected_pos(state, &shown);
    let offset = scroll_offset(pos, shown.len(), height);
    // What happened takes the rest of the row, cut after a whole word (`enter` shows
    // the event in full).
    let what_w = usize::from(area.width)
        .saturating_sub(2 + 7 + 9 + actor_w + 1 + kind_w + usize::from(kind_w > 0) + cluster_w + 1);
    for (n, e) in shown.iter().skip(offset).take(height).enumerate() {
        let y = area.y + 2 + n as u16;
        let is_sel = offset + n == pos;
        let kind = e.event.body.to_parts().0;
        let line = Line::from(vec![
            Span::styled(
                format!(
                    "{}{:<6} {:<8} {:<actor_w$} ",
                    if is_sel { "▶ " } else { "  " },
                    e.seq.0,
                    e.event.time.strftime("%H:%M:%S"),
                    fit(e.event.actor.as_str(), actor_w)
                ),
                t.style(Slot::Text),
            ),
            Span::styled(
                if kind_w > 0 {
                    format!("{:<kind_w$} ", fit(&kind, kind_w))
                } else {
                    String::new()
                },
                t.style(kind_slot(&kind)),
            ),
            Span::styled(
                format!(
                    "{:<cluster_w$} ",
                    // Cut in the middle: cluster ids differ at their ends.
                    fit_middle(
                        e.event.cluster.as_ref().map_or("-", |c| c.as_str()),
                        cluster_w
                    )
                ),
                t.style(Slot::Muted),
            ),
            Span::styled(
                fit(&one_line(&described(lang, e)), what_w),
                t.style(kind_slot(&kind)),
            ),
        ]);
        if is_sel {
            buf.set_style(
                Rect::new(area.x, y, area.width, 1),
                t.style(Slot::Selection),
            );
        }
        canvas::line(buf, area.x, y, area.width, &line);
    }
    if let Some(seq) = state.detail
        && let Some(e) = events.iter().find(|e| e.seq.0 == seq)
    {
        detail(ctx, e, area, buf);
    }
}

/// What the event says, in the reader's language (in English, `describe`'s own text).
fn described(lang: Lang, e: &Event) -> String {
    match lang {
        Lang::En => describe(e),
        _ => describe_msg(e).text(lang),
    }
}

/// What an empty, filtered list says, naming the key that clears the filter.
fn no_match(ctx: &Context) -> String {
    let lang = ctx.config.lang;
    match ctx.key_hint(Action::Back, &crate::t!(lang, "tl-key-clears")) {
        Some(hint) => crate::t!(lang, "tl-no-match-key", hint = hint),
        None => crate::t!(lang, "tl-no-match"),
    }
}

/// The event in full, over the list.
fn detail(ctx: &Context, e: &Event, area: Rect, buf: &mut Buffer) {
    let lang = ctx.config.lang;
    let rect = centred(area, 100, area.height.saturating_sub(2).max(8));
    let inner = overlay_block(
        &ctx.config.theme,
        rect,
        &crate::t!(lang, "tl-detail-title", seq = e.seq.0.to_string()),
        buf,
    );
    let ev = &e.event;
    let (kind, payload) = ev.body.to_parts();
    let dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    // A field's name padded to one width, its value after it.
    let field = |id: &'static str, value: String| {
        Line::raw(format!(
            "{}{value}",
            pad(&crate::i18n::text(lang, id, &[]), 9)
        ))
    };
    let mut lines = vec![
        field(
            "tl-field-time",
            ev.time.strftime("%Y-%m-%d %H:%M:%S UTC").to_string(),
        ),
        field("tl-field-actor", ev.actor.to_string()),
        field("tl-field-kind", kind.clone()),
        field("tl-field-run", dash(ev.run.as_ref().map(|r| r.0.clone()))),
        field("tl-field-item", dash(ev.item.as_ref().map(|r| r.0.clone()))),
        field("tl-field-step", dash(ev.step.as_ref().map(|r| r.0.clone()))),
        field(
            "tl-field-cluster",
            dash(ev.cluster.as_ref().map(|r| r.to_string())),
        ),
        field("tl-field-key", ev.key.to_string()),
        field("tl-field-token", dash(e.token.map(|t| t.0.to_string()))),
        Line::raw(""),
    ];
    // The event in full: a multi-line note keeps its line breaks.
    let title = ctx.config.theme.style(Slot::Title);
    lines.extend(
        described(lang, e)
            .lines()
            .map(|l| Line::styled(l.to_owned(), title)),
    );
    lines.push(Line::raw(""));
    let pretty = serde_json::to_string_pretty(&payload).unwrap_or_else(|_| payload.to_string());
    lines.extend(pretty.lines().map(|l| Line::raw(l.to_owned())));
    canvas::wrapped_values(buf, inner, &lines, ctx.config.theme.style(Slot::Muted));
}
