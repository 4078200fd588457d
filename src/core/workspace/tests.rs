use super::*;
use crate::core::model::{CheckpointFormat, ProjectKind, Shape, Workspace};

fn project(id: &str, source: &str) -> Project {
    let dir = source.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    Project::at(ProjectKind::Jerry, id, source, dir, Shape::V1)
}

fn checkpoint(id: &str, path: &str, workflow: Option<&str>) -> Checkpoint {
    Checkpoint {
        id: id.into(),
        number: id.strip_prefix("cx-").and_then(|n| n.parse().ok()),
        format: CheckpointFormat::Design,
        path: path.into(),
        created_at_raw: None,
        created_at: None,
        trigger: None,
        session_id: None,
        fill: None,
        tokens_used: None,
        window: None,
        tier: None,
        fill_source: None,
        workflow_id: workflow.map(str::to_string),
        workflow_status: None,
        current_phase: None,
        current_phase_name: None,
        current_activity: None,
        last_completed_checkpoint: None,
        current_gate: None,
        current_gate_iteration: None,
        current_gate_score: None,
        defect_patterns: Vec::new(),
        unresolved_defects: Vec::new(),
        blockers: Vec::new(),
        decisions: Vec::new(),
        agent_summaries: Vec::new(),
        files_to_read: Vec::new(),
        next_action: None,
        critical_context: None,
        acknowledged: false,
        acknowledged_via: None,
        acknowledged_at: None,
        written_by: None,
        post_compact: None,
        resumption_state: None,
        other: Default::default(),
        transcript_summary: None,
    }
}

fn workspace() -> Workspace {
    Workspace {
        root: "/work/ws".into(),
        projects: vec![
            project(
                "feat010-remediation-20260215-001",
                "projects/P1/orch/f10/ORCHESTRATION.yaml",
            ),
            project(
                "feat012-impl-20260217-001",
                "projects/P1/orch/f12/ORCHESTRATION.yaml",
            ),
            project(
                "feat014-impl-20260217-001",
                "projects/P1/orch/f14/ORCHESTRATION.yaml",
            ),
            project("SPIKE-001", "projects/P4/ORCHESTRATION.yaml"),
            project("spike", "projects/P5/ORCHESTRATION.yaml"),
        ],
        ..Workspace::default()
    }
}

#[test]
fn finds_by_id_path_case_and_prefix() {
    let ws = workspace();
    let id = |name: &str| find_project(&ws, name).map(|p| p.id.as_str());
    let cases: &[(&str, &str)] = &[
        ("spike", "spike"),
        ("SPIKE-001", "SPIKE-001"),
        ("spike-001", "SPIKE-001"),
        ("Spike-0", "SPIKE-001"),
        ("feat012", "feat012-impl-20260217-001"),
        ("FEAT014", "feat014-impl-20260217-001"),
        ("projects/P4/ORCHESTRATION.yaml", "SPIKE-001"),
        ("./projects/P4/", "SPIKE-001"),
        ("projects/P1/orch/f10", "feat010-remediation-20260215-001"),
        ("/work/ws/projects/P5/ORCHESTRATION.yaml", "spike"),
        ("/work/ws/projects/P5", "spike"),
        ("  spike  ", "spike"),
    ];
    for (name, expected) in cases {
        assert_eq!(id(name), Ok(*expected), "{name}");
    }
}

#[test]
fn an_ambiguous_prefix_lists_the_candidates_newest_first() {
    let mut ws = workspace();
    let at = |t: &str| crate::core::time::Timestamp::parse(t);
    ws.projects[1].summary.updated_at = at("2026-02-17T00:00:00Z");
    ws.projects[1].summary.status = Some("ACTIVE".into());
    ws.projects[2].summary.updated_at = at("2026-02-18T00:00:00Z");
    let err = find_project(&ws, "feat01").unwrap_err();
    let LookupError::Ambiguous { candidates, .. } = &err else {
        panic!("{err}")
    };
    let ids: Vec<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "feat014-impl-20260217-001",
            "feat012-impl-20260217-001",
            "feat010-remediation-20260215-001",
        ]
    );
    let text = err.to_string();
    assert!(
        text.starts_with(
            "\"feat01\" matches 3 projects (newest first); name one of them as its line starts (its id, or its path where others share the id):\n  feat014-"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "feat012-impl-20260217-001  ·  -  ·  ACTIVE  ·  updated 2026-02-17T00:00:00Z"
        ),
        "{text}"
    );
}

