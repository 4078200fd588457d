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
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use std::path::Path;

use hostile::{cli, contents, write};
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
        contents(&self.outside())
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
    let state = root.join("projects/PROJ-001/ORCHESTRATION.yaml");
    for (args, code) in [
        // The checkpoint that points outside is no checkpoint of this project.
        (vec!["ack", "wf-in", "--all"], 0),
        (vec!["ack", "wf-in", "CX-009"], 1),
        (vec!["ack", "wf-in", "cx-009"], 1),
        (vec!["merge", "wf-in", "cx-009"], 1),
        (vec!["decision", "add", "wf-in", "--decision", "d"], 0),
    ] {
        let run = cli(&root, &args);
        assert_eq!(
            run.code,
            Some(code),
            "{args:?}: {}{}",
            run.stdout,
            run.stderr
        );
        assert!(
            !run.stdout.contains(CANARY) && !run.stderr.contains(CANARY),
            "{args:?}"
        );
        // Nothing read outside found its way into the state file inside either.
        let text = std::fs::read_to_string(&state).unwrap();
        assert!(!text.contains(CANARY), "{args:?}:\n{text}");
    }
    assert_eq!(
        layout.outside_snapshot(),
        before,
        "nothing outside changed or appeared"
    );
}

fn precompact_state(id: &str) -> String {
    // Recent, so SessionStart reads it (an old state of another session is never injected).
    json!({"active_project_id": id, "confidence": "high", "detection_method": "transcript",
           "timestamp": hook_fixture::iso(60)})
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
        assert_eq!(out, "");
        for name in fx.checkpoints() {
            let text = fx.read(&format!(".jerry/checkpoints/{name}"));
            assert!(!text.contains(CANARY), "{id}: {text}");
        }
    }
}

/// Runs a hook over the layout's workspace with `--explain` (which says on stderr
/// which workflow it chose) and checks that nothing from outside came back.
fn hook_run(layout: &Layout, event: &str, extra: Value) -> hostile::Run {
    let log = layout.tmp.path().join("log");
    let run = hostile::hook(
        &[],
        &layout.root(),
        &log,
        &[event, "--explain"],
        &hostile::event(event, &layout.root(), extra),
    );
    assert_eq!(run.code, Some(0), "{event}: {}", run.stderr);
    let logged = std::fs::read_to_string(log.join("hook.log")).unwrap_or_default();
    for text in [&run.stdout, &run.stderr, &logged] {
        for outside_only in [CANARY, "wf-out", "evil"] {
            assert!(!text.contains(outside_only), "{event}: {text}");
        }
    }
    run
}

/// An unacknowledged checkpoint whose only file to read is `path`.
fn checkpoint_listing(root: &Path, path: &str) {
    let body = json!({"event_id": "cx-001", "session_id": "sess-fault", "timestamp": "2026-01-01T00:00:00Z",
           "recovery_instructions": {"files_to_read": [{"path": path, "priority": 1}]},
           "metadata": {"acknowledged": false}});
    write(
        root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        body.to_string(),
    );
}

/// An unacknowledged checkpoint's first file to read leads SessionStart and
/// UserPromptSubmit to its workflow; one outside the root is named as given, but
/// neither read nor injected.
#[test]
fn a_checkpoint_naming_a_state_file_outside_injects_nothing_from_it() {
    let layout = Layout::new();
    let root = layout.root();
    let outside = layout.outside().display().to_string();
    std::fs::create_dir_all(root.join("linked-file")).unwrap();
    std::os::unix::fs::symlink(
        layout.outside().join("ORCHESTRATION.yaml"),
        root.join("linked-file/ORCHESTRATION.yaml"),
    )
    .unwrap();
    let before = layout.outside_snapshot();
    for path in [
        "../outside/ORCHESTRATION.yaml".to_string(),
        "projects/../../outside/ORCHESTRATION.yaml".into(),
        format!("{outside}/ORCHESTRATION.yaml"),
        format!("{}/../outside/ORCHESTRATION.yaml", root.display()),
        "../outside/01-planning/resume-context.md".into(),
        format!("{outside}/01-planning/resume-context.md"),
        "~/ORCHESTRATION.yaml".into(),
        "linked-file/ORCHESTRATION.yaml".into(),
    ] {
        checkpoint_listing(&root, &path);
        let start = hook_run(&layout, "SessionStart", json!({"source": "compact"}));
        // The alert goes once per session: forget the delivery so the prompt gets it too.
        let _ = std::fs::remove_file(root.join(".jerry/alert-deliveries.json"));
        let prompt = hook_run(&layout, "UserPromptSubmit", json!({"prompt": "go"}));
        let _ = std::fs::remove_file(root.join(".jerry/alert-deliveries.json"));
        for (event, run) in [("SessionStart", start), ("UserPromptSubmit", prompt)] {
            let context = hook_fixture::context_of(&run.stdout, event);
            assert!(
                context.contains(&format!("resumption section: {path}")),
                "{path} shown as given: {context}"
            );
        }
    }
    assert_eq!(layout.outside_snapshot(), before, "nothing outside changed");
}

