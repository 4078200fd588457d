use serde::Serialize;

use super::{Checkpoint, Diagnostic, FileToRead, NexusManifest, Resumption};
use crate::core::staleness::Staleness;
use crate::core::time::Timestamp;
use crate::core::trajectory::Trajectory;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProjectKind {
    Jerry,
    Nexus,
}

/// The shape a file was detected as. Jerry files record no resumption version,
/// so it is inferred from the keys (see docs/formats.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Shape {
    #[serde(rename = "v1")]
    V1,
    #[serde(rename = "v2-nested")]
    V2Nested,
    #[serde(rename = "v2-flat")]
    V2Flat,
    #[serde(rename = "other")]
    Other,
    #[serde(rename = "none")]
    None,
    #[serde(rename = "nexus-1.0")]
    Nexus1,
    #[serde(rename = "nexus-2.0")]
    Nexus2,
    #[serde(rename = "nexus-legacy")]
    NexusLegacy,
    #[serde(rename = "nexus-unversioned")]
    NexusUnversioned,
    #[serde(rename = "nexus-no-frontmatter")]
    NexusNoFrontmatter,
    /// A Nexus build folder with `01-overview.md` / `04-steps.md` but no manifest.
    #[serde(rename = "nexus-no-manifest")]
    NexusNoManifest,
    /// The file could not be parsed at all; see the project's diagnostics.
    #[serde(rename = "unreadable")]
    Unreadable,
}

impl Shape {
    pub fn label(self) -> &'static str {
        match self {
            Shape::V1 => "v1",
            Shape::V2Nested => "v2-nested",
            Shape::V2Flat => "v2-flat",
            Shape::Other => "other",
            Shape::None => "none",
            Shape::Nexus1 => "nexus-1.0",
            Shape::Nexus2 => "nexus-2.0",
            Shape::NexusLegacy => "nexus-legacy",
            Shape::NexusUnversioned => "nexus-unversioned",
            Shape::NexusNoFrontmatter => "nexus-no-frontmatter",
            Shape::NexusNoManifest => "nexus-no-manifest",
            Shape::Unreadable => "unreadable",
        }
    }
}

/// The handful of facts every front end shows first, resolved with fallbacks
/// (resumption section, then top-level status fields, then manifest).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    pub status: Option<String>,
    pub phase: Option<String>,
    pub phase_name: Option<String>,
    pub activity: Option<String>,
    pub next_step: Option<String>,
    /// The timestamp as written in the file.
    pub updated_at_raw: Option<String>,
    pub updated_at: Option<Timestamp>,
    /// When the current phase started, if the file records it (e.g. `started_at` of
    /// the phase entry under `pipelines:`); see `core::staleness::phase_started_at`.
    pub phase_started_at: Option<Timestamp>,
    pub last_checkpoint: Option<String>,
    /// Context fill (0.0–1.0) recorded with the last update.
    pub fill_at_update: Option<f64>,
    /// The quality gate under way (`quality_trajectory.current_gate`, else the gate
    /// marked IN_PROGRESS).
    pub current_gate: Option<String>,
    /// Every pipeline that states a phase or status, the active one first.
    pub pipelines: Vec<PipelineState>,
    /// Places where the file says two incompatible things, one sentence each.
    pub contradictions: Vec<String>,
    /// The phases the file lists with a status, by progress (a checkpoint's
    /// `phases_complete`, `phases_in_progress`, `phases_remaining`).
    #[serde(skip)]
    pub phase_progress: PhaseProgress,
    /// Where the resumption section is behind newer evidence (a newer checkpoint,
    /// a phase, gate or completion the rest of the file records): one line each,
    /// naming both sides. Not a contradiction: the newer side is current.
    pub behind: Vec<String>,
    /// The state file's sibling `ORCHESTRATION_PLAN.md` (the Jerry convention,
    /// docs/templates.md) when `files_to_read` names no plan; the loader fills
    /// `exists`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sibling_plan: Option<FileToRead>,
    /// Blockers the file lists as active (`blockers.active`, a `blockers:` list),
    /// most severe first.
    pub blockers: Vec<Blocker>,
    /// The key each value above was read from (`pipelines.ps.current_phase`).
    pub sources: SummarySources,
}