#[test]
fn projects_are_named_by_their_owners_aliases() {
    let mut ws = workspace();
    ws.projects.push(project(
        "cyber-ops-20260222-001",
        "projects/PROJ-010-cyber-ops/ORCHESTRATION.yaml",
    ));
    ws.projects.push(project(
        "ops-review",
        "projects/PROJ-010-cyber-ops/orchestration/review-1/ORCHESTRATION.yaml",
    ));
    let id = |name: &str| find_project(&ws, name).map(|p| p.id.as_str());
    assert_eq!(id("review-1"), Ok("ops-review"), "the workflow folder");
    assert_eq!(id("REVIEW"), Ok("ops-review"), "a prefix of an alias");
    let err = find_project(&ws, "PROJ-010").unwrap_err();
    let LookupError::Ambiguous { candidates, .. } = err else {
        panic!("two workflows live in PROJ-010")
    };
    assert_eq!(candidates.len(), 2);
    assert!(matches!(
        find_project(&ws, "proj-010-cyber"),
        Err(LookupError::Ambiguous { .. })
    ));
}

#[test]
fn an_unknown_name_suggests_close_ids() {
    let ws = workspace();
    let err = find_project(&ws, "spkie").unwrap_err();
    assert_eq!(
        err,
        LookupError::NotFound {
            name: "spkie".into(),
            close: vec!["spike".into()]
        }
    );
    assert_eq!(err.to_string(), "no project \"spkie\"; did you mean spike?");
    let err = find_project(&ws, "impl-2026").unwrap_err();
    let LookupError::NotFound { close, .. } = &err else {
        panic!()
    };
    assert_eq!(
        close,
        &["feat012-impl-20260217-001", "feat014-impl-20260217-001"]
    );
    let err = find_project(&ws, "zzzzzzzzzzzz").unwrap_err();
    assert!(
        err.to_string()
            .ends_with("`resume-tui list` shows every project"),
        "{err}"
    );
    assert!(find_project(&ws, "").is_err());
    assert!(find_project(&Workspace::default(), "x").is_err());
}

#[test]
fn checkpoints_go_to_the_nearest_project_with_their_workflow_id() {
    let mut projects = vec![
        project("wf", "a/projects/P1/ORCHESTRATION.yaml"),
        project("wf", "b/projects/P1/ORCHESTRATION.yaml"),
        project("other", "a/projects/P2/ORCHESTRATION.yaml"),
    ];
    let left = assign_checkpoints(
        &mut projects,
        vec![
            checkpoint(
                "cx-002",
                "b/.jerry/checkpoints/cx-002-checkpoint.json",
                Some("wf"),
            ),
            checkpoint(
                "cx-001",
                "b/.jerry/checkpoints/cx-001-checkpoint.json",
                Some("wf"),
            ),
            checkpoint(
                "cx-003",
                "a/.jerry/checkpoints/cx-003-checkpoint.json",
                Some("wf"),
            ),
            checkpoint("cx-004", "a/.jerry/checkpoints/cx-004.json", None),
            checkpoint("cx-005", "a/.jerry/checkpoints/cx-005.json", Some("gone")),
        ],
    );
    let ids = |p: &Project| {
        p.checkpoints
            .iter()
            .map(|c| c.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&projects[0]), ["cx-003"]);
    assert_eq!(ids(&projects[1]), ["cx-001", "cx-002"], "sorted by number");
    assert!(projects[2].checkpoints.is_empty());
    let left: Vec<_> = left.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(left, ["cx-004", "cx-005"]);
}

