//! Selecting clusters from the ledger with Kubernetes label-selector grammar:
//! `env=production,tier!=best-effort,region in (eu-west,us-east),!retired`.
//! Keys are the cluster's labels plus its fields `id`, `env`, `region`, `failureDomain`,
//! `tier`, `owner`, `lifecycle` and `context`.

use super::types::Cluster;

/// One requirement of a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    /// `key=value` or `key==value`.
    Equals(String, String),
    /// `key!=value` (also true when the key is absent).
    NotEquals(String, String),
    /// `key in (a,b)`.
    In(String, Vec<String>),
    /// `key notin (a,b)`.
    NotIn(String, Vec<String>),
    /// `key`: the key is present.
    Exists(String),
    /// `!key`: the key is absent.
    DoesNotExist(String),
}

/// A parsed selector: every requirement must hold.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selector {
    /// The requirements, all of which must match.
    pub requirements: Vec<Requirement>,
}

/// Why a selector could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid selector {selector:?}: {reason}")]
pub struct SelectorError {
    /// The selector as given.
    pub selector: String,
    /// What is wrong.
    pub reason: String,
}

impl SelectorError {
    /// The same sentence as its `Display`, as a message for the reader's language (the
    /// selector and what the parser found wrong are shown as written).
    pub fn msg(&self) -> crate::i18n::Msg {
        crate::i18n::Msg::new("validate-bad-selector")
            .arg("selector", format!("{:?}", self.selector))
            .arg("reason", &self.reason)
    }
}

impl Selector {
    /// Parses a selector; the empty string selects everything.
    pub fn parse(text: &str) -> Result<Selector, SelectorError> {
        let fail = |reason: &str| SelectorError {
            selector: text.to_string(),
            reason: reason.to_string(),
        };
        let mut requirements = Vec::new();
        if text.trim().is_empty() {
            return Ok(Selector { requirements });
        }
        for part in split_top_level(text).map_err(|r| fail(&r))? {
            let part = part.trim();
            if part.is_empty() {
                return Err(fail(
                    "empty term (two commas in a row, or a comma at either end)",
                ));
            }
            let requirement = if let Some((key, rest)) = split_word(part, " notin ") {
                Requirement::NotIn(
                    check_key(key).map_err(|r| fail(&r))?,
                    parse_set(rest).map_err(|r| fail(&r))?,
                )
            } else if let Some((key, rest)) = split_word(part, " in ") {
                Requirement::In(
                    check_key(key).map_err(|r| fail(&r))?,
                    parse_set(rest).map_err(|r| fail(&r))?,
                )
            } else if let Some((key, value)) = part.split_once("!=") {
                Requirement::NotEquals(
                    check_key(key).map_err(|r| fail(&r))?,
                    value.trim().to_string(),
                )
            } else if let Some((key, value)) =
                part.split_once("==").or_else(|| part.split_once('='))
            {
                Requirement::Equals(
                    check_key(key).map_err(|r| fail(&r))?,
                    value.trim().to_string(),
                )
            } else if let Some(key) = part.strip_prefix('!') {
                Requirement::DoesNotExist(check_key(key).map_err(|r| fail(&r))?)
            } else {
                Requirement::Exists(check_key(part).map_err(|r| fail(&r))?)
            };
            requirements.push(requirement);
        }
        Ok(Selector { requirements })
    }

    /// Whether `cluster` satisfies every requirement.
    pub fn matches(&self, cluster: &Cluster) -> bool {
        self.requirements.iter().all(|r| {
            let value = |key: &str| cluster_value(cluster, key);
            match r {
                Requirement::Equals(k, v) => value(k).as_deref() == Some(v.as_str()),
                Requirement::NotEquals(k, v) => value(k).as_deref() != Some(v.as_str()),
                Requirement::In(k, set) => value(k).is_some_and(|x| set.contains(&x)),
                Requirement::NotIn(k, set) => value(k).is_none_or(|x| !set.contains(&x)),
                Requirement::Exists(k) => value(k).is_some(),
                Requirement::DoesNotExist(k) => value(k).is_none(),
            }
        })
    }
}

/// The cluster fields a selector may name besides labels.
const FIELDS: &[&str] = &[
    "id",
    "env",
    "region",
    "failureDomain",
    "tier",
    "owner",
    "lifecycle",
    "context",
];

impl Requirement {
    /// The key it names.
    pub fn key(&self) -> &str {
        match self {
            Requirement::Equals(k, _)
            | Requirement::NotEquals(k, _)
            | Requirement::In(k, _)
            | Requirement::NotIn(k, _)
            | Requirement::Exists(k)
            | Requirement::DoesNotExist(k) => k,
        }
    }
}

