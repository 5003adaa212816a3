//! `fleetdeck rollout plan | start | list | show | approve | pause | resume | abort`.
//! `plan` is a dry run from the files alone; the others read the journal or write operator
//! commands to it, which the executor folds into the run.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use fleetdeck::engine::rollout_start::{NewRollout, record_rollout};
use fleetdeck::journal::JournalStore;
use fleetdeck::model::rollout::{
    Manifest, ManifestText, OrderedObject, ReleaseAction, ReleaseDigest, RolloutPlan, RolloutSpec,
    apply_order, plan_rollout, plan_rollout_live, read_rollout, release_digest,
};
use fleetdeck::model::run::{Actor, OperatorCommand, PauseScope, RunId, RunView};
use jiff::Timestamp;
use serde::Serialize;

use fleetdeck::t;

use super::journal_cmd::open;
use super::output::{Table, emit, outln};
use super::rollout_render::{render_live, render_order, render_plan, result_word, verified_word};
use super::settings::Settings;

/// `fleetdeck rollout …`
#[derive(Debug, Subcommand)]
pub enum RolloutCommand {
    /// Check a rollout file and print its stages, batches, coverage and untested
    /// combinations against the ledger (dry run; exit 1 on errors)
    Plan {
        /// The rollout file
        file: PathBuf,
    },
    /// Start a rollout: journal its plan; `fleetdeck run` (or the console) carries it out
    Start {
        /// The rollout file
        file: PathBuf,
        /// Start even though a target has an expired ledger exception (journaled)
        #[arg(long)]
        acknowledge_expired_exceptions: bool,
    },
    /// Rollout runs in the journal, with their status
    List,
    /// One rollout run: batches, clusters, staged and applied digests
    Show {
        /// The run id
        run: String,
    },
    /// Approve the batch waiting for approval (or the one named)
    Approve {
        /// The run id
        run: String,
        /// The batch, counted from 1 (default: the one awaiting approval)
        #[arg(long)]
        batch: Option<usize>,
        /// Why, for the audit trail
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Pause a rollout: no new cluster starts; nothing is undone
    Pause {
        /// The run id
        run: String,
        /// Why
        #[arg(long)]
        reason: String,
    },
    /// Resume a paused or halted rollout
    Resume {
        /// The run id
        run: String,
        /// Why it is safe to go on (may be left out)
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Stop a rollout for good; nothing is undone
    Abort {
        /// The run id
        run: String,
        /// Why (`--reason` works too, as for a pause)
        #[arg(long, visible_alias = "reason")]
        note: String,
    },
}

/// Dispatches `rollout …`.
pub fn run(settings: &Settings, command: &RolloutCommand) -> anyhow::Result<ExitCode> {
    match command {
        RolloutCommand::Plan { file } => plan(settings, file),
        RolloutCommand::Start {
            file,
            acknowledge_expired_exceptions,
        } => start(settings, file, *acknowledge_expired_exceptions),
        RolloutCommand::List => list(settings),
        RolloutCommand::Show { run } => show(settings, run),
        RolloutCommand::Approve { run, batch, note } => {
            let batch = match batch {
                Some(0) => anyhow::bail!(t!(settings.lang, "batches-from-one")),
                other => other.map(|n| n - 1),
            };
            // Read-only is refused by `record` without reaching any cluster.
            if !settings.readonly {
                super::approve_check::check_clusters(settings, run, batch)?;
            }
            record(
                settings,
                OperatorCommand::Approve {
                    run: RunId(run.clone()),
                    batch,
                    note: note.clone(),
                },
            )
        }
        RolloutCommand::Pause { run, reason } => record(
            settings,
            OperatorCommand::Pause {
                scope: PauseScope::Run {
                    run: RunId(run.clone()),
                },
                reason: reason.clone(),
            },
        ),
        RolloutCommand::Resume { run, note } => record(
            settings,
            OperatorCommand::Resume {
                scope: PauseScope::Run {
                    run: RunId(run.clone()),
                },
                note: note.clone(),
            },
        ),
        RolloutCommand::Abort { run, note } => record(
            settings,
            OperatorCommand::Abort {
                run: RunId(run.clone()),
                note: note.clone(),
            },
        ),
    }
}

/// Records an operator command the way the console does (same checks, same events).
fn record(settings: &Settings, command: OperatorCommand) -> anyhow::Result<ExitCode> {
    let recorded = super::journal_cmd::record_command(settings, &command)?;
    outln!("{}", recorded.message.text(settings.lang))?;
    Ok(ExitCode::SUCCESS)
}

/// Reads every file under `dir`, with paths relative to it, for the release digest.
fn read_manifests(lang: fleetdeck::i18n::Lang, dir: &Path) -> anyhow::Result<Vec<Manifest>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let entries = std::fs::read_dir(&current).with_context(|| {
            t!(
                lang,
                "rollout-cannot-read-manifests",
                path = current.display().to_string()
            )
        })?;
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap_or(&path);
                let name: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                let bytes = std::fs::read(&path)
                    .with_context(|| t!(lang, "cannot-read", path = path.display().to_string()))?;
                out.push(Manifest {
                    path: name.join("/"),
                    bytes,
                });
            }
        }
    }
    Ok(out)
}

