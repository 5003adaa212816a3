//! Drawing the whole console into a buffer: header, the current screen, the footer and
//! any overlay. Pure over `&App`, so tests, screenshots and benches draw exactly what the
//! terminal shows.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Borders;

use super::action::Action;
use super::app::{App, MIN_SIZE, Overlay};
use super::canvas;
use super::keymap::Context;
use super::nav::{CapacityScope, Route};
use super::theme::Slot;
use super::{dialog_view, handover, header, help, screens};
use unicode_width::UnicodeWidthStr;

/// Most rows the footer grows to for a long message (a refusal is read whole).
const FOOTER_ROWS: u16 = 3;

/// The header, the pause banner (when shown, wrapped), the body and the footer (as many
/// rows as its message needs, up to [`FOOTER_ROWS`]).
fn regions(app: &App, area: Rect) -> [Rect; 4] {
    let banner = paused_banner(app).map_or(0, |text| {
        canvas::wrapped_height(&[Line::from(text)], area.width).min(2)
    });
    let footer = app
        .message
        .as_ref()
        .filter(|_| app.filter_input.is_none())
        .map_or(1, |m| {
            canvas::wrapped_height(&[Line::from(m.as_str())], area.width).clamp(1, FOOTER_ROWS)
        });
    Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(banner),
        Constraint::Min(1),
        Constraint::Length(footer),
    ])
    .areas(area)
}

/// Where overlays (dialogs, help, the handover) are drawn at the app's terminal size.
pub fn overlay_area(app: &App) -> Rect {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    regions(app, area)[2]
}

/// Draws the console into `buf` over `area`.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.config.theme;
    buf.set_style(area, theme.style(Slot::Text));
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return too_small(app, area, buf);
    }
    let [head, banner, body, foot] = regions(app, area);
    header::draw(app, head, buf);
    if let Some(text) = paused_banner(app) {
        // Everywhere, on every screen: nothing new starts while this shows.
        buf.set_style(banner, theme.style(Slot::Paused));
        canvas::wrapped(
            buf,
            banner,
            &[Line::styled(text, theme.style(Slot::Paused))],
            theme.style(Slot::Paused),
        );
    }
    let accent = accent_of(app);
    let border = match accent {
        Some(colour) => Style::new().fg(colour),
        None => theme.style(Slot::Border),
    };
    let title = Line::from(Span::styled(
        crumbs_title(app, usize::from(body.width.saturating_sub(2))),
        theme.style(Slot::Title),
    ));
    let inner = canvas::panel(buf, body, Borders::ALL, border, Some(&title));
    if let Some(screen) = app.screen() {
        screen.draw(inner, buf, &app.screen_context());
    }
    footer(app, foot, buf);
    match &app.overlay {
        Some(Overlay::Help { scroll }) => help::draw(app, *scroll, body, buf),
        Some(Overlay::Palette(state)) => {
            let ctx = app.screen_context();
            screens::palette_view::draw(state, &app.candidates, &ctx, body, buf);
        }
        Some(Overlay::Dialog(dialog)) => dialog_view::draw(app, dialog, body, buf),
        Some(Overlay::Handover) => handover::draw(app, &app.handover, body, buf),
        Some(Overlay::PdbPods(state)) => {
            screens::pdb_pods::draw(state, &app.screen_context(), body, buf);
        }
        None => {}
    }
}

/// The crumbs on the body's border (` ledger › cluster X › node Y `) in `room` cells: the
/// first crumbs give way to `…` first, the current place stays whole.
fn crumbs_title(app: &App, room: usize) -> String {
    let lang = app.config.lang;
    let crumbs: Vec<String> = app.nav.crumbs().iter().map(|r| r.crumb(lang)).collect();
    for skip in 0..crumbs.len() {
        let shown = &crumbs[skip..];
        let text = if skip == 0 {
            format!(" {} ", shown.join(" › "))
        } else {
            format!(" … › {} ", shown.join(" › "))
        };
        if text.width() <= room {
            return text;
        }
    }
    let last = crumbs.last().map_or("", String::as_str);
    format!(" {} ", super::format::fit(last, room.saturating_sub(2)))
}

/// The global-pause banner's text, when all automation is paused.
fn paused_banner(app: &App) -> Option<String> {
    let p = app
        .activity
        .journal
        .projection
        .pauses
        .get(&crate::model::run::PauseScope::Fleet)?;
    // A read-only console cannot resume, so it offers no key for it. The key comes before
    // the reason: on a narrow terminal the reason is what gets cut, not how to resume.
    let lang = app.config.lang;
    let key = app
        .key_hint(Action::PauseAll, &crate::t!(lang, "banner-resumes"))
        .filter(|_| app.offers(Action::PauseAll))
        .map(|hint| format!(" · {hint}"))
        .unwrap_or_default();
    Some(format!(
        " {}",
        crate::t!(
            lang,
            "banner-all-paused",
            by = p.by.to_string(),
            since = p.since.strftime("%H:%M UTC").to_string(),
            ago = crate::model::duration::age(app.now, p.since),
            key = key,
            reason = p.reason.as_str()
        )
    ))
}

