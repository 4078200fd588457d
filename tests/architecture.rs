//! The layering rule of DESIGN.md and docs/architecture.md, checked on the sources:
//! `core` does no I/O, reads no clock or environment and knows no terminal; `io` and
//! `app` know no front end; `hook` and `tui` never depend on each other nor on `cli`;
//! `cli` never uses `tui`, and uses of `hook` only its argument types and the hook
//! wiring its `hooks install` and `doctor` commands write and check.

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
            "crate::app",
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

/// Every path a file names from the crate's root (`crate::…`, `super::…`, any
/// number of `super::`, `resume_tui::…`), without that root, one per leaf of a
/// `use` group, with its line: `use crate::{cli::Context, io};` names `cli::Context`
/// and `io`. Comments, strings and characters are skipped.
fn crate_paths(text: &str) -> Vec<(usize, Vec<String>)> {
    enum Tok {
        Ident(String),
        Colons,
        Open,
        Close,
        Comma,
        Other,
    }
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                line += usize::from(chars[i] == '\n');
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                line += usize::from(chars[i] == '\n');
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            toks.push((line, Tok::Other));
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            toks.push((line, Tok::Other));
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            toks.push((line, Tok::Ident(chars[start..i].iter().collect())));
        } else if c == ':' && next == Some(':') {
            toks.push((line, Tok::Colons));
            i += 2;
        } else {
            let tok = match c {
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                _ if c.is_whitespace() => {
                    i += 1;
                    continue;
                }
                _ => Tok::Other,
            };
            toks.push((line, tok));
            i += 1;
        }
    }
    let rooted = |path: &[String]| match path.first().map(String::as_str) {
        Some("crate" | "resume_tui") => Some(path[1..].to_vec()),
        Some("super") => Some(path.iter().skip_while(|s| *s == "super").cloned().collect()),
        _ => None,
    };
    // The base path of each open `{`: Some for a `use` group, None for a block.
    let mut groups: Vec<Option<Vec<String>>> = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let (mut after_colons, mut element_start, mut in_path) = (false, false, false);
    let mut found = Vec::new();
    let mut emit = |path: &[String], line: usize| {
        if let Some(rest) = rooted(path).filter(|rest| !rest.is_empty()) {
            found.push((line, rest));
        }
    };
    for (n, (line, tok)) in toks.iter().enumerate() {
        let line = *line;
        let ends_path = |n: usize| !matches!(toks.get(n + 1), Some((_, Tok::Colons)));
        match tok {
            Tok::Ident(word) => {
                if !after_colons {
                    path = match groups.last() {
                        Some(Some(base)) if element_start => base.clone(),
                        _ => Vec::new(),
                    };
                }
                path.push(word.clone());
                in_path = true;
                if ends_path(n) {
                    emit(&path, line);
                    in_path = false;
                }
                after_colons = false;
                element_start = false;
            }
            Tok::Colons => after_colons = in_path,
            Tok::Open => {
                groups.push(after_colons.then(|| path.clone()));
                element_start = after_colons;
                after_colons = false;
                in_path = false;
            }
            Tok::Close => {
                groups.pop();
                (after_colons, element_start, in_path) = (false, false, false);
            }
            Tok::Comma => {
                element_start = matches!(groups.last(), Some(Some(_)));
                (after_colons, in_path) = (false, false);
            }
            Tok::Other => (after_colons, element_start, in_path) = (false, false, false),
        }
    }
    found
}

/// The paths under `root` that name one of `modules` (`cli`, `crate::cli::Context`,
/// `super::super::cli`), as `file:line: path`.
fn uses_of_in(root: &Path, modules: &[&str]) -> Vec<String> {
    uses_where(root, |path| modules.contains(&path[0].as_str()))
}

