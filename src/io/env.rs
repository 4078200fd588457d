//! A snapshot of the environment variables resume-tui reads, so that everything
//! below the binary's entry point takes the environment as a value.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Env {
    vars: BTreeMap<String, String>,
}

/// Every variable resume-tui consults.
pub const KNOWN: &[&str] = &[
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    "CLAUDE_CONFIG_DIR",
    // A `[1m]` model here is evidence of a 1M window (`io::context_fill`).
    "ANTHROPIC_MODEL",
    // Claude Code's process, whose `--model` may select 1M (`context_fill::client_model`).
    "CLAUDE_PID",
    // Where `hooks install` and `doctor` look for `claude` to ask its version.
    "PATH",
    "JERRY_LIFECYCLE_DIR",
    "HOME",
    "SSH_TTY",
    "SSH_CONNECTION",
    "TMUX",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "NO_COLOR",
    "TERM",
    // The operator's editor, for the dashboard's `o`.
    "VISUAL",
    "EDITOR",
    // The dashboard's colour depth and glyph set (`tui::color_depth`, `tui::glyphs`).
    "COLORTERM",
    "STY",
    "LC_ALL",
    "LC_CTYPE",
    "LANG",
    "RESUME_TUI_CONFIG",
    "RESUME_TUI_LOG_DIR",
    "RESUME_TUI_CORPUS",
    // Tests of the dashboard's terminal restoration and first frame only
    // (`tui::test_fault`); test builds only (the `test-fault` feature).
    #[cfg(feature = "test-fault")]
    "RESUME_TUI_TEST_FAULT",
    #[cfg(feature = "test-fault")]
    "RESUME_TUI_TEST_HOLD_LOAD",
    #[cfg(feature = "test-fault")]
    "RESUME_TUI_TEST_HOLD_WATCH",
    // The hook deadline's test (`hook::deadline`); test builds only.
    #[cfg(feature = "test-fault")]
    "RESUME_TUI_HOOK_DEADLINE_MS",
];

impl Env {
    pub fn from_process() -> Env {
        let vars = KNOWN
            .iter()
            .filter_map(|k| std::env::var(k).ok().map(|v| ((*k).to_string(), v)))
            .collect();
        Env { vars }
    }

    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Env {
        Env {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// The value, or `None` when unset or empty.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.vars
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    pub fn set(&mut self, key: &str, value: &str) {
        self.vars.insert(key.to_string(), value.to_string());
    }
}

/// Where `name` is found through the PATH of `env`, as a shell would find it.
pub fn find_on_path(env: &Env, name: &str) -> Option<PathBuf> {
    let path = env.get("PATH")?;
    std::env::split_paths(path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable_file(candidate))
}

#[cfg(unix)]
fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable_file(path: &Path) -> bool {
    path.is_file()
}
