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
use crate::model::handover::{
    Handover, HandoverInput, HandoverItem, JournalFacts, Known, Standing, cluster_health, handover,
};
use crate::t;

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
    /// What could not be checked at all, with why.
    pub not_checked: Vec<String>,
    /// The same as messages, for other languages.
    pub not_checked_says: Vec<Option<crate::i18n::Msg>>,
}

impl HandoverState {
    /// Takes in a freshly built handover (the selection is the caller's).
    pub fn set(&mut self, built: Handover) {
        self.items = built.items;
        self.not_checked = built.not_checked;
        self.not_checked_says = built.not_checked_says;
    }
}

/// The handover for the console's current view of the world.
pub fn build(app: &App) -> Handover {
    let clusters = cluster_health(&app.snapshot);
    let shift = app.handover.shift.unwrap_or(SHIFT);
    let since = jiff::SignedDuration::try_from(shift)
        .ok()
        .and_then(|d| app.now.checked_sub(d).ok())
        .unwrap_or(app.now);
    let journal = &app.activity.journal;
    // What was read before a lost connection stays (the header says it may be behind);
    // with nothing read at all, the journal's part is unknown, not empty.
    let journal = if app.activity.connected || journal.projection.last_seq.is_some() {
        Known::Read(JournalFacts {
            projection: &journal.projection,
            events: &journal.events,
        })
    } else {
        Known::NotRead(crate::t!(app.config.lang, "msg-no-journal-see-log"))
    };
    let input = HandoverInput {
        journal,
        fleet: Known::Read(clusters.as_slice()),
        ledger: Known::Read(app.ledger.as_ref()),
        findings: Known::Read(app.findings.judged.findings.as_slice()),
        since,
        now: app.now,
        expiring_within_days: EXPIRING_DAYS,
    };
    handover(&input)
}

