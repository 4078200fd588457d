//! Issue 34, "Names", through the real binary on the shared corpus: a work-item
//! folder names the workflows in it, two workflows with one id are both
//! candidates, a bare number names only the folders it numbers, and a workflow
//! in a generic folder is named by its file's own id. The corpus is read in place
//! from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/cli.rs"]
mod cli;
#[path = "support/needs.rs"]
mod needs;

use cli::run;

use std::path::Path;

const JERRY: &str = "geekatron+jerry";
const NEXUS: &str = "DorianSchlede+nexus-template";

/// The id `show --json NAME` resolves to.
fn shown_id(root: &Path, name: &str) -> Result<String, (Option<i32>, String)> {
    let (code, out, err) = run(root, &["show", "--json", name]);
    if code != Some(0) {
        return Err((code, err));
    }
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    Ok(json["project"]["id"].as_str().unwrap().to_string())
}

/// The names an ambiguous name's candidates are listed by, as `  id  ·  …` lines
/// (a path where the id is shared).
fn candidates(err: &str) -> Vec<String> {
    err.lines()
        .filter_map(|l| {
            l.strip_prefix("  ")?
                .split_once("  ·  ")
                .map(|(id, _)| id.to_string())
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn a_feature_or_enabler_folder_names_the_workflows_it_holds() {
    let root = needs::corpus().join(JERRY);
    for (name, id) in [
        ("FEAT-023", "feat023-showcase-20260218-001"),
        ("FEAT-023-showcase-video", "feat023-showcase-20260218-001"),
        ("EN-929", "en929-doccleanup-20260217-001"),
        (
            "en-929-documentation-cleanup",
            "en929-doccleanup-20260217-001",
        ),
    ] {
        assert_eq!(shown_id(&root, name), Ok(id.to_string()), "{name}");
    }
    // FEAT-014-framework-synchronization holds its own workflow and EN-929's.
    let (code, _, err) = run(&root, &["prompt", "FEAT-014"]);
    assert_eq!(code, Some(2), "{err}");
    let mut ids = candidates(&err);
    ids.sort();
    assert_eq!(
        ids,
        ["en929-doccleanup-20260217-001", "feat014-impl-20260217-001"],
        "{err}"
    );
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn two_workflows_with_one_id_are_candidates_never_a_silent_pick() {
    let root = needs::corpus().join(JERRY);
    let (code, _, err) = run(&root, &["prompt", "oss-release-20260131-001"]);
    assert_eq!(code, Some(2), "{err}");
    let listed = candidates(&err);
    assert_eq!(listed.len(), 3, "{err}");
    // Each line starts with what names that workflow alone (the id's own one by
    // its path, the others by their id@folder): all three are reached.
    let mut ids: Vec<String> = listed
        .iter()
        .map(|name| shown_id(&root, name).unwrap_or_else(|e| panic!("{name}: {e:?}")))
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert!(
        ids.iter()
            .all(|id| id.starts_with("oss-release-20260131-001")),
        "{ids:?}"
    );
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn a_nexus_number_names_only_the_folders_it_numbers() {
    let root = needs::corpus().join(NEXUS);
    assert_eq!(
        shown_id(&root, "1"),
        Ok("01-onboarding-redesign-contextual-micro-lessons".to_string())
    );
    assert_eq!(
        shown_id(&root, "4"),
        Ok("04-improved-onboarding-design".to_string())
    );
    // No folder is numbered 3: `3` is unknown, never one of 30-…, 31-…, 35-…, 36-….
    let (code, _, err) = run(&root, &["show", "3"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no project \"3\""), "{err}");
    // Two folders are numbered 36 and 29: all of them are candidates, and only they.
    for number in ["29", "36"] {
        let (code, _, err) = run(&root, &["show", number]);
        assert_eq!(code, Some(2), "{err}");
        let listed = candidates(&err);
        assert!(listed.len() >= 2, "{err}");
        for name in &listed {
            let id = shown_id(&root, name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert!(id.starts_with(&format!("{number}-")), "{number}: {err}");
        }
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn a_workflow_in_a_generic_folder_is_named_by_its_file() {
    let root = needs::corpus().join(JERRY);
    let (code, out, err) = run(&root, &["list", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut generic = 0;
    for row in list["projects"].as_array().unwrap() {
        let source = row["source"].as_str().unwrap();
        let folder = source.rsplit('/').nth(1).unwrap_or_default();
        if !["orchestration", "plans", "workflow"].contains(&folder) {
            continue;
        }
        generic += 1;
        let text = std::fs::read_to_string(root.join(source)).unwrap();
        let doc: serde_json::Value = yaml_serde::from_str(&text).unwrap();
        let own = ["workflow", "orchestration"]
            .iter()
            .find_map(|block| doc[block]["id"].as_str())
            .unwrap_or_else(|| panic!("{source} states no id of its own"));
        let id = row["id"].as_str().unwrap();
        assert!(
            id == own || id.starts_with(&format!("{own}@")),
            "{source}: listed as {id}, its own id is {own}"
        );
        assert_ne!(id, folder, "{source}");
    }
    assert!(generic >= 9, "only {generic} workflows in generic folders");
}
