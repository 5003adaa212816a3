//! The timeline's decisions: journal events filtered by cluster, run, actor, kind and time
//! (`/cluster=prod-use1-01 actor=alice since=30m`), the selection, and the live tail that
//! keeps the newest event selected.

use jiff::Timestamp;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::i18n::Lang;
use crate::model::duration::{SinceError, parse_since};
use crate::model::run::{Event, describe};
use crate::tui::action::Action;
use crate::tui::component::{Context, Effect, Screen, is_motion, motion};
use crate::tui::filter::{Filter, Filterable};

/// The screen's state.
#[derive(Debug, Clone)]
pub struct TimelineState {
    /// The filter (key=value for cluster, run, item, step, actor, kind; `since=30m`).
    pub filter: Filter,
    /// The selected event's sequence.
    pub selected: Option<i64>,
    /// Live tail: the newest event stays selected.
    pub follow: bool,
    /// The event shown in full, when open.
    pub detail: Option<i64>,
}

impl Default for TimelineState {
    fn default() -> Self {
        TimelineState {
            filter: Filter::parse(""),
            selected: None,
            follow: true,
            detail: None,
        }
    }
}

/// One event as the filter sees it.
pub struct EventRow<'a>(pub &'a Event);

impl Filterable for EventRow<'_> {
    fn haystack(&self) -> String {
        let e = &self.0.event;
        format!(
            "{} {} {} {}",
            e.actor,
            e.body.to_parts().0,
            e.cluster.as_ref().map_or("", |c| c.as_str()),
            describe(self.0)
        )
    }

    fn field(&self, key: &str) -> Option<String> {
        let e = &self.0.event;
        match key {
            "cluster" => e.cluster.as_ref().map(|c| c.to_string()),
            "run" => e.run.as_ref().map(|r| r.0.clone()),
            "item" | "node" => e.item.as_ref().map(|i| i.0.clone()),
            "step" => e.step.as_ref().map(|s| s.0.clone()),
            "actor" => Some(e.actor.0.clone()),
            "kind" => Some(e.body.to_parts().0),
            _ => None,
        }
    }
}

/// The keys a timeline filter term may name.
const KEYS: &[&str] = &[
    "cluster", "run", "item", "node", "step", "actor", "kind", "since",
];

/// `since=30m` (or an RFC 3339 time) taken out of the filter text, as an instant; the
/// rest is an ordinary filter. Terms the timeline cannot read (see [`problems`]) are left
/// out: they are reported, not applied.
pub fn split_since(text: &str, now: Timestamp) -> (Option<Timestamp>, String) {
    let mut since = None;
    let mut rest = Vec::new();
    for word in text.split_whitespace() {
        if problem(word, now, Lang::En).is_some() {
            continue;
        }
        match word.strip_prefix("since=") {
            Some(value) => since = since_instant(value, now),
            None => rest.push(word),
        }
    }
    (since, rest.join(" "))
}

/// `30m` ago, a date's midnight UTC, or an RFC 3339 time (as `fleetdeck journal --since`).
fn since_instant(value: &str, now: Timestamp) -> Option<Timestamp> {
    parse_since(value, now).ok()
}

/// What is wrong with one filter term, when the timeline cannot read it.
fn problem(word: &str, now: Timestamp, lang: Lang) -> Option<String> {
    let (key, value, negated) = match word.split_once("!=") {
        Some((k, v)) => (k, v, true),
        None => match word.split_once('=') {
            Some((k, v)) => (k, v, false),
            None => return None,
        },
    };
    let key = key.to_lowercase();
    if !KEYS.contains(&key.as_str()) {
        let keys = KEYS
            .iter()
            .filter(|k| !matches!(**k, "node" | "item" | "step"))
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        return Some(crate::t!(lang, "tl-unknown-key", key = key, keys = keys));
    }
    if key == "since" {
        if negated {
            return Some(crate::t!(lang, "tl-since-equals-only", term = word));
        }
        match parse_since(value, now) {
            Ok(_) => {}
            Err(SinceError::Unreadable) => {
                return Some(crate::t!(lang, "tl-since-unreadable", value = value));
            }
            Err(why) => return Some(format!("since={value}: {why}")),
        }
    }
    None
}

