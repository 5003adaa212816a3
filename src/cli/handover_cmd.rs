//! `fleetdeck handover [--since 8h] [-o markdown|json|table]`: the shift handover from
//! the journal, the live fleet and the ledger — the same items, from the same function
//! and the same sources, as the console's `H` walkthrough.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use fleetdeck::model::handover::{Handover, HandoverInput, JournalFacts, Standing, handover, when};
use jiff::Timestamp;

use super::journal_cmd::parse_since;
use super::output::{Table, write_out};
use super::settings::Settings;
use fleetdeck::config::OutputFormat;
use fleetdeck::i18n::{Lang, Msg};
use fleetdeck::t;

#[path = "handover_markdown.rs"]
mod markdown;
#[path = "handover_sources.rs"]
mod sources;

/// `fleetdeck handover …`
#[derive(Debug, Args)]
pub struct HandoverArgs {
    /// Since when the shift runs: a duration ago (`8h`), a date (midnight UTC) or an RFC
    /// 3339 instant
    #[arg(long, value_name = "WHEN", default_value = "8h")]
    pub since: String,
    /// List ledger exceptions expiring within this many days
    #[arg(long, value_name = "DAYS", default_value_t = 14)]
    pub expiring_within: i64,
    /// How long to wait for every cluster's status (0s skips the fleet check)
    #[arg(long, value_name = "DURATION", default_value = "15s", value_parser = super::live::parse_wait)]
    pub wait_synced: Duration,
}

/// Builds and prints the handover.
pub fn run(settings: &Settings, args: &HandoverArgs) -> anyhow::Result<ExitCode> {
    let now = Timestamp::now();
    let since = parse_since(&args.since, now)?;
    let read = sources::read(settings, since, args.wait_synced);
    let input = HandoverInput {
        journal: read
            .journal
            .as_ref()
            .map(|(projection, events)| JournalFacts { projection, events }),
        fleet: read.fleet.as_ref().map(Vec::as_slice),
        ledger: read.ledger.as_ref(),
        findings: read.findings.as_ref().map(Vec::as_slice),
        since,
        now,
        expiring_within_days: args.expiring_within,
    };
    let mut report = handover(&input);
    for (notice, msg) in read.notices {
        report.not_checked.push(notice);
        report.not_checked_says.push(msg);
    }
    match settings.output {
        OutputFormat::Markdown => write_out(markdown::to_markdown(&report, settings.lang))?,
        OutputFormat::Json => write_out(serde_json::to_string_pretty(&report)? + "\n")?,
        OutputFormat::Yaml => write_out(fleetdeck::yaml::to_yaml_string(&serde_json::to_value(
            &report,
        )?))?,
        OutputFormat::Table => write_out(table(&report, settings.lang))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The items as a table, then what settled and what could not be checked, in `lang`.
fn table(report: &Handover, lang: Lang) -> String {
    let headers = [
        t!(lang, "handover-col-section"),
        t!(lang, "handover-col-item"),
        t!(lang, "handover-col-details"),
        t!(lang, "handover-col-acknowledged"),
    ];
    let mut table = Table::with_headers(headers.to_vec());
    for item in &report.items {
        table.row(vec![
            item.section.heading_in(lang),
            item.title_in(lang),
            item.details_in(lang)
                .join(if lang == Lang::En { "; " } else { "；" }),
            item.acks
                .iter()
                .map(|a| {
                    let (by, at, note, change) = (
                        a.by.to_string(),
                        when(a.at),
                        a.note.clone(),
                        a.change_in(lang),
                    );
                    let line = match a.standing {
                        Standing::Holds => Msg::new("handover-table-ack"),
                        Standing::Reopened => Msg::new("handover-table-ack-reopened"),
                    };
                    line.arg("by", by)
                        .arg("at", at)
                        .arg("note", note)
                        .arg("change", change)
                        .text(lang)
                })
                .collect::<Vec<_>>()
                .join("; "),
        ]);
    }
    let mut out = if report.items.is_empty() {
        t!(lang, "handover-table-nothing") + "\n"
    } else {
        table.render()
    };
    for s in &report.settled {
        out.push_str(&t!(
            lang,
            "handover-table-settled",
            title = &s.title,
            how = &s.how
        ));
        out.push('\n');
    }
    for why in &report.not_checked_in(lang) {
        out.push_str(&t!(lang, "handover-table-not-checked", why = why));
        out.push('\n');
    }
    out
}