/// The manifests of a rollout file's release, read from disk (none for `exec`).
pub(super) fn manifests_of(
    lang: fleetdeck::i18n::Lang,
    file: &Path,
    spec: &RolloutSpec,
) -> anyhow::Result<Vec<Manifest>> {
    match &spec.release.action {
        ReleaseAction::Apply { directory } => {
            let base = file.parent().unwrap_or_else(|| Path::new("."));
            read_manifests(lang, &base.join(directory))
        }
        ReleaseAction::Exec(_) => Ok(Vec::new()),
    }
}

/// A rollout file read, checked and planned against the ledger.
struct Loaded {
    name: String,
    spec: RolloutSpec,
    digest: ReleaseDigest,
    manifests: Vec<ManifestText>,
    /// Every object of the manifests, in the order the executor applies them.
    order: Vec<OrderedObject>,
    plan: RolloutPlan,
    /// The ledger it was planned against.
    ledger: fleetdeck::model::ledger::Ledger,
}

/// The manifests as text (what the journal keeps and the executor applies).
pub(super) fn manifest_texts(
    lang: fleetdeck::i18n::Lang,
    manifests: &[Manifest],
) -> anyhow::Result<Vec<ManifestText>> {
    manifests
        .iter()
        .map(|m| {
            let text = String::from_utf8(m.bytes.clone())
                .with_context(|| t!(lang, "rollout-manifest-not-utf8", path = m.path.clone()))?;
            Ok(ManifestText {
                path: m.path.clone(),
                text,
            })
        })
        .collect()
}

/// Reads and plans `file`; `None` after printing its errors.
fn load(settings: &Settings, file: &Path) -> anyhow::Result<Option<Loaded>> {
    let read = |text: &str| {
        let report = read_rollout(text);
        (report.spec, report.diagnostics)
    };
    let Some(spec) = super::spec_file::read_spec(settings.lang, file, read)? else {
        return Ok(None);
    };
    let name = file.display().to_string();
    let ledger = super::ledger_findings::load(settings.lang, &settings.ledger_path()?)?;
    let manifests = manifests_of(settings.lang, file, &spec)?;
    let digest = release_digest(&spec.release, &manifests);
    let manifests = manifest_texts(settings.lang, &manifests)?;
    // A release whose objects cannot be put in order would fail on every cluster.
    let order = match apply_order(&manifests) {
        Ok(order) => order,
        Err(error) => {
            let error = error.to_string();
            eprintln!(
                "{}",
                t!(
                    settings.lang,
                    "rollout-bad-manifests",
                    file = name.as_str(),
                    error = error
                )
            );
            return Ok(None);
        }
    };
    // Canaries cover what actually runs: the targets' live versions where they can be read.
    let targets: Vec<fleetdeck::model::ledger::ClusterId> =
        fleetdeck::model::rollout::select_targets(&spec, &ledger)?
            .iter()
            .map(|c| c.id.clone())
            .collect();
    let plan = match super::rollout_live::observe(settings, &ledger, &targets) {
        Ok(live) => plan_rollout_live(&spec, &ledger, Some(&live))?,
        Err(why) => {
            // i18n: not for people (the program's name before its message)
            eprintln!(
                "fleetdeck: {}",
                t!(
                    settings.lang,
                    "rollout-live-not-read",
                    why = why.to_string()
                )
            );
            plan_rollout(&spec, &ledger)?
        }
    };
    Ok(Some(Loaded {
        name,
        spec,
        digest,
        manifests,
        order,
        plan,
        ledger,
    }))
}

