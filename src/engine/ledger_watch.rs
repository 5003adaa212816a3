//! A running executor notices ledger edits: the file is read again when it changes and
//! validated as any command validates it. A good edit (a cluster re-pinned after it was
//! rebuilt, a new context) is taken; a bad one is refused, the last good ledger is kept,
//! and the refusal is said, once per edit.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::model::ledger::Ledger;

/// What reading the ledger file again found.
#[derive(Debug)]
pub enum LedgerChange {
    /// Nothing changed since the last read.
    Unchanged,
    /// A valid new ledger.
    Changed(Ledger),
    /// The file changed but cannot be used (errors, or unreadable): the last good ledger
    /// stays in force. The text says why, naming the file and each error.
    Refused(String),
}

/// Watches one ledger file by its content.
#[derive(Debug)]
pub struct LedgerWatch {
    path: PathBuf,
    /// The content last read (good or bad), so each edit is judged once.
    seen: Option<u64>,
}

fn fingerprint(bytes: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

impl LedgerWatch {
    /// Watches `path`, whose current content is the ledger in force.
    pub fn new(path: &Path) -> Self {
        LedgerWatch {
            path: path.to_path_buf(),
            seen: std::fs::read(path).ok().map(|b| fingerprint(&b)),
        }
    }

    /// The file watched.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file again; what changed since the last read.
    pub fn poll(&mut self) -> LedgerChange {
        let bytes = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(error) => {
                // Said once, until the file is back.
                if self.seen == Some(0) {
                    return LedgerChange::Unchanged;
                }
                self.seen = Some(0);
                return LedgerChange::Refused(format!(
                    "cannot read ledger {}: {error}",
                    self.path.display()
                ));
            }
        };
        let print = fingerprint(&bytes);
        if self.seen == Some(print) {
            return LedgerChange::Unchanged;
        }
        self.seen = Some(print);
        match crate::ledger_file::load(&self.path) {
            Ok(ledger) => LedgerChange::Changed(ledger),
            Err(error) => LedgerChange::Refused(error.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEDGER: &str = "apiVersion: fleetdeck.dev/v1
kind: Ledger
labelDictionary:
  env: [staging]
  tier: [standard]
clusters:
  - {id: a, context: a, env: staging, region: r, failureDomain: f, tier: standard, lifecycle: building}
";

    #[test]
    fn each_edit_is_judged_once_and_a_bad_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.yaml");
        std::fs::write(&path, LEDGER).unwrap();
        let mut watch = LedgerWatch::new(&path);
        assert!(matches!(watch.poll(), LedgerChange::Unchanged));
        std::fs::write(&path, LEDGER.replace("region: r", "region: q")).unwrap();
        match watch.poll() {
            LedgerChange::Changed(ledger) => assert_eq!(ledger.clusters[0].region, "q"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(watch.poll(), LedgerChange::Unchanged));
        std::fs::write(&path, LEDGER.replace("tier: standard,", "tier: standrad,")).unwrap();
        match watch.poll() {
            LedgerChange::Refused(why) => {
                assert!(
                    why.contains("ledger.yaml:7:") && why.contains("standrad"),
                    "{why}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(watch.poll(), LedgerChange::Unchanged),
            "a bad edit is said once"
        );
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(watch.poll(), LedgerChange::Refused(_)));
        assert!(matches!(watch.poll(), LedgerChange::Unchanged));
    }
}
