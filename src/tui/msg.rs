//! Everything that can happen to the dashboard: input, and the results of effects.

use crossterm::event::{KeyEvent, MouseEvent};

use super::loader::StateHashes;
use crate::core::model::{Checkpoint, Project, Workspace};
use crate::io::write::ContentHash;

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    /// Text pasted into the terminal (bracketed paste): never read as keys.
    Paste(String),
    Resize(u16, u16),
    /// The clock moved on (ages in the list are redrawn); carries no data.
    Tick,
    /// A load finished: the whole workspace, or a reading error.
    Loaded(Result<Box<LoadedWorkspace>, String>),
    /// The watcher saw files change (paths relative to the root).
    FilesChanged(Vec<String>),
    Written {
        what: String,
        result: Result<String, NotWritten>,
        /// How to take the change back, when `u` can (a decision's change).
        undo: Option<Box<Undo>>,
    },
    Copied {
        what: String,
        /// `native`, `osc52`, `osc52+tmux`, `tmux`, `file:PATH` or `off`.
        backend: String,
        /// False when nothing was copied (the message says why).
        copied: bool,
        message: String,
        /// What the copy leaves for the terminal to receive (OSC 52): the copy runs
        /// on a worker thread, and only the UI thread writes to the terminal.
        terminal: Vec<u8>,
    },
    /// Single projects re-read after their state files changed.
    ProjectsLoaded(Vec<ReloadedProject>),
    /// Live context records re-read (root-relative path; `None` when gone).
    RecordsLoaded(Vec<(String, Option<crate::core::model::ContextState>)>),
    /// Checkpoint files re-read (root-relative path, what it is now).
    CheckpointsLoaded(Vec<(String, crate::io::load::CheckpointReading)>),
    /// Something outside the screen went wrong (watcher, config, theme, keymap).
    Problem(String),
    /// A tmux window was opened (what it runs), or why not.
    Launched(Result<String, String>),
    /// A signal to suspend or end (acted on by the run loop, not by `update`).
    Signal(super::signals::Signal),
}

impl Msg {
    /// A finished load of `workspace` whose files' hashes are not known (tests,
    /// benchmarks): edits then apply to the files as they are on disk.
    pub fn loaded(workspace: Workspace) -> Msg {
        Msg::Loaded(Ok(Box::new(LoadedWorkspace {
            workspace,
            hashes: StateHashes::new(),
            preview: false,
            unread: false,
            state_folders: Vec::new(),
        })))
    }
}

/// A workspace as loaded, with the content hash of each state file as it was read.
#[derive(Debug, Clone, Default)]
pub struct LoadedWorkspace {
    pub workspace: Workspace,
    pub hashes: StateHashes,
    /// The quick first pass (`loader::load` with `Pass::Preview`); the full load
    /// follows.
    pub preview: bool,
    /// Only what discovery found (`loader::discovered`): the projects are known by
    /// where they are, their files not read yet; the preview pass follows.
    pub unread: bool,
    /// Where new state files would appear, as the load's walk found them
    /// (`discover::Discovery::state_folders`): the watcher watches them too.
    pub state_folders: Vec<String>,
}

/// One project re-read after its state file changed.
#[derive(Debug, Clone)]
pub struct ReloadedProject {
    /// The state file, relative to the root.
    pub source: String,
    /// `None` when the file no longer holds a project.
    pub project: Option<Box<Project>>,
    /// The content hash of the state file as it was read.
    pub hash: Option<ContentHash>,
    /// Checkpoints read beside it that the project does not claim (attributed
    /// against the whole workspace, as a full load does).
    pub unclaimed: Vec<Checkpoint>,
}

/// How to take a change back: each file it wrote, as it was before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undo {
    /// `None`: checkpoints tied to no project.
    pub project_id: Option<String>,
    /// The change, as the status bar named it.
    pub what: String,
    pub files: Vec<Revert>,
}

pub use crate::io::project_edit::Revert;

/// Why a change the dashboard asked for was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotWritten {
    /// The file changed since it was read; nothing was written.
    ChangedOnDisk {
        path: String,
    },
    /// Nothing needed writing (already acknowledged, already merged, …): why.
    Unchanged(String),
    Failed(String),
}
