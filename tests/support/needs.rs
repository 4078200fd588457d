//! The suites a fresh clone does not run: tests that need the shared corpus, tmux,
//! root or the real Claude Code client. Each is asked for by an environment variable when the tests are built and
//! run (README, "Tests"; empty or `0` is not asking); `build.rs` turns it into a cfg
//! that un-ignores them:
//!
//! | variable                   | cfg                 | the tests then need            |
//! |----------------------------|---------------------|--------------------------------|
//! | `RESUME_TUI_CORPUS=<path>` | `resume_tui_corpus` | the corpus folder at `<path>`  |
//! | `RESUME_TUI_TMUX=1`        | `resume_tui_tmux`   | `tmux` on `PATH`               |
//! | `RESUME_TUI_ROOT=1`        | `resume_tui_root`   | to run as root (tmpfs mounts)  |
//! | `RESUME_TUI_CLAUDE=<bin>`  | `resume_tui_claude` | Claude Code at `<bin>` (`:`-separated for several; tests/support/real_client.rs) |
//!
//! Not asked for, such a test is reported as ignored with the variable to set (the
//! `ignore` reasons below). Asked for, a missing prerequisite fails the test with a
//! message saying what is missing; it never passes without having run.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The `ignore` reasons, as each marked test spells them (attributes take literals).
pub const CORPUS: &str = "needs RESUME_TUI_CORPUS=<corpus folder>";
pub const TMUX: &str = "needs RESUME_TUI_TMUX=1 (and tmux)";
pub const ROOT: &str = "needs RESUME_TUI_ROOT=1 (and root)";

/// The corpus folder `RESUME_TUI_CORPUS` names. Only for tests marked
/// `#[cfg_attr(not(resume_tui_corpus), ignore = "…")]`.
pub fn corpus() -> PathBuf {
    if !cfg!(resume_tui_corpus) {
        panic!(
            "this test reads the corpus but is not marked \
             #[cfg_attr(not(resume_tui_corpus), ignore = \"{CORPUS}\")]"
        );
    }
    corpus_if_asked().unwrap_or_else(|| {
        panic!(
            "RESUME_TUI_CORPUS was set when the tests were built but is not set now: \
             set it to the corpus folder (the one holding geekatron+jerry/)"
        )
    })
}

/// The corpus when it was asked for, for tests that also run on the project's own
/// fixtures (the fuzz seeds); `None` when it was not. Set but missing is a failure.
pub fn corpus_if_asked() -> Option<PathBuf> {
    let asked = std::env::var_os("RESUME_TUI_CORPUS").filter(|v| !v.is_empty() && v != "0");
    let root = PathBuf::from(asked?);
    assert!(
        root.join("geekatron+jerry").is_dir(),
        "RESUME_TUI_CORPUS={} asks for the corpus tests, but that is not the corpus \
         folder (the one holding geekatron+jerry/ and DorianSchlede+nexus-template/)",
        root.display()
    );
    Some(root)
}

/// Fails unless tmux runs. Called by the tmux helper for every test that uses it.
pub fn tmux() {
    if !cfg!(resume_tui_tmux) {
        panic!(
            "this test drives tmux but is not marked \
             #[cfg_attr(not(resume_tui_tmux), ignore = \"{TMUX}\")]"
        );
    }
    let runs = Command::new("tmux")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        runs,
        "RESUME_TUI_TMUX asks for the tmux tests, but `tmux -V` does not run: \
         install tmux (apt-get install tmux) or leave RESUME_TUI_TMUX unset"
    );
}

/// Fails unless this process is root. Called by every helper that needs root.
pub fn root() {
    if !cfg!(resume_tui_root) {
        panic!(
            "this test needs root but is not marked \
             #[cfg_attr(not(resume_tui_root), ignore = \"{ROOT}\")]"
        );
    }
    assert!(
        is_root(),
        "RESUME_TUI_ROOT asks for the tests that need root (they mount a tiny tmpfs), \
         but this process is not root: run them as root or leave RESUME_TUI_ROOT unset"
    );
}

pub fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2))
                == Some("0")
        })
        .unwrap_or(false)
}

/// Every readable project of every corpus workspace (one folder per public project),
/// loaded as the dashboard loads them at `now`, each with its workspace's root.
pub fn corpus_projects(
    now: resume_tui::core::time::Timestamp,
) -> Vec<(PathBuf, resume_tui::core::model::Project)> {
    let mut projects = Vec::new();
    for entry in std::fs::read_dir(corpus()).unwrap() {
        let root = entry.unwrap().path();
        if !root.is_dir() {
            continue;
        }
        let ws = resume_tui::io::load::load_workspace(
            &root,
            &resume_tui::io::env::Env::default(),
            now,
            &resume_tui::config::Config::default(),
        );
        let readable = ws.projects.into_iter();
        let readable = readable.filter(|p| p.shape != resume_tui::core::model::Shape::Unreadable);
        projects.extend(readable.map(|p| (root.clone(), p)));
    }
    projects
}