/// The terms of `text` the timeline cannot read at `now` (the console's clock, as for
/// [`visible`]), each with why; they are not applied.
pub fn problems(text: &str, now: Timestamp, lang: Lang) -> Vec<String> {
    text.split_whitespace()
        .filter_map(|word| problem(word, now, lang))
        .collect()
}

/// The events that pass the filter, oldest first.
pub fn visible<'e>(state: &TimelineState, events: &'e [Event], now: Timestamp) -> Vec<&'e Event> {
    let (since, rest) = split_since(&state.filter.text, now);
    let filter = Filter::parse(&rest);
    events
        .iter()
        .filter(|e| since.is_none_or(|s| e.event.time >= s))
        .filter(|e| filter.matches(&EventRow(e)))
        .collect()
}

/// Position of the selection among `visible`: the newest when following.
pub fn selected_pos(state: &TimelineState, visible: &[&Event]) -> usize {
    let last = visible.len().saturating_sub(1);
    if state.follow {
        return last;
    }
    state
        .selected
        .and_then(|s| visible.iter().position(|e| e.seq.0 == s))
        .unwrap_or(last)
}

impl Screen for TimelineState {
    fn handle(&mut self, action: Action, ctx: &Context) -> Option<Vec<Effect>> {
        let events = &ctx.activity.journal.events;
        let visible = visible(self, events, ctx.now);
        let pos = selected_pos(self, &visible);
        let mut effects = Vec::new();
        match action {
            a if is_motion(a) => {
                let (next, said) = motion(pos, visible.len(), a, ctx);
                effects = said;
                // Moving away from the newest event stops the live tail; going back to it
                // (G, end) resumes it.
                self.follow = next + 1 >= visible.len();
                self.selected = visible.get(next).map(|e| e.seq.0);
            }
            Action::Follow => {
                self.follow = !self.follow;
                if !self.follow {
                    self.selected = visible.get(pos).map(|e| e.seq.0);
                }
            }
            Action::Open => match visible.get(pos) {
                Some(e) => self.detail = Some(e.seq.0),
                None => effects.push(Effect::Say(crate::t!(ctx.config.lang, "tl-no-event"))),
            },
            _ => return None,
        }
        Some(effects)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, ctx: &Context) {
        super::timeline_view::draw(self, ctx, area, buf);
    }

    fn filter(&self) -> Option<&Filter> {
        Some(&self.filter)
    }

    fn filter_mut(&mut self) -> Option<&mut Filter> {
        Some(&mut self.filter)
    }

    fn close(&mut self) -> bool {
        self.detail.take().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_en(text: &str, now: Timestamp) -> Vec<String> {
        problems(text, now, Lang::En)
    }

    #[test]
    fn since_is_taken_out_of_the_filter() {
        let now = Timestamp::from_second(10_000).unwrap();
        let (since, rest) = split_since("actor=bob since=10m drain", now);
        assert_eq!(since, Some(Timestamp::from_second(9_400).unwrap()));
        assert_eq!(rest, "actor=bob drain");
    }

    #[test]
    fn terms_the_timeline_cannot_read_are_reported_and_left_out() {
        let now = Timestamp::from_second(10_000).unwrap();
        assert_eq!(
            problems(
                "since=abc bogus=1 actor=bob since=2026-11-30T12:00:00Z drain",
                now,
                Lang::En
            ),
            vec![
                "since=abc: not a duration, a date or an RFC 3339 time (try 30m, 8h)".to_string(),
                "bogus: unknown key (cluster, run, actor, kind, since)".to_string(),
            ]
        );
        assert!(problems_en("since!=1h", now)[0].contains("since takes = only"));
        assert_eq!(
            problems_en("since=-5m", now),
            vec!["since=-5m: a duration is written without a sign: 5m means 5 minutes ago"]
        );
        let (since, _) = split_since("since=2026-11-30", now);
        assert_eq!(since, "2026-11-30T00:00:00Z".parse().ok());
        assert!(problems_en("kind=operator.pause node!=n1 !drain", now).is_empty());
        let (since, rest) = split_since("since=abc bogus=1 actor=bob", now);
        assert_eq!((since, rest.as_str()), (None, "actor=bob"));
    }
}
