//! Name and key formats (`k8s.io/apimachinery/pkg/util/validation`, `api/validate/content`):
//! each check returns the API server's messages for a bad value, none for a good one.

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const CONFIG_KEY_FMT: &str = "[-._a-zA-Z0-9]+";
const PERCENT_FMT: &str = "[0-9]+%";

/// Longest RFC 1123 label.
pub const DNS1123_LABEL_MAX: usize = 63;
/// Longest RFC 1123 subdomain.
pub const DNS1123_SUBDOMAIN_MAX: usize = 253;

/// "must be no more than N characters".
pub fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// A regex failure explained with examples, as `validation.RegexError` words it.
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut s = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            s.push_str(" or ");
        }
        s.push_str(&format!("'{e}', "));
    }
    s.push_str(&format!("regex used for validation is '{fmt}')"));
    s
}

fn lower_alnum(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn matches_dns1123_label(s: &str) -> bool {
    let first = s.chars().next();
    let last = s.chars().last();
    first.is_some_and(lower_alnum)
        && last.is_some_and(lower_alnum)
        && s.chars().all(|c| lower_alnum(c) || c == '-')
}

fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(matches_dns1123_label)
}

/// An RFC 1123 label (container names, namespace names).
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !matches_dns1123_label(value) {
        if matches_dns1123_subdomain(value) {
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// An RFC 1123 subdomain (most object names).
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    if !matches_dns1123_subdomain(value) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// An RFC 1035 label (Service names).
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    let ok = value.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && value.chars().last().is_some_and(lower_alnum)
        && value.chars().all(|c| lower_alnum(c) || c == '-');
    if !ok {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn matches_label_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars().last().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A qualified name: a label key, `[prefix/]name` (label keys, annotation keys,
/// finalizers).
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
                    LABEL_KEY_FMT,
                    &["MyName", "my.name", "123-abc"],
                )
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !matches_label_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"],
            )
        ));
    }
    errs
}

/// A label value: empty or a label name of at most 63 characters.
pub fn is_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !value.is_empty() && !matches_label_name(value) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// A ConfigMap or Secret key.
pub fn is_config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    let ok = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
    if !ok {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            CONFIG_KEY_FMT,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    if value == "." {
        errs.push("must not be '.'".into());
    } else if value == ".." {
        errs.push("must not be '..'".into());
    } else if value.starts_with("..") {
        errs.push("must not start with '..'".into());
    }
    errs
}

/// A name that can be a URL path segment (the check every object name passes).
pub fn is_path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for bad in [".", ".."] {
            if name == bad {
                return vec![format!("may not be '{bad}'")];
            }
        }
    }
    ["/", "%"]
        .iter()
        .filter(|bad| name.contains(**bad))
        .map(|bad| format!("may not contain '{bad}'"))
        .collect()
}

/// A percentage string such as `25%`.
pub fn is_valid_percent(value: &str) -> Vec<String> {
    let ok = value
        .strip_suffix('%')
        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            "a valid percent string must be a numeric string followed by an ending '%'",
            PERCENT_FMT,
            &["1%", "93%"],
        )]
    }
}

/// A port name (IANA_SVC_NAME).
pub fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(max_len_error(15));
    }
    if port.is_empty()
        || !port
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !port.chars().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// How an object's name is checked, by kind (`ValidateNameFunc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    /// An RFC 1123 subdomain (most kinds).
    Subdomain,
    /// An RFC 1123 label (Namespaces).
    Label,
    /// An RFC 1035 label (Services).
    Dns1035Label,
    /// Only what a URL path segment allows (Events, PodDisruptionBudgets, RBAC).
    PathSegment,
}

impl NameRule {
    /// The messages for a bad name; `prefix` for a `generateName` (a trailing `-` is
    /// then allowed, as `maskTrailingDash` does).
    pub fn check(self, name: &str, prefix: bool) -> Vec<String> {
        let masked;
        let name = if prefix && self != NameRule::PathSegment && name.len() > 1 {
            match name.strip_suffix('-') {
                Some(head) => {
                    masked = format!("{head}a");
                    masked.as_str()
                }
                None => name,
            }
        } else {
            name
        };
        match self {
            NameRule::Subdomain => is_dns1123_subdomain(name),
            NameRule::Label => is_dns1123_label(name),
            NameRule::Dns1035Label => is_dns1035_label(name),
            NameRule::PathSegment => is_path_segment_name(name, prefix),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_subdomains_and_keys() {
        assert!(is_dns1123_label("web-1").is_empty());
        assert_eq!(
            is_dns1123_label("Difftest_Bad"),
            // Go's RegexError really puts two spaces before "or".
            vec![
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots"]);
        assert!(is_dns1123_subdomain("a.b-c").is_empty());
        assert!(!is_dns1035_label("1abc").is_empty());
        assert!(is_dns1035_label("abc-1").is_empty());
        assert!(!is_path_segment_name("a/b", false).is_empty());
        assert!(!is_dns1123_subdomain("a..b").is_empty());
        assert!(is_qualified_name("example.com/My_name.x").is_empty());
        assert_eq!(
            is_qualified_name("/x"),
            vec!["prefix part must be non-empty"]
        );
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert!(is_label_value("").is_empty());
        assert!(!is_label_value("-x").is_empty());
        assert!(!is_config_map_key("a/b").is_empty());
        assert!(is_config_map_key("a.b_C-1").is_empty());
        assert_eq!(is_path_segment_name("a/b%", false).len(), 2);
        assert!(is_valid_percent("150%").is_empty());
        assert!(!is_valid_percent("1.5%").is_empty());
    }

    #[test]
    fn generate_name_may_end_with_a_dash() {
        assert!(NameRule::Subdomain.check("web-", true).is_empty());
        assert!(!NameRule::Subdomain.check("web-", false).is_empty());
        assert!(NameRule::PathSegment.check("Any_Thing", false).is_empty());
    }
}
