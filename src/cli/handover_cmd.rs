//! `fleetdeck handover [--since 8h] [-o markdown|json|table]`: the shift handover from
//! the journal, the live fleet and the ledger — the same items, from the same function,
//! as the console's `H` walkthrough.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use fleetdeck::journal::{EventQuery, JournalStore};
use fleetdeck::model::handover::{HandoverInput, Standing, cluster_health, handover, when};
use jiff::Timestamp;

use super::journal_cmd::{open, parse_since};
use super::output::{Table, write_out};
use super::settings::Settings;
use fleetdeck::config::OutputFormat;

#[path = "handover_markdown.rs"]
mod markdown;
use markdown::to_markdown;

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
    let store = open(settings)?;
    let projection = store.projection()?;
    let events = store.query(&EventQuery {
        since: Some(since),
        kinds: vec!["operator.note".into()],
        ..EventQuery::default()
    })?;
    // The fleet is checked only when a ledger is configured; without one the report says
    // the statuses were not checked rather than inventing them.
    let (ledger, clusters) = match settings.ledger.as_ref() {
        Some(path) if !args.wait_synced.is_zero() => {
            match super::live::observe(settings, args.wait_synced) {
                Ok((ledger, snapshot)) => (Some(ledger), Some(cluster_health(&snapshot))),
                Err(error) => {
                    eprintln!("fleetdeck handover: cluster statuses not checked: {error:#}");
                    // Exceptions still come from the ledger when only the fleet is out of reach.
                    (fleetdeck::ledger_file::load(path).ok(), None)
                }
            }
        }
        Some(path) => (fleetdeck::ledger_file::load(path).ok(), None),
        None => (None, None),
    };
    let input = HandoverInput {
        projection: &projection,
        events: &events,
        clusters: clusters.as_deref(),
        ledger: ledger.as_ref(),
        since,
        now,
        expiring_within_days: args.expiring_within,
    };
    let items = handover(&input);
    match settings.output {
        OutputFormat::Markdown => write_out(to_markdown(&items, &input))?,
        OutputFormat::Json => write_out(serde_json::to_string_pretty(&items)? + "\n")?,
        OutputFormat::Yaml => write_out(fleetdeck::yaml::to_yaml_string(&serde_json::to_value(
            &items,
        )?))?,
        OutputFormat::Table => {
            let mut table = Table::new(vec!["SECTION", "ITEM", "DETAILS", "ACKNOWLEDGED"]);
            for item in &items {
                table.row(vec![
                    item.section.heading().to_string(),
                    item.title.clone(),
                    item.details.join("; "),
                    item.acks
                        .iter()
                        .map(|a| {
                            let how = match a.standing {
                                Standing::Holds => "",
                                Standing::Reopened => "re-opened, was ",
                            };
                            format!("{how}{} {}: {} ({})", a.by, when(a.at), a.note, a.change)
                        })
                        .collect::<Vec<_>>()
                        .join("; "),
                ]);
            }
            let mut out = table.render();
            if clusters.is_none() {
                out.push_str("cluster statuses: not checked\n");
            }
            write_out(out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
