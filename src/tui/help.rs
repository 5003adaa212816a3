//! `?`: the keys of the active keymap, generated from it, so help never disagrees with
//! what the keys do.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::app::App;
use super::canvas;
use super::keymap::Context;
use super::theme::Slot;
use super::view::{centred, overlay_block};
use crate::i18n::Lang;
use unicode_width::UnicodeWidthStr;

/// Cells before a key's description: two of margin and the key's column.
const KEY_CELLS: usize = 14;

/// `text` cut into lines of at most `width` cells: at spaces, and between two wide (CJK)
/// characters, which Chinese writes without spaces (a word longer than that keeps its
/// own line). A wide character is never split.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for (atom, spaced) in atoms(text) {
        let gap = usize::from(spaced && !line.is_empty());
        if !line.is_empty() && line.width() + gap + atom.width() > width {
            out.push(std::mem::take(&mut line));
        }
        if spaced && !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&atom);
    }
    out.push(line);
    out
}

/// The pieces a line may break between, each with whether a space comes before it: a
/// run of narrow characters, or one wide character.
fn atoms(text: &str) -> Vec<(String, bool)> {
    use unicode_width::UnicodeWidthChar;
    let mut out: Vec<(String, bool)> = Vec::new();
    for word in text.split_whitespace() {
        let mut spaced = true;
        let mut run = String::new();
        for c in word.chars() {
            if c.width() == Some(2) {
                if !run.is_empty() {
                    out.push((std::mem::take(&mut run), spaced));
                    spaced = false;
                }
                out.push((c.to_string(), spaced));
                spaced = false;
            } else {
                run.push(c);
            }
        }
        if !run.is_empty() {
            out.push((run, spaced));
        }
    }
    out
}

/// A binding's description in `lang`: the catalogue's when the binding says what the
/// built-in keymap says (`key-CONTEXT-ACTION`), else its own words as written.
pub(super) fn description(lang: Lang, ctx: Context, action: &str, desc: &str) -> String {
    if lang == Lang::En {
        return desc.to_owned();
    }
    let id = format!("key-{}-{}", ctx.name(), action.replace('.', "-"));
    // A binding without words of its own says what its action does (`action-NAME`).
    let default = format!("action-{}", action.replace('.', "-"));
    [id.clone(), format!("{id}-vim"), default]
        .into_iter()
        .find(|id| crate::i18n::has(Lang::En, id) && crate::i18n::text(Lang::En, id, &[]) == desc)
        .map_or_else(|| desc.to_owned(), |id| crate::i18n::text(lang, &id, &[]))
}

/// The section heading of a context (`GLOBAL`).
fn heading(lang: Lang, ctx: Context) -> String {
    crate::i18n::text(lang, &format!("help-context-{}", ctx.name()), &[])
}

/// The node page's legend of where a drained pod goes (its IF DRAINED, MOVES column), as
/// message ids of the value and its meaning.
const FATE_IDS: [(&str, &str); 7] = [
    ("help-fate-yes", "help-fate-yes-means"),
    ("help-fate-blocked", "help-fate-blocked-means"),
    ("help-fate-within", "help-fate-within-means"),
    ("help-fate-no", "help-fate-no-means"),
    ("help-fate-stays", "help-fate-stays-means"),
    ("help-fate-terminating", "help-fate-terminating-means"),
    ("help-fate-bare", "help-fate-bare-means"),
];

