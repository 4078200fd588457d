//! What every event handler is given: the environment snapshot, the clock reading,
//! the settings and the project folder. No process state is read below this.

use std::path::{Path, PathBuf};

use super::input::HookInput;
use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;

pub struct HookContext<'a> {
    pub env: &'a Env,
    pub now: Timestamp,
    pub config: &'a Config,
    /// `$CLAUDE_PROJECT_DIR`, else `cwd` from stdin; `None` when neither is set.
    pub project_dir: Option<PathBuf>,
}

impl<'a> HookContext<'a> {
    pub fn new(env: &'a Env, now: Timestamp, config: &'a Config, input: &HookInput) -> Self {
        let project_dir = env
            .get("CLAUDE_PROJECT_DIR")
            .map(PathBuf::from)
            .or_else(|| input.cwd.clone());
        HookContext {
            env,
            now,
            config,
            project_dir,
        }
    }

    pub fn project_dir(&self) -> Option<&Path> {
        self.project_dir.as_deref()
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

/// Whether the folder looks like a workspace resume-tui serves, judged without a
/// walk: a `.jerry/` folder, a Nexus `00-system/`, a Jerry `projects/` folder or an
/// ORCHESTRATION.yaml at the root. Hooks installed for the user run in every
/// folder; they write nothing into folders that are none of these.
pub fn is_workspace(project_dir: &Path) -> bool {
    jerry_dir(project_dir).is_dir()
        || is_nexus_workspace(project_dir)
        || project_dir.join("projects").is_dir()
        || project_dir.join("ORCHESTRATION.yaml").is_file()
}
