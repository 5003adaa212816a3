//! Kubernetes versions as the upgrade rules read them: a major and a minor
//! (`v1.31.4-eks-1234` → 1.31), and a component's version against the pattern a support
//! matrix writes (`v1.32` covers `v1.32.3`; `cilium 1.16` covers `cilium 1.16.6`).

use std::fmt;

/// A Kubernetes minor release, `1.32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Minor {
    /// Major version (1).
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

impl Minor {
    /// Reads `v1.32.3`, `1.32`, `v1.31.4-eks-1234`; `None` for anything else.
    pub fn parse(version: &str) -> Option<Minor> {
        let text = version.trim();
        let text = text.strip_prefix('v').unwrap_or(text);
        let mut parts = text.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor: String = parts
            .next()?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Some(Minor {
            major,
            minor: minor.parse().ok()?,
        })
    }

    /// How many minor releases `self` is behind `newer` (0 when not behind; another
    /// major counts as far behind).
    pub fn behind(self, newer: Minor) -> u32 {
        if self.major != newer.major {
            return if self.major < newer.major {
                u32::MAX
            } else {
                0
            };
        }
        newer.minor.saturating_sub(self.minor)
    }

    /// The minor release after this one.
    pub fn next(self) -> Minor {
        Minor {
            major: self.major,
            minor: self.minor + 1,
        }
    }
}

/// Written as people write it (`v1.32`), also as a JSON key.
impl serde::Serialize for Minor {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Minor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}.{}", self.major, self.minor)
    }
}

/// Whether `version` is covered by `pattern`: equal, or `pattern` followed by a separator
/// in `version` (`.`, `-`, `+`, a space). `v1.32` covers `v1.32.3` but not `v1.320`;
/// `cilium 1.16` covers `cilium 1.16.6`. A leading `v` on either side is not needed to
/// match (`1.32` covers `v1.32.3`).
pub fn covers(pattern: &str, version: &str) -> bool {
    let strip = |s: &str| {
        let s = s.trim();
        s.strip_prefix('v').unwrap_or(s).to_string()
    };
    let (pattern, version) = (strip(pattern), strip(version));
    if pattern.is_empty() {
        return false;
    }
    if pattern == "*" || version == pattern {
        return true;
    }
    version
        .strip_prefix(&pattern)
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| matches!(c, '.' | '-' | '+' | ' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minors_are_read_as_the_api_server_writes_them() {
        assert_eq!(
            Minor::parse("v1.31.4-eks-1234"),
            Some(Minor {
                major: 1,
                minor: 31
            })
        );
        assert_eq!(
            Minor::parse("1.32").map(|m| m.to_string()),
            Some("v1.32".into())
        );
        assert_eq!(Minor::parse("latest"), None);
        let m = |s| Minor::parse(s).unwrap();
        assert_eq!(m("v1.28.2").behind(m("v1.32")), 4);
        assert_eq!(m("v1.33.1").behind(m("v1.32")), 0);
        assert_eq!(m("v1.31.0").next(), m("v1.32"));
    }

    #[test]
    fn patterns_cover_patch_releases_not_other_minors() {
        assert!(covers("v1.32", "v1.32.3"));
        assert!(covers("1.32", "v1.32.3-gke.100"));
        assert!(!covers("v1.32", "v1.320.1"));
        assert!(covers("cilium 1.16", "cilium 1.16.6"));
        assert!(!covers("cilium 1.16", "cilium 1.17.2"));
        assert!(covers("containerd://1.7", "containerd://1.7.24"));
        assert!(covers("*", "anything"));
        assert!(!covers("", "v1.32.3"));
    }
}
