//! Checkpoint files under `.jerry/checkpoints/`: the design format of seed 002
//! (`cx-NNN-checkpoint.json`, which resume-tui also writes) and the format the
//! real Jerry code wrote (`cx-NNN.json`).
//!
//! Field order is the seed's order, so serialising a [`DesignCheckpoint`] gives
//! the seed's layout. Optional facts the seed shows are written as `null` when
//! unknown (and required in the schema); only keys the seed does not have
//! (`session_id`, `post_compact`, `purpose`) are left out when empty.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::nullable::Nullable;

/// `cx-NNN-checkpoint.json` (seed 002 "Checkpoint File Format").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DesignCheckpoint {
    /// `"1.0.0"`.
    pub schema_version: String,
    /// `"compaction"`.
    pub event_type: String,
    /// `cx-NNN`.
    pub event_id: String,
    /// ISO 8601, UTC.
    pub timestamp: String,
    /// The Claude Code session that compacted (written by the hook; not in the seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    pub trigger: CheckpointTrigger,
    pub context_state: DesignContextState,
    pub orchestration_state: OrchestrationState,
    pub accumulated_context: AccumulatedContext,
    pub recovery_instructions: RecoveryInstructions,
    pub metadata: CheckpointMetadata,
    /// What PostCompact recorded after the compaction finished (not in the seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_compact: Option<PostCompact>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointTrigger {
    /// `auto` or `manual`.
    #[serde(rename = "type")]
    pub kind: String,
    /// What wrote the checkpoint, e.g. `"PreCompact hook"`.
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DesignContextState {
    /// 0.0–1.0; `null` when no measurement was available.
    #[schemars(with = "Nullable<f64>")]
    pub estimated_fill_before_compaction: Option<f64>,
    #[schemars(with = "Nullable<i64>")]
    pub estimated_tokens_used: Option<i64>,
    pub context_window_size: i64,
    /// Where the fill came from, e.g. `"transcript_heuristic"`.
    pub source: String,
}

/// A phase as ORCHESTRATION.yaml writes it: a number (`2`) or a name (`"phase-2"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum PhaseId {
    Number(i64),
    Text(String),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OrchestrationState {
    #[schemars(with = "Nullable<String>")]
    pub workflow_id: Option<String>,
    #[schemars(with = "Nullable<String>")]
    pub workflow_status: Option<String>,
    #[schemars(with = "Nullable<PhaseId>")]
    pub current_phase: Option<PhaseId>,
    #[schemars(with = "Nullable<String>")]
    pub current_phase_name: Option<String>,
    #[schemars(with = "Nullable<String>")]
    pub current_activity: Option<String>,
    #[schemars(with = "Nullable<String>")]
    pub last_completed_checkpoint: Option<String>,
    pub phases_complete: Vec<PhaseId>,
    pub phases_in_progress: Vec<PhaseId>,
    pub phases_remaining: Vec<PhaseId>,
    #[schemars(with = "Nullable<String>")]
    pub current_gate: Option<String>,
    #[schemars(with = "Nullable<i64>")]
    pub current_gate_iteration: Option<i64>,
    #[schemars(with = "Nullable<f64>")]
    pub current_gate_score: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AccumulatedContext {
    pub defect_patterns: Vec<String>,
    pub decisions_since_last_checkpoint: Vec<CheckpointDecision>,
    /// Agent name → one-line summary, in file order.
    pub agent_summaries: serde_json::Map<String, serde_json::Value>,
    /// Defect ids still open (`resumption.defect_summary.unresolved_defects`);
    /// written by resume-tui since the "dropped by compaction" comparison.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved_defects: Vec<String>,
    /// A Nexus manifest's `blockers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointDecision {
    /// `RD-NNN`.
    #[schemars(with = "Nullable<String>")]
    pub id: Option<String>,
    pub summary: String,
    pub affects_phases: Vec<PhaseId>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RecoveryInstructions {
    pub files_to_read: Vec<CheckpointFileToRead>,
    pub next_action: String,
    #[schemars(with = "Nullable<String>")]
    pub critical_context: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointFileToRead {
    pub path: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointMetadata {
    pub written_by: String,
    pub acknowledged: bool,
    /// ISO 8601 when acknowledged, else `null`.
    #[schemars(with = "Nullable<String>")]
    pub acknowledged_at: Option<String>,
}

/// Recorded by the PostCompact hook into the newest checkpoint.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PostCompact {
    /// `auto` or `manual`.
    #[schemars(with = "Nullable<String>")]
    pub trigger: Option<String>,
    /// Claude Code's generated summary of the compacted conversation.
    #[schemars(with = "Nullable<String>")]
    pub compact_summary: Option<String>,
    /// ISO 8601, UTC.
    #[schemars(with = "Nullable<String>")]
    pub recorded_at: Option<String>,
}

/// `cx-NNN.json` as real Jerry wrote it (`FilesystemCheckpointRepository`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JerryCheckpoint {
    pub checkpoint_id: String,
    pub context_state: JerryCheckpointContext,
    /// `null` in every real file seen; a map otherwise.
    #[schemars(with = "Nullable<serde_json::Value>")]
    pub resumption_state: Option<serde_json::Value>,
    /// ISO 8601 with offset.
    pub created_at: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JerryCheckpointContext {
    /// 0.0–1.0.
    pub fill_percentage: f64,
    /// `nominal`, `low`, `warning`, `critical`, `emergency` (case varies).
    pub tier: String,
    /// `null` when monitoring had no token count (real files at fill 0.0).
    #[schemars(with = "Nullable<i64>")]
    pub token_count: Option<i64>,
    pub monitoring_ok: bool,
    pub context_window: i64,
    /// Where the window size came from, e.g. `"default"`.
    pub context_window_source: String,
}
