//! The release digest: one sha256 over everything that changes what lands on a cluster.
//! A cluster records the digest staged for it and the digest it was applied, so a re-run
//! compares digests instead of version names and never applies the same thing twice.

use ring::digest::{Context, SHA256};
use serde::{Deserialize, Serialize};

use super::spec::{Release, ReleaseAction};

/// `sha256:<hex>` of a release's content.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ReleaseDigest(pub String);

impl ReleaseDigest {
    /// The digest as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first 12 hex digits, for tables.
    pub fn short(&self) -> &str {
        let hex = self.0.strip_prefix("sha256:").unwrap_or(&self.0);
        hex.get(..12).unwrap_or(hex)
    }
}

impl std::fmt::Display for ReleaseDigest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One manifest file of an `apply` release: its path relative to the manifest directory
/// (with `/` separators) and its bytes. The caller reads the files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// Path relative to the manifest directory.
    pub path: String,
    /// The file's content.
    pub bytes: Vec<u8>,
}

/// The digest of a release: its bundle, its action (the argv of an `exec`, which names
/// chart versions and values), and the manifests' paths and bytes. Not the name (renaming
/// changes nothing on a cluster) nor the checks (they only read). Every field is written
/// length-prefixed and in sorted order, so the digest depends only on content.
pub fn release_digest(release: &Release, manifests: &[Manifest]) -> ReleaseDigest {
    let mut ctx = Context::new(&SHA256);
    let mut put = |tag: &str, bytes: &[u8]| {
        ctx.update(tag.as_bytes());
        ctx.update(&(bytes.len() as u64).to_be_bytes());
        ctx.update(bytes);
    };
    put("fleetdeck-release", b"v1");
    for (component, version) in &release.bundle {
        put("component", component.as_bytes());
        put("version", version.as_bytes());
    }
    match &release.action {
        ReleaseAction::Apply { .. } => put("action", b"apply"),
        ReleaseAction::Exec(exec) => {
            put("action", b"exec");
            for arg in &exec.argv {
                put("arg", arg.as_bytes());
            }
        }
    }
    let mut sorted: Vec<&Manifest> = manifests.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    for m in sorted {
        put("path", m.path.as_bytes());
        put("manifest", &m.bytes);
    }
    let digest = ctx.finish();
    let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
    ReleaseDigest(format!("sha256:{hex}"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Duration;

    use super::*;
    use crate::model::rollout::spec::ExecCommand;

    fn release(cni: &str) -> Release {
        Release {
            name: "r".into(),
            bundle: BTreeMap::from([
                ("cni".to_string(), cni.to_string()),
                ("kubernetes".to_string(), "v1.31.4".to_string()),
            ]),
            action: ReleaseAction::Apply {
                directory: "m".into(),
            },
            checks: Vec::new(),
        }
    }

    fn manifest(path: &str, text: &str) -> Manifest {
        Manifest {
            path: path.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn digest_is_deterministic_and_order_free() {
        let a = release_digest(
            &release("c1"),
            &[manifest("a.yaml", "x"), manifest("b.yaml", "y")],
        );
        let b = release_digest(
            &release("c1"),
            &[manifest("b.yaml", "y"), manifest("a.yaml", "x")],
        );
        assert_eq!(a, b);
        assert!(a.as_str().starts_with("sha256:"));
        assert_eq!(a.as_str().len(), 7 + 64);
        assert_eq!(a.short().len(), 12);
    }

    #[test]
    fn digest_covers_bundle_manifests_and_argv_but_not_the_name() {
        let base = release_digest(&release("c1"), &[manifest("a.yaml", "x")]);
        assert_ne!(
            base,
            release_digest(&release("c2"), &[manifest("a.yaml", "x")])
        );
        assert_ne!(
            base,
            release_digest(&release("c1"), &[manifest("a.yaml", "z")])
        );
        assert_ne!(
            base,
            release_digest(&release("c1"), &[manifest("b.yaml", "x")])
        );
        // Length prefixes keep "ab"+"c" apart from "a"+"bc".
        assert_ne!(
            release_digest(&release("c1"), &[manifest("ab", "c")]),
            release_digest(&release("c1"), &[manifest("a", "bc")])
        );
        let mut renamed = release("c1");
        renamed.name = "other".into();
        assert_eq!(base, release_digest(&renamed, &[manifest("a.yaml", "x")]));
        let exec = |arg: &str| {
            let mut r = release("c1");
            r.action = ReleaseAction::Exec(ExecCommand {
                argv: vec!["helm".into(), arg.into()],
                timeout: Duration::from_secs(60),
            });
            release_digest(&r, &[])
        };
        assert_ne!(exec("--version=1"), exec("--version=2"));
    }
}