/// A folder reached through a symlinked folder inside the root is part of the
/// workspace, for a checkpoint's files as for discovery.
#[test]
fn a_state_file_in_a_symlinked_folder_is_followed_as_discovery_does() {
    let layout = Layout::new();
    let root = layout.root();
    write(
        &layout.outside(),
        "linked-wf/ORCHESTRATION.yaml",
        "workflow:\n  id: wf-linked\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: \"the linked next step\"\n",
    );
    std::os::unix::fs::symlink(layout.outside().join("linked-wf"), root.join("linked-wf")).unwrap();
    checkpoint_listing(&root, "linked-wf/ORCHESTRATION.yaml");
    let run = hook_run(&layout, "SessionStart", json!({"source": "compact"}));
    let context = hook_fixture::context_of(&run.stdout, "SessionStart");
    assert!(context.contains("the linked next step"), "{context}");
    let listed = cli(&root, &["list"]);
    assert!(listed.stdout.contains("wf-linked"), "{}", listed.stdout);
}

/// The transcript's tool-call paths choose the workflow a checkpoint records; paths
/// that climb out of the root choose nothing there.
#[test]
fn transcript_paths_outside_the_root_never_choose_the_workflow() {
    let layout = Layout::new();
    let root = layout.root();
    std::fs::create_dir_all(root.join(".jerry")).unwrap();
    let before = layout.outside_snapshot();
    for path in [
        format!("{}/../outside/work.md", root.display()),
        format!("{}/projects/../../outside/work.md", root.display()),
        "../outside/work.md".to_string(),
    ] {
        let mut t = transcript::Transcript::new("sess-fault");
        t.user("go")
            .tool_use("Edit", &path, (1_200, 3_000, 173_000));
        let transcript = layout.tmp.path().join("session.jsonl");
        t.write(&transcript);
        let _ = std::fs::remove_dir_all(root.join(".jerry/checkpoints"));
        let run = hook_run(
            &layout,
            "PreCompact",
            json!({"trigger": "auto", "transcript_path": transcript}),
        );
        assert_eq!(run.stdout, "");
        assert!(
            run.stderr.contains("no active workflow found"),
            "{path}: {}",
            run.stderr
        );
        let checkpoint =
            std::fs::read_to_string(root.join(".jerry/checkpoints/cx-001-checkpoint.json"))
                .unwrap();
        assert!(
            !checkpoint.contains(CANARY) && !checkpoint.contains("wf-out"),
            "{checkpoint}"
        );
    }
    assert_eq!(layout.outside_snapshot(), before, "nothing outside changed");
}

/// A precompact state naming a project whose manifest is a symlink leading out
/// injects nothing from it.
#[test]
fn a_precompact_state_never_follows_a_symlinked_manifest_out() {
    let layout = Layout::new();
    let root = layout.root();
    write(
        &root,
        "00-system/.cache/precompact_state.json",
        precompact_state("07-linked"),
    );
    let planning = root.join("02-projects/07-linked/01-planning");
    std::fs::create_dir_all(&planning).unwrap();
    std::os::unix::fs::symlink(
        layout.outside().join("01-planning/resume-context.md"),
        planning.join("resume-context.md"),
    )
    .unwrap();
    let run = hook_run(&layout, "SessionStart", json!({"source": "compact"}));
    assert!(
        run.stderr
            .contains("precompact state names no project that exists"),
        "{}",
        run.stderr
    );
}

/// PostToolUse reads the state file Claude Code just edited, wherever it is; one
/// outside the project folder is judged in its own folder, not with the project
/// folder's checkpoints.
#[test]
fn post_tool_use_judges_a_file_outside_the_project_in_its_own_folder() {
    let layout = Layout::new();
    let root = layout.root();
    let edited = |updated_at: &str| {
        write(
            &layout.tmp.path().join("elsewhere"),
            "ORCHESTRATION.yaml",
            format!(
                "workflow:\n  id: wf-edited\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
                 next_step: go\n    updated_at: \"{updated_at}\"\n"
            ),
        )
    };
    // Written after the file's last update: it would make the file CRITICAL.
    write(
        &root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        json!({"event_id": "cx-001", "session_id": "sess-fault", "timestamp": hook_fixture::iso(0),
               "orchestration_state": {"workflow_id": "wf-edited"},
               "metadata": {"acknowledged": false}})
        .to_string(),
    );
    let file = edited(&hook_fixture::iso(120));
    let tool = |file: &Path| json!({"tool_name": "Edit", "tool_input": {"file_path": file}});
    let run = hook_run(&layout, "PostToolUse", tool(&file));
    assert_eq!(run.stdout, "", "fresh in its own folder");
    assert!(
        run.stderr
            .contains(&format!("{} (v2-nested) is FRESH", file.display())),
        "{}",
        run.stderr
    );

    let file = edited("2026-01-01T00:00:00Z");
    let run = hook_run(&layout, "PostToolUse", tool(&file));
    let context = hook_fixture::context_of(&run.stdout, "PostToolUse");
    assert!(
        context.contains(&format!(
            "the resumption state in {} is STALE",
            file.display()
        )),
        "{context}"
    );
}
