//! The layering rule of DESIGN.md, checked on the sources: `core` does no I/O,
//! reads no clock or environment and knows no terminal; `hook` and `tui` never
//! depend on each other.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

fn offenders(dir: &str, forbidden: &[&str]) -> Vec<String> {
    offenders_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), forbidden)
}

fn offenders_in(root: &Path, forbidden: &[&str]) -> Vec<String> {
    let dir = root.display();
    let files = rust_files(root);
    assert!(!files.is_empty(), "no sources under {dir}");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    found.push(format!("{}:{}: {word}", file.display(), n + 1));
                }
            }
        }
    }
    found
}

#[test]
fn core_is_pure() {
    let found = offenders(
        "src/core",
        &[
            "std::fs",
            "std::env",
            "SystemTime::now",
            "Instant::now",
            "std::process",
            "std::net",
            "ratatui",
            "crossterm",
            "notify",
            "clipboard_rs",
            "crate::io",
            "crate::tui",
            "crate::hook",
            "crate::cli",
        ],
    );
    assert!(
        found.is_empty(),
        "core must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn hook_and_tui_do_not_depend_on_each_other() {
    let found = offenders("src/hook", &["crate::tui", "ratatui", "notify"]);
    assert!(
        found.is_empty(),
        "hook depends on tui:\n{}",
        found.join("\n")
    );
    let found = offenders("src/tui", &["crate::hook"]);
    assert!(
        found.is_empty(),
        "tui depends on hook:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_itself_sees_a_violation() {
    let dir = tempfile::tempdir().unwrap();
    let core = dir.path().join("src/core");
    std::fs::create_dir_all(&core).unwrap();
    let bad = "// std::fs in a comment is fine\nfn f() { let _ = std::fs::read(\"x\"); }\n";
    std::fs::write(core.join("bad.rs"), bad).unwrap();
    let found = offenders_in(&core, &["std::fs"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("bad.rs:2: std::fs"), "{found:?}");
}
