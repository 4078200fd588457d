//! Inputs at the limits, through the binary: a 100 MB state file, 100,000
//! decisions, 10,000 checkpoint files, nesting past the parsers' depth limits, and
//! YAML aliases that expand exponentially. Each ends in bounded time and memory with
//! a clear message (the limits are in docs/reliability.md); none crashes.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use hostile::{cli, sparse, write};
use serde_json::{Value, json};

const STATE: &str = "projects/PROJ-001/ORCHESTRATION.yaml";

#[test]
fn a_100_mb_state_file_is_refused_unread_and_not_edited() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    let mb100 = 100 * 1024 * 1024;
    sparse(root, STATE, "workflow:\n  id: big\n", mb100);
    sparse(
        root,
        "02-projects/07-x/01-planning/resume-context.md",
        "---\nproject_id: 07-x\n",
        mb100,
    );
    sparse(
        root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        "{",
        mb100,
    );
    let expected = "file too large (100 MB); limit 16 MB: not read";

    let list: Value = serde_json::from_str(&cli(root, &["list", "--json"]).stdout).unwrap();
    assert_eq!(list["projects"].as_array().unwrap().len(), 2);
    for project in list["projects"].as_array().unwrap() {
        assert_eq!(project["shape"], "unreadable");
    }
    let validate = cli(root, &["validate"]);
    assert_eq!(validate.code, Some(1));
    assert_eq!(
        validate.stdout.matches(expected).count(),
        3,
        "{}",
        validate.stdout
    );
    assert!(
        validate
            .stdout
            .contains(&format!("{STATE}: error: {expected}"))
    );

    let show = cli(root, &["show", "PROJ-001"]);
    assert!(show.stdout.contains(expected), "{}", show.stdout);
    let edit = cli(root, &["decision", "add", "PROJ-001", "--decision", "x"]);
    assert_eq!(edit.code, Some(1));
    assert!(
        edit.stderr
            .contains("refused: file too large (100 MB); limit 16 MB: not edited"),
        "{}",
        edit.stderr
    );
    assert_eq!(
        std::fs::metadata(root.join(STATE)).unwrap().len(),
        mb100,
        "unchanged"
    );
}

fn many_decisions(count: usize) -> String {
    let mut text = String::from(
        "workflow:\n  id: many\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: go\n    updated_at: \"2026-01-01T00:00:00Z\"\n  decision_log:\n",
    );
    for i in 1..=count {
        text.push_str(&format!(
            "    - {{id: RD-{i:06}, decision: \"decision {i}\", affects_phases: [2], applied: false}}\n"
        ));
    }
    text
}

#[test]
fn a_resumption_section_with_100000_decisions_loads_and_renders_within_the_limit() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    write(root, STATE, many_decisions(100_000));
    let show: Value = serde_json::from_str(&cli(root, &["show", "many", "--json"]).stdout).unwrap();
    let decisions = show["project"]["resumption"]["decisions"]
        .as_array()
        .unwrap();
    assert_eq!(decisions.len(), 100_000);
    assert_eq!(decisions[99_999]["id"], "RD-100000");

    let prompt: Value =
        serde_json::from_str(&cli(root, &["prompt", "many", "--json"]).stdout).unwrap();
    let text = prompt["text"].as_str().unwrap();
    assert!(
        text.chars().count() <= 10_000,
        "{} characters",
        text.chars().count()
    );
    assert!(
        text.contains("decision 100000"),
        "the newest decisions are shown"
    );

    let add = cli(root, &["decision", "add", "many", "--decision", "one more"]);
    assert_eq!(add.code, Some(0), "{}", add.stderr);
    let after = std::fs::read_to_string(root.join(STATE)).unwrap();
    assert!(after.contains("RD-100001"), "the next id");
}

