//! YAML frontmatter of Nexus `resume-context.md` manifests (seeds 000/001 and the
//! real v4/v5 files). Fields the design requires are plain types; fields only
//! real files add are optional. Real files also carry keys outside these types
//! (`phase`, `updated`, `status`, …): the normaliser keeps them as other fields.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `resume_schema_version: "1.0"` (seed 000 "resume-context.md YAML Schema").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NexusManifestV1 {
    /// `"1.0"`.
    pub resume_schema_version: String,
    /// ISO 8601.
    pub last_updated: String,
    /// `NN-kebab-case-name`, the project folder's name.
    pub project_id: String,
    pub project_name: String,
    /// research, planning, execution, ready-for-implementation, testing, review
    /// (real files also write `complete`, `phase-2`, …).
    pub current_phase: String,
    /// The skill to run on resume, e.g. `execute-project`.
    pub next_action: String,
    /// Paths relative to the project folder.
    pub files_to_load: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_section: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_task: Option<i64>,
    /// e.g. `"14/40 tasks complete"` (design; real v4 files use the task counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tasks: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks_completed: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_ids: Option<Vec<String>>,
}

/// `resume_schema_version: "2.0"` (real Nexus v5 builds, `02-builds/…`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NexusManifestV2 {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_ids: Option<Vec<String>>,
    /// `"2.0"`.
    pub resume_schema_version: String,
    /// ISO 8601.
    pub last_updated: String,
    /// Builds name themselves with `build_*`; v2 files under `02-projects/` keep `project_*`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_name: Option<String>,
    pub current_phase: String,
    pub next_action: String,
    /// Where inside the next action to pick up (a step or section reference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continue_at: Option<String>,
    pub files_to_load: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blockers: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rediscovery_round: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discovery_complete: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_section: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_task: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tasks: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks_completed: Option<i64>,
}