fn plan(settings: &Settings, file: &Path) -> anyhow::Result<ExitCode> {
    let Some(loaded) = load(settings, file)? else {
        return Ok(ExitCode::FAILURE);
    };
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Out<'a> {
        file: &'a str,
        digest: &'a ReleaseDigest,
        plan: &'a RolloutPlan,
        apply_order: &'a [OrderedObject],
        windows: &'a [super::window_cmd::WindowLine],
    }
    let windows = super::rollout_windows::target_windows(settings, &loaded.plan)?;
    emit(
        settings.output,
        &Out {
            file: &loaded.name,
            digest: &loaded.digest,
            plan: &loaded.plan,
            apply_order: &loaded.order,
            windows: &windows,
        },
        || {
            let mut s = render_plan(settings.lang, &loaded.spec, &loaded.digest, &loaded.plan);
            s.push_str(&render_order(settings.lang, &loaded.order));
            s.push_str(&super::rollout_windows::render(settings.lang, &windows));
            s
        },
    )?;
    Ok(ExitCode::SUCCESS)
}

fn start(settings: &Settings, file: &Path, acknowledge_expired: bool) -> anyhow::Result<ExitCode> {
    if settings.readonly {
        return Err(super::exit::Refused(t!(settings.lang, "rollout-start-readonly")).into());
    }
    let Some(loaded) = load(settings, file)? else {
        return Ok(ExitCode::FAILURE);
    };
    let targets: Vec<fleetdeck::model::ledger::ClusterId> = loaded
        .plan
        .stages
        .iter()
        .flat_map(|s| s.batches.iter().flatten().cloned())
        .collect();
    let acknowledged = super::ledger_findings::acknowledge(
        &loaded.ledger,
        &targets,
        acknowledge_expired,
        settings.lang,
        &t!(
            settings.lang,
            "ack-what-rollout",
            release = loaded.spec.release.name.clone()
        ),
    )?;
    let texts = loaded.manifests;
    let mut journal = open(settings)?;
    let actor = Actor(settings.actor.clone());
    let (run, spec) = record_rollout(
        &mut journal,
        &actor,
        NewRollout {
            rollout: loaded.spec,
            digest: loaded.digest,
            manifests: texts,
            plan: &loaded.plan,
        },
        Timestamp::now(),
    )?;
    if let Some(text) = super::ledger_findings::acknowledgement_note(&acknowledged) {
        super::journal_cmd::record_command(
            settings,
            &OperatorCommand::Note {
                run: Some(run.clone()),
                item: None,
                cluster: None,
                text,
            },
        )?;
    }
    let batches = spec.batches.len();
    let targets: usize = spec.batches.iter().map(|b| b.clusters.len()).sum();
    let lang = settings.lang;
    outln!(
        "{}",
        t!(
            lang,
            "rollout-started",
            run = run.to_string(),
            actor = actor.to_string(),
            targets = targets.to_string(),
            batches = batches.to_string(),
            release = spec.rollout.release.name.clone(),
            digest = spec.digest.to_string()
        )
    )?;
    let live = render_live(lang, &loaded.plan);
    if !live.is_empty() {
        super::output::write_out(live)?;
    }
    if !spec.applied.is_empty() {
        outln!(
            "{}",
            t!(
                lang,
                "rollout-already-applied",
                count = spec.applied.len().to_string()
            )
        )?;
    }
    if spec.rollout.approvals == fleetdeck::model::rollout::ApprovalPolicy::DistinctFromAuthor {
        outln!(
            "{}",
            t!(lang, "rollout-distinct-approver", actor = actor.to_string())
        )?;
    }
    outln!("{}", t!(lang, "rollout-follow", run = run.to_string()))?;
    Ok(ExitCode::SUCCESS)
}

