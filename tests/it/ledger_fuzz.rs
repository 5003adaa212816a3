//! Mutated and random YAML fed to the ledger reader and validator: it must never panic,
//! and a ledger is handed out exactly when no error was found.

use jiff::civil::date;
use proptest::prelude::*;

use fleetdeck::model::ledger::{LedgerContext, read_ledger};
use fleetdeck::yaml::Severity;

const EXAMPLE: &str = include_str!("../../examples/ledger.yaml");

fn read(text: &str) {
    let report = read_ledger(
        text,
        &LedgerContext {
            today: date(2026, 11, 29),
            is_known_zone: &|name| name == "UTC" || name.contains('/'),
        },
    );
    let has_errors = report
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    assert_eq!(report.ledger.is_some(), !has_errors);
    for d in &report.diagnostics {
        assert!(d.pos.line >= 1 && d.pos.col >= 1, "{d:?}");
    }
}

/// One edit to the example: delete, insert, duplicate or swap lines, or splice text.
#[derive(Debug, Clone)]
enum Mutation {
    DeleteRange(usize, usize),
    Insert(usize, String),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    ReplaceLine(usize, String),
}

fn apply(text: &str, mutation: &Mutation) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.lines().collect();
    match mutation {
        Mutation::DeleteRange(at, len) => {
            let start = at % chars.len().max(1);
            let end = (start + len).min(chars.len());
            chars[..start].iter().chain(chars[end..].iter()).collect()
        }
        Mutation::Insert(at, s) => {
            let at = at % (chars.len() + 1);
            let mut out: String = chars[..at].iter().collect();
            out.push_str(s);
            out.extend(chars[at..].iter());
            out
        }
        Mutation::DuplicateLine(i) => {
            let i = i % lines.len().max(1);
            if let Some(line) = lines.get(i).copied() {
                lines.insert(i, line);
            }
            lines.join("\n")
        }
        Mutation::SwapLines(a, b) => {
            let n = lines.len().max(1);
            lines.swap(a % n, b % n);
            lines.join("\n")
        }
        Mutation::ReplaceLine(i, s) => {
            let n = lines.len().max(1);
            let mut owned: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            owned[i % n] = s.clone();
            owned.join("\n")
        }
    }
}

fn yamlish() -> impl Strategy<Value = String> {
    prop::string::string_regex("[ a-zA-Z0-9:\\-\\[\\]{},#&*!|>'\"%@`\\n./]{0,40}").unwrap()
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0usize..200).prop_map(|(a, l)| Mutation::DeleteRange(a, l)),
        (any::<usize>(), yamlish()).prop_map(|(a, s)| Mutation::Insert(a, s)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<usize>(), yamlish()).prop_map(|(a, s)| Mutation::ReplaceLine(a, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_example_never_panics(mutations in prop::collection::vec(mutation(), 1..6)) {
        let mut text = EXAMPLE.to_string();
        for m in &mutations {
            text = apply(&text, m);
        }
        read(&text);
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        read(&text);
    }

    #[test]
    fn random_yaml_shaped_text_never_panics(text in yamlish().prop_map(|s| format!("apiVersion: fleetdeck.dev/v1\nkind: Ledger\nclusters:\n  - {s}"))) {
        read(&text);
    }
}
