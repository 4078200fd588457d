//! Nexus `00-system/.cache/precompact_state.json` (seed 000, "FLAT schema").

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::nullable::Nullable;

/// Written by the PreCompact hook, read (then deleted) by SessionStart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PrecompactState {
    /// `NN-kebab-case-name`; `null` when no project was detected.
    #[schemars(with = "Nullable<String>")]
    pub active_project_id: Option<String>,
    pub confidence: Confidence,
    pub detection_method: DetectionMethod,
    /// ISO 8601.
    pub timestamp: String,
    /// The session that compacted (resume-tui writes it; older tools did not).
    /// SessionStart injects a state of its own session whatever its age, another
    /// one only while it is recent (docs/hooks.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Optional debugging details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<PrecompactMetadata>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    High,
    Medium,
    #[default]
    Low,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DetectionMethod {
    Transcript,
    Cache,
    #[default]
    Fallback,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PrecompactMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_lines: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mentions_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_mention_line: Option<i64>,
}