/// Rollout runs are the runs started from a rollout file.
fn list(settings: &Settings) -> anyhow::Result<ExitCode> {
    let projection = open(settings)?.projection()?;
    let runs: Vec<&RunView> = projection
        .runs
        .values()
        .filter(|r| r.is_rollout())
        .collect();
    emit(settings.output, &runs, || {
        let mut table = Table::in_lang(
            settings.lang,
            vec!["RUN", "TITLE", "STATUS", "BATCH", "CLUSTERS", "CREATED-BY"],
        );
        for run in &runs {
            let current = run
                .rollout
                .batches
                .iter()
                .next_back()
                .map_or("-".to_string(), |(b, _)| {
                    format!("{} {}", b + 1, projection.batch_word(run, *b))
                });
            table.row(vec![
                run.id.0.clone(),
                run.title.clone(),
                projection.effective_status(run).to_string(),
                current,
                run.items.len().to_string(),
                run.created_by.0.clone(),
            ]);
        }
        table.render()
    })?;
    Ok(ExitCode::SUCCESS)
}

fn show(settings: &Settings, id: &str) -> anyhow::Result<ExitCode> {
    let projection = open(settings)?.projection()?;
    let run = super::journal_cmd::run_view(&projection, id)?;
    emit(settings.output, run, || {
        let lang = settings.lang;
        let mut s = t!(
            lang,
            "rollout-show-head",
            run = run.id.to_string(),
            title = run.title.clone(),
            status = projection.effective_status(run).to_string()
        );
        s.push('\n');
        if let Some(why) = &run.rollout.halted {
            s.push_str(&t!(lang, "rollout-halted", why = why.to_string()));
            s.push('\n');
        }
        let mut batches = Table::in_lang(settings.lang, vec!["BATCH", "CLUSTERS", "PHASE"]);
        for (i, clusters) in run.batches.iter().enumerate() {
            let ids: Vec<&str> = clusters.iter().map(|c| c.as_str()).collect();
            batches.row(vec![
                (i + 1).to_string(),
                ids.join(","),
                projection.batch_word(run, i),
            ]);
        }
        s.push_str(&batches.render());
        let mut items = Table::in_lang(
            settings.lang,
            vec![
                "CLUSTER",
                "STAGED",
                "APPLIED",
                "VERIFIED",
                "RESULT",
                "OPEN-INTENTS",
            ],
        );
        for item_id in &run.order {
            let Some(item) = run.items.get(item_id) else {
                continue;
            };
            let digest = |d: &Option<ReleaseDigest>| {
                d.as_ref()
                    .map_or("-".to_string(), |d| d.short().to_string())
            };
            items.row(vec![
                item_id.0.clone(),
                digest(&item.staged),
                digest(&item.applied),
                item.verified
                    .as_ref()
                    .map_or("-".to_string(), |v| verified_word(v).to_string()),
                result_word(item).to_string(),
                item.open_intents.len().to_string(),
            ]);
        }
        s.push_str(&items.render());
        // Each failed cluster's reason, in full: a table cell would cut it.
        let failures: Vec<String> = run
            .order
            .iter()
            .filter_map(|id| {
                let why = run.items.get(id)?.rollout_failure()?;
                Some(format!("  {id}: {why}\n"))
            })
            .collect();
        if !failures.is_empty() {
            s.push_str(&t!(lang, "rollout-failed-or-unknown"));
            s.push('\n');
            s.push_str(&failures.concat());
        }
        // And what each cluster held back waits for: nothing sits without a reason.
        let waits: Vec<String> = run
            .order
            .iter()
            .filter_map(|id| {
                let waiting = run.items.get(id)?.waiting.as_ref()?;
                Some(format!("  {id}: {}\n", waiting.why))
            })
            .collect();
        if !waits.is_empty() {
            s.push_str(&t!(lang, "rollout-waiting"));
            s.push('\n');
            s.push_str(&waits.concat());
        }
        s
    })?;
    Ok(ExitCode::SUCCESS)
}
