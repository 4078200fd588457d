use std::path::PathBuf;

use super::*;
use crate::core::staleness::StalenessLevel;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/workspace")
}

fn now() -> Timestamp {
    Timestamp::parse("2026-03-01T12:10:00Z").unwrap()
}

fn load() -> Workspace {
    load_workspace(&fixture(), &Env::default(), now(), &Config::default())
}

fn project<'a>(ws: &'a Workspace, id: &str) -> &'a Project {
    ws.projects
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

#[test]
fn loads_every_project_of_the_fixture_workspace() {
    let ws = load();
    let mut ids: Vec<(&str, &str)> = ws
        .projects
        .iter()
        .map(|p| (p.id.as_str(), p.shape.label()))
        .collect();
    ids.sort();
    assert_eq!(
        ids,
        [
            ("01-onboarding", "nexus-1.0"),
            ("02-state-refactor", "nexus-2.0"),
            ("03-legacy", "nexus-legacy"),
            ("04-unversioned", "nexus-unversioned"),
            ("05-plain", "nexus-no-frontmatter"),
            ("alpha-20260210-001", "v1"),
            ("beta-20260301-001", "v2-nested"),
            ("delta-20260220-001", "none"),
            ("epsilon-20260225-001", "other"),
            ("gamma-20260215-001", "v2-flat"),
        ]
    );
    assert_eq!(ws.context_states.len(), 1);
    assert_eq!(
        ws.precompact
            .as_ref()
            .and_then(|p| p.active_project_id.as_deref()),
        Some("01-onboarding")
    );
    let notes: Vec<String> = ws.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "nexus/02-projects/01-onboarding/_resume.md: info: legacy duplicate of \
          nexus/02-projects/01-onboarding/01-planning/resume-context.md; the newer manifest is the project"
        ]
    );
}

#[test]
fn checkpoints_are_assigned_and_markers_acknowledge() {
    let ws = load();
    let beta = project(&ws, "beta-20260301-001");
    let state: Vec<(&str, bool)> = beta
        .checkpoints
        .iter()
        .map(|c| (c.id.as_str(), c.acknowledged))
        .collect();
    assert_eq!(state, [("cx-001", true), ("cx-002", false)]);
    let unassigned: Vec<(&str, bool)> = ws
        .unassigned_checkpoints
        .iter()
        .map(|c| (c.id.as_str(), c.acknowledged))
        .collect();
    assert_eq!(
        unassigned,
        [("cx-003", true), ("cx-004", false)],
        "marker acknowledges cx-003"
    );
}

#[test]
fn staleness_is_computed_with_the_given_clock() {
    let ws = load();
    let beta = project(&ws, "beta-20260301-001");
    assert_eq!(beta.staleness.level, StalenessLevel::Critical);
    assert!(
        beta.staleness.reasons[0].contains("before checkpoint cx-002"),
        "{:?}",
        beta.staleness
    );
    assert_eq!(beta.staleness.unacknowledged_checkpoints, 1);
    assert_eq!(
        beta.summary
            .phase_started_at
            .map(Timestamp::to_iso)
            .as_deref(),
        Some("2026-03-01T10:00:00Z")
    );
    let gamma = project(&ws, "gamma-20260215-001");
    assert_eq!(
        gamma.staleness.level,
        StalenessLevel::Fresh,
        "complete: {:?}",
        gamma.staleness
    );
    let refactor = project(&ws, "02-state-refactor");
    assert_eq!(
        refactor.staleness.level,
        StalenessLevel::Fresh,
        "{:?}",
        refactor.staleness
    );
    let onboarding = project(&ws, "01-onboarding");
    assert_eq!(onboarding.staleness.level, StalenessLevel::Stale);
    assert_eq!(
        project(&ws, "delta-20260220-001").staleness.level,
        StalenessLevel::Unknown
    );

    let later = Timestamp(now().0 + 3600);
    let ws = load_workspace(&fixture(), &Env::default(), later, &Config::default());
    assert_eq!(
        project(&ws, "02-state-refactor").staleness.level,
        StalenessLevel::Stale
    );
}