fn uses_where(root: &Path, bad: impl Fn(&[String]) -> bool) -> Vec<String> {
    let files = rust_files(root);
    assert!(!files.is_empty(), "no sources under {}", root.display());
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, path) in crate_paths(&text) {
            if bad(&path) {
                found.push(format!("{}:{line}: {}", file.display(), path.join("::")));
            }
        }
    }
    found
}

fn src(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir)
}

/// What `cli` may take from `hook`: the hook's own argument types, composed into
/// the one command line, and the wiring `hooks install` writes and `doctor` checks.
const CLI_MAY_USE_OF_HOOK: &[&str] = &["args", "install", "doctor"];

fn cli_misuses_of_hook(root: &Path) -> Vec<String> {
    uses_where(root, |path| {
        path[0] == "tui"
            || (path[0] == "hook"
                && !path
                    .get(1)
                    .is_some_and(|item| CLI_MAY_USE_OF_HOOK.contains(&item.as_str())))
    })
}

#[test]
fn no_front_end_below_the_front_ends() {
    for (dir, forbidden) in [
        ("tui", &["cli", "hook"][..]),
        ("hook", &["cli", "tui"]),
        ("app", &["cli", "tui", "hook"]),
        ("io", &["cli", "tui", "hook", "app"]),
        ("core", &["cli", "tui", "hook", "app", "io"]),
    ] {
        let found = uses_of_in(&src(dir), forbidden);
        assert!(
            found.is_empty(),
            "src/{dir} may not use {forbidden:?}:\n{}",
            found.join("\n")
        );
    }
}

#[test]
fn cli_uses_no_tui_and_of_hook_only_its_arguments_and_wiring() {
    let found = cli_misuses_of_hook(&src("cli"));
    assert!(
        found.is_empty(),
        "cli may use of hook only {CLI_MAY_USE_OF_HOOK:?}, and nothing of tui:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_path_check_sees_every_form_of_a_violation() {
    let dir = tempfile::tempdir().unwrap();
    let tui = dir.path().join("src/tui");
    std::fs::create_dir_all(tui.join("view")).unwrap();
    let bad = "\
use crate::cli::Context;
use super::super::cli;
use crate::{
    core::model::Project,
    cli::context::default_config_path,
};
fn f(c: &super::cli::Context) { let _ = resume_tui::cli::run; }
";
    std::fs::write(tui.join("view/bad.rs"), bad).unwrap();
    let fine = "\
// crate::cli in a comment, /* and super::cli */ in a block
use crate::{app::Context, core::{model, cli_words}};
fn f(cli: &Cli) -> &str { let _ = cli.command; let _ = '\"'; \"crate::cli\" }
use super::client::Cli;
";
    std::fs::write(tui.join("fine.rs"), fine).unwrap();
    let found = uses_of_in(&tui, &["cli"]);
    let lines: Vec<&str> = found
        .iter()
        .map(|f| f.rsplit_once("bad.rs:").map_or(f.as_str(), |(_, l)| l))
        .collect();
    assert_eq!(
        lines,
        [
            "1: cli::Context",
            "2: cli",
            "5: cli::context::default_config_path",
            "7: cli::Context",
            "7: cli::run",
        ],
        "{found:?}"
    );

    let cli = dir.path().join("src/cli");
    std::fs::create_dir_all(&cli).unwrap();
    let text = "\
use crate::hook::args::HookArgs;
use crate::hook::install::{self, Form};
use crate::hook::doctor::{self, Status};
use crate::hook::{self, install};
fn f() { crate::hook::run_from_process(); crate::tui::run(); }
use crate::hook;
";
    std::fs::write(cli.join("mod.rs"), text).unwrap();
    let found = cli_misuses_of_hook(&cli);
    let lines: Vec<&str> = found
        .iter()
        .map(|f| f.rsplit_once("mod.rs:").map_or(f.as_str(), |(_, l)| l))
        .collect();
    assert_eq!(
        lines,
        [
            "4: hook::self",
            "5: hook::run_from_process",
            "5: tui::run",
            "6: hook"
        ],
        "{found:?}"
    );
}