/// The help lines for the current screen: its own keys, then lists, then global ones,
/// each description wrapped to `width` cells under its key.
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let theme = &app.config.theme;
    let map = &app.config.keymap;
    let mut out = Vec::new();
    let screen = app.context();
    let lang = app.config.lang;
    let mut contexts = vec![screen];
    for ctx in [Context::List, Context::Global] {
        if !contexts.contains(&ctx) {
            contexts.push(ctx);
        }
    }
    for ctx in contexts {
        let bindings: Vec<_> = map
            .bindings(ctx)
            .iter()
            .filter(|b| {
                ctx != Context::List || super::screen_keys::uses_list_action(screen, b.action)
            })
            .collect();
        if bindings.is_empty() {
            continue;
        }
        out.push(Line::styled(heading(lang, ctx), theme.style(Slot::Title)));
        for b in bindings {
            let desc = description(lang, ctx, b.action.name(), &b.desc);
            let desc = wrap_words(&desc, width.saturating_sub(KEY_CELLS).max(20));
            for (i, part) in desc.into_iter().enumerate() {
                let key = if i == 0 {
                    b.key.to_string()
                } else {
                    String::new()
                };
                out.push(Line::from(vec![
                    Span::styled(format!("  {key:<12}"), theme.style(Slot::Mark)),
                    Span::raw(part),
                ]));
            }
        }
        out.push(Line::raw(""));
    }
    if matches!(app.nav.current(), super::nav::Route::Node(..)) {
        out.push(Line::styled(
            crate::t!(lang, "help-fate"),
            theme.style(Slot::Title),
        ));
        for (value, meaning) in FATE_IDS {
            let (value, meaning) = (
                crate::i18n::text(lang, value, &[]),
                crate::i18n::text(lang, meaning, &[]),
            );
            // Padded by cells, not characters: a Chinese value is twice as wide.
            let pad = " ".repeat(12usize.saturating_sub(value.width()));
            for (i, part) in wrap_words(&meaning, width.saturating_sub(KEY_CELLS).max(20))
                .into_iter()
                .enumerate()
            {
                let value = if i == 0 {
                    format!("  {value}{pad}")
                } else {
                    " ".repeat(14)
                };
                out.push(Line::from(vec![
                    Span::styled(value, theme.style(Slot::Mark)),
                    Span::raw(part),
                ]));
            }
        }
    }
    out
}

/// Draws the help overlay.
pub fn draw(app: &App, scroll: usize, area: Rect, buf: &mut Buffer) {
    let rect = centred(area, 76, area.height.saturating_sub(2).max(8));
    let lang = app.config.lang;
    let inner = overlay_block(&app.config.theme, rect, &crate::t!(lang, "help-title"), buf);
    let lines = lines(app, usize::from(inner.width));
    let height = usize::from(inner.height);
    let scroll = scroll.min(lines.len().saturating_sub(height));
    // Scrolled: the last row says how many lines are below, `↓` shows them.
    let shown: Vec<Line> = lines.into_iter().skip(scroll).collect();
    let below = shown.len().saturating_sub(height);
    if below == 0 {
        canvas::rows(buf, inner, &shown, app.config.theme.style(Slot::Muted));
        return;
    }
    let mut page: Vec<Line> = shown.into_iter().take(height.saturating_sub(1)).collect();
    page.push(Line::styled(
        crate::t!(lang, "help-more-below", n = below + 1),
        app.config.theme.style(Slot::Muted),
    ));
    canvas::rows(buf, inner, &page, app.config.theme.style(Slot::Muted));
}

#[cfg(test)]
mod tests {
    use super::wrap_words;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn long_descriptions_wrap_at_spaces() {
        assert_eq!(
            wrap_words(
                "What-if: lose this cluster whole; could its siblings take its pods?",
                30
            ),
            [
                "What-if: lose this cluster",
                "whole; could its siblings take",
                "its pods?"
            ]
        );
        assert_eq!(wrap_words("short", 30), ["short"]);
        // Chinese breaks between characters, never inside one, and keeps its Latin words.
        let zh = wrap_words("假设分析：整个失去此集群；兄弟集群能否接住它的 Pod？", 20);
        assert!(zh.iter().all(|l| l.width() <= 20), "{zh:?}");
        assert_eq!(
            zh.concat().replace(' ', ""),
            "假设分析：整个失去此集群；兄弟集群能否接住它的Pod？"
        );
        assert!(zh.len() > 1, "{zh:?}");
        assert_eq!(
            wrap_words("averyveryverylongword x", 5),
            ["averyveryverylongword", "x"]
        );
    }
}
