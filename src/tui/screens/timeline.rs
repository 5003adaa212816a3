//! The timeline's decisions: journal events filtered by cluster, run, actor, kind and time
//! (`/cluster=prod-use1-01 actor=alice since=30m`), the selection, and the live tail that
//! keeps the newest event selected.

use jiff::Timestamp;

use crate::model::duration::parse_duration;
use crate::model::run::{Event, describe};
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
            e.cluster.as_ref().map_or("", |c| c.0.as_str()),
            describe(self.0)
        )
    }

    fn field(&self, key: &str) -> Option<String> {
        let e = &self.0.event;
        match key {
            "cluster" => e.cluster.as_ref().map(|c| c.0.clone()),
            "run" => e.run.as_ref().map(|r| r.0.clone()),
            "item" | "node" => e.item.as_ref().map(|i| i.0.clone()),
            "step" => e.step.as_ref().map(|s| s.0.clone()),
            "actor" => Some(e.actor.0.clone()),
            "kind" => Some(e.body.to_parts().0),
            _ => None,
        }
    }
}

/// `since=30m` (or an RFC 3339 time) taken out of the filter text, as an instant; the
/// rest is an ordinary filter.
pub fn split_since(text: &str, now: Timestamp) -> (Option<Timestamp>, String) {
    let mut since = None;
    let mut rest = Vec::new();
    for word in text.split_whitespace() {
        match word.strip_prefix("since=") {
            Some(value) => {
                since = parse_duration(value)
                    .ok()
                    .and_then(|d| jiff::SignedDuration::try_from(d).ok())
                    .and_then(|d| now.checked_sub(d).ok())
                    .or_else(|| value.parse::<Timestamp>().ok());
            }
            None => rest.push(word),
        }
    }
    (since, rest.join(" "))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_is_taken_out_of_the_filter() {
        let now = Timestamp::from_second(10_000).unwrap();
        let (since, rest) = split_since("actor=bob since=10m drain", now);
        assert_eq!(since, Some(Timestamp::from_second(9_400).unwrap()));
        assert_eq!(rest, "actor=bob drain");
    }
}
