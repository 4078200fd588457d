//! Context fill as recorded between hook runs.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::nullable::Nullable;

/// `.jerry/context-monitor-state.json` in the project (design, seed 002): written
/// by the UserPromptSubmit/PostToolUse hook on every measurement, read by
/// PreCompact for `estimated_fill_before_compaction`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ContextMonitorState {
    /// `"1.0"`.
    pub schema_version: String,
    #[schemars(with = "Nullable<String>")]
    pub session_id: Option<String>,
    /// 0.0–1.0.
    pub fill: f64,
    pub tokens_used: i64,
    /// The context window size the fill was computed against.
    pub window: i64,
    /// Where the window size came from (`"model"`, `"config"`, `"default"`).
    pub window_source: String,
    /// `LOW`, `WARNING`, `CRITICAL` or `COMPACTION`.
    pub level: String,
    /// ISO 8601, UTC.
    pub updated_at: String,
    /// The transcript that was measured.
    #[schemars(with = "Nullable<String>")]
    pub transcript_path: Option<String>,
    /// The state file (workspace-relative) of the workflow the session is known
    /// to work on: the one it last checkpointed, else the one its recent file tool
    /// calls work in. Left out when not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
}

/// `context-state.json` in `$JERRY_LIFECYCLE_DIR` or `~/.jerry/local/`, as real
/// Jerry wrote it (`FilesystemContextStateStore`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JerryContextState {
    #[schemars(with = "Nullable<i64>")]
    pub previous_tokens: Option<i64>,
    #[schemars(with = "Nullable<String>")]
    pub previous_session_id: Option<String>,
    /// `nominal`, `low`, `warning`, `critical`, `emergency`, in either letter case.
    #[schemars(with = "Nullable<String>")]
    pub last_tier: Option<String>,
    /// e.g. `none`, `log_warning`, `emergency_handoff`.
    #[schemars(with = "Nullable<String>")]
    pub last_rotation_action: Option<String>,
}
