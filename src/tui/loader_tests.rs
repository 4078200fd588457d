//! What discovery alone shows: one row per project file, in the list's order
//! (by state file), each named by its innermost telling folder unless a project
//! earlier in discovery's order (Jerry before Nexus, then by path) took that name.

use super::discovered;
use crate::core::model::ProjectKind;
use crate::io::env::Env;

fn touch(root: &std::path::Path, rel: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, "").unwrap();
}

#[test]
fn rows_in_source_order_named_in_discovery_order() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for rel in [
        "projects/PROJ-002-b/orchestration/wf-9/ORCHESTRATION.yaml",
        "projects/PROJ-001-a/orchestration/wf-9/ORCHESTRATION.yaml",
        "02-builds/wf-9/01-planning/resume-context.md",
        ".jerry/checkpoints/cx-001.json",
    ] {
        touch(root, rel);
    }
    let discovery = crate::io::discover::discover(root, &Env::default());
    let found = discovered(root, &discovery);
    let rows: Vec<(&str, &str, ProjectKind)> = found
        .workspace
        .projects
        .iter()
        .map(|p| (p.source.as_str(), p.id.as_str(), p.kind))
        .collect();
    assert_eq!(
        rows,
        [
            (
                "02-builds/wf-9/01-planning/resume-context.md",
                "02-builds/wf-9/01-planning",
                ProjectKind::Nexus
            ),
            (
                "projects/PROJ-001-a/orchestration/wf-9/ORCHESTRATION.yaml",
                "wf-9",
                ProjectKind::Jerry
            ),
            (
                "projects/PROJ-002-b/orchestration/wf-9/ORCHESTRATION.yaml",
                "projects/PROJ-002-b/orchestration/wf-9",
                ProjectKind::Jerry
            ),
        ]
    );
    assert!(found.unread);
    assert!(
        found
            .state_folders
            .contains(&".jerry/checkpoints".to_string()),
        "{:?}",
        found.state_folders
    );
}
