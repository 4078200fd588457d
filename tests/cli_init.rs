//! `resume-tui init`: a folder with no workflow gets a commented ORCHESTRATION.yaml
//! and `.jerry/checkpoints/`, which `validate` passes, `list` and the dashboard
//! show, the PreCompact hook writes into; nothing is ever overwritten.

#[path = "support/cli.rs"]
mod cli;

use assert_cmd::Command;
use cli::cli;

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn new_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").unwrap();
    dir
}

#[test]
fn init_writes_a_workspace_that_validates_lists_and_shows_in_the_dashboard() {
    let dir = new_project();
    let root = dir.path();
    let done = cli(
        root,
        &[
            "init",
            "--id",
            "shop-20260301-001",
            "--name",
            "Shop: \"v2\"",
        ],
    )
    .success();
    assert!(stdout(&done).contains("wrote "), "{}", stdout(&done));
    let text = std::fs::read_to_string(root.join("ORCHESTRATION.yaml")).unwrap();
    assert!(
        text.starts_with("# ORCHESTRATION.yaml"),
        "commented: {text}"
    );
    assert!(text.contains("name: \"Shop: \\\"v2\\\"\""), "{text}");
    assert!(root.join(".jerry/checkpoints").is_dir());

    let checked = cli(root, &["validate", "--strict"]).success();
    assert!(
        stdout(&checked).contains("1 file: 0 errors, 0 warnings, 0 notes"),
        "{}",
        stdout(&checked)
    );

    let listed = cli(root, &["list", "--json"]).success();
    let json: serde_json::Value = serde_json::from_str(&stdout(&listed)).unwrap();
    let text = json.to_string();
    assert!(text.contains("\"shop-20260301-001\""), "{text}");
    assert!(text.contains("Shop: \\\"v2\\\""), "{text}");

    let frame = cli(root, &["--render-once", "120x40", "--ascii"]).success();
    assert!(stdout(&frame).contains("shop-2026"), "{}", stdout(&frame));
    assert!(
        stdout(&frame).contains("Getting started"),
        "{}",
        stdout(&frame)
    );

    // A decision added to the empty log keeps the file valid.
    cli(
        root,
        &["decision", "add", "shop", "--decision", "Use Postgres"],
    )
    .success();
    cli(root, &["validate", "--strict"]).success();
}

#[test]
fn the_precompact_hook_takes_an_initialised_folder_as_its_workspace() {
    let dir = new_project();
    let root = dir.path();
    cli(root, &["init"]).success();
    let event = serde_json::json!({
        "hook_event_name": "PreCompact",
        "session_id": "s-1",
        "cwd": root,
        "trigger": "manual",
        "transcript_path": root.join("no-transcript.jsonl"),
    });
    let ran = Command::cargo_bin("resume-tui")
        .unwrap()
        .args(["hook", "PreCompact", "--dry-run"])
        .env("CLAUDE_PROJECT_DIR", root)
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .env("XDG_DATA_HOME", root.join("data"))
        .env_remove("HOME")
        .write_stdin(event.to_string())
        .assert()
        .success();
    let said = stdout(&ran);
    let checkpoint = root.join(".jerry/checkpoints/cx-001-checkpoint.json");
    assert!(
        said.contains(&format!("would create {}", checkpoint.display())),
        "{said}"
    );
}

#[test]
fn the_default_id_is_the_folder_and_the_day() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("My Shop");
    std::fs::create_dir(&root).unwrap();
    let done = cli(&root, &["init"]).success();
    let said = stdout(&done);
    let id = said
        .split("(workflow ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no workflow id in {said}"));
    let (name, tail) = id.split_at("my-shop-".len());
    assert_eq!(name, "my-shop-");
    assert!(
        tail.len() == "20260301-001".len() && tail.ends_with("-001"),
        "{id}"
    );
    let text = std::fs::read_to_string(root.join("ORCHESTRATION.yaml")).unwrap();
    assert!(text.contains("name: \"My Shop\""), "{text}");
}

#[test]
fn dry_run_prints_the_file_and_writes_nothing() {
    let dir = new_project();
    let shown = cli(dir.path(), &["init", "--dry-run"]).success();
    let said = stdout(&shown);
    assert!(
        said.contains("resumption:") && said.contains("nothing written"),
        "{said}"
    );
    assert!(!dir.path().join("ORCHESTRATION.yaml").exists());
    assert!(!dir.path().join(".jerry").exists());
}

#[test]
fn an_existing_file_is_never_overwritten() {
    let dir = new_project();
    let path = dir.path().join("ORCHESTRATION.yaml");
    std::fs::write(&path, "# mine\n").unwrap();
    let refused = cli(dir.path(), &["init"]).failure();
    assert!(
        stderr(&refused).contains("already exists"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "# mine\n");
    assert!(!dir.path().join(".jerry").exists());
}

#[test]
fn a_folder_that_is_already_a_workspace_is_refused() {
    let dir = new_project();
    let nested = dir.path().join("projects/PROJ-001/ORCHESTRATION.yaml");
    std::fs::create_dir_all(nested.parent().unwrap()).unwrap();
    std::fs::write(&nested, "workflow: {id: w}\n").unwrap();
    let refused = cli(dir.path(), &["init"]).failure();
    let said = stderr(&refused);
    assert!(said.contains("is already a workspace"), "{said}");
    assert!(
        said.contains("projects/PROJ-001/ORCHESTRATION.yaml"),
        "{said}"
    );
    assert!(!dir.path().join("ORCHESTRATION.yaml").exists());
}

#[test]
fn init_refuses_the_demo() {
    let refused = Command::cargo_bin("resume-tui")
        .unwrap()
        .args(["--demo", "init"])
        .env("RESUME_TUI_CONFIG", "/nonexistent/config.toml")
        .assert()
        .failure();
    assert!(stderr(&refused).contains("--demo makes no sense with `init`"));
}

#[test]
fn validate_in_a_folder_with_nothing_to_check_says_how_to_start_one() {
    let dir = new_project();
    let out = stdout(&cli(dir.path(), &["validate"]).success());
    assert!(out.starts_with("0 files: 0 errors"), "{out}");
    assert!(out.contains("`resume-tui init` starts one"), "{out}");
    let done = cli(dir.path(), &["init"]).success();
    let said = stdout(&done);
    assert!(
        said.contains("hooks install --project   # checkpoints before each compaction"),
        "{said}"
    );
    let out = stdout(&cli(dir.path(), &["validate"]).success());
    assert!(!out.contains("resume-tui init"), "{out}");
}