/// The environment accent of the cluster being looked at, so production looks different.
fn accent_of(app: &App) -> Option<ratatui::style::Color> {
    let id = match app.nav.current() {
        Route::Cluster(id) | Route::Node(id, _) => id,
        Route::Capacity(CapacityScope::Cluster(id) | CapacityScope::Domain(id, _)) => id,
        _ => return None,
    };
    app.ledger
        .cluster(id)
        .map(|c| app.config.theme.accent(&c.env))
}

fn too_small(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.config.theme;
    let lang = app.config.lang;
    let text = vec![
        Line::styled(crate::t!(lang, "too-small"), theme.style(Slot::Warn)),
        Line::from(crate::t!(
            lang,
            "too-small-size",
            width = area.width,
            height = area.height,
            min_width = MIN_SIZE.0,
            min_height = MIN_SIZE.1
        )),
        Line::styled(crate::t!(lang, "too-small-quit"), theme.style(Slot::Muted)),
    ];
    let lines = canvas::wrap_all(&text, area.width);
    let top = area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, line) in lines.iter().enumerate() {
        let w = u16::try_from(line.width()).unwrap_or(area.width);
        let x = area.x + area.width.saturating_sub(w) / 2;
        canvas::line(buf, x, area.y + top + i as u16, area.width, line);
    }
}

/// The message ids of the footer hints' short names.
fn hint_label(action: Action) -> Option<&'static str> {
    Some(match action {
        Action::Open => "hint-open",
        Action::Filter => "hint-filter",
        Action::Palette => "hint-palette",
        Action::SortNext => "hint-sort",
        Action::SortReverse => "hint-reverse",
        Action::GitOpsSync => "hint-gitops-sync",
        Action::GroupRegion => "hint-by-region",
        Action::Mark => "hint-mark",
        Action::ClusterCapacity => "hint-capacity",
        Action::WhatIfLose => "hint-what-if",
        Action::WhatIfBatch => "hint-batch-what-if",
        Action::WhatIfCluster => "hint-lose-cluster",
        Action::WhatIfClear => "hint-clear-what-if",
        Action::Back => "hint-back",
        Action::FocusNext => "hint-panel",
        Action::Approve => "hint-approve",
        Action::PauseRun => "hint-pause-run",
        Action::PauseCluster => "hint-freeze-cluster",
        Action::AbortRun => "hint-abort",
        Action::HandOff => "hint-hand-off",
        Action::TakeOver => "hint-take-over",
        Action::ReturnItem => "hint-return",
        Action::StartMaintenance => "hint-maintain",
        Action::Follow => "hint-follow",
        Action::PauseAll => "hint-pause-all",
        Action::Handover => "hint-handover",
        Action::Help => "hint-help",
        Action::Quit => "hint-quit",
        _ => return None,
    })
}

