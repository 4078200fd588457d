//! Issue 34, "Names", through the real binary on a workspace of its own (the
//! shapes of real files: a plan in a generic `plans/` folder keeping its id in an
//! `orchestration:` block, work-item folders, a duplicated id, numbered Nexus
//! builds), and the Nexus loading sequence of a v5 build naming only the files
//! its folder holds.

#[path = "support/cli.rs"]
mod cli;

use cli::run;

#[path = "support/folder.rs"]
mod folder;

use folder::write;

const EPIC: &str = "projects/PROJ-008-t/work/EPIC-001-transcript";

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        &format!("{EPIC}/plans/ORCHESTRATION.yaml"),
        "# the plan\norchestration:\n  id: ORCH-001\n  name: \"Transcript Skill Development\"\n  \
         status: ACTIVE\nstate:\n  current_phase: 1\n  current_phase_name: \"Parallel Research\"\n",
    );
    write(
        root,
        &format!("{EPIC}/FEAT-002-impl/orchestration/ORCHESTRATION.yaml"),
        "workflow:\n  id: feat-002-impl-001\n  status: ACTIVE\n",
    );
    write(
        root,
        &format!("{EPIC}/FEAT-002-impl/EN-014-fix/orchestration/en014-001/ORCHESTRATION.yaml"),
        "workflow:\n  id: en014-001\n  status: ACTIVE\n",
    );
    for copy in ["PROJ-001-a", "PROJ-009-b"] {
        write(
            root,
            &format!("projects/{copy}/orchestration/ORCHESTRATION.yaml"),
            "workflow:\n  id: release-001\n  status: COMPLETE\n",
        );
    }
    for build in ["03-intake", "34-billing", "01-setup"] {
        write(
            root,
            &format!("nexus/02-builds/{build}/01-planning/resume-context.md"),
            &format!(
                "---\nresume_schema_version: \"2.0\"\nbuild_id: {build}\ncurrent_phase: planning\n---\n"
            ),
        );
    }
    dir
}

fn candidates(err: &str) -> Vec<String> {
    let mut ids: Vec<String> = err
        .lines()
        .filter_map(|l| {
            l.strip_prefix("  ")?
                .split_once("  ·  ")
                .map(|(id, _)| id.to_string())
        })
        .collect();
    ids.sort();
    ids
}

#[test]
fn a_plan_in_a_generic_folder_is_named_by_its_own_id_and_name() {
    let ws = workspace();
    let (code, list, err) = run(ws.path(), &["list"]);
    assert_eq!(code, Some(0), "{err}");
    let row = list.lines().find(|l| l.contains("ORCH-001")).expect(&list);
    assert!(row.contains("Transcript Skill Development"), "{row}");
    assert!(
        !list
            .lines()
            .any(|l| l.split_whitespace().nth(1) == Some("plans")),
        "{list}"
    );
    let (code, prompt, err) = run(ws.path(), &["prompt", "ORCH-001"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(prompt.contains("ORCH-001"), "{prompt}");
    let (code, show, _) = run(ws.path(), &["show", "ORCH-001"]);
    assert_eq!(code, Some(0));
    assert!(show.starts_with("ORCH-001  (jerry"), "{show}");
    assert!(show.contains("Transcript Skill Development"), "{show}");
}

#[test]
fn a_work_item_folder_names_its_workflows_one_or_all_of_them() {
    let ws = workspace();
    let (code, show, err) = run(ws.path(), &["show", "EN-014"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(show.starts_with("en014-001  (jerry"), "{show}");
    for several in ["FEAT-002", "FEAT-002-impl"] {
        let (code, _, err) = run(ws.path(), &["prompt", several]);
        assert_eq!(code, Some(2), "{several}: {err}");
        assert_eq!(
            candidates(&err),
            ["en014-001", "feat-002-impl-001"],
            "{err}"
        );
    }
}

#[test]
fn two_workflows_with_one_id_exit_2_with_both() {
    let ws = workspace();
    let (code, _, err) = run(ws.path(), &["prompt", "release-001"]);
    assert_eq!(code, Some(2), "{err}");
    let ids = candidates(&err);
    assert_eq!(ids.len(), 2, "{err}");
    assert!(err.contains("name one of them as its line starts"), "{err}");
    // What each line starts with names that workflow alone: the suffixed id, and
    // the path of the one whose id the other shares.
    let mut sources: Vec<String> = Vec::new();
    for handle in &ids {
        let (code, out, err) = run(ws.path(), &["show", handle, "--json"]);
        assert_eq!(code, Some(0), "show {handle}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(
            json["project"]["id"]
                .as_str()
                .unwrap()
                .starts_with("release-001"),
            "{handle}: {out}"
        );
        sources.push(json["project"]["source"].as_str().unwrap().to_string());
    }
    sources.sort();
    sources.dedup();
    assert_eq!(sources.len(), 2, "both workflows are named: {sources:?}");
}

#[test]
fn a_number_is_the_build_it_numbers() {
    let ws = workspace();
    let id = |name: &str| {
        let (code, show, err) = run(ws.path(), &["show", name]);
        (
            code,
            show.split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string(),
            err,
        )
    };
    assert_eq!(id("3").1, "03-intake");
    assert_eq!(id("1").1, "01-setup");
    assert_eq!(id("34").1, "34-billing");
    let (code, _, err) = id("4");
    assert_eq!(code, Some(1), "4 is never 34-billing: {err}");
}

#[test]
fn a_v5_build_sequence_names_the_planning_files_it_has() {
    let ws = workspace();
    let build = "nexus/02-builds/05-api";
    write(
        ws.path(),
        &format!("{build}/01-planning/resume-context.md"),
        "---\nresume_schema_version: \"2.0\"\nbuild_id: 05-api\ncurrent_phase: execution\n\
         next_action: execute-build\nfiles_to_load:\n  - \"01-planning/01-overview.md\"\n  \
         - \"01-planning/03-plan.md\"\n---\n## Progress\ndone\n## Next Steps\n1. Wire the API\n",
    );
    write(
        ws.path(),
        &format!("{build}/01-planning/01-overview.md"),
        "# API\n",
    );
    write(
        ws.path(),
        &format!("{build}/01-planning/04-steps.md"),
        "- [ ] wire\n",
    );
    let (code, text, err) = run(ws.path(), &["prompt", "--style", "plain", "05-api"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.contains("1. What problem are we solving? (from 01-planning/01-overview.md)\n"),
        "{text}"
    );
    assert!(
        text.contains("2. What is the next task? (from 01-planning/04-steps.md)\n"),
        "{text}"
    );
    assert!(
        text.contains("3. What is the approach? (from the resume file)\n"),
        "{text}"
    );
    assert!(
        text.contains("1 of the 2 files above do not exist"),
        "{text}"
    );
    assert!(!text.contains("Validation questions"), "{text}");
    let top = text.find("STEP 1").unwrap();
    let next = text.find("NEXT ACTION: execute-build\n").expect(&text);
    let steps = text
        .find("NEXT STEPS (the resume file's \"Next Steps\"):\n   1. Wire the API\n")
        .expect(&text);
    assert!(next < top && steps < top, "{text}");
}
