//! Paths written in files (`files_to_read`, `files_to_load`, `checkpoint_file`, the
//! project id of a precompact state) are shown as given, but resume-tui never reads,
//! injects or writes outside the workspace root because of them: `../`, absolute
//! paths, `~`, and symlinks that lead out. Each outside target holds a canary; no
//! output, injection, checkpoint or log may ever contain it, and nothing outside
//! changes.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/transcript.rs"]
mod transcript;

use std::path::Path;

use hostile::{cli, tree, write};
use serde_json::{Value, json};

const CANARY: &str = "CANARY-7f3a-outside-the-workspace";

/// `<tmp>/ws` is the workspace; `<tmp>/outside` holds canary files, a state file and
/// a checkpoint; `ws/link-out` is a symlink to `outside/plain`.
struct Layout {
    tmp: tempfile::TempDir,
}

impl Layout {
    fn new() -> Layout {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        write(&outside, "secret.md", format!("# {CANARY}\n"));
        write(&outside, "plain/secret.md", format!("# {CANARY}\n"));
        write(
            &outside,
            "ORCHESTRATION.yaml",
            format!(
                "workflow:\n  id: wf-out\nresumption:\n  recovery_state:\n    next_step: \"{CANARY}\"\n"
            ),
        );
        write(
            &outside,
            "01-planning/resume-context.md",
            format!("---\nproject_id: evil\nnext_action: \"{CANARY}\"\n---\n{CANARY}\n"),
        );
        write(
            &outside,
            "cx-009-checkpoint.json",
            json!({"event_id": "cx-009", "session_id": "s",
                   "orchestration_state": {"workflow_id": "wf-in"},
                   "recovery_instructions": {"critical_context": CANARY},
                   "metadata": {"acknowledged": false}})
            .to_string(),
        );
        std::fs::create_dir_all(tmp.path().join("ws")).unwrap();
        // Only plain files behind the link: discovery (which follows linked folders
        // by design) finds no project there.
        std::os::unix::fs::symlink(outside.join("plain"), tmp.path().join("ws/link-out")).unwrap();
        Layout { tmp }
    }

    fn root(&self) -> std::path::PathBuf {
        self.tmp.path().join("ws")
    }

    fn outside(&self) -> std::path::PathBuf {
        self.tmp.path().join("outside")
    }

    fn outside_snapshot(&self) -> Vec<(String, Vec<u8>)> {
        tree(&self.outside())
            .into_iter()
            .map(|rel| {
                let bytes = std::fs::read(self.outside().join(&rel)).unwrap_or_default();
                (rel, bytes)
            })
            .collect()
    }
}

fn hostile_paths(outside: &Path) -> Vec<String> {
    vec![
        "../outside/secret.md".into(),
        "../../../outside/secret.md".into(),
        "projects/../../outside/secret.md".into(),
        format!("{}/secret.md", outside.display()),
        "~/secret.md".into(),
        "link-out/secret.md".into(),
        "../outside/ORCHESTRATION.yaml".into(),
    ]
}

fn jerry_state(paths: &[String]) -> String {
    let files: String = paths
        .iter()
        .map(|p| format!("    - path: \"{p}\"\n      priority: 1\n"))
        .collect();
    format!(
        "workflow:\n  id: wf-in\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: \"continue\"\n    updated_at: \"2026-01-01T00:00:00Z\"\n  files_to_read:\n{files}  \
         compaction_events:\n    events:\n      - id: CX-009\n        checkpoint_file: \"../../../outside/cx-009-checkpoint.json\"\n        \
         acknowledged: false\n"
    )
}

fn manifest(paths: &[String]) -> String {
    let files: String = paths.iter().map(|p| format!("  - \"{p}\"\n")).collect();
    format!(
        "---\nresume_schema_version: \"1.0\"\nproject_id: \"07-x\"\nproject_name: X\n\
         current_phase: execution\nnext_action: go\nfiles_to_load:\n{files}last_updated: \"2026-01-03T15:30:00\"\n---\n# X\n"
    )
}

