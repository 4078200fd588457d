//! The dashboard through the binary in tmux on a copy of the demo workspace, for
//! tests of what it does while files change under it: start it, wait for the
//! status bar, select a project by filtering, check another project still edits.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use crate::hostile::{hand_to_nobody, unprivileged};
use crate::tmux::{Tmux, quote};

pub const PAYOUTS_STATE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
pub const PAYOUTS_DIR: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001";
pub const DOCS_STATE: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";
pub const HEIGHT: u16 = 40;

pub struct Dashboard {
    pub tmux: Tmux,
    pub root: PathBuf,
    /// Where the dashboard's stderr goes, outside the workspace.
    _logs: tempfile::TempDir,
    /// The workspace, when it is a folder of its own (dropped after tmux).
    _workspace: Option<tempfile::TempDir>,
}

impl Dashboard {
    /// The dashboard on `root` (a demo unpacked there), run through `prefix`.
    pub fn start(root: &Path, prefix: &[String]) -> Dashboard {
        let logs = tempfile::tempdir().unwrap();
        let prefix: Vec<String> = prefix.iter().map(|p| quote(Path::new(p))).collect();
        let no_home = root.join(".no-home");
        let command = format!(
            "{prefix} env -u NO_COLOR TERM=xterm-256color HOME={home} XDG_CONFIG_HOME={home} \
             RESUME_TUI_CONFIG={config} {bin} --root {root} 2>{stderr}",
            prefix = prefix.join(" "),
            home = quote(&no_home),
            config = quote(&no_home.join("config.toml")),
            bin = quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
            root = quote(root),
            stderr = quote(&logs.path().join("stderr.txt")),
        );
        let dashboard = Dashboard {
            tmux: Tmux::start_sized(&command, 120, HEIGHT),
            root: root.to_path_buf(),
            _logs: logs,
            _workspace: None,
        };
        dashboard.tmux.wait_for_list(11);
        dashboard
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Waits until the status bar says every one of `words`; returns the screen.
    pub fn wait_status(&self, words: &[&str]) -> String {
        let screen = self
            .tmux
            .wait_for(&format!("a status bar with {words:?}"), |s| {
                let status = status_line(s);
                words.iter().all(|w| status.contains(w))
            });
        assert!(self.tmux.running(), "the dashboard is still up");
        screen
    }

    /// Selects the one project whose id matches `filter`. (The last filter is
    /// cleared with Backspace: an Escape followed at once by another key reads as
    /// Alt and that key.)
    pub fn select(&self, filter: &str) {
        self.tmux.keys(&["/"]);
        self.tmux.keys(&["BSpace"; 20]);
        self.tmux.text(filter);
        self.tmux.keys(&["Enter"]);
        self.tmux.wait_for_text("Projects 1/");
    }

    /// Another project can still be edited: `Space` on the docs workflow's first
    /// decision marks it not applied, on disk.
    pub fn other_projects_still_edit(&self) {
        let before = std::fs::read_to_string(self.path(DOCS_STATE)).unwrap();
        self.select("docs-rewrite");
        self.tmux.keys(&["4", "l", "Space"]);
        self.wait_status(&["✓ saved: marked RD-001 not applied"]);
        let after = std::fs::read_to_string(self.path(DOCS_STATE)).unwrap();
        let applied = |t: &str| t.matches("applied: true").count();
        assert_eq!(applied(&after), applied(&before) - 1, "{after}");
        self.tmux.keys(&["h"]);
    }
}

/// The dashboard on a fresh copy of the demo; as uid 65534 when `as_nobody` (and
/// this process is root).
pub fn on_demo(as_nobody: bool) -> Dashboard {
    on_demo_with(as_nobody, |_| {})
}

/// [`on_demo`], with the copy changed by `prepare` before the dashboard starts.
pub fn on_demo_with(as_nobody: bool, prepare: impl FnOnce(&Path)) -> Dashboard {
    let ws = tempfile::tempdir().unwrap();
    demo_in(ws.path());
    prepare(ws.path());
    let prefix = if as_nobody {
        hand_to_nobody(ws.path());
        unprivileged()
    } else {
        Vec::new()
    };
    let mut dashboard = Dashboard::start(ws.path(), &prefix);
    dashboard._workspace = Some(ws);
    dashboard
}

pub fn demo_in(root: &Path) {
    resume_tui::io::demo::unpack_into(root, resume_tui::io::clock::now()).unwrap();
}

/// The status bar: the line above the key hints.
pub fn status_line(screen: &str) -> &str {
    screen
        .lines()
        .nth(usize::from(HEIGHT) - 2)
        .unwrap_or_default()
}
