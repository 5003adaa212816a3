//! `[credentials]` in `config.toml`: how long an exec credential plugin may take and how
//! many may run at once. Every key is optional; what is left out keeps its default.

use std::num::NonZeroUsize;

use serde::{Deserialize, Serialize};

use crate::config::findings::WrittenDuration;
use crate::k8s::credentials::CredentialSettings;

/// `[credentials]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CredentialsSection {
    /// A plugin that has not answered in this long is stopped (default 30s).
    pub exec_timeout: Option<WrittenDuration>,
    /// Most plugins running at once, across every credential (default 8).
    pub max_parallel: Option<NonZeroUsize>,
}

impl CredentialsSection {
    /// The credential settings: these keys over the defaults.
    pub fn settings(&self) -> CredentialSettings {
        let mut settings = CredentialSettings::default();
        if let Some(timeout) = self.exec_timeout {
            settings.exec_timeout = timeout.0;
        }
        if let Some(n) = self.max_parallel {
            settings.max_parallel = n.get();
        }
        settings
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

    use crate::config::Config;

    #[test]
    fn credential_keys_override_the_defaults_and_nonsense_is_refused() {
        let config = Config::parse(
            "[credentials]\nexec_timeout = \"45s\"\nmax_parallel = 4\n",
            Path::new("config.toml"),
        )
        .unwrap();
        let settings = config.credential_settings();
        assert_eq!(settings.exec_timeout, Duration::from_secs(45));
        assert_eq!(settings.max_parallel, 4);
        let defaults = Config::default().credential_settings();
        assert_eq!(defaults.exec_timeout, Duration::from_secs(30));
        assert_eq!(defaults.max_parallel, 8);
        for bad in [
            "[credentials]\nmax_parallel = 0\n",
            "[credentials]\nexec_timeout = \"soon\"\n",
            "[credentials]\nexec_timeout = \"0s\"\n",
        ] {
            let err = Config::parse(bad, Path::new("config.toml"))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("config.toml:2:"), "{bad}: {err}");
        }
    }
}
