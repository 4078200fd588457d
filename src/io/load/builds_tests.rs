use std::path::Path;

use crate::config::Config;
use crate::core::model::{Severity, Shape, Workspace};
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::io::load::{load_project_file, load_workspace};

const MANIFEST: &str = "---\nresume_schema_version: \"2.0\"\nbuild_id: \"01-with-manifest\"\ncurrent_phase: \"execution\"\nlast_updated: \"2026-02-01T10:00:00Z\"\nnext_action: \"execute-build\"\n---\n\nbody\n";
const OVERVIEW: &str = "---\nid: 02-no-manifest\nname: No Manifest Yet\nstatus: PLANNING\ncreated: 2026-01-23\n---\n\n# No Manifest Yet\n";
const STEPS: &str = "## Phase 1: Planning\n- [x] a\n- [ ] b\n## Phase 2: Do\n- [ ] c\n";

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn now() -> Timestamp {
    Timestamp::parse("2026-02-02T00:00:00Z").unwrap()
}

fn workspace(root: &Path) -> Workspace {
    let b = "02-builds/active";
    write(
        root,
        &format!("{b}/01-with-manifest/01-planning/resume-context.md"),
        MANIFEST,
    );
    write(
        root,
        &format!("{b}/01-with-manifest/01-planning/01-overview.md"),
        "---\nname: With Manifest\nstatus: IN_PROGRESS\ncreated: 2026-01-01\n---\n",
    );
    write(
        root,
        &format!("{b}/01-with-manifest/01-planning/04-steps.md"),
        STEPS,
    );
    write(
        root,
        &format!("{b}/02-no-manifest/01-planning/01-overview.md"),
        OVERVIEW,
    );
    write(
        root,
        &format!("{b}/02-no-manifest/01-planning/04-steps.md"),
        STEPS,
    );
    write(
        root,
        "02-builds/_03-shelved/01-planning/resume-context.md",
        MANIFEST.replace("01-with-manifest", "03-shelved").as_str(),
    );
    write(
        root,
        "02-builds/active/01-with-manifest/03-working/test_data/p/01-planning/resume-context.md",
        MANIFEST,
    );
    write(
        root,
        "tests/fixtures/ORCHESTRATION.yaml",
        "workflow:\n  id: fixture-wf\n",
    );
    write(
        root,
        "docs/archive/ORCHESTRATION.yaml",
        "workflow:\n  id: old-wf\n",
    );
    write(root, "notes/resume-context.md", MANIFEST);
    load_workspace(root, &Env::default(), now(), &Config::default())
}

#[test]
fn builds_are_read_from_all_their_planning_files() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let with = ws
        .projects
        .iter()
        .find(|p| p.id == "01-with-manifest")
        .unwrap();
    assert_eq!(with.name.as_deref(), Some("With Manifest"));
    assert_eq!(with.summary.status.as_deref(), Some("IN_PROGRESS"));
    assert_eq!(with.summary.phase.as_deref(), Some("execution"));
    assert_eq!(
        with.summary.phase_name.as_deref(),
        Some("Phase 1: Planning")
    );

    let without = ws
        .projects
        .iter()
        .find(|p| p.id == "02-no-manifest")
        .unwrap();
    assert_eq!(without.shape, Shape::NexusNoManifest);
    assert_eq!(
        without.source,
        "02-builds/active/02-no-manifest/01-planning/01-overview.md"
    );
    assert_eq!(without.summary.status.as_deref(), Some("PLANNING"));
    assert_eq!(without.summary.phase.as_deref(), Some("planning"));
    assert_eq!(
        without.summary.activity.as_deref(),
        Some("1 of 3 steps checked")
    );
    assert_eq!(
        without.summary.updated_at_raw.as_deref(),
        Some("2026-01-23")
    );
    assert!(
        without
            .diagnostics
            .iter()
            .any(|d| d.message.starts_with("nothing to resume from"))
    );
}

#[test]
fn strays_are_excluded_or_warned_never_dropped_unsaid() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let excluded: Vec<&str> = ws.excluded.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        excluded,
        [
            "02-builds/active/01-with-manifest/03-working/test_data/p/01-planning/resume-context.md",
            "notes/resume-context.md",
            "tests/fixtures/ORCHESTRATION.yaml",
        ]
    );
    assert!(
        ws.excluded[0].reason.contains("test-fixture"),
        "{:?}",
        ws.excluded
    );
    assert!(
        ws.excluded[1]
            .reason
            .contains("not where Nexus keeps a manifest")
    );
    for source in [
        "02-builds/_03-shelved/01-planning/resume-context.md",
        "docs/archive/ORCHESTRATION.yaml",
    ] {
        let p = ws.projects.iter().find(|p| p.source == source).unwrap();
        assert!(
            p.diagnostics
                .iter()
                .any(|d| d.severity == Severity::Warning && d.message.contains("archived folder")),
            "{source}: {:?}",
            p.diagnostics
        );
    }
    assert_eq!(
        ws.projects.len(),
        4,
        "{:?}",
        ws.projects.iter().map(|p| &p.source).collect::<Vec<_>>()
    );
}

#[test]
fn a_changed_steps_file_reloads_its_build() {
    let dir = tempfile::tempdir().unwrap();
    let _ = workspace(dir.path());
    let b = "02-builds/active";
    for (rel, id) in [
        (
            format!("{b}/01-with-manifest/01-planning/04-steps.md"),
            "01-with-manifest",
        ),
        (
            format!("{b}/01-with-manifest/01-planning/resume-context.md"),
            "01-with-manifest",
        ),
        (
            format!("{b}/02-no-manifest/01-planning/04-steps.md"),
            "02-no-manifest",
        ),
    ] {
        let (project, hash) = load_project_file(dir.path(), &rel, now(), &Config::default());
        let project = project.unwrap_or_else(|| panic!("{rel}"));
        assert_eq!(project.id, id);
        assert!(
            hash.is_some() == rel.ends_with("resume-context.md"),
            "{rel}"
        );
        assert!(project.summary.phase_name.is_some(), "{rel}");
    }
}