/// Draws the walkthrough over `area`.
pub fn draw(app: &App, state: &HandoverState, area: Rect, buf: &mut Buffer) {
    let t = &app.config.theme;
    let lang = app.config.lang;
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
        String::new()
    } else {
        format!(" · {}", t!(lang, "handover-walk-ack-key"))
    };
    let title = canvas::first_fitting(
        vec![
            t!(
                lang,
                "handover-walk-title",
                shift = &shift,
                item = item.to_string(),
                of = of.to_string(),
                ack = &ack
            ),
            t!(
                lang,
                "handover-walk-title-short",
                shift = &shift,
                item = item.to_string(),
                of = of.to_string(),
                ack = &ack
            ),
            t!(
                lang,
                "handover-walk-title-tiny",
                item = item.to_string(),
                of = of.to_string()
            ),
        ],
        usize::from(rect.width.saturating_sub(4)),
    );
    let inner = overlay_block(&app.config.theme, rect, &title, buf);
    let muted = t.style(Slot::Muted);
    let not_checked =
        crate::model::handover::said(lang, &state.not_checked, &state.not_checked_says);
    if state.items.is_empty() && !app.activity.connected {
        // Unknown is not "nothing": without the journal, pauses, approvals and stuck
        // steps cannot be seen at all.
        canvas::wrapped(
            buf,
            inner,
            &[
                Line::styled(t!(lang, "handover-walk-no-journal"), t.style(Slot::Unknown)),
                Line::raw(t!(lang, "handover-walk-no-journal-why")),
            ],
            muted,
        );
        return;
    }
    if state.items.is_empty() {
        let mut lines = vec![
            Line::styled(t!(lang, "handover-walk-nothing"), t.style(Slot::Ok)),
            Line::raw(t!(lang, "handover-walk-nothing-why", shift = &shift)),
        ];
        // Nothing found is not nothing there: what could not be looked at is said.
        if !not_checked.is_empty() {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                t!(lang, "handover-walk-not-checked-heading"),
                t.style(Slot::Unknown),
            ));
            lines.extend(not_checked.iter().map(|why| Line::raw(format!("  {why}"))));
        }
        canvas::wrapped(buf, inner, &lines, muted);
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
                    &item.section.short_heading_in(lang).to_uppercase(),
                    usize::from(list_w).saturating_sub(1),
                ),
                t.style(Slot::Title),
            ));
        }
        // Acknowledged and no worse; acknowledged but worse since; not acknowledged.
        let mark = if item.acknowledged() {
            "✓"
        } else if item.reopened() {
            "!"
        } else {
            " "
        };
        let style = if i == state.index {
            t.style(Slot::Selection)
        } else {
            t.style(Slot::Text)
        };
        lines.push(Line::styled(
            format!(
                "{mark} {}",
                fit(
                    &one_line(&item.title_in(lang)),
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
        Line::styled(item.section.heading_in(lang), t.style(Slot::Muted)),
        Line::styled(one_line(&item.title_in(lang)), t.style(Slot::Title)),
        Line::raw(""),
    ];
    for d in &item.details_in(lang) {
        text.push(Line::raw(format!("  {}", one_line(d))));
    }
    text.push(Line::raw(""));
    if item.acks.is_empty() {
        text.push(Line::styled(
            if app.config.readonly {
                t!(lang, "handover-walk-not-acked")
            } else {
                t!(lang, "handover-walk-not-acked-key")
            },
            t.style(Slot::Warn),
        ));
    } else if item.reopened() {
        text.push(Line::styled(
            t!(lang, "handover-walk-reopened"),
            t.style(Slot::Warn),
        ));
    }
    for a in &item.acks {
        let (word, slot) = match a.standing {
            Standing::Holds => (t!(lang, "handover-walk-acked"), Slot::Ok),
            Standing::Reopened => (t!(lang, "handover-walk-was-acked"), Slot::Warn),
        };
        text.push(Line::from(vec![
            Span::styled(format!("{word} "), t.style(slot)),
            Span::raw(t!(
                lang,
                "handover-walk-acked-by",
                by = a.by.to_string(),
                at = a.at.strftime("%H:%M UTC").to_string(),
                note = one_line(&a.note)
            )),
        ]));
        text.push(Line::raw(format!("  {}", one_line(&a.change_in(lang)))));
    }
    if !not_checked.is_empty() {
        text.push(Line::raw(""));
        text.push(Line::styled(
            t!(lang, "handover-walk-not-checked"),
            t.style(Slot::Unknown),
        ));
        for why in &not_checked {
            text.push(Line::raw(format!("  {why}")));
        }
    }
    let [_, body] = Layout::horizontal([Constraint::Length(1), Constraint::Min(1)]).areas(body);
    canvas::wrapped(buf, body, &text, muted);
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::super::tests::{press, render};
    use crate::model::handover::{Extent, Fact, Section};
    use crate::model::run::{Actor, EventLog, OperatorCommand, command_event};

    /// The operator app's walkthrough after `who` acknowledged the item whose title
    /// starts with `title`, as it stood then (`then`, or as it stands now).
    fn acknowledged(title: &str, then: Option<Extent>) -> super::super::app::App {
        let mut app = fixtures::operator_app();
        press(&mut app, "H");
        let item = app
            .handover
            .items
            .iter()
            .find(|i| i.title.starts_with(title))
            .expect("listed")
            .clone();
        let command = OperatorCommand::Acknowledge {
            problem: item.key.clone(),
            title: item.title.clone(),
            extent: then.unwrap_or(item.extent.clone()),
            run: item.subject.run.clone(),
            item: item.subject.item.clone(),
            cluster: item.subject.cluster.clone(),
            note: "seen, vendor case 42".into(),
        };
        let mut log = EventLog(fixtures::journal_events());
        let projection = crate::model::run::Projection::replay(&log.0);
        let at = fixtures::now()
            .checked_sub(jiff::SignedDuration::from_mins(12))
            .expect("in range");
        log.push(
            command_event(&projection, &command, &Actor("carol@ops".into()), at, 1)
                .expect("accepted"),
        );
        fixtures::with_journal(&mut app, log.0);
        let index = app
            .handover
            .items
            .iter()
            .position(|i| i.key == item.key)
            .expect("still listed");
        for _ in 0..index {
            press(&mut app, "right");
        }
        app
    }

    #[test]
    fn an_acknowledgement_that_holds_is_marked_and_says_what_changed() {
        let app = acknowledged("eu-fra-prod-01", None);
        let screen = render(&app, 160, 36);
        assert!(
            screen.contains("✓ eu-fra-prod-01: 1 of 13 nodes not ready"),
            "{screen}"
        );
        assert!(
            screen.contains("acknowledged by carol@ops at 13:50 UTC: seen, vendor case 42"),
            "{screen}"
        );
        assert!(screen.contains("unchanged since"), "{screen}");
        insta::assert_snapshot!("handover_acknowledged", screen);
    }

    #[test]
    fn in_chinese_an_acknowledged_item_says_who_and_what_changed_and_fits() {
        let mut app = acknowledged("eu-fra-prod-01", None);
        app.config.lang = crate::i18n::Lang::ZhCn;
        let screen = render(&app, 160, 36);
        for said in [
            "✓ eu-fra-prod-01：13 个节点中 1 个未就绪",
            "已确认 确认人 carol@ops，时间 13:50 UTC：seen, vendor case 42",
            "此后未变",
            "不完整的集群",
        ] {
            assert!(screen.contains(said), "{said:?} missing:\n{screen}");
        }
        for (w, h) in [(160, 45), (80, 24), (60, 20)] {
            let area = ratatui::layout::Rect::new(0, 0, w, h);
            let (_, findings) = super::super::canvas_check::check_draw(area, |buf| {
                super::super::view::draw(&app, area, buf)
            });
            assert!(findings.is_empty(), "{w}×{h}: {findings:?}");
        }
    }

    #[test]
    fn an_acknowledgement_of_a_problem_that_got_worse_reopens_it() {
        // Acknowledged when only a node was down; its data is Degraded now.
        let then = Extent(vec![Fact::counted(
            "nodes not ready",
            1,
            "1 of 13 nodes not ready",
        )]);
        let app = acknowledged("eu-fra-prod-02", Some(then));
        let item = &app.handover.items[app.handover.index];
        assert_eq!(item.section, Section::ClustersNotWhole);
        assert!(item.reopened(), "{item:#?}");
        let screen = render(&app, 160, 36);
        assert!(screen.contains("! eu-fra-prod-02"), "{screen}");
        assert!(
            screen.contains("re-opened: worse since it was acknowledged"),
            "{screen}"
        );
        assert!(
            screen.contains("worse since: new: data Degraded"),
            "{screen}"
        );
        insta::assert_snapshot!("handover_reopened", screen);
        // Small terminals draw it without panicking or losing the mark.
        for (w, h) in [(80, 24), (60, 20)] {
            let small = render(&app, w, h);
            assert!(small.contains("eu-fra-prod-02"), "{w}×{h}:\n{small}");
        }
    }
}
