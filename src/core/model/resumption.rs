use serde::Serialize;

use super::OtherFields;
use crate::core::time::Timestamp;

/// A Jerry `resumption:` section in any of its shapes, normalised.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Resumption {
    pub recovery: RecoveryState,
    pub files_to_read: Vec<FileToRead>,
    pub quality: Option<QualityTrajectory>,
    pub defects: Option<DefectSummary>,
    /// Which key holds the decision list in the file (`decision_log` or `decisions`), if any.
    pub decisions_key: Option<String>,
    pub decisions: Vec<Decision>,
    pub agent_summaries: Vec<AgentSummary>,
    pub compaction: Option<CompactionEvents>,
    /// Keys under `resumption:` (and under `recovery_state:`) the model does not know, in order.
    pub other: OtherFields,
    /// The file's `paths.base`, which listed paths may be relative to.
    pub paths_base: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RecoveryState {
    pub last_checkpoint: Option<String>,
    /// Phase as written (`3`, `"phase-2"`, …).
    pub current_phase: Option<String>,
    pub current_phase_name: Option<String>,
    pub workflow_status: Option<String>,
    pub current_activity: Option<String>,
    pub next_step: Option<String>,
    pub context_fill_at_update: Option<f64>,
    pub updated_at_raw: Option<String>,
    pub updated_at: Option<Timestamp>,
    pub cross_session_portable: Option<bool>,
    pub ephemeral_references: Option<bool>,
    /// v1 prose, kept verbatim.
    pub current_state: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FileToRead {
    pub path: String,
    pub priority: Option<i64>,
    pub purpose: Option<String>,
    pub sections: Vec<String>,
    /// Filled by the loader: does the path exist under the workspace root?
    pub exists: Option<bool>,
    /// Filled by the loader: where the file was found, relative to the root.
    pub resolved: Option<String>,
    /// Filled by the loader for a missing file: the folders (relative to the
    /// root, `.` for the root itself) it was looked for in.
    pub looked_in: Vec<String>,
    /// The entry is prose, not a path: shown as a note, never looked up.
    pub note: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct QualityTrajectory {
    pub gates_completed: Vec<GateCompletion>,
    pub gates_remaining: Vec<String>,
    pub current_gate: Option<String>,
    pub current_gate_iteration: Option<i64>,
    /// Gate (or agent) id → scores per iteration, in file order.
    pub score_history: Vec<(String, Vec<f64>)>,
    pub lowest_dimension: Option<String>,
    pub total_iterations_used: Option<i64>,
    pub total_iterations_budget: Option<i64>,
    pub other: OtherFields,
}

/// `gates_completed` entries are ids (`"qg-1"`) or maps (`{id, score, iterations, date, note}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GateCompletion {
    pub id: String,
    pub score: Option<f64>,
    pub iterations: Option<i64>,
    pub date: Option<String>,
    pub note: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DefectSummary {
    pub total_defects_found: Option<i64>,
    pub total_defects_resolved: Option<i64>,
    pub unresolved_defects: Vec<String>,
    pub recurring_patterns: Vec<DefectPattern>,
    pub last_gate_primary_defect: Option<String>,
    pub other: OtherFields,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DefectPattern {
    pub pattern: String,
    pub gates_affected: Vec<String>,
    pub resolution: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Decision {
    /// `RD-NNN`; real entries sometimes have none.
    pub id: Option<String>,
    pub gate: Option<String>,
    pub iteration: Option<i64>,
    pub decision: String,
    pub rationale: Option<String>,
    pub affects_phases: Vec<i64>,
    pub applied: Option<bool>,
    pub date: Option<String>,
    pub other: OtherFields,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AgentSummary {
    pub agent: String,
    pub summary: String,
}

/// The four `compaction_events` shapes seen in design and real files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CompactionShape {
    /// `{count, events: [{id, timestamp, trigger, estimated_fill_before, …}]}` (seed 002/004).
    Design,
    /// `{count, events: [{checkpoint_id, fill_percentage, tier, timestamp}]}` (Jerry code write-back).
    JerryCode,
    /// `[{session, compactions, note}]`.
    BareList,
    /// `{count, timestamps: [], recovery_notes: []}`.
    CountOnly,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompactionEvents {
    pub shape: CompactionShape,
    pub count: Option<i64>,
    pub events: Vec<CompactionEvent>,
    /// `timestamps` / `recovery_notes` of the count-only shape, and other loose notes.
    pub notes: Vec<String>,
    pub other: OtherFields,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CompactionEvent {
    /// `CX-NNN` (design) or `checkpoint_id` (Jerry code).
    pub id: Option<String>,
    pub timestamp_raw: Option<String>,
    pub timestamp: Option<Timestamp>,
    pub trigger: Option<String>,
    pub fill_before: Option<f64>,
    pub tier: Option<String>,
    pub active_phase: Option<String>,
    pub active_gate: Option<String>,
    pub active_gate_iteration: Option<i64>,
    pub checkpoint_file: Option<String>,
    pub acknowledged: Option<bool>,
    /// Bare-list shape: `session`, `compactions`, `note`.
    pub session: Option<String>,
    pub compactions: Option<i64>,
    pub note: Option<String>,
    pub other: OtherFields,
}
