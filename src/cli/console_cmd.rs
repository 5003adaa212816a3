//! `fleetdeck` with no subcommand: the console on the user's ledger and kubeconfig, every
//! cluster synced live through its own pinned context. With no ledger it explains how to
//! start the demo instead.

use std::process::ExitCode;
use std::sync::Arc;

use fleetdeck::engine::executor::{Executor, ExecutorOptions};
use fleetdeck::journal::{AnyJournal, OpenMode};
use fleetdeck::tui::journal_feed;

use fleetdeck::config::ledger_file;
use fleetdeck::k8s::fleet_sync::FleetSync;
use fleetdeck::model::ledger::Ledger;
use fleetdeck::model::run::Actor;
use fleetdeck::tui::{Activity, ConsoleInputs, no_color_requested, run_console};
use kube::config::Kubeconfig;
use std::time::Duration;

use fleetdeck::t;

use super::settings::Settings;

/// How to see the console on a simulated fleet.
pub const DEMO_HINT: &str = "fleetdeck demo --seed 1"; // i18n: not for people (a command to type)

/// Opens the console, or explains how to get one.
pub fn open(settings: &Settings) -> anyhow::Result<ExitCode> {
    let Some(path) = settings.ledger.clone() else {
        let config = settings.paths.config_file.display().to_string();
        // i18n: not for people (the program's name before its message)
        eprintln!(
            "fleetdeck: {}\n{}\n\n    {DEMO_HINT}\n",
            t!(settings.lang, "console-no-ledger", config = config),
            t!(settings.lang, "console-try-demo")
        );
        return Ok(ExitCode::from(2));
    };
    let ledger = ledger_file::load(&path)?;
    // Without a kubeconfig the console still opens: every cluster then shows Unreachable
    // with the reason, which is what an operator needs to see, not a refusal to start.
    let (kubeconfig, notice) = match fleetdeck::k8s::kubeconfig::load(&settings.kubeconfig) {
        Ok(kubeconfig) => (kubeconfig, None),
        Err(error) => (
            Kubeconfig::default(),
            Some(t!(
                settings.lang,
                "console-no-kubeconfig",
                error = error.to_string()
            )),
        ),
    };
    let runtime = super::runtime()?;
    runtime.block_on(run_live(settings, ledger, kubeconfig, notice, None))?;
    runtime.shutdown_background();
    Ok(ExitCode::SUCCESS)
}

/// `:login CONTEXT`: the context's credential (as the fleet sync's clients built it) run
/// on the terminal the console gave up for it.
fn login_port() -> fleetdeck::tui::login::LoginPort {
    std::sync::Arc::new(|context: String| {
        Box::pin(async move {
            let store = fleetdeck::k8s::credentials::store();
            let Some((_, cell)) = store.context(&context) else {
                return fleetdeck::tui::login::LoginOutcome {
                    context,
                    program: None,
                    contexts: Vec::new(),
                    problem: None,
                };
            };
            let program = cell.program().map(str::to_string);
            let problem = match program {
                Some(_) => cell.login().await.err(),
                None => None,
            };
            fleetdeck::tui::login::LoginOutcome {
                contexts: store.contexts_of(&cell),
                context,
                program,
                problem,
            }
        })
    })
}

/// The notice the ledger screen shows: in read-only mode it says first that no executor
/// runs in this console (runs go on only where one runs elsewhere) and nothing is written.
fn readonly_notice(
    lang: fleetdeck::i18n::Lang,
    readonly: bool,
    executor: bool,
    notice: Option<String>,
) -> Option<String> {
    if !readonly {
        return notice;
    }
    let what = if executor {
        t!(lang, "console-readonly-no-executor")
    } else {
        t!(lang, "console-readonly")
    };
    Some(match notice {
        Some(notice) => format!("{what} · {notice}"),
        None => what.to_string(),
    })
}

/// What the demo adds to a live console: an executor in this process, on the demo's time
/// scale, and what gates its rollout.
pub struct Demo {
    /// What the Rollouts screen says gates the demo rollout, and why.
    pub rollout_gates: String,
    /// How long a cluster's checks may say "not yet" before its verdict is final (a
    /// demo's minutes are short, as its soaks are).
    pub verify_timeout: Duration,
}

