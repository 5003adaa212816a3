//! Both catalogues hold the same files, the same message ids and, per message, the same
//! variables; neither has a syntax error or a duplicate. A message added to one
//! language only fails here, naming it.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

use super::catalogue;

type Messages = BTreeMap<String, BTreeSet<String>>;

fn inline_vars(e: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match e {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_vars(a, out);
            }
            for a in &arguments.named {
                inline_vars(&a.value, out);
            }
        }
        InlineExpression::Placeable { expression } => expression_vars(expression, out),
        _ => {}
    }
}

fn expression_vars(e: &Expression<&str>, out: &mut BTreeSet<String>) {
    match e {
        Expression::Inline(i) => inline_vars(i, out),
        Expression::Select { selector, variants } => {
            inline_vars(selector, out);
            for v in variants {
                pattern_vars(&v.value, out);
            }
        }
    }
}

fn pattern_vars(p: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for el in &p.elements {
        if let PatternElement::Placeable { expression } = el {
            expression_vars(expression, out);
        }
    }
}

fn messages(lang: &str, name: &str, text: &str) -> Messages {
    let resource = fluent_syntax::parser::parse(text)
        .unwrap_or_else(|(_, errors)| panic!("{lang}/{name}: syntax errors: {errors:?}"));
    let mut out = Messages::new();
    for entry in &resource.body {
        match entry {
            Entry::Message(m) => {
                let mut vars = BTreeSet::new();
                if let Some(p) = &m.value {
                    pattern_vars(p, &mut vars);
                }
                for a in &m.attributes {
                    pattern_vars(&a.value, &mut vars);
                }
                let id = m.id.name.to_string();
                assert!(
                    out.insert(id.clone(), vars).is_none(),
                    "{lang}/{name}: {id} defined twice"
                );
            }
            Entry::Junk { content } => panic!("{lang}/{name}: junk: {content}"),
            _ => {}
        }
    }
    out
}

#[test]
fn both_catalogues_hold_the_same_messages_with_the_same_variables() {
    let en: Vec<&str> = catalogue::EN.iter().map(|(n, _)| *n).collect();
    let zh: Vec<&str> = catalogue::ZH_CN.iter().map(|(n, _)| *n).collect();
    assert_eq!(en, zh, "the same files in both languages");
    let mut problems = Vec::new();
    let mut all_ids = BTreeSet::new();
    for ((name, en_text), (_, zh_text)) in catalogue::EN.iter().zip(catalogue::ZH_CN) {
        let en = messages("en", name, en_text);
        let zh = messages("zh-CN", name, zh_text);
        for (id, vars) in &en {
            assert!(all_ids.insert(id.clone()), "{id} is in two files");
            match zh.get(id) {
                None => problems.push(format!("{name}: {id} missing in zh-CN")),
                Some(z) if z != vars => problems.push(format!(
                    "{name}: {id} takes {vars:?} in en but {z:?} in zh-CN"
                )),
                Some(_) => {}
            }
        }
        for id in zh.keys().filter(|id| !en.contains_key(*id)) {
            problems.push(format!("{name}: {id} in zh-CN but not in en"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_message_formats_in_both_languages() {
    use super::{Lang, text};
    for (name, en_text) in catalogue::EN {
        for id in messages("en", name, en_text).keys() {
            for lang in Lang::ALL {
                assert!(super::has(lang, id), "{lang}: {id} not loaded");
                let _ = text(lang, id, &[]);
            }
        }
    }
}

/// Every message the code asks for by a literal id (`t!(lang, "id", …)`,
/// `counted(lang, "id", n)`, `Msg::new("id")`) is in the catalogues: a typo or a message
/// removed from the files fails here instead of showing its id to a person.
#[test]
fn every_id_the_code_names_is_in_the_catalogues() {
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    let mut asked = 0;
    let mut missing = Vec::new();
    // This file's own examples of the forms are not the code's.
    files.retain(|path| !path.ends_with("i18n/catalogue_tests.rs"));
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            for id in literal_ids(line) {
                asked += 1;
                if !super::has(super::Lang::En, &id) {
                    missing.push(format!(
                        "{}:{}: {id}",
                        path.strip_prefix(root).unwrap_or(path).display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(
        asked > 100,
        "the scan found only {asked} ids: is it still reading the code?"
    );
    assert!(
        missing.is_empty(),
        "ids the code names that no catalogue has:\n{}",
        missing.join("\n")
    );
}

/// The ids named on one line of code: the first string literal after `t!(LANG,`,
/// `i18n::counted(LANG,` or `Msg::new(`, when it looks like a message id. Comment lines
/// are skipped, and `t!(` counts only as a name of its own (not the end of `format!(`).
fn literal_ids(line: &str) -> Vec<String> {
    let mut ids = Vec::new();
    if line.trim_start().starts_with("//") {
        return ids;
    }
    for opener in ["t!(", "i18n::counted(", "Msg::new("] {
        let mut from = 0;
        while let Some(found) = line[from..].find(opener) {
            let at = from + found;
            from = at + opener.len();
            let own_name = line[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            if opener == "t!(" && !own_name {
                continue;
            }
            let rest = &line[from..];
            let after = if opener == "Msg::new(" {
                rest
            } else {
                match rest.find(',') {
                    Some(comma) => &rest[comma + 1..],
                    None => continue,
                }
            };
            let Some(quoted) = after.trim_start().strip_prefix('"') else {
                continue;
            };
            let Some(end) = quoted.find('"') else {
                continue;
            };
            let id = &quoted[..end];
            if !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                ids.push(id.to_string());
            }
        }
    }
    ids
}

#[test]
fn the_id_scan_reads_the_forms_the_code_uses() {
    assert_eq!(
        literal_ids(
            r#"let a = t!(lang, "header-nodes", n = 3); i18n::counted(Lang::En, "count-nodes", 2)"#
        ),
        vec!["header-nodes".to_string(), "count-nodes".to_string()]
    );
    assert_eq!(
        literal_ids(r#"Msg::new("ack-holds")"#),
        vec!["ack-holds".to_string()]
    );
    assert!(literal_ids(r#"t!(lang, format_id)"#).is_empty());
    assert!(literal_ids(r#"format!("{}", "not-an-id")"#).is_empty());
    assert!(literal_ids(r#"// t!(lang, "in-a-comment")"#).is_empty());
}