#[test]
fn ten_thousand_checkpoint_files() {
    let fx = hook_fixture::Fixture::new();
    for n in 1..=10_000 {
        let checkpoint = json!({
            "event_id": format!("cx-{n:03}"),
            "timestamp": "2026-01-01T00:00:00Z",
            "session_id": "old",
            "orchestration_state": {"workflow_id": "demo-wf-001"},
            "metadata": {"acknowledged": n < 10_000},
        });
        fx.write(
            &format!(".jerry/checkpoints/cx-{n:03}-checkpoint.json"),
            &checkpoint.to_string(),
        );
    }
    let list: Value = serde_json::from_str(&cli(fx.root(), &["list", "--json"]).stdout).unwrap();
    let demo = list["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "demo-wf-001")
        .unwrap();
    assert_eq!(demo["checkpoints"], 10_000);
    assert_eq!(demo["unacknowledged_checkpoints"], 1);

    let transcript = fx.edits_in("projects/PROJ-001-demo");
    let (out, _) = fx.run(
        &["PreCompact"],
        &hook_fixture::payload("PreCompact", Some(&transcript), json!({"trigger": "auto"})),
    );
    assert_eq!(out, "");
    assert!(
        fx.root()
            .join(".jerry/checkpoints/cx-10001-checkpoint.json")
            .is_file()
    );
    let (out, _) = fx.run(
        &["UserPromptSubmit"],
        &hook_fixture::payload(
            "UserPromptSubmit",
            Some(&transcript),
            json!({"prompt": "go"}),
        ),
    );
    assert!(out.contains("cx-10001"), "the newest is named: {out}");
}

fn nested_flow(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
}

fn nested_block(depth: usize) -> String {
    (0..depth)
        .map(|i| format!("{}k{i}:\n", "  ".repeat(i)))
        .collect::<String>()
        + &format!("{}leaf: 1\n", "  ".repeat(depth))
}

#[test]
fn nesting_past_the_depth_limits_is_an_error_not_a_stack_overflow() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    let deep = nested_flow(100_000);
    write(
        root,
        STATE,
        format!("workflow:\n  id: deep\nresumption:\n  x: {deep}\n"),
    );
    write(
        root,
        "projects/PROJ-002/ORCHESTRATION.yaml",
        format!("workflow:\n  id: deep2\n{}", nested_block(300)),
    );
    write(
        root,
        "02-projects/07-x/01-planning/resume-context.md",
        format!("---\nproject_id: 07-x\nx: {deep}\n---\n"),
    );
    write(
        root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        format!("{{\"a\": {deep}}}"),
    );
    write(
        root,
        ".jerry/context-monitor-state.json",
        format!("{{\"a\": {}}}", "{\"b\": ".repeat(50_000)),
    );
    let validate = cli(root, &["validate"]);
    assert_eq!(validate.code, Some(1), "{}", validate.stderr);
    let out = &validate.stdout;
    let flow = "nest more than 256 levels deep: refused unparsed at line 3";
    for (file, message) in [
        (
            STATE.to_string(),
            flow.replace("line 3", "line 4 column 262"),
        ),
        (
            "02-projects/07-x/01-planning/resume-context.md".into(),
            flow.into(),
        ),
        (
            "projects/PROJ-002/ORCHESTRATION.yaml".into(),
            "recursion limit exceeded".into(),
        ),
        (
            ".jerry/checkpoints/cx-001-checkpoint.json".into(),
            "recursion limit exceeded".into(),
        ),
        (
            ".jerry/context-monitor-state.json".into(),
            "recursion limit exceeded".into(),
        ),
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{file}:")))
            .unwrap_or_else(|| panic!("{file} not reported: {out}"));
        assert!(line.contains(&message), "{line}");
        let position = line.get(file.len() + 1..).unwrap_or_default();
        assert!(
            position
                .split(':')
                .take(2)
                .all(|n| n.parse::<usize>().is_ok()),
            "a line and a column: {line}"
        );
    }
    let list = cli(root, &["list"]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    let edit = cli(root, &["decision", "add", "PROJ-001", "--decision", "x"]);
    assert_eq!(edit.code, Some(1));
    assert!(
        edit.stderr.contains("nest more than 256 levels"),
        "{}",
        edit.stderr
    );
}

#[test]
fn deep_json_on_hook_stdin_and_in_settings_fails_open_or_clearly() {
    let fx = hook_fixture::Fixture::new();
    let deep = format!(
        "{{\"hook_event_name\": \"PreCompact\", \"x\": {}",
        "{\"a\": ".repeat(200_000)
    );
    let (out, _) = fx.run(&["PreCompact"], &deep);
    assert_eq!(out, "", "PreCompact prints nothing, even on bad input");
    let closed = format!("{}{}", deep, "}".repeat(200_001));
    let (out, _) = fx.run(&["PreCompact"], &closed);
    assert_eq!(out, "");
    assert!(
        fx.log().contains("recursion limit exceeded"),
        "{}",
        fx.log()
    );

    write(
        fx.root(),
        ".claude/settings.json",
        format!("{{\"a\": {}}}", nested_flow(10_000)),
    );
    let run = cli(fx.root(), &["hooks", "install"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("recursion limit exceeded"),
        "{}",
        run.stderr
    );
}

/// `levels` anchors, each a list of 10 aliases of the one before, after `padding`
/// values that raise the parser's own alias limit (which grows with the document).
fn alias_bomb(levels: usize, padding: usize) -> String {
    let mut doc = format!(
        "workflow:\n  id: bomb\n  status: ACTIVE\npad: [{}]\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
        vec!["1"; padding].join(",")
    );
    for level in 1..=levels {
        doc.push_str(&format!(
            "a{level}: &a{level} [{}]\n",
            vec![format!("*a{}", level - 1); 10].join(", ")
        ));
    }
    doc.push_str(&format!(
        "resumption:\n  recovery_state:\n    next_step: go\n  agent_summaries: *a{levels}\n"
    ));
    doc
}

#[test]
fn yaml_aliases_that_expand_exponentially_are_refused() {
    let fx = hook_fixture::Fixture::new();
    let bomb = alias_bomb(9, 500_000);
    fx.write(STATE, &bomb);
    fx.write(
        "02-projects/08-y/01-planning/resume-context.md",
        &format!("---\n{bomb}---\n"),
    );
    let expected = "refused as an alias bomb";
    let validate = cli(fx.root(), &["validate"]);
    assert_eq!(validate.code, Some(1));
    assert_eq!(
        validate.stdout.matches(expected).count(),
        2,
        "{}",
        validate.stdout
    );
    let show = cli(fx.root(), &["show", "PROJ-001"]);
    assert!(show.stdout.contains(expected), "{}", show.stdout);
    let edit = cli(
        fx.root(),
        &["decision", "add", "PROJ-001", "--decision", "x"],
    );
    assert_eq!(edit.code, Some(1));
    assert!(edit.stderr.contains(expected), "{}", edit.stderr);
    assert_eq!(fx.read(STATE), bomb, "unchanged");

    // The hook re-reads a state file Claude just wrote.
    let out = state_file_written(&fx);
    assert_eq!(out, "", "nothing to say about a file that cannot be read");
    let (out, _) = fx.run(
        &["SessionStart"],
        &hook_fixture::payload("SessionStart", None, json!({"source": "startup"})),
    );
    assert_eq!(out, "");
}

/// The errors the YAML parser gives without a position (its own alias limit, a
/// second document) are reported at the alias and at the `---` that starts it.
#[test]
fn an_alias_bomb_and_a_second_document_are_reported_with_a_position() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    let mut bomb = String::from("a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n");
    for (prev, name) in ["a", "b", "c", "d", "e", "f", "g"]
        .iter()
        .zip(["b", "c", "d", "e", "f", "g", "h"])
    {
        let row = vec![format!("*{prev}"); 9].join(",");
        bomb.push_str(&format!("{name}: &{name} [{row}]\n"));
    }
    bomb.push_str("workflow:\n  id: w-bomb\n  x: *h\n");
    write(root, "projects/PROJ-001/ORCHESTRATION.yaml", bomb);
    write(
        root,
        "projects/PROJ-002/ORCHESTRATION.yaml",
        "workflow:\n  id: w-multi\n---\nworkflow:\n  id: w-multi2\n",
    );
    let validate = cli(root, &["validate"]);
    let out = &validate.stdout;
    assert!(
        out.contains("projects/PROJ-001/ORCHESTRATION.yaml:2:8: error: not valid YAML: its aliases (`*name`) repeat past the parser's limit"),
        "{out}"
    );
    assert!(
        out.contains("projects/PROJ-002/ORCHESTRATION.yaml:3:1: error: not valid YAML: a second document (`---`) follows the first"),
        "{out}"
    );
}

/// Issue 33: a state file whose entries the hooks read hold more than a hook
/// reads in its time budget (here 100,000 files to read) is left unread by the
/// hooks, which say why and where in their log, still checkpoint before a
/// compaction, and print nothing; `validate` and `show` read it whole.
#[test]
fn a_state_file_past_the_hooks_budget_is_left_unread_by_them_and_read_by_the_rest() {
    let fx = hook_fixture::Fixture::new();
    let mut text = String::from(
        "workflow:\n  id: wide\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: go\n  files_to_read:\n",
    );
    text.push_str(&"    - docs/a.md\n".repeat(100_000));
    fx.write(STATE, &text);
    // The only state file of the workspace.
    std::fs::remove_file(fx.root().join(hook_fixture::WORKFLOW)).unwrap();
    std::fs::remove_dir_all(fx.root().join("02-projects")).unwrap();
    assert_eq!(state_file_written(&fx), "");
    fx.assert_logged(&format!(
        "ERROR PostToolUse: {STATE}:7:3: error: resumption.files_to_read (100000 entries): \
         what the hooks read of this file is more than a hook reads within its time budget"
    ));
    let (out, _) = fx.run(
        &["PreCompact"],
        &hook_fixture::payload("PreCompact", None, json!({"trigger": "auto"})),
    );
    assert_eq!(out, "");
    assert_eq!(fx.checkpoints().len(), 1, "{}", fx.log());
    // The session after the compaction is told the file was not read, and why.
    let context = fx.context_after_compaction().replace("\n  ", " ");
    assert!(
        context.contains("STATE AS OF: unknown: the state file was not read"),
        "{context}"
    );
    assert!(
        context.contains(&format!(
            "WARNING: the state file was not read, so the state below is unknown; read the file \
             itself:\n- {STATE}:7:3: error: resumption.files_to_read (100000 entries)"
        )),
        "{context}"
    );

    let validate = cli(fx.root(), &["validate", STATE]);
    assert!(
        !validate.stdout.contains("time budget"),
        "{}",
        validate.stdout
    );
    let show: Value =
        serde_json::from_str(&cli(fx.root(), &["show", "wide", "--json"]).stdout).unwrap();
    let files = &show["project"]["resumption"]["files_to_read"];
    assert_eq!(files.as_array().unwrap().len(), 100_000);
}

/// What PostToolUse prints after Claude wrote the state file.
fn state_file_written(fx: &hook_fixture::Fixture) -> String {
    let path = fx.root().join(STATE).display().to_string();
    let payload = hook_fixture::payload(
        "PostToolUse",
        None,
        json!({"tool_name": "Write", "tool_input": {"file_path": path}}),
    );
    fx.run(&["PostToolUse"], &payload).0
}
