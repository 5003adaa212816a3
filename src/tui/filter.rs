//! The `/` filter, in k9s's grammar: words match fuzzily (fuzzy-matcher's skim algorithm),
//! `key=value` and `key!=value` match fields and labels exactly, `!word` excludes rows
//! containing the word. Pure: screens say what a row's text and fields are.

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;

/// One parsed requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Term {
    /// Field equals value (case-insensitive).
    Equals(String, String),
    /// Field is absent or differs.
    NotEquals(String, String),
    /// Row text does not contain this.
    Exclude(String),
}

/// Something a filter can look at.
pub trait Filterable {
    /// The text fuzzy words are matched against (id, names, places…).
    fn haystack(&self) -> String;
    /// The value of a field or label, for `key=value` terms.
    fn field(&self, key: &str) -> Option<String>;
}

/// A parsed filter.
pub struct Filter {
    /// The text as typed.
    pub text: String,
    fuzzy: String,
    terms: Vec<Term>,
    matcher: SkimMatcherV2,
}

impl std::fmt::Debug for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Filter")
            .field("text", &self.text)
            .field("fuzzy", &self.fuzzy)
            .field("terms", &self.terms)
            .finish()
    }
}

impl Clone for Filter {
    fn clone(&self) -> Self {
        Filter::parse(&self.text)
    }
}

impl PartialEq for Filter {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Filter {
    /// The keys its `key=value` and `key!=value` terms name (lowercase).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.terms.iter().filter_map(|t| match t {
            Term::Equals(k, _) | Term::NotEquals(k, _) => Some(k.as_str()),
            Term::Exclude(_) => None,
        })
    }

    /// Parses filter text; every input is valid.
    pub fn parse(text: &str) -> Filter {
        let mut fuzzy = Vec::new();
        let mut terms = Vec::new();
        for word in text.split_whitespace() {
            if let Some((k, v)) = word.split_once("!=") {
                terms.push(Term::NotEquals(k.to_lowercase(), v.to_lowercase()));
            } else if let Some((k, v)) = word.split_once('=') {
                terms.push(Term::Equals(k.to_lowercase(), v.to_lowercase()));
            } else if let Some(rest) = word.strip_prefix('!') {
                if !rest.is_empty() {
                    terms.push(Term::Exclude(rest.to_lowercase()));
                }
            } else {
                fuzzy.push(word);
            }
        }
        Filter {
            text: text.to_owned(),
            fuzzy: fuzzy.join(" "),
            terms,
            matcher: SkimMatcherV2::default().ignore_case(),
        }
    }

    /// Whether the filter is empty (matches everything).
    pub fn is_empty(&self) -> bool {
        self.fuzzy.is_empty() && self.terms.is_empty()
    }

    /// Whether the filter's words are exactly `name` (an id or a name, case-insensitive):
    /// that row is listed first, so `enter` opens what was typed.
    pub fn names(&self, name: &str) -> bool {
        !self.fuzzy.is_empty() && !self.fuzzy.contains(' ') && self.fuzzy.eq_ignore_ascii_case(name)
    }

    /// Whether `row` passes.
    pub fn matches(&self, row: &impl Filterable) -> bool {
        if self.is_empty() {
            return true;
        }
        let needs_text =
            !self.fuzzy.is_empty() || self.terms.iter().any(|t| matches!(t, Term::Exclude(_)));
        let text = if needs_text {
            row.haystack().to_lowercase()
        } else {
            String::new()
        };
        for term in &self.terms {
            let ok = match term {
                Term::Equals(k, v) => row.field(k).is_some_and(|f| f.to_lowercase() == *v),
                Term::NotEquals(k, v) => row.field(k).is_none_or(|f| f.to_lowercase() != *v),
                Term::Exclude(word) => !text.contains(word.as_str()),
            };
            if !ok {
                return false;
            }
        }
        self.fuzzy.is_empty() || self.matcher.fuzzy_match(&text, &self.fuzzy).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Row(&'static str, &'static [(&'static str, &'static str)]);

    impl Filterable for Row {
        fn haystack(&self) -> String {
            self.0.to_owned()
        }
        fn field(&self, key: &str) -> Option<String> {
            self.1
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    const PROD: Row = Row(
        "eu-fra-prod-01 eu-central",
        &[("env", "production"), ("tier", "critical")],
    );
    const STAGE: Row = Row("us-east-stg-02 us-east", &[("env", "staging")]);

    #[test]
    fn fuzzy_words_match_out_of_order_letters_in_order() {
        assert!(Filter::parse("efp01").matches(&PROD));
        assert!(!Filter::parse("efp01").matches(&STAGE));
        assert!(Filter::parse("").matches(&STAGE));
        assert!(Filter::parse("   ").is_empty());
    }

    #[test]
    fn an_exact_word_names_a_row() {
        assert!(Filter::parse("EU-fra-prod-01").names("eu-fra-prod-01"));
        assert!(Filter::parse("env=production eu-fra-prod-01").names("eu-fra-prod-01"));
        assert!(!Filter::parse("eu-fra-prod").names("eu-fra-prod-01"));
        assert!(!Filter::parse("eu fra").names("eu-fra-prod-01"));
        assert!(!Filter::parse("").names(""));
    }

    #[test]
    fn labels_and_exclusions() {
        assert!(Filter::parse("env=Production").matches(&PROD));
        assert!(!Filter::parse("env=production").matches(&STAGE));
        assert!(
            Filter::parse("tier!=critical").matches(&STAGE),
            "absent field differs"
        );
        assert!(!Filter::parse("tier!=critical").matches(&PROD));
        assert!(!Filter::parse("!prod").matches(&PROD));
        assert!(Filter::parse("!prod").matches(&STAGE));
        assert!(Filter::parse("env=staging us").matches(&STAGE));
        assert!(!Filter::parse("env=staging fra").matches(&STAGE));
    }
}
