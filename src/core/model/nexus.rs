use serde::Serialize;

use super::OtherFields;
use crate::core::time::Timestamp;

/// A Nexus `resume-context.md` / `_resume.md`: YAML frontmatter plus a markdown body.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NexusManifest {
    /// `resume_schema_version` (or legacy `resume_version`) as written.
    pub schema_version: Option<String>,
    pub project_id: Option<String>,
    pub project_name: Option<String>,
    pub build_id: Option<String>,
    pub build_name: Option<String>,
    pub build_type: Option<String>,
    pub current_phase: Option<String>,
    pub next_action: Option<String>,
    pub continue_at: Option<String>,
    pub files_to_load: Vec<FileToLoad>,
    pub current_section: Option<String>,
    pub current_task: Option<String>,
    pub total_tasks: Option<i64>,
    pub tasks_completed: Option<i64>,
    /// Design-only `progress`, kept as JSON.
    pub progress: Option<serde_json::Value>,
    pub last_updated_raw: Option<String>,
    pub last_updated: Option<Timestamp>,
    pub session_ids: Vec<String>,
    pub blockers: Vec<String>,
    pub rediscovery_round: Option<i64>,
    pub discovery_complete: Option<bool>,
    /// The markdown after the frontmatter (the whole file when there is none).
    pub body: String,
    /// 1-based line numbers of the opening and closing `---`, when present.
    pub frontmatter_lines: Option<(usize, usize)>,
    pub other: OtherFields,
    /// Filled by the loader: the file names in the build's `01-planning/`
    /// folder, sorted (`01-overview.md`, `04-steps.md`, …); `None` when the
    /// folder was not listed. The loading sequence names only files that exist.
    #[serde(skip)]
    pub planning_files: Option<Vec<String>>,
    /// Filled by the loader: the build's `02-resources/decisions.md`, where
    /// Nexus's templates tell an agent to write each decision; `None` when the
    /// build has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisions: Option<NexusDecisions>,
}

/// The decisions read from a Nexus build's `02-resources/decisions.md`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NexusDecisions {
    /// The file, relative to the workspace root.
    pub path: String,
    pub entries: Vec<crate::core::model::Decision>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FileToLoad {
    /// The quoted path only, never an inline `# comment`.
    pub path: String,
    pub comment: Option<String>,
    /// Filled by the loader, relative to the project folder.
    pub exists: Option<bool>,
    /// Filled by the loader: where the file was found, relative to the workspace
    /// root (the path may be relative to the project folder or to the Nexus
    /// workspace root). `None` when it was not found or not checked.
    pub resolved: Option<String>,
}
