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