/// Runs the console on a live sync of `ledger` until the operator quits. With `demo`
/// set, an executor runs in this process too — never in read-only mode, where this
/// process writes to no cluster and no journal; the journal feeds the header (automation
/// running or paused) and the recent-events panels either way.
pub async fn run_live(
    settings: &Settings,
    ledger: Ledger,
    kubeconfig: Kubeconfig,
    notice: Option<String>,
    demo: Option<Demo>,
) -> anyhow::Result<()> {
    let executor = demo.is_some();
    // The console draws on the terminal: no plugin may prompt on it unasked (a login is
    // asked for with `:login`, which gives the terminal to the plugin while it runs).
    fleetdeck::k8s::credentials::store().configure(
        fleetdeck::k8s::credentials::CredentialSettings {
            prompt: fleetdeck::k8s::credentials::Prompt::Never,
            ..settings.credentials
        },
    );
    let mut sync = FleetSync::start(&ledger, kubeconfig.clone(), settings.sync);
    let (activity_tx, activity) = tokio::sync::watch::channel(Activity::default());
    let feed_every = Duration::from_millis(500);
    let feed = if settings.readonly {
        // Read-only opens nothing for writing and creates no journal: the feed waits for
        // one to appear (another console or executor may start writing it).
        let target = settings.journal.clone();
        tokio::task::spawn_blocking(move || {
            journal_feed::feed_once_open(
                || AnyJournal::open(&target, OpenMode::ReadOnly),
                activity_tx,
                feed_every,
            )
        })
    } else {
        let journal = AnyJournal::open(&settings.journal, OpenMode::ReadWrite)?;
        tokio::task::spawn_blocking(move || journal_feed::feed(journal, activity_tx, feed_every))
    };
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let notice = readonly_notice(settings.lang, settings.readonly, executor, notice);
    // Read-only runs no executor, even where one was asked for (the demo).
    let runs_executor = executor && !settings.readonly;
    let executor_task = if runs_executor {
        let store = AnyJournal::open(&settings.journal, OpenMode::ReadWrite)?;
        let port =
            super::engine_port::kube_port(settings, &ledger, &kubeconfig, sync.snapshots.clone())
                .await;
        let actor = Actor(executor_actor(settings));
        let mut options = ExecutorOptions::new(actor);
        options.guard_domain_label = settings.capacity.failure_domain_key.to_string();
        if let Some(demo) = &demo {
            options.rollout.verify_timeout = demo.verify_timeout;
        }
        let mut executor = Executor::new(store, port, options)
            .with_fleet(sync.snapshots.clone())
            .with_windows(fleetdeck::engine::windows::MaintenanceWindows::from_ledger(
                &ledger,
            ));
        Some(tokio::spawn(async move {
            if let Err(error) = executor.run_until(stop_rx).await {
                tracing::error!(%error, "executor stopped");
            }
        }))
    } else {
        None
    };
    let (command_tx, command_rx) = tokio::sync::mpsc::unbounded_channel();
    let (notice_tx, notice_rx) = tokio::sync::mpsc::unbounded_channel();
    let commands_task = super::console_commands::serve(
        settings.journal.clone(),
        settings.actor.clone(),
        super::journal_cmd::mode(settings),
        Some(super::console_commands::Reach {
            ledger: Arc::new(ledger.clone()),
            kubeconfig: kubeconfig.clone(),
            handle: tokio::runtime::Handle::current(),
        }),
        command_rx,
        notice_tx,
    );
    let unregistered_contexts =
        fleetdeck::k8s::kubeconfig::map_contexts(&ledger, &kubeconfig).unregistered_contexts;
    let inputs = ConsoleInputs {
        snapshots: sync.snapshots.clone(),
        ledger: Arc::new(ledger),
        actor: settings.actor.clone(),
        readonly: settings.readonly,
        theme: std::env::var("FLEETDECK_THEME").unwrap_or_else(|_| "dark".into()),
        keymap: std::env::var("FLEETDECK_KEYMAP").unwrap_or_else(|_| "default".into()),
        config_dir: Some(settings.paths.config_dir.clone()),
        no_color: no_color_requested(std::env::var_os("NO_COLOR")),
        activity: Some(activity),
        commands: Some(command_tx),
        notices: Some(notice_rx),
        notice,
        capacity: settings.capacity.clone(),
        executor: runs_executor.then(|| executor_actor(settings)),
        unregistered_contexts,
        rollout_gates: demo.map(|d| d.rollout_gates),
        findings: settings.findings.clone(),
        lang: settings.lang,
        login: Some(login_port()),
    };
    let result = run_console(inputs).await;
    let _ = stop_tx.send(true);
    if let Some(task) = executor_task {
        // The executor finishes its call in flight and gives the lease back.
        let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    }
    // The console dropped its sender: the command thread ends after the last answer.
    let _ = tokio::time::timeout(Duration::from_secs(2), commands_task).await;
    // The console dropped its receivers: the feed thread ends at its next look.
    let _ = tokio::time::timeout(Duration::from_secs(2), feed).await;
    sync.stop();
    result?;
    Ok(())
}

/// Who the executor running inside the console writes as.
fn executor_actor(settings: &Settings) -> String {
    Actor::executor_for(&settings.actor).0
}
