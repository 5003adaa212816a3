//! `fleetdeck window show` (each cluster's maintenance window: open or when it opens
//! next, and overrides in force) and `fleetdeck window override CLUSTER --for 4h
//! --reason …` (journaled).

use std::process::ExitCode;
use std::time::Duration;

use clap::Subcommand;
use fleetdeck::engine::window_override::override_window;
use fleetdeck::engine::windows::MaintenanceWindows;
use fleetdeck::journal::{AnyJournal, JournalStore, OpenMode};
use fleetdeck::model::findings::{WindowOverride, cluster_window};
use fleetdeck::model::ledger::{
    ClusterId, Ledger, WindowState, describe_window, in_how_long, local_and_utc,
};
use fleetdeck::model::run::Actor;
use jiff::Timestamp;
use serde::Serialize;

use fleetdeck::t;

use super::exit::Refused;
use super::journal_cmd::open;
use super::output::{Table, emit, outln};
use super::settings::Settings;

/// `fleetdeck window …`
#[derive(Debug, Subcommand)]
pub enum WindowCommand {
    /// Each cluster's maintenance window: open until when, or when it opens next
    Show,
    /// Let changes start on CLUSTER outside its window for a while (journaled; `--for 0s`
    /// ends an override)
    Override {
        /// The cluster (ledger id)
        cluster: String,
        /// How long the override lasts (at most 7d)
        #[arg(long = "for", value_name = "DURATION", value_parser = super::live::parse_wait)]
        length: Duration,
        /// Why changes may start outside the window
        #[arg(long)]
        reason: String,
    },
}

/// Runs a window command.
pub fn run(settings: &Settings, command: &WindowCommand) -> anyhow::Result<ExitCode> {
    match command {
        WindowCommand::Show => show(settings),
        WindowCommand::Override {
            cluster,
            length,
            reason,
        } => {
            let ledger = fleetdeck::config::ledger_file::load(&settings.ledger_path()?)?;
            if ledger.cluster(cluster).is_none() {
                let hint = fleetdeck::yaml::suggest(
                    cluster,
                    ledger.clusters.iter().map(|c| c.id.as_str()),
                )
                .map(|s| t!(settings.lang, "cli-did-you-mean", suggestion = s))
                .unwrap_or_default();
                let said = t!(
                    settings.lang,
                    "window-not-a-cluster",
                    cluster = cluster,
                    hint = hint
                );
                return Err(Refused(said).into());
            }
            let said = override_window(
                &mut open(settings)?,
                &ClusterId::from(cluster.clone()),
                *length,
                reason,
                &Actor(settings.actor.clone()),
                super::journal_cmd::mode(settings),
                Timestamp::now(),
            )?;
            outln!("{said}")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// One cluster's window as `window show` (and `-o json`) says it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowLine {
    /// The cluster.
    pub cluster: String,
    /// The window as written, or null.
    pub window: Option<String>,
    /// `open`, `closed`, `none` (no window: not restricted), `unknown` (zone unreadable).
    pub state: &'static str,
    /// Open until, when open.
    pub closes_at: Option<Timestamp>,
    /// Opens at, when closed.
    pub opens_at: Option<Timestamp>,
    /// In words, with the zone.
    pub says: String,
    /// An override in force, if any.
    pub overridden: Option<WindowOverride>,
}

/// Each ledger cluster's window at `now`, with the overrides in force.
pub fn window_lines(
    ledger: &Ledger,
    overrides: &[WindowOverride],
    now: Timestamp,
) -> Vec<WindowLine> {
    let windows = MaintenanceWindows::from_ledger(ledger);
    ledger
        .clusters
        .iter()
        .map(|c| {
            let zone = windows.zone(&c.id);
            let overridden = overrides
                .iter()
                .find(|o| o.cluster == c.id && o.active(now))
                .cloned();
            let written = c.maintenance_window.as_ref().map(describe_window);
            let tz_name = c
                .maintenance_window
                .as_ref()
                .map(|w| w.timezone.clone())
                .unwrap_or_default();
            let (state, closes_at, opens_at, mut says) = match cluster_window(c, zone, now) {
                None => (
                    "none",
                    None,
                    None,
                    "no window: changes may start at any time".to_string(), // i18n: not for people (the JSON's says)
                ),
                Some(Err(why)) => ("unknown", None, None, why),
                Some(Ok(WindowState::Open { closes_at })) if closes_at == Timestamp::MAX => (
                    "open",
                    None,
                    None,
                    "open: every day around the clock".to_string(), // i18n: not for people (the JSON's says)
                ),
                Some(Ok(WindowState::Open { closes_at })) => (
                    "open",
                    Some(closes_at),
                    None,
                    format!(
                        "open until {} ({})", // i18n: not for people (the JSON's says)
                        zone.map_or_else(String::new, |z| local_and_utc(closes_at, z, &tz_name)),
                        in_how_long(now, closes_at)
                    ),
                ),
                Some(Ok(WindowState::Closed { opens_at, .. })) => (
                    "closed",
                    None,
                    Some(opens_at),
                    format!(
                        "closed; opens at {} ({})", // i18n: not for people (the JSON's says)
                        zone.map_or_else(String::new, |z| local_and_utc(opens_at, z, &tz_name)),
                        in_how_long(now, opens_at)
                    ),
                ),
            };
            if let Some(o) = &overridden {
                says.push_str(&format!(
                    "; overridden until {} by {} ({})", // i18n: not for people (the JSON's says)
                    o.until.strftime("%Y-%m-%d %H:%M UTC"),
                    o.by,
                    o.reason
                ));
            }
            WindowLine {
                cluster: c.id.to_string(),
                window: written,
                state,
                closes_at,
                opens_at,
                says,
                overridden,
            }
        })
        .collect()
}

/// The journal's overrides, when there is a journal to read (none is no override).
pub fn journal_overrides(settings: &Settings) -> Vec<WindowOverride> {
    AnyJournal::open(&settings.journal, OpenMode::ReadOnly)
        .and_then(|store| store.projection())
        .map(|p| p.window_overrides)
        .unwrap_or_default()
}

fn show(settings: &Settings) -> anyhow::Result<ExitCode> {
    let ledger = fleetdeck::config::ledger_file::load(&settings.ledger_path()?)?;
    let lines = window_lines(&ledger, &journal_overrides(settings), Timestamp::now());
    emit(settings.output, &lines, || {
        let mut table = Table::in_lang(settings.lang, vec!["CLUSTER", "WINDOW", "NOW"]);
        for l in &lines {
            table.row(vec![
                l.cluster.clone(),
                l.window.clone().unwrap_or_else(|| "-".into()),
                l.says.clone(),
            ]);
        }
        table.render()
    })?;
    Ok(ExitCode::SUCCESS)
}
