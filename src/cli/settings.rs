//! The settings in effect: command-line flags over config.toml over built-in defaults.

use std::path::PathBuf;

use anyhow::Context;
use fleetdeck::config::{Config, OutputFormat, Paths};
use fleetdeck::journal::JournalTarget;
use fleetdeck::k8s::kubeconfig::{KubeconfigSource, resolve_source};

use super::args::GlobalArgs;

/// Everything a command needs to know about its environment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where fleetdeck's files live.
    pub paths: Paths,
    /// The ledger file, if one is configured.
    pub ledger: Option<PathBuf>,
    /// Where kubeconfig files come from.
    pub kubeconfig: KubeconfigSource,
    /// The journal: a SQLite file, or a PostgreSQL database (team mode).
    pub journal: JournalTarget,
    /// Who is acting.
    pub actor: String,
    /// Read-only mode.
    pub readonly: bool,
    /// Output format.
    pub output: OutputFormat,
    /// Prometheus base URL for rollout gates.
    pub prometheus: Option<String>,
    /// The capacity model's configuration (`[capacity]` in config.toml).
    pub capacity: fleetdeck::model::capacity::CapacityConfig,
    /// How the fleet is synced (`[sync]` in config.toml).
    pub sync: fleetdeck::k8s::fleet_sync::FleetSyncOptions,
    /// The findings' thresholds (`[findings]` in config.toml).
    pub findings: fleetdeck::model::findings::Thresholds,
    /// The language people read (`--lang`, `FLEETDECK_LANG`, `language`, the locale).
    pub lang: fleetdeck::i18n::Lang,
    /// How credentials are obtained (`[credentials]` in config.toml, `--no-interactive`).
    pub credentials: fleetdeck::k8s::credentials::CredentialSettings,
}

impl Settings {
    /// Resolves flags, config file and defaults.
    pub fn resolve(global: &GlobalArgs) -> anyhow::Result<Settings> {
        let mut paths = Paths::discover();
        if let Some(config) = &global.config {
            paths.config_file = config.clone();
        }
        let config = Config::load(&paths.config_file)?;
        let kubeconfig_flag = global.kubeconfig.clone().or(config.kubeconfig.clone());
        let journal = JournalTarget::from_path(
            &global
                .journal
                .clone()
                .or(config.journal.clone())
                .unwrap_or_else(|| paths.journal.clone()),
        );
        let env = |name: &str| std::env::var(name).ok();
        let (fleetdeck_lang, lc_all, lc_messages, lang) = (
            env("FLEETDECK_LANG"),
            env("LC_ALL"),
            env("LC_MESSAGES"),
            env("LANG"),
        );
        let lang = fleetdeck::i18n::choose(&fleetdeck::i18n::Choice {
            flag: global.lang.as_deref(),
            env: fleetdeck_lang.as_deref(),
            config: config.language.as_deref(),
            lc_all: lc_all.as_deref(),
            lc_messages: lc_messages.as_deref(),
            lang: lang.as_deref(),
        })
        .context("choosing the language (--lang, FLEETDECK_LANG, `language` in config.toml)")?; // i18n: not for people (said before a language is known: English)
        let actor = match &journal {
            JournalTarget::Postgres(text) => team_actor(text, global.actor.as_deref(), lang)?,
            JournalTarget::Sqlite(_) => global
                .actor
                .clone()
                .or(config.actor.clone())
                .unwrap_or_else(default_actor),
        };
        Ok(Settings {
            lang,
            ledger: global.ledger.clone().or(config.ledger.clone()),
            kubeconfig: resolve_source(
                kubeconfig_flag.as_deref(),
                std::env::var_os("KUBECONFIG"),
                std::env::var_os("HOME").map(PathBuf::from),
            ),
            journal,
            actor,
            readonly: global.readonly || config.readonly.unwrap_or(false),
            prometheus: global.prometheus.clone().or(config.prometheus.clone()),
            output: global.output.or(config.output).unwrap_or_default(),
            capacity: config.capacity_config(),
            sync: config.sync_options(),
            findings: config.findings_thresholds(),
            credentials: fleetdeck::k8s::credentials::CredentialSettings {
                // A command line may let a plugin prompt, as kubectl does; the console
                // never does (it sets `Never` itself).
                prompt: if global.no_interactive {
                    fleetdeck::k8s::credentials::Prompt::Never
                } else {
                    fleetdeck::k8s::credentials::Prompt::AtTerminal
                },
                ..config.credential_settings()
            },
            paths,
        })
    }

    /// The ledger file, or an error that says how to name one.
    pub fn ledger_path(&self) -> anyhow::Result<PathBuf> {
        self.ledger.clone().with_context(|| {
            fleetdeck::t!(
                self.lang,
                "no-ledger-given",
                config = self.paths.config_file.display().to_string()
            )
        })
    }
}

/// The actor on a PostgreSQL journal: the role the connection logs in as, which the
/// database writes on every event whatever a client claims. `--as` cannot change that, so
/// it is refused rather than silently ignored.
fn team_actor(
    conninfo: &str,
    claimed: Option<&str>,
    lang: fleetdeck::i18n::Lang,
) -> anyhow::Result<String> {
    let info = fleetdeck::journal::postgres::conninfo(conninfo)?;
    if let Some(claimed) = claimed {
        anyhow::bail!(
            "{}",
            fleetdeck::t!(
                lang,
                "as-refused-on-postgres",
                claimed = claimed,
                user = info.user
            )
        );
    }
    Ok(info.user)
}

/// `user@host`, from the environment; without `USER` or `LOGNAME` (cron, containers,
/// `env -i`), the account the process runs as, so the journal never names "unknown".
fn default_actor() -> String {
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("LOGNAME"))
        .ok()
        .filter(|u| !u.is_empty())
        .or_else(account_name)
        .unwrap_or_else(|| "unknown".to_string());
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".to_string());
    format!("{user}@{host}")
}

/// The name of the account this process runs as (`/etc/passwd`), or `uid-N`.
fn account_name() -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let uid = std::fs::metadata("/proc/self").ok()?.uid();
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    Some(name_of_uid(&passwd, uid).unwrap_or_else(|| format!("uid-{uid}")))
}

/// The login name `passwd` (the `/etc/passwd` format) gives `uid`.
fn name_of_uid(passwd: &str, uid: u32) -> Option<String> {
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let id = fields.nth(1)?;
        (id.parse() == Ok(uid) && !name.is_empty()).then(|| name.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::name_of_uid;

    #[test]
    fn the_login_name_is_read_by_uid() {
        let passwd = "root:x:0:0:root:/root:/bin/bash\n# comment\noncall:x:1000:1000::/home/oncall:/bin/sh\n";
        assert_eq!(name_of_uid(passwd, 1000).as_deref(), Some("oncall"));
        assert_eq!(name_of_uid(passwd, 0).as_deref(), Some("root"));
        assert_eq!(name_of_uid(passwd, 42), None);
    }
}