#[test]
fn duplicate_ids_get_a_path_based_suffix() {
    let mut projects = vec![
        project("wf", "projects/PROJ-009/x/ORCHESTRATION.yaml"),
        project("wf", "projects/PROJ-001/x/ORCHESTRATION.yaml"),
        project("solo", "projects/PROJ-002/ORCHESTRATION.yaml"),
        project("wf", "projects/PROJ-009/y/ORCHESTRATION.yaml"),
        project("wf@PROJ-009", "z/ORCHESTRATION.yaml"),
    ];
    make_ids_unique(&mut projects);
    let ids: Vec<_> = projects.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "wf@PROJ-009-2",
            "wf",
            "solo",
            "wf@PROJ-009-3",
            "wf@PROJ-009"
        ]
    );
    let note = projects[0].diagnostics[0].to_string();
    assert_eq!(
        note,
        "projects/PROJ-009/x/ORCHESTRATION.yaml: warning: workflow id \"wf\" is also used by \
         projects/PROJ-001/x/ORCHESTRATION.yaml; this project is listed as \"wf@PROJ-009-2\""
    );
    assert!(projects[1].diagnostics.is_empty());
    assert!(projects[2].diagnostics.is_empty());
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len());
}

fn with_events(mut p: Project, events: &[(Option<&str>, Option<&str>)]) -> Project {
    use crate::core::model::{CompactionEvent, CompactionEvents, CompactionShape, Resumption};
    let events = events
        .iter()
        .map(|(id, file)| CompactionEvent {
            id: id.map(str::to_string),
            checkpoint_file: file.map(str::to_string),
            ..CompactionEvent::default()
        })
        .collect();
    p.resumption = Some(Resumption {
        compaction: Some(CompactionEvents {
            shape: CompactionShape::Design,
            count: None,
            events,
            notes: Vec::new(),
            other: Default::default(),
        }),
        ..Resumption::default()
    });
    p
}

fn with_state(mut c: Checkpoint, state: serde_json::Value) -> Checkpoint {
    c.resumption_state = Some(state);
    c
}

#[test]
fn checkpoints_without_a_workflow_id_go_to_the_workflow_that_names_them_in_its_repo() {
    let mut projects = vec![
        with_events(
            project("wf-a", "r/projects/A/ORCHESTRATION.yaml"),
            &[
                (Some("CX-004"), None),
                (None, Some("/home/op/r/.jerry/checkpoints/cx-006.json")),
                (Some("cx-009"), None),
            ],
        ),
        project("wf-b", "r/projects/B/ORCHESTRATION.yaml"),
        with_events(
            project("wf-c", "other/projects/C/ORCHESTRATION.yaml"),
            &[(Some("cx-005"), None)],
        ),
    ];
    let left = assign_checkpoints(
        &mut projects,
        vec![
            checkpoint("cx-004", "r/.jerry/checkpoints/cx-004.json", None),
            checkpoint("cx-006", "r/.jerry/checkpoints/cx-006.json", None),
            with_state(
                checkpoint("cx-007", "r/.jerry/checkpoints/cx-007.json", None),
                serde_json::json!({"workflow_id": "wf-b", "current_phase": 3}),
            ),
            with_state(
                checkpoint("cx-008", "r/.jerry/checkpoints/cx-008.json", None),
                serde_json::json!({"workflow": {"id": "wf-b"}}),
            ),
            checkpoint("cx-009", "r/.jerry/checkpoints/cx-009.json", Some("wf-b")),
            checkpoint("cx-005", "r/.jerry/checkpoints/cx-005.json", None),
            with_state(
                checkpoint("cx-010", "r/.jerry/checkpoints/cx-010.json", None),
                serde_json::json!({"workflow_id": "wf-c"}),
            ),
            checkpoint("cx-011", "r/.jerry/checkpoints/cx-011.json", None),
        ],
    );
    let ids = |p: &Project| {
        p.checkpoints
            .iter()
            .map(|c| c.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&projects[0]), ["cx-004", "cx-006"]);
    assert_eq!(
        ids(&projects[1]),
        ["cx-007", "cx-008", "cx-009"],
        "its own workflow_id wins over another workflow's event"
    );
    assert!(projects[2].checkpoints.is_empty(), "another repository");
    let left: Vec<_> = left.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(left, ["cx-005", "cx-010", "cx-011"]);
}

