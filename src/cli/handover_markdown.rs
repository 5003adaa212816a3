//! The shift handover as a Markdown report (`fleetdeck handover -o markdown`): headings
//! per section, one list item per handover item, its facts and acknowledgements under it.

use fleetdeck::i18n::{Lang, Msg};
use fleetdeck::model::handover::{Handover, Standing, when};
use fleetdeck::model::text::one_line;
use fleetdeck::t;

/// The handover as a Markdown report in `lang`: what could not be checked first (it
/// bounds what the rest can say), the sections, then what settled since.
pub fn to_markdown(report: &Handover, lang: Lang) -> String {
    let items = &report.items;
    let mut out = format!(
        "# {}\n\n{}\n",
        t!(lang, "handover-md-title"),
        t!(
            lang,
            "handover-md-span",
            from = when(report.since),
            to = when(report.now),
            count = items.len().to_string()
        )
    );
    if !report.not_checked.is_empty() {
        out.push_str(&format!("\n## {}\n\n", t!(lang, "handover-md-not-checked")));
        for why in &report.not_checked_in(lang) {
            out.push_str(&format!("- {}\n", one_line(why)));
        }
    }
    let mut section = None;
    for item in items {
        if section != Some(item.section) {
            section = Some(item.section);
            out.push_str(&format!("\n## {}\n\n", item.section.heading_in(lang)));
        }
        // One line each: a note's own line breaks (or a `## ` it starts a line with) must
        // not end the list item or open a heading of its own.
        out.push_str(&format!("- **{}**\n", one_line(item.title_in(lang).trim())));
        for d in &item.details_in(lang) {
            out.push_str(&format!("  - {}\n", one_line(d)));
        }
        for a in &item.acks {
            let (by, at, note, change) = (
                a.by.to_string(),
                when(a.at),
                one_line(&a.note),
                one_line(&a.change_in(lang)),
            );
            let line = match a.standing {
                Standing::Holds => Msg::new("handover-md-ack"),
                Standing::Reopened => Msg::new("handover-md-ack-reopened"),
            }
            .arg("by", by)
            .arg("at", at)
            .arg("note", note)
            .arg("change", change)
            .text(lang);
            out.push_str(&format!("  - {line}\n"));
        }
    }
    if items.is_empty() {
        out.push_str(&format!("\n{}\n", t!(lang, "handover-md-nothing")));
    }
    if !report.settled.is_empty() {
        out.push_str(&format!("\n## {}\n\n", t!(lang, "handover-md-settled")));
        for s in &report.settled {
            out.push_str(&format!("- {}: {}\n", one_line(&s.title), one_line(&s.how)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fleetdeck::model::handover::{
        Ack, Check, Extent, HandoverItem, ProblemKey, Section, Settled, Subject,
    };
    use fleetdeck::model::run::Actor;
    use jiff::Timestamp;

    fn at(s: i64) -> Timestamp {
        Timestamp::from_second(1_795_800_000 + s).expect("in range")
    }

    fn item(section: Section, title: &str, details: &[&str]) -> HandoverItem {
        HandoverItem {
            key: ProblemKey(title.to_string()),
            section,
            title: title.to_string(),
            details: details.iter().map(|d| d.to_string()).collect(),
            since: None,
            subject: Subject::default(),
            extent: Extent::default(),
            check: Check::Current,
            acks: Vec::new(),
            says: Default::default(),
        }
    }

    #[test]
    fn sections_are_headings_and_each_item_stays_one_line() {
        let mut handed = item(
            Section::HandedOff,
            "n2 Drain in mnt-reboot-1 is with bob@ops (handed off)",
            &["owner: bob@ops", "note: checkout team must scale up first"],
        );
        handed.acks.push(Ack {
            by: Actor("carol@ops".into()),
            at: at(-60),
            note: "seen\non it".into(),
            then: Some(Extent::default()),
            standing: Standing::Holds,
            change: "unchanged since".into(),
            change_msg: None,
        });
        let items = vec![
            handed,
            item(
                Section::Notes,
                "bob@ops: firmware staged\n## do not uncordon before 06:00",
                &["about: the fleet"],
            ),
        ];
        let md = to_markdown(
            &Handover {
                since: at(-3600),
                now: at(0),
                items,
                settled: vec![Settled {
                    title: "n1 in mnt-1 left cordoned".into(),
                    how: "prod-use1-01 reports n1 schedulable: it was uncordoned since".into(),
                }],
                not_checked: vec!["cluster statuses not checked (--wait-synced 0s)".into()],
                not_checked_says: Vec::new(),
            },
            Lang::En,
        );
        assert!(md.contains("## Handed-off steps"), "{md}");
        assert!(
            md.contains("  - note: checkout team must scale up first"),
            "{md}"
        );
        assert!(
            md.contains("  - acknowledged by carol@ops at 2026-11-27 17:19 UTC: seen ⏎ on it (unchanged since)"),
            "{md}"
        );
        assert!(
            md.contains("- **bob@ops: firmware staged ⏎ ## do not uncordon before 06:00**"),
            "{md}"
        );
        assert!(
            !md.lines().any(|l| l.starts_with("## do not")),
            "a note opened a heading: {md}"
        );
        assert!(
            md.contains("## Not checked\n\n- cluster statuses not checked (--wait-synced 0s)\n"),
            "{md}"
        );
        assert!(
            md.contains("## Settled since\n\n- n1 in mnt-1 left cordoned: prod-use1-01 reports n1 schedulable"),
            "{md}"
        );
    }
}
