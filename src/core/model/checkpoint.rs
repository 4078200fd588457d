use serde::Serialize;

use super::{FileToRead, OtherFields};
use crate::core::time::Timestamp;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckpointFormat {
    /// `cx-NNN-checkpoint.json`, seed 002 "Checkpoint File Format".
    Design,
    /// `cx-NNN.json` as the real Jerry code wrote it.
    Jerry,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AckSource {
    /// `metadata.acknowledged: true` in the file.
    Flag,
    /// A `cx-NNN.acknowledged` marker beside it.
    Marker,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CheckpointDecision {
    pub id: Option<String>,
    pub summary: String,
    pub affects_phases: Vec<i64>,
}

/// What PostCompact recorded into a checkpoint after compaction finished.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PostCompactRecord {
    pub trigger: Option<String>,
    pub compact_summary: Option<String>,
    pub recorded_at: Option<String>,
}

/// A compaction checkpoint in either format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Checkpoint {
    /// `cx-NNN`.
    pub id: String,
    pub number: Option<u32>,
    pub format: CheckpointFormat,
    /// Relative to the workspace root.
    pub path: String,
    pub created_at_raw: Option<String>,
    pub created_at: Option<Timestamp>,
    pub trigger: Option<String>,
    pub session_id: Option<String>,

    pub fill: Option<f64>,
    pub tokens_used: Option<i64>,
    pub window: Option<i64>,
    pub tier: Option<String>,
    pub fill_source: Option<String>,

    pub workflow_id: Option<String>,
    pub workflow_status: Option<String>,
    pub current_phase: Option<String>,
    pub current_phase_name: Option<String>,
    pub current_activity: Option<String>,
    pub last_completed_checkpoint: Option<String>,
    pub current_gate: Option<String>,
    pub current_gate_iteration: Option<i64>,
    pub current_gate_score: Option<f64>,

    pub defect_patterns: Vec<String>,
    pub unresolved_defects: Vec<String>,
    pub blockers: Vec<String>,
    pub decisions: Vec<CheckpointDecision>,
    pub agent_summaries: Vec<(String, String)>,
    pub files_to_read: Vec<FileToRead>,
    pub next_action: Option<String>,
    pub critical_context: Option<String>,

    pub acknowledged: bool,
    pub acknowledged_via: Option<AckSource>,
    pub acknowledged_at: Option<String>,
    pub written_by: Option<String>,
    pub post_compact: Option<PostCompactRecord>,
    /// Real Jerry `resumption_state`, as JSON (its fields are also read into the
    /// ones above; see `normalize::resumption_state`).
    pub resumption_state: Option<serde_json::Value>,
    pub other: OtherFields,
    /// The compaction summary the session's transcript holds for this checkpoint,
    /// attached by a loader that read it (the dashboard's; `core::dropped::known`).
    /// Not in the file: never written, never printed.
    #[serde(skip)]
    pub transcript_summary: Option<TranscriptSummary>,
}

/// A compaction summary found in a transcript (not in the checkpoint's file).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TranscriptSummary {
    /// The transcript it was read from.
    pub path: String,
    pub text: String,
}

/// Context fill as last recorded by a hook: design `.jerry/context-monitor-state.json`
/// or real Jerry `context-state.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ContextState {
    pub path: String,
    pub fill: Option<f64>,
    pub tokens_used: Option<i64>,
    pub window: Option<i64>,
    /// Level as written (`WARNING`, `critical`, …).
    pub level: Option<String>,
    pub session_id: Option<String>,
    pub updated_at_raw: Option<String>,
    pub updated_at: Option<Timestamp>,
    pub other: OtherFields,
}

/// Nexus `00-system/.cache/precompact_state.json` (seed 000, flat).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PrecompactState {
    pub path: String,
    pub active_project_id: Option<String>,
    pub confidence: Option<String>,
    pub detection_method: Option<String>,
    pub timestamp_raw: Option<String>,
    pub timestamp: Option<Timestamp>,
    /// The session that compacted (resume-tui writes it; older tools did not).
    pub session_id: Option<String>,
    pub other: OtherFields,
    /// Problems found while reading (e.g. the nested `project_detection` variant).
    pub diagnostics: Vec<super::Diagnostic>,
}