/// One active blocker as the file states it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Blocker {
    pub id: Option<String>,
    /// As written (`CRITICAL`, `HIGH`, …); `None` when the file gives none.
    pub severity: Option<String>,
    pub description: String,
    pub impact: Option<String>,
    /// The key of the list it is in (`blockers.active`).
    pub key: String,
}

/// Phase ids by what their status says, in file order. A phase listed without a
/// status is in none of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhaseProgress {
    pub complete: Vec<String>,
    pub in_progress: Vec<String>,
    pub remaining: Vec<String>,
}

/// Which key of the file each summary value came from; `None` when not found.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SummarySources {
    pub status: Option<String>,
    pub phase: Option<String>,
    pub phase_name: Option<String>,
    pub activity: Option<String>,
    pub current_gate: Option<String>,
    pub next_step: Option<String>,
    pub updated_at: Option<String>,
    /// The phase was found only inside a part of the file (the last resort), not in
    /// a key that states the workflow's own phase.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub phase_in_a_part: bool,
}

/// One of a workflow's `pipelines:` (or its single `pipeline:`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PipelineState {
    pub name: String,
    /// The key it is under (`pipelines.ps`).
    pub key: String,
    pub phase: Option<String>,
    pub status: Option<String>,
}

/// One workflow (Jerry ORCHESTRATION.yaml) or one Nexus project/build manifest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Project {
    pub kind: ProjectKind,
    /// Workflow id (Jerry `workflow.id`), Nexus `project_id`/`build_id`, else
    /// derived from the path. Unique within a workspace (see `workspace`).
    pub id: String,
    pub name: Option<String>,
    /// Jerry `workflow.project_id` (e.g. `PROJ-001`), when present.
    pub project_ref: Option<String>,
    /// The state file, relative to the workspace root, with `/` separators.
    pub source: String,
    /// The folder the project's relative paths are resolved from, relative to the root.
    pub dir: String,
    pub shape: Shape,
    pub summary: Summary,
    pub resumption: Option<Resumption>,
    pub manifest: Option<NexusManifest>,
    pub trajectory: Trajectory,
    pub checkpoints: Vec<Checkpoint>,
    pub staleness: Staleness,
    pub diagnostics: Vec<Diagnostic>,
    /// Top-level keys of the state file outside the sections the model knows,
    /// listed by name only (their content is not part of the resumption state).
    pub top_level_keys: Vec<String>,
}

impl Project {
    /// The decisions the project records: a Jerry resumption section's log, or
    /// a Nexus build's `02-resources/decisions.md`.
    pub fn decisions(&self) -> &[crate::core::model::Decision] {
        if let Some(resumption) = &self.resumption {
            return &resumption.decisions;
        }
        self.manifest
            .as_ref()
            .and_then(|m| m.decisions.as_ref())
            .map_or(&[], |d| d.entries.as_slice())
    }

    /// Where a Nexus build's decisions are read from (read-only here).
    pub fn nexus_decisions_file(&self) -> Option<&str> {
        let decisions = self.manifest.as_ref()?.decisions.as_ref()?;
        Some(&decisions.path)
    }

    /// A project known only by where it is: no state read, nothing derived yet.
    pub fn at(
        kind: ProjectKind,
        id: impl Into<String>,
        source: impl Into<String>,
        dir: impl Into<String>,
        shape: Shape,
    ) -> Project {
        Project {
            kind,
            id: id.into(),
            name: None,
            project_ref: None,
            source: source.into(),
            dir: dir.into(),
            shape,
            summary: Summary::default(),
            resumption: None,
            manifest: None,
            trajectory: Trajectory::default(),
            checkpoints: Vec::new(),
            staleness: Staleness::default(),
            diagnostics: Vec::new(),
            top_level_keys: Vec::new(),
        }
    }

    pub fn unacknowledged_checkpoints(&self) -> impl Iterator<Item = &Checkpoint> {
        self.checkpoints.iter().filter(|c| !c.acknowledged)
    }

    pub fn warning_count(&self) -> usize {
        self.diagnostics.len()
    }
}