#[test]
fn a_checkpoint_at_the_root_belongs_to_the_whole_tree_and_the_nearest_repo_wins() {
    let events = [(Some("cx-001"), None)];
    let mut projects = vec![
        with_events(project("outer", "projects/A/ORCHESTRATION.yaml"), &events),
        with_events(
            project("inner", "sub/projects/B/ORCHESTRATION.yaml"),
            &events,
        ),
    ];
    let left = assign_checkpoints(
        &mut projects,
        vec![
            checkpoint("cx-001", ".jerry/checkpoints/cx-001.json", None),
            checkpoint("cx-001", "sub/.jerry/checkpoints/cx-001.json", None),
        ],
    );
    assert!(left.is_empty());
    let paths = |p: &Project| {
        p.checkpoints
            .iter()
            .map(|c| c.path.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(paths(&projects[0]), [".jerry/checkpoints/cx-001.json"]);
    assert_eq!(paths(&projects[1]), ["sub/.jerry/checkpoints/cx-001.json"]);
}

#[test]
fn an_unclaimed_checkpoint_goes_to_the_only_workflow_or_the_one_its_files_name() {
    use crate::core::model::FileToRead;
    let mut alone = vec![project("solo", "r/projects/A/ORCHESTRATION.yaml")];
    let left = assign_checkpoints(
        &mut alone,
        vec![checkpoint(
            "cx-001",
            "r/.jerry/checkpoints/cx-001.json",
            None,
        )],
    );
    assert_eq!(left.len(), 1, "no claim");
    let left = attribute_unclaimed(&mut alone, left);
    assert!(left.is_empty());
    assert_eq!(alone[0].checkpoints.len(), 1);

    let mut two = vec![
        project("wf-a", "r/projects/A/ORCHESTRATION.yaml"),
        project("wf-b", "r/projects/B/ORCHESTRATION.yaml"),
    ];
    let mut naming = checkpoint("cx-002", "r/.jerry/checkpoints/cx-002.json", None);
    naming.files_to_read = vec![FileToRead {
        path: "/home/op/r/projects/B/plan.md".into(),
        ..FileToRead::default()
    }];
    let silent = checkpoint("cx-003", "r/.jerry/checkpoints/cx-003.json", None);
    let left = assign_checkpoints(&mut two, vec![naming, silent]);
    let left = attribute_unclaimed(&mut two, left);
    assert_eq!(two[1].checkpoints.len(), 1, "the workflow its files lie in");
    assert_eq!(left.len(), 1, "unattributed, not hidden");
    assert_eq!(left[0].id, "cx-003");
}

#[test]
fn a_checkpoint_naming_a_workflow_no_file_carries_goes_to_the_unreadable_one() {
    let unreadable = |id: &str, source: &str| {
        let dir = source.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        Project::at(ProjectKind::Jerry, id, source, dir, Shape::Unreadable)
    };
    let mut projects = vec![
        project("wf-a", "r/projects/A/ORCHESTRATION.yaml"),
        unreadable("B", "r/projects/B/ORCHESTRATION.yaml"),
        unreadable("C", "q/projects/C/ORCHESTRATION.yaml"),
    ];
    let named = checkpoint("cx-004", "r/.jerry/checkpoints/cx-004.json", Some("wf-b"));
    let mut by_state = checkpoint("cx-005", "r/.jerry/checkpoints/cx-005.json", None);
    by_state.resumption_state = Some(serde_json::json!({"workflow_id": "wf-b"}));
    let silent = checkpoint("cx-006", "r/.jerry/checkpoints/cx-006.json", None);
    let carried = checkpoint("cx-007", "r/.jerry/checkpoints/cx-007.json", Some("wf-a"));
    let left = assign_checkpoints(&mut projects, vec![named, by_state, silent, carried]);
    let left = attribute_unclaimed(&mut projects, left);
    let ids = |p: &Project| -> Vec<String> { p.checkpoints.iter().map(|c| c.id.clone()).collect() };
    assert_eq!(
        ids(&projects[1]),
        ["cx-004", "cx-005"],
        "the unreadable file of its repository"
    );
    assert_eq!(ids(&projects[0]), ["cx-007"]);
    assert!(projects[2].checkpoints.is_empty(), "another repository's");
    let left: Vec<&str> = left.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        left,
        ["cx-006"],
        "naming no workflow: nobody's, as when the file read"
    );

    // Two unreadable files in its repository: which one is not known.
    let mut two = vec![
        unreadable("B", "r/projects/B/ORCHESTRATION.yaml"),
        unreadable("D", "r/projects/D/ORCHESTRATION.yaml"),
    ];
    let cp = checkpoint("cx-004", "r/.jerry/checkpoints/cx-004.json", Some("wf-b"));
    let left = attribute_unclaimed(&mut two, vec![cp]);
    assert_eq!(left.len(), 1);

    // A live change to one checkpoint follows the same rule.
    let mut unassigned = Vec::new();
    let cp = checkpoint("cx-008", "r/.jerry/checkpoints/cx-008.json", Some("wf-b"));
    let touched = replace_checkpoint(&mut projects, &mut unassigned, &cp.path.clone(), Some(cp));
    assert_eq!(touched, [1]);
    assert!(unassigned.is_empty());
}

#[test]
fn two_workflows_with_one_id_are_both_candidates() {
    let mut ws = workspace();
    ws.projects.push(project("dup-001", "a/ORCHESTRATION.yaml"));
    ws.projects
        .push(project("dup-001@b", "b/ORCHESTRATION.yaml"));
    let err = find_project(&ws, "dup-001").unwrap_err();
    let LookupError::Ambiguous { candidates, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(candidates.len(), 2, "{err}");
    assert_eq!(
        find_project(&ws, "dup-001@b").map(|p| p.id.as_str()),
        Ok("dup-001@b")
    );
}

#[test]
fn a_number_names_the_folder_it_numbers_never_a_longer_one() {
    let mut ws = workspace();
    ws.projects
        .push(project("03-intake", "builds/03-intake/resume-context.md"));
    ws.projects
        .push(project("34-billing", "builds/34-billing/resume-context.md"));
    ws.projects
        .push(project("01-setup", "builds/01-setup/resume-context.md"));
    let id = |name: &str| find_project(&ws, name).map(|p| p.id.as_str());
    assert_eq!(id("3"), Ok("03-intake"));
    assert_eq!(id("34"), Ok("34-billing"));
    assert_eq!(id("1"), Ok("01-setup"));
    assert!(
        matches!(find_project(&ws, "4"), Err(LookupError::NotFound { .. })),
        "no folder is numbered 4: `34-billing` is never a prefix match for a number"
    );
    assert!(matches!(
        find_project(&ws, "2"),
        Err(LookupError::NotFound { .. })
    ));
}

#[test]
fn a_work_item_folder_names_the_workflows_it_holds() {
    let mut ws = workspace();
    let feat = "projects/PROJ-001-x/work/EPIC-003-q/FEAT-014-sync";
    ws.projects.push(project(
        "f14-impl",
        &format!("{feat}/orchestration/f14-impl/ORCHESTRATION.yaml"),
    ));
    ws.projects.push(project(
        "en929-cleanup",
        &format!("{feat}/EN-929-docs/orchestration/en929-cleanup/ORCHESTRATION.yaml"),
    ));
    let id = |name: &str| find_project(&ws, name).map(|p| p.id.as_str());
    assert_eq!(id("EN-929"), Ok("en929-cleanup"));
    assert_eq!(id("en-929-docs"), Ok("en929-cleanup"));
    for several in ["FEAT-014", "FEAT-014-sync", "EPIC-003"] {
        let Err(LookupError::Ambiguous { candidates, .. }) = find_project(&ws, several) else {
            panic!("{several} holds two workflows: both are candidates");
        };
        let ids: Vec<&str> = candidates.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["en929-cleanup", "f14-impl"], "{several}");
    }
}
