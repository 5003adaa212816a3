//! Every message id the code names is in the catalogues. It reads the source, so it
//! lives at the crate root rather than in `i18n/`, which is pure like `model/`.

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
    files.retain(|path| !path.ends_with("message_id_tests.rs"));
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            for id in literal_ids(line) {
                asked += 1;
                if !crate::i18n::has(crate::i18n::Lang::En, &id) {
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