impl Selector {
    /// Keys that name neither a cluster field nor a label any of `clusters` carries, each
    /// with the closest one: a typo (`envv=production`) otherwise selects nothing silently.
    pub fn unknown_keys(&self, clusters: &[Cluster]) -> Vec<String> {
        let labels: Vec<&str> = clusters
            .iter()
            .flat_map(|c| c.labels.keys().map(String::as_str))
            .collect();
        unknown_keys(
            self.requirements.iter().map(Requirement::key),
            FIELDS,
            &labels,
            |key| clusters.iter().any(|c| c.labels.contains_key(key)),
        )
    }
}

/// Of `keys`, those that are neither one of `fields` nor a label `is_label` knows, each
/// told with the closest of `fields` and `labels`: the one wording the CLI's `-l` and the
/// console's filter share.
pub fn unknown_keys<'k>(
    keys: impl IntoIterator<Item = &'k str>,
    fields: &[&str],
    labels: &[&str],
    is_label: impl Fn(&str) -> bool,
) -> Vec<String> {
    keys.into_iter()
        .filter(|key| !fields.contains(key) && !is_label(key))
        .map(|key| {
            let known = fields.iter().chain(labels).copied();
            match crate::yaml::suggest(key, known) {
                Some(close) => {
                    format!("{key}: no cluster has this field or label (did you mean {close}?)")
                }
                None => format!("{key}: no cluster has this field or label"),
            }
        })
        .collect()
}

/// The value a selector key refers to on a cluster: a field, else a label.
pub fn cluster_value(cluster: &Cluster, key: &str) -> Option<String> {
    let field = match key {
        "id" => Some(cluster.id.to_string()),
        "env" => Some(cluster.env.clone()),
        "region" => Some(cluster.region.clone()),
        "failureDomain" => Some(cluster.failure_domain.clone()),
        "tier" => Some(cluster.tier.clone()),
        "owner" => cluster.owner.clone(),
        "lifecycle" => Some(cluster.lifecycle.as_str().to_string()),
        "context" => Some(cluster.context.clone()),
        _ => None,
    };
    field.or_else(|| cluster.labels.get(key).cloned())
}

/// Splits on commas that are not inside parentheses.
fn split_top_level(text: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced ')'".to_string());
                }
            }
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("unbalanced '('".to_string());
    }
    parts.push(&text[start..]);
    Ok(parts)
}

fn split_word<'a>(part: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    part.find(word)
        .map(|i| (&part[..i], &part[i + word.len()..]))
}

fn parse_set(rest: &str) -> Result<Vec<String>, String> {
    let inner = rest
        .trim()
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(|| "expected a set such as (a,b)".to_string())?;
    if inner.trim().is_empty() {
        return Err("a set needs at least one value".to_string());
    }
    let values: Vec<String> = inner.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(format!(
            "empty value in the set ({inner}) (two commas in a row, or a comma at either end)"
        ));
    }
    Ok(values)
}

fn check_key(key: &str) -> Result<String, String> {
    let key = key.trim();
    if key.is_empty() {
        return Err("empty key".to_string());
    }
    if !key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
    {
        return Err(format!(
            "key {key:?} has characters a label key cannot have"
        ));
    }
    Ok(key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selector_with_an_empty_term_is_refused() {
        assert_eq!(Selector::parse("").map(|s| s.requirements.len()), Ok(0));
        assert_eq!(Selector::parse("  ").map(|s| s.requirements.len()), Ok(0));
        assert_eq!(
            Selector::parse("env=production, region in (a, b)").map(|s| s.requirements.len()),
            Ok(2)
        );
        for bad in [
            "env=production,,",
            "env=production,",
            ",env=production",
            "a=b,,c=d",
        ] {
            let error = Selector::parse(bad).unwrap_err().to_string();
            assert!(error.contains("empty term"), "{bad}: {error}");
        }
        let error = Selector::parse("env in (a,,b)").unwrap_err().to_string();
        assert!(error.contains("empty value in the set (a,,b)"), "{error}");
        assert!(Selector::parse("env in ( )").is_err());
    }

    #[test]
    fn a_key_no_cluster_has_is_named_with_the_closest_one() {
        let ledger = crate::fixtures::console::ledger();
        let selector = Selector::parse("envv=production, region=us-east, !bogus").unwrap();
        assert_eq!(
            selector.unknown_keys(&ledger.clusters),
            vec![
                "envv: no cluster has this field or label (did you mean env?)".to_string(),
                "bogus: no cluster has this field or label".to_string(),
            ]
        );
    }
}