#[test]
fn listed_paths_are_shown_as_given_but_never_read_or_copied() {
    let layout = Layout::new();
    let root = layout.root();
    let paths = hostile_paths(&layout.outside());
    write(
        &root,
        "projects/PROJ-001/ORCHESTRATION.yaml",
        jerry_state(&paths),
    );
    write(
        &root,
        "02-projects/07-x/01-planning/resume-context.md",
        manifest(&paths),
    );
    let before = layout.outside_snapshot();
    let clip = layout.tmp.path().join("clip.txt");
    let backend = format!("file:{}", clip.display());
    for args in [
        vec!["list"],
        vec!["list", "--json"],
        vec!["show", "wf-in"],
        vec!["show", "07-x"],
        vec!["validate"],
        vec!["prompt", "wf-in", "--copy", "--clipboard", &backend],
        vec!["prompt", "07-x"],
        vec!["alert", "wf-in"],
    ] {
        let run = cli(&root, &args);
        assert!(
            !run.stdout.contains(CANARY),
            "{args:?} printed outside content"
        );
        assert!(
            !run.stderr.contains(CANARY),
            "{args:?} printed outside content"
        );
    }
    assert!(!std::fs::read_to_string(&clip).unwrap().contains(CANARY));

    let show: Value =
        serde_json::from_str(&cli(&root, &["show", "wf-in", "--json"]).stdout).unwrap();
    let listed = show["project"]["resumption"]["files_to_read"]
        .as_array()
        .unwrap();
    for (entry, given) in listed.iter().zip(&paths) {
        assert_eq!(entry["path"], given.as_str(), "shown as given");
        if given.starts_with("link-out") {
            continue; // inside the root by name; discovery follows linked folders
        }
        assert_eq!(
            entry["exists"], false,
            "{given} was looked up outside the root"
        );
    }
    let diagnostics = show["project"]["diagnostics"].to_string();
    assert!(
        diagnostics.contains("outside"),
        "a warning names the paths: {diagnostics}"
    );
    let nexus: Value =
        serde_json::from_str(&cli(&root, &["show", "07-x", "--json"]).stdout).unwrap();
    for entry in nexus["project"]["manifest"]["files_to_load"]
        .as_array()
        .unwrap()
    {
        let given = entry["path"].as_str().unwrap();
        if !given.starts_with("link-out") {
            assert_eq!(entry["exists"], false, "{given}");
        }
    }
    assert_eq!(layout.outside_snapshot(), before, "nothing outside changed");
}

#[test]
fn edits_never_write_outside_the_root_because_of_a_checkpoint_file_path() {
    let layout = Layout::new();
    let root = layout.root();
    write(
        &root,
        "projects/PROJ-001/ORCHESTRATION.yaml",
        jerry_state(&[]),
    );
    let before = layout.outside_snapshot();
    for args in [
        vec!["ack", "wf-in", "--all"],
        vec!["ack", "wf-in", "CX-009"],
        vec!["ack", "wf-in", "cx-009"],
        vec!["merge", "wf-in", "cx-009"],
        vec!["decision", "add", "wf-in", "--decision", "d"],
    ] {
        let run = cli(&root, &args);
        assert!(run.code.is_some(), "{args:?}");
        assert!(
            !run.stdout.contains(CANARY) && !run.stderr.contains(CANARY),
            "{args:?}"
        );
    }
    assert_eq!(
        layout.outside_snapshot(),
        before,
        "nothing outside changed or appeared"
    );
}

fn precompact_state(id: &str) -> String {
    json!({"active_project_id": id, "confidence": "high", "detection_method": "transcript",
           "timestamp": "2026-01-01T00:00:00Z"})
    .to_string()
}

/// A precompact state naming a project by a path never loads or injects it.
#[test]
fn a_hostile_precompact_state_injects_nothing_from_outside() {
    let layout = Layout::new();
    let outside = layout.outside().display().to_string();
    for id in [
        "../outside",
        "../../outside",
        "..",
        "07-x/../../../outside",
        outside.as_str(),
        "~",
        "",
    ] {
        let fx = hook_fixture::Fixture::new().nexus();
        fx.write(
            "00-system/.cache/precompact_state.json",
            &precompact_state(id),
        );
        let (out, err) = fx.run(
            &["SessionStart"],
            &hook_fixture::payload("SessionStart", None, json!({"source": "compact"})),
        );
        assert!(
            !out.contains(CANARY) && !err.contains(CANARY),
            "{id}: {out}"
        );
        assert!(!fx.log().contains(CANARY), "{id}");

        // PreCompact with the same state writes only inside the root.
        let transcript = fx.edits_in("../outside");
        fx.write(
            "00-system/.cache/precompact_state.json",
            &precompact_state(id),
        );
        let (out, _) = fx.run(
            &["PreCompact"],
            &hook_fixture::payload("PreCompact", Some(&transcript), json!({"trigger": "auto"})),
        );
        assert_eq!(out, "{}\n");
        for name in fx.checkpoints() {
            let text = fx.read(&format!(".jerry/checkpoints/{name}"));
            assert!(!text.contains(CANARY), "{id}: {text}");
        }
    }
}