#[test]
fn listed_files_are_checked_under_the_root() {
    let ws = load();
    let beta = project(&ws, "beta-20260301-001");
    let files = &beta.resumption.as_ref().unwrap().files_to_read;
    let exists: Vec<(&str, Option<bool>)> =
        files.iter().map(|f| (f.path.as_str(), f.exists)).collect();
    assert_eq!(
        exists,
        [
            ("ORCHESTRATION.yaml", Some(true)),
            ("ORCHESTRATION_PLAN.md", Some(true))
        ]
    );

    let alpha = project(&ws, "alpha-20260210-001");
    let files = &alpha.resumption.as_ref().unwrap().files_to_read;
    let exists: Vec<Option<bool>> = files.iter().map(|f| f.exists).collect();
    assert_eq!(exists, [Some(true), Some(false), Some(false)]);
    assert_eq!(
        alpha.staleness.missing_files,
        ["projects/PROJ-001-alpha/PLAN.md", "../../outside.md"]
    );

    let onboarding = project(&ws, "01-onboarding");
    let files = &onboarding.manifest.as_ref().unwrap().files_to_load;
    let exists: Vec<(&str, Option<bool>)> =
        files.iter().map(|f| (f.path.as_str(), f.exists)).collect();
    assert_eq!(
        exists,
        [
            ("01-planning/overview.md", Some(true)),
            ("01-planning/steps.md", Some(false))
        ]
    );
}

#[test]
fn paths_outside_the_root_are_never_looked_up() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    std::fs::create_dir_all(root.join("p")).unwrap();
    std::fs::write(tmp.path().join("secret.md"), "x").unwrap();
    std::fs::write(
        root.join("p/ORCHESTRATION.yaml"),
        "workflow: {id: wf}\nresumption:\n  last_checkpoint: null\n  current_state: x\n  next_step: y\n  files_to_read: [\"../../secret.md\", \"/etc/hostname\"]\n",
    )
    .unwrap();
    let ws = load_workspace(&root, &Env::default(), now(), &Config::default());
    let p = &ws.projects[0];
    let exists: Vec<Option<bool>> = p
        .resumption
        .as_ref()
        .unwrap()
        .files_to_read
        .iter()
        .map(|f| f.exists)
        .collect();
    assert_eq!(
        exists,
        [Some(false), Some(false)],
        "secret.md exists but is outside the root"
    );
    let warnings: Vec<String> = p.diagnostics.iter().map(ToString::to_string).collect();
    assert!(
        warnings.contains(&"p/ORCHESTRATION.yaml: warning: files_to_read entry \"../../secret.md\" points outside the workspace; it is not checked".to_string()),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"/etc/hostname\" points outside")),
        "{warnings:?}"
    );
}

#[test]
fn duplicate_workflow_ids_are_made_unique() {
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["projects/PROJ-001-a", "projects/PROJ-009-a"] {
        let path = tmp.path().join(dir);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join("ORCHESTRATION.yaml"), "workflow:\n  id: same\n").unwrap();
    }
    let ws = load_workspace(tmp.path(), &Env::default(), now(), &Config::default());
    let ids: Vec<&str> = ws.projects.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["same", "same@PROJ-009-a"]);
    assert!(
        ws.projects[1]
            .diagnostics
            .iter()
            .any(|d| d.message.contains("also used by"))
    );
}

#[test]
fn an_unreadable_state_file_is_a_project_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("projects/P");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ORCHESTRATION.yaml"), b"\x00\x01binary").unwrap();
    std::fs::create_dir_all(tmp.path().join("ok")).unwrap();
    std::fs::write(
        tmp.path().join("ok/ORCHESTRATION.yaml"),
        "workflow: {id: fine}\n",
    )
    .unwrap();
    let ws = load_workspace(tmp.path(), &Env::default(), now(), &Config::default());
    assert_eq!(ws.projects.len(), 2, "the rest still loads");
    let bad = ws
        .projects
        .iter()
        .find(|p| p.shape == Shape::Unreadable)
        .unwrap();
    assert_eq!(bad.id, "P");
    assert_eq!(
        bad.diagnostics[0].to_string(),
        "projects/P/ORCHESTRATION.yaml:1:1: error: binary file (it contains a NUL byte), not YAML, JSON or markdown text"
    );
}

#[test]
fn one_project_file_reloads_with_its_checkpoints() {
    let p = load_project_file(
        &fixture(),
        "projects/PROJ-002-beta/orchestration/beta-20260301-001/ORCHESTRATION.yaml",
        now(),
        &Config::default(),
    )
    .0
    .unwrap();
    assert_eq!(p.id, "beta-20260301-001");
    assert_eq!(p.checkpoints.len(), 2);
    assert_eq!(p.staleness.level, StalenessLevel::Critical);
    let nexus = load_project_file(
        &fixture(),
        "./nexus/02-projects/01-onboarding/01-planning/resume-context.md",
        now(),
        &Config::default(),
    )
    .0
    .unwrap();
    assert_eq!(nexus.id, "01-onboarding");
    let none = load_project_file(
        &fixture(),
        ".jerry/checkpoints/cx-001-checkpoint.json",
        now(),
        &Config::default(),
    )
    .0;
    assert!(none.is_none());
}

