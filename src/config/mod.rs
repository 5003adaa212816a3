//! The user's `config.toml` and where fleetdeck keeps its files (XDG directories).

pub mod capacity;
pub mod credentials;
pub mod findings;
pub mod ledger_file;
pub mod sync;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML for our schema; the message names line and column.
    #[error("{path}:{line}:{col}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Line of the problem, from 1.
        line: usize,
        /// Column of the problem, from 1.
        col: usize,
        /// What is wrong.
        message: String,
    },
}

/// Output formats every command accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// Aligned columns for people.
    #[default]
    Table,
    /// JSON for scripts.
    Json,
    /// YAML for scripts and diffs.
    Yaml,
    /// A Markdown report (`handover`); other commands print their table.
    Markdown,
}

/// `config.toml`: defaults for the global flags. Every key is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Ledger file used when `--ledger` is not given.
    pub ledger: Option<PathBuf>,
    /// Kubeconfig used when `--kubeconfig` is not given (before `KUBECONFIG`).
    pub kubeconfig: Option<PathBuf>,
    /// Journal database used when `--journal` is not given.
    pub journal: Option<PathBuf>,
    /// Actor name recorded in the journal when `--as` is not given.
    pub actor: Option<String>,
    /// Default output format.
    pub output: Option<OutputFormat>,
    /// Start read-only unless told otherwise.
    pub readonly: Option<bool>,
    /// Prometheus base URL for rollout gates (`http://127.0.0.1:9090`).
    pub prometheus: Option<String>,
    /// `[capacity]`: failure-domain and topology label keys, dedication taints, gang
    /// sizes and the safety reserve.
    pub capacity: Option<crate::config::capacity::CapacitySection>,
    /// `[sync]`: how many clusters list at once, and each cluster's request budget.
    pub sync: Option<crate::config::sync::SyncSection>,
    /// `[findings]`: the findings' thresholds and how often their facts are read.
    pub findings: Option<crate::config::findings::FindingsSection>,
    /// `[credentials]`: how long exec plugins may take and how many run at once.
    pub credentials: Option<crate::config::credentials::CredentialsSection>,
    /// Language of the interface (`en`, `zh-CN`) when neither `--lang` nor
    /// `FLEETDECK_LANG` is given; before the locale.
    pub language: Option<String>,
}

impl Config {
    /// The capacity model's configuration: `[capacity]` over the defaults.
    pub fn capacity_config(&self) -> crate::model::capacity::CapacityConfig {
        self.capacity.clone().unwrap_or_default().config()
    }

    /// The fleet sync's options: `[sync]` over the defaults, and `[findings]`'s reading.
    pub fn sync_options(&self) -> crate::k8s::fleet_sync::FleetSyncOptions {
        let mut options = self.sync.unwrap_or_default().options();
        options.cluster.findings = self.findings.clone().unwrap_or_default().facts();
        options
    }

    /// How credentials are obtained: `[credentials]` over the defaults.
    pub fn credential_settings(&self) -> crate::k8s::credentials::CredentialSettings {
        self.credentials.unwrap_or_default().settings()
    }

    /// The findings' thresholds: `[findings]` over the defaults.
    pub fn findings_thresholds(&self) -> crate::model::findings::Thresholds {
        self.findings.clone().unwrap_or_default().thresholds()
    }

    /// Reads `path`; a missing file is an empty configuration.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        Config::parse(&text, path)
    }

    /// Parses configuration text; `path` is used in error messages and to resolve `~`.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let mut config: Config = toml::from_str(text).map_err(|e| {
            let (line, col) = e
                .span()
                .map(|span| line_col(text, span.start))
                .unwrap_or((1, 1));
            ConfigError::Invalid {
                path: path.to_path_buf(),
                line,
                col,
                message: e.message().to_string(),
            }
        })?;
        for p in [
            &mut config.ledger,
            &mut config.kubeconfig,
            &mut config.journal,
        ]
        .into_iter()
        .flatten()
        {
            *p = expand_home(p);
        }
        Ok(config)
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// `~/x` → `$HOME/x`; other paths unchanged.
pub fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// Where fleetdeck's files live on this machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Paths {
    /// `config.toml`.
    pub config_file: PathBuf,
    /// Directory for user themes and keymaps overriding the built-in ones.
    pub config_dir: PathBuf,
    /// Directory for persistent data.
    pub data_dir: PathBuf,
    /// Default journal database.
    pub journal: PathBuf,
    /// Log file (the console never logs onto the terminal it draws on).
    pub log_file: PathBuf,
}

impl Paths {
    /// XDG locations (`~/.config/fleetdeck`, `~/.local/share/fleetdeck`, …); the config
    /// file may be moved with `FLEETDECK_CONFIG` and the data directory with
    /// `FLEETDECK_DATA_DIR`.
    pub fn discover() -> Paths {
        let dirs = directories::ProjectDirs::from("dev", "fleetdeck", "fleetdeck");
        let config_dir = dirs
            .as_ref()
            .map(|d| d.config_dir().to_path_buf())
            .unwrap_or_else(|| PathBuf::from(".fleetdeck"));
        let data_dir = std::env::var_os("FLEETDECK_DATA_DIR")
            .map(PathBuf::from)
            .or_else(|| dirs.as_ref().map(|d| d.data_dir().to_path_buf()))
            .unwrap_or_else(|| PathBuf::from(".fleetdeck"));
        let state_dir = dirs
            .as_ref()
            .and_then(|d| d.state_dir().map(Path::to_path_buf))
            .filter(|_| std::env::var_os("FLEETDECK_DATA_DIR").is_none())
            .unwrap_or_else(|| data_dir.clone());
        let config_file = std::env::var_os("FLEETDECK_CONFIG")
            .map(PathBuf::from)
            .unwrap_or_else(|| config_dir.join("config.toml"));
        Paths {
            config_file,
            journal: data_dir.join("journal.sqlite"),
            log_file: state_dir.join("fleetdeck.log"),
            config_dir,
            data_dir,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_key() {
        let config = Config::parse(
            "ledger = \"/srv/ledger.yaml\"\noutput = \"json\"\nreadonly = true\nactor = \"alice@ops\"\n",
            Path::new("config.toml"),
        )
        .unwrap();
        assert_eq!(config.ledger, Some(PathBuf::from("/srv/ledger.yaml")));
        assert_eq!(config.output, Some(OutputFormat::Json));
        assert_eq!(config.readonly, Some(true));
    }

    #[test]
    fn unknown_keys_name_file_line_and_column() {
        let err =
            Config::parse("ledger = \"x\"\nledgr = \"y\"\n", Path::new("config.toml")).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("config.toml:2:1: unknown field `ledgr`"),
            "{text}"
        );
    }

    #[test]
    fn missing_file_is_empty_config() {
        assert_eq!(
            Config::load(Path::new("/nonexistent/config.toml")).unwrap(),
            Config::default()
        );
    }
}
