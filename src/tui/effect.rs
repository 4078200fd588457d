//! What `update` asks the outside world to do. The runner in `app.rs` performs
//! each effect and feeds the result back as a `Msg`.

use super::form::DecisionDraft;
use super::launch::Window;
use crate::core::model::Checkpoint;
use crate::io::project_edit::Target;

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Read the whole workspace again.
    LoadAll,
    /// Re-read these projects' state files (root-relative sources) only.
    ReloadProjects(Vec<String>),
    /// Re-read these live context records (root-relative) only.
    ReloadRecords(Vec<String>),
    /// Re-read these checkpoint files (root-relative) only.
    ReloadCheckpoints(Vec<String>),
    /// Copy a text to the clipboard; `what` names it in the status bar.
    Copy {
        what: String,
        text: String,
    },
    /// Change one project's files.
    Write(WriteRequest),
    /// Bytes for the terminal itself (an OSC 52 copy, a notification), written
    /// between frames.
    WriteTerminal(Vec<u8>),
    /// Open a tmux window (resume now, `$EDITOR`).
    NewWindow(Window),
    /// Outside tmux: give the terminal to the window's program (`$EDITOR`) until
    /// it exits, then take it back, redraw and reload.
    RunHere(Window),
    Quit,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WriteRequest {
    /// The project's state file, and the hash of its bytes as the dashboard read
    /// them; `None` for checkpoints tied to no project (only their own files).
    pub target: Option<Target>,
    pub op: StateChange,
}

/// A change the dashboard makes to a project's state file (`io::project_edit` writes it).
#[derive(Debug, Clone, PartialEq)]
pub enum StateChange {
    /// The checkpoint as the dashboard shows it (its file, format and facts).
    Acknowledge {
        checkpoint: Box<Checkpoint>,
    },
    AcknowledgeAll {
        checkpoints: Vec<Checkpoint>,
    },
    Merge {
        checkpoint: Box<Checkpoint>,
    },
    AddDecision(DecisionDraft),
    EditDecision {
        id: String,
        draft: DecisionDraft,
    },
    SetApplied {
        id: String,
        applied: bool,
    },
    DeleteDecision {
        id: String,
    },
    /// Put the files `what` wrote back as they were before it (an undo).
    Restore {
        what: String,
        files: Vec<super::msg::Revert>,
    },
}

impl StateChange {
    /// How the status bar names the change.
    pub fn describe(&self) -> String {
        match self {
            StateChange::Acknowledge { checkpoint } => format!("acknowledged {}", checkpoint.id),
            StateChange::AcknowledgeAll { checkpoints } => {
                let ids: Vec<&str> = checkpoints.iter().map(|c| c.id.as_str()).collect();
                format!("acknowledged {}", ids.join(", "))
            }
            StateChange::Merge { checkpoint } => {
                format!("merged {} into resumption", checkpoint.id)
            }
            StateChange::AddDecision(_) => "added a decision".to_string(),
            StateChange::EditDecision { id, .. } => format!("edited {id}"),
            StateChange::SetApplied { id, applied: true } => format!("marked {id} applied"),
            StateChange::SetApplied { id, applied: false } => format!("marked {id} not applied"),
            StateChange::DeleteDecision { id } => format!("deleted {id}"),
            StateChange::Restore { what, .. } => format!("undo \"{what}\""),
        }
    }

    /// A change `u` can take back: a decision's, or an acknowledge (its files
    /// put back, its markers removed).
    pub fn undoable(&self) -> bool {
        matches!(
            self,
            StateChange::Acknowledge { .. }
                | StateChange::AcknowledgeAll { .. }
                | StateChange::AddDecision(_)
                | StateChange::EditDecision { .. }
                | StateChange::SetApplied { .. }
                | StateChange::DeleteDecision { .. }
        )
    }
}