#[test]
fn explicit_paths_accept_backups_and_report_strangers() {
    let tmp = tempfile::tempdir().unwrap();
    let planning = tmp.path().join("02-projects/07-x/01-planning");
    std::fs::create_dir_all(&planning).unwrap();
    let backup = planning.join("resume-context.md.pre-optimize-backup");
    std::fs::write(
        &backup,
        "---\nproject_id: 07-x\nresume_schema_version: \"1.0\"\n---\nbody\n",
    )
    .unwrap();
    let stranger = tmp.path().join("notes.txt");
    std::fs::write(&stranger, "hello").unwrap();
    let ws = load_paths(
        tmp.path(),
        &[backup, stranger, tmp.path().join("missing.yaml")],
        now(),
        &Config::default(),
    );
    assert_eq!(ws.projects.len(), 1);
    assert_eq!(ws.projects[0].dir, "02-projects/07-x");
    let notes: Vec<String> = ws.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("notes.txt: error: not a file resume-tui reads"),
        "{notes:?}"
    );
    assert!(
        notes[1].contains("missing.yaml: error: cannot read"),
        "{notes:?}"
    );
}

#[test]
fn marker_names() {
    assert_eq!(
        marker_for("a/cx-007.json").as_deref(),
        Some("a/cx-007.acknowledged")
    );
    assert_eq!(
        marker_for("a/cx-007-checkpoint.json").as_deref(),
        Some("a/cx-007.acknowledged")
    );
    assert_eq!(marker_for("a/cx-007.acknowledged"), None);
}

/// Nexus manifests list paths relative to the project folder and relative to the
/// Nexus workspace root (the folder holding `02-projects/` and `00-system/`); both
/// are found, and neither may climb out of that root.
#[test]
fn nexus_paths_resolve_from_the_project_or_the_nexus_root_and_stay_inside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let nexus = root.join("n");
    let project = nexus.join("02-projects/36-x");
    for file in [
        "01-planning/01-overview.md",
        "02-resources/notes.md",
        "00-system/x.md",
    ] {
        let path = project.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x").unwrap();
    }
    std::fs::create_dir_all(nexus.join("00-system/skills")).unwrap();
    std::fs::write(nexus.join("00-system/skills/prompt.md"), "x").unwrap();
    std::fs::write(root.join("secret.md"), "x").unwrap();
    std::fs::write(
        project.join("01-planning/resume-context.md"),
        "---\nresume_schema_version: \"1.0\"\nproject_id: 36-x\nfiles_to_load:\n  \
         - 01-planning/01-overview.md\n  - 00-system/skills/prompt.md\n  \
         - 02-projects/36-x/02-resources/notes.md\n  - 00-system/x.md\n  \
         - ../../00-system/skills/prompt.md\n  - ../../../secret.md\n  - 02-resources/gone.md\n---\n",
    )
    .unwrap();
    let ws = load_workspace(root, &Env::default(), now(), &Config::default());
    let p = &ws.projects[0];
    let found: Vec<(Option<bool>, Option<&str>)> = p
        .manifest
        .as_ref()
        .unwrap()
        .files_to_load
        .iter()
        .map(|f| (f.exists, f.resolved.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            (
                Some(true),
                Some("n/02-projects/36-x/01-planning/01-overview.md")
            ),
            (Some(true), Some("n/00-system/skills/prompt.md")),
            (Some(true), Some("n/02-projects/36-x/02-resources/notes.md")),
            (
                Some(true),
                Some("n/02-projects/36-x/00-system/x.md"),
                // the project folder is tried first
            ),
            (Some(true), Some("n/00-system/skills/prompt.md")),
            (Some(false), None),
            (Some(false), None),
        ]
    );
    assert_eq!(
        p.staleness.missing_files,
        ["../../../secret.md", "02-resources/gone.md"]
    );
    let warnings: Vec<String> = p.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            "n/02-projects/36-x/01-planning/resume-context.md: warning: files_to_load entry \
          \"../../../secret.md\" points outside the workspace; it is not checked"
        ]
    );
}
