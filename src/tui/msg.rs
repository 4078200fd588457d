//! Everything that can happen to the dashboard: input, and the results of effects.

use crossterm::event::{KeyEvent, MouseEvent};

use crate::core::model::Workspace;

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// The clock moved on (ages in the list are redrawn); carries no data.
    Tick,
    /// A load finished: the whole workspace, or a reading error.
    Loaded(Result<Box<Workspace>, String>),
    /// The watcher saw files change (paths relative to the root).
    FilesChanged(Vec<String>),
    Written {
        what: String,
        result: Result<String, WriteError>,
    },
    Copied {
        what: String,
        /// `native`, `osc52`, `osc52+tmux`, `tmux`, `file:PATH` or `off`.
        backend: String,
        /// False when nothing was copied (the message says why).
        copied: bool,
        message: String,
    },
    /// Single projects re-read after their state files changed: (source, project);
    /// `None` when the file no longer holds a project.
    ProjectsLoaded(Vec<(String, Option<Box<crate::core::model::Project>>)>),
    /// Something outside the screen went wrong (watcher, config, theme, keymap).
    Problem(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// The file changed since it was read; nothing was written.
    ChangedOnDisk {
        path: String,
    },
    Failed(String),
}
