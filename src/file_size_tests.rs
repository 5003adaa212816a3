//! The size rule of the tree: a source file over 600 lines says at its top why it is that
//! long (a sentence starting "Over 600 lines"), so a long file is a decision somebody wrote
//! down rather than an accident, and the next engineer knows when it should split.

use std::path::{Path, PathBuf};

/// Lines past which a file must say why.
const LIMIT: usize = 600;

/// How far into a file the reason may be (its leading documentation).
const HEAD: usize = 40;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files over the limit that do not say why, with their line counts.
fn unexplained(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let lines = text.lines().count();
            let said = text
                .lines()
                .take(HEAD)
                .any(|l| l.to_ascii_lowercase().contains("over 600 lines"));
            (lines > LIMIT && !said).then(|| {
                format!(
                    "{} ({lines} lines)",
                    path.strip_prefix(root).unwrap_or(path).display()
                )
            })
        })
        .collect()
}

#[test]
fn every_file_over_600_lines_says_why_at_its_top() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = unexplained(root);
    assert!(
        files.is_empty(),
        "split these files, or say at their top why they are long (\"Over 600 lines: …\"):\n{}",
        files.join("\n")
    );
}

#[test]
fn a_long_file_without_a_reason_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("long.rs"), "fn f() {}\n".repeat(LIMIT + 1)).unwrap();
    std::fs::write(
        src.join("said.rs"),
        format!(
            "//! Over 600 lines: a reason.\n{}",
            "fn f() {}\n".repeat(LIMIT)
        ),
    )
    .unwrap();
    std::fs::write(src.join("short.rs"), "fn f() {}\n".repeat(LIMIT)).unwrap();
    assert_eq!(unexplained(dir.path()), vec!["src/long.rs (601 lines)"]);
}
