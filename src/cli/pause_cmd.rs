//! `fleetdeck pause` and `fleetdeck resume`: the pause switches, written to the journal.

use std::process::ExitCode;

use clap::Args;
use fleetdeck::model::ledger::ClusterId;
use fleetdeck::model::run::{OperatorCommand, PauseScope, RunId};

use fleetdeck::t;

use super::journal_cmd::record_command;
use super::output::outln;
use super::settings::Settings;

/// Which switch: exactly one of the flags.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct ScopeArgs {
    /// Every run in the fleet
    #[arg(long)]
    pub all: bool,
    /// Every run on one cluster (ledger id)
    #[arg(long, value_name = "ID")]
    pub cluster: Option<String>,
    /// One run
    #[arg(long, value_name = "ID")]
    pub run: Option<String>,
    /// One failure domain of a cluster, as `CLUSTER/DOMAIN` (e.g. a guard pause)
    #[arg(long, value_name = "CLUSTER/DOMAIN")]
    pub domain: Option<String>,
}

/// `fleetdeck pause (--all|--cluster ID|--run ID|--domain C/D) --reason …`
#[derive(Debug, Args)]
pub struct PauseArgs {
    /// What to pause.
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Why (shown everywhere the pause is)
    #[arg(long)]
    pub reason: String,
}

/// `fleetdeck resume (--all|--cluster ID|--run ID|--domain C/D) --note …`
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// What to resume.
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Why it is safe to go on
    #[arg(long)]
    pub note: String,
}

fn scope(lang: fleetdeck::i18n::Lang, args: &ScopeArgs) -> anyhow::Result<PauseScope> {
    Ok(if let Some(c) = &args.cluster {
        PauseScope::Cluster {
            cluster: ClusterId::from(c.clone()),
        }
    } else if let Some(r) = &args.run {
        PauseScope::Run {
            run: RunId(r.clone()),
        }
    } else if let Some(d) = &args.domain {
        let (cluster, domain) = d
            .split_once('/')
            .filter(|(c, d)| !c.is_empty() && !d.is_empty())
            .ok_or_else(|| {
                anyhow::anyhow!(t!(lang, "pause-bad-domain", domain = format!("{d:?}")))
            })?;
        PauseScope::FailureDomain {
            cluster: ClusterId(cluster.into()),
            domain: domain.into(),
        }
    } else {
        PauseScope::Fleet
    })
}

fn write(settings: &Settings, command: &OperatorCommand) -> anyhow::Result<ExitCode> {
    let recorded = record_command(settings, command)?;
    let scope = match command {
        OperatorCommand::Pause { scope, .. } | OperatorCommand::Resume { scope, .. } => {
            scope.to_string()
        }
        _ => String::new(),
    };
    let id = match command {
        OperatorCommand::Resume { .. } => "resume-done",
        _ => "pause-done",
    };
    let said = fleetdeck::i18n::text(
        settings.lang,
        id,
        &[
            ("scope", scope.into()),
            ("seq", recorded.seq.0.to_string().into()),
        ],
    );
    outln!("{said}")?;
    Ok(ExitCode::SUCCESS)
}

/// `pause`.
pub fn pause(settings: &Settings, args: &PauseArgs) -> anyhow::Result<ExitCode> {
    let scope = scope(settings.lang, &args.scope)?;
    write(
        settings,
        &OperatorCommand::Pause {
            scope,
            reason: args.reason.clone(),
        },
    )
}

/// `resume`.
pub fn resume(settings: &Settings, args: &ResumeArgs) -> anyhow::Result<ExitCode> {
    let scope = scope(settings.lang, &args.scope)?;
    write(
        settings,
        &OperatorCommand::Resume {
            scope,
            note: args.note.clone(),
        },
    )
}