fn footer(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.config.theme;
    let lang = app.config.lang;
    if let Some(text) = &app.filter_input {
        // What is typed keeps the row: the end of a long filter is where the cursor is.
        let room = usize::from(area.width).saturating_sub(2);
        let typed: String = if text.width() > room {
            let mut tail: Vec<char> = Vec::new();
            let mut used = 0;
            for c in text.chars().rev() {
                used += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                if used > room {
                    break;
                }
                tail.push(c);
            }
            tail.into_iter().rev().collect()
        } else {
            text.clone()
        };
        let help = [
            format!("   {}", crate::t!(lang, "filter-help-long")),
            format!("   {}", crate::t!(lang, "filter-help")),
            String::new(),
        ]
        .into_iter()
        .find(|h| typed.width() + 2 + h.width() <= usize::from(area.width))
        .unwrap_or_default();
        let line = Line::from(vec![
            Span::styled("/", theme.style(Slot::Title)),
            Span::raw(typed),
            Span::styled("█", theme.style(Slot::Muted)),
            Span::styled(help, theme.style(Slot::Muted)),
        ]);
        canvas::line(buf, area.x, area.y, area.width, &line);
        return;
    }
    if let Some(message) = &app.message {
        canvas::wrapped(
            buf,
            area,
            &[Line::styled(message.clone(), theme.style(Slot::Warn))],
            theme.style(Slot::Warn),
        );
        return;
    }
    let ctx = app.context();
    let actions: &[Action] = match ctx {
        Context::Ledger => &[
            Action::Open,
            Action::Filter,
            Action::Palette,
            Action::SortNext,
            Action::GroupRegion,
            Action::Mark,
            Action::ClusterCapacity,
            Action::Help,
            Action::Quit,
        ],
        Context::Cluster => &[
            Action::Back,
            Action::Open,
            Action::Filter,
            Action::Mark,
            Action::WhatIfLose,
            Action::WhatIfBatch,
            Action::WhatIfCluster,
            Action::ClusterCapacity,
            Action::StartMaintenance,
            Action::FocusNext,
            Action::Help,
        ],
        Context::Rollouts => &[
            Action::Approve,
            Action::PauseRun,
            Action::AbortRun,
            Action::PauseAll,
            Action::Handover,
            Action::Palette,
            Action::Help,
        ],
        Context::Maintenance => &[
            Action::HandOff,
            Action::TakeOver,
            Action::ReturnItem,
            Action::PauseRun,
            Action::PauseCluster,
            Action::AbortRun,
            Action::PauseAll,
            Action::Handover,
            Action::Help,
        ],
        Context::Timeline => &[
            Action::Open,
            Action::Filter,
            Action::Follow,
            Action::Handover,
            Action::Palette,
            Action::Help,
        ],
        Context::Findings => &[
            Action::Open,
            Action::Filter,
            Action::SortNext,
            Action::SortReverse,
            Action::GitOpsSync,
            Action::Palette,
            Action::Help,
        ],
        Context::Node => &[
            Action::Back,
            Action::WhatIfLose,
            Action::WhatIfBatch,
            Action::StartMaintenance,
            Action::ClusterCapacity,
            Action::Palette,
            Action::Help,
        ],
        _ => &[
            Action::Open,
            Action::Back,
            Action::WhatIfLose,
            Action::WhatIfCluster,
            Action::WhatIfClear,
            Action::Filter,
            Action::Palette,
            Action::Help,
        ],
    };
    let mut hints: Vec<(Action, [Span<'static>; 2])> = Vec::new();
    for action in actions {
        if !app.offers(*action) {
            continue;
        }
        if let Some(key) = app.config.keymap.key_for(ctx, *action) {
            hints.push((
                *action,
                [
                    Span::styled(format!("<{key}>"), theme.style(Slot::Title)),
                    Span::styled(
                        format!(
                            " {}  ",
                            match action {
                                Action::PauseRun => Some(super::operator::pause_run_hint(app)),
                                Action::PauseAll => Some(super::operator::pause_all_hint(app)),
                                other => hint_label(*other),
                            }
                            .map(|id| crate::i18n::text(lang, id, &[]))
                            .unwrap_or_default()
                        ),
                        theme.style(Slot::Muted),
                    ),
                ],
            ));
        }
    }
    // A filter in effect is said at the end; on a narrow terminal the last hints go
    // first to make room, but never help's: it says where all the others are.
    let filter = app
        .current_filter()
        .filter(|f| !f.is_empty())
        .map(|f| crate::t!(lang, "filter-shown", text = f.text.as_str()));
    let width = |hints: &[(Action, [Span; 2])]| -> usize {
        hints
            .iter()
            .flat_map(|(_, spans)| spans)
            .map(|s| s.content.width())
            .sum()
    };
    let reserve = filter.as_ref().map_or(0, |f| f.width().min(24));
    while width(&hints) + reserve > usize::from(area.width) {
        let Some(last) = hints.iter().rposition(|(a, _)| *a != Action::Help) else {
            break;
        };
        hints.remove(last);
    }
    let used = width(&hints);
    let mut spans: Vec<Span> = hints.into_iter().flat_map(|(_, spans)| spans).collect();
    if let Some(filter) = filter {
        let room = usize::from(area.width).saturating_sub(used);
        if room >= 8 {
            spans.push(Span::styled(
                super::format::fit(&filter, room),
                theme.style(Slot::Warn),
            ));
        }
    }
    canvas::line(buf, area.x, area.y, area.width, &Line::from(spans));
}

/// A centred rectangle of at most `w`×`h` inside `area`.
pub fn centred(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Clears `area` and draws a bordered overlay block, returning its inside.
pub fn overlay_block(
    theme: &super::theme::Theme,
    area: Rect,
    title: &str,
    buf: &mut Buffer,
) -> Rect {
    canvas::clear(buf, area);
    buf.set_style(area, theme.style(Slot::Text));
    let room = usize::from(area.width.saturating_sub(2));
    let title = Line::from(Span::styled(
        format!(" {} ", super::format::fit(title, room.saturating_sub(2))),
        theme.style(Slot::Title),
    ));
    canvas::panel(
        buf,
        area,
        Borders::ALL,
        theme.style(Slot::Title),
        Some(&title),
    )
}

/// Renders the console at `width`×`height` into a fresh buffer (tests, screenshots, bench).
pub fn render_to_buffer(app: &App, width: u16, height: u16) -> Buffer {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    draw(app, area, &mut buf);
    buf
}
