//! What every event handler is given: the environment snapshot, the clock reading,
//! the settings and the project folder. No process state is read below this.

use std::path::{Path, PathBuf};

use super::input::HookInput;
use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::discover::root::{is_workspace_root, workspace_root};
use crate::io::env::Env;

pub struct HookContext<'a> {
    pub env: &'a Env,
    pub now: Timestamp,
    pub config: &'a Config,
    /// The workspace `$CLAUDE_PROJECT_DIR` (else `cwd` from stdin) is in, or that
    /// folder when it is in none; `None` when neither is set.
    pub project_dir: Option<PathBuf>,
    /// Whether `project_dir` is a workspace (`is_workspace`), as found when it was.
    pub in_workspace: bool,
}

impl<'a> HookContext<'a> {
    pub fn new(env: &'a Env, now: Timestamp, config: &'a Config, input: &HookInput) -> Self {
        // The workspace the session is in: the folder itself or the nearest one
        // above it (`io::discover::root`); else the folder, where nothing is written.
        let home = env.get("HOME").map(PathBuf::from);
        let start = env
            .get("CLAUDE_PROJECT_DIR")
            .map(PathBuf::from)
            .or_else(|| input.cwd.clone());
        let found = start
            .as_deref()
            .and_then(|start| workspace_root(start, home.as_deref()));
        HookContext {
            env,
            now,
            config,
            in_workspace: found.is_some(),
            project_dir: found.or(start),
        }
    }

    pub fn project_dir(&self) -> Option<&Path> {
        self.project_dir.as_deref()
    }

    /// The project folder when it is a workspace (the search that found it
    /// started there, so it is one exactly when the search found one).
    pub fn workspace(&self) -> Option<&Path> {
        self.project_dir().filter(|_| self.in_workspace)
    }
}

/// Files resume-tui keeps in a project folder.
pub fn jerry_dir(project_dir: &Path) -> PathBuf {
    project_dir.join(".jerry")
}

pub fn checkpoints_dir(project_dir: &Path) -> PathBuf {
    jerry_dir(project_dir).join("checkpoints")
}

pub fn monitor_state_path(project_dir: &Path) -> PathBuf {
    jerry_dir(project_dir).join("context-monitor-state.json")
}

pub fn precompact_state_path(project_dir: &Path) -> PathBuf {
    project_dir
        .join("00-system")
        .join(".cache")
        .join("precompact_state.json")
}

/// A Nexus workspace has `00-system/` at its root.
pub fn is_nexus_workspace(project_dir: &Path) -> bool {
    project_dir.join("00-system").is_dir()
}

/// Whether the folder is a workspace resume-tui serves, judged without a walk
/// (`io::discover::root`). Hooks installed for the user run in every folder; they
/// write nothing into folders that are not one.
pub fn is_workspace(project_dir: &Path) -> bool {
    is_workspace_root(project_dir)
}
