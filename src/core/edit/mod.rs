//! Edits as data. An [`EditIntent`] says what the operator wants; [`plan`] turns it,
//! against the parsed file, into [`Op`]s (set, insert, append at a path); `io::yaml_edit`
//! applies the ops to the file's own text, and [`value_ops`] applies them to the parsed
//! value so the result can be checked: the re-parsed text must equal the old value plus
//! exactly these ops.

mod compaction;
mod decisions;
pub mod diff;
pub mod json;
pub mod plan;
pub mod render;
pub mod value_ops;

use crate::core::time::Timestamp;

pub use plan::{PlanError, plan};

/// What the operator asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum EditIntent {
    /// Mark the compaction event of one checkpoint (`cx-NNN`) acknowledged in the
    /// resumption section (the checkpoint file or marker is handled beside it).
    AcknowledgeCheckpoint {
        id: String,
    },
    /// Every unacknowledged event of the section.
    AcknowledgeAll,
    /// Record a checkpoint in `compaction_events`, in the shape the file uses.
    MergeCheckpoint(CheckpointEvent),
    AddDecision(NewDecision),
    EditDecision {
        id: String,
        fields: DecisionFields,
    },
    SetDecisionApplied {
        id: String,
        applied: bool,
    },
    /// Take the decision out of the log.
    DeleteDecision {
        id: String,
    },
    /// Set `recovery_state.updated_at` (or the flat `updated_at`).
    Touch {
        now: Timestamp,
    },
    /// Nexus manifest frontmatter.
    SetNexusFields(NexusFields),
}

/// The facts of a checkpoint that a `compaction_events` entry records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckpointEvent {
    /// `cx-NNN`.
    pub id: String,
    pub number: Option<u32>,
    pub timestamp: Option<String>,
    pub trigger: Option<String>,
    pub fill: Option<f64>,
    pub tier: Option<String>,
    pub session_id: Option<String>,
    pub active_phase: Option<String>,
    pub active_gate: Option<String>,
    pub active_gate_iteration: Option<i64>,
    /// Relative to the workspace root.
    pub checkpoint_file: Option<String>,
    pub acknowledged: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewDecision {
    pub decision: String,
    pub rationale: Option<String>,
    pub affects_phases: Vec<i64>,
    pub gate: Option<String>,
    pub iteration: Option<i64>,
    /// Today, written only when the file's entries carry a `date`.
    pub date: Option<Timestamp>,
}

/// Fields of a decision to change; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DecisionFields {
    pub decision: Option<String>,
    pub rationale: Option<String>,
    pub affects_phases: Option<Vec<i64>>,
    pub gate: Option<String>,
    pub iteration: Option<i64>,
}

impl DecisionFields {
    pub fn is_empty(&self) -> bool {
        self == &DecisionFields::default()
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct NexusFields {
    pub next_action: Option<String>,
    pub current_task: Option<String>,
    pub current_section: Option<String>,
    pub last_updated: Option<Timestamp>,
}

/// One step of a path into a YAML or JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

pub type Path = Vec<Seg>;

/// Builds a path of keys: `keys(&["resumption", "decision_log"])`.
pub fn keys(names: &[&str]) -> Path {
    names.iter().map(|k| Seg::Key((*k).to_string())).collect()
}

/// A value to write. Strings are written double-quoted unless they replace a
/// scalar whose style says otherwise.
#[derive(Debug, Clone, PartialEq)]
pub enum NewValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<NewValue>),
    Map(Vec<(String, NewValue)>),
}

impl NewValue {
    pub fn str(text: impl Into<String>) -> NewValue {
        NewValue::Str(text.into())
    }

    pub fn opt_str(text: Option<&str>) -> NewValue {
        text.map_or(NewValue::Null, NewValue::str)
    }

    pub fn map(entries: Vec<(&str, NewValue)>) -> NewValue {
        NewValue::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    pub fn is_collection(&self) -> bool {
        matches!(self, NewValue::List(_) | NewValue::Map(_))
    }
}

/// One change to a document.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Replace the value at `path` (which exists).
    Set { path: Path, value: NewValue },
    /// Add `key` (absent) at the end of the mapping at `path`.
    Insert {
        path: Path,
        key: String,
        value: NewValue,
    },
    /// Add `item` at the end of the sequence at `path`.
    Append { path: Path, item: NewValue },
    /// Take out the sequence item at `path` (which ends in an index).
    Remove { path: Path },
}

impl Op {
    /// The path of the node the op changes (for Insert and Append, the container;
    /// for Remove, the item).
    pub fn target(&self) -> &Path {
        match self {
            Op::Set { path, .. }
            | Op::Insert { path, .. }
            | Op::Append { path, .. }
            | Op::Remove { path } => path,
        }
    }
}
