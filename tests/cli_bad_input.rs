//! Hostile input, one failure mode per fixture in tests/fixtures/bad/ (the
//! unreadable and 100 MB files are made at test time). Each is dropped into a small
//! workspace beside a good project and run through the real binary: the bad file
//! gets a warning or error naming file:line:col where there is a position, and the
//! good project still loads.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const GOOD: &str = "workflow:\n  id: good-20260301-001\n  name: Good\nresumption:\n  last_checkpoint: CP-1\n  current_state: fine\n  next_step: carry on\n  files_to_read: []\n";

fn bad(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bad")
        .join(name)
}

/// Where a file of this kind lives in a workspace.
fn place(name: &str) -> &'static str {
    if name.ends_with(".md") {
        "02-projects/09-bad/01-planning/resume-context.md"
    } else if name.ends_with(".json") {
        ".jerry/checkpoints/cx-009.json"
    } else {
        "projects/PROJ-BAD/ORCHESTRATION.yaml"
    }
}

/// A workspace with the good project and `bytes` at `rel`.
fn workspace(rel: &str, bytes: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "projects/PROJ-GOOD/ORCHESTRATION.yaml",
        GOOD.as_bytes(),
    );
    write(dir.path(), rel, bytes);
    dir
}

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

struct Run {
    code: Option<i32>,
    stdout: String,
}

fn run(root: &Path, args: &[&str]) -> Run {
    let out = Command::cargo_bin("resume-tui")
        .unwrap()
        .env_remove("JERRY_LIFECYCLE_DIR")
        .env("HOME", root.join("no-home"))
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .args(args)
        .arg("--root")
        .arg(root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
    }
}

/// The good project still lists, and `validate` reports `expected` (a whole line,
/// `file:line:col: level: message` with the file relative to the root) with `code`.
fn check(root: &Path, expected: &str, code: i32) {
    let list = run(root, &["list"]);
    assert_eq!(list.code, Some(0), "list fails: {}", list.stdout);
    assert!(
        list.stdout.contains("good-20260301-001"),
        "the rest of the workspace does not load:\n{}",
        list.stdout
    );
    let validate = run(root, &["validate"]);
    assert_eq!(validate.code, Some(code), "{}", validate.stdout);
    assert!(
        validate.stdout.lines().any(|l| l.starts_with(expected)),
        "validate does not say {expected:?}:\n{}",
        validate.stdout
    );
}

fn check_fixture(name: &str, expected: &str, code: i32) {
    let rel = place(name);
    let ws = workspace(rel, &std::fs::read(bad(name)).unwrap());
    check(ws.path(), &format!("{rel}{expected}"), code);
}

#[test]
fn empty_file() {
    check_fixture(
        "empty.yaml",
        ": warning: the file is empty; there is no workflow state to read",
        0,
    );
}

#[test]
fn binary_file() {
    check_fixture(
        "binary.yaml",
        ":3:1: error: binary file (it contains a NUL byte)",
        1,
    );
}

#[test]
fn text_that_is_not_utf8() {
    check_fixture(
        "not-utf8.yaml",
        ":3:13: error: not UTF-8 text: byte 0xE9",
        1,
    );
}

#[test]
fn yaml_indented_with_tabs() {
    check_fixture(
        "tabs.yaml",
        ":4:1: error: not valid YAML: found character that cannot start any token",
        1,
    );
}

#[test]
fn duplicate_keys() {
    check_fixture(
        "duplicate-keys.yaml",
        ":6:3: warning: resumption.next_step: this key appears more than once",
        0,
    );
}

#[test]
fn wrong_types() {
    let rel = place("wrong-types.yaml");
    let ws = workspace(rel, &std::fs::read(bad("wrong-types.yaml")).unwrap());
    check(
        ws.path(),
        &format!("{rel}:5:5: error: resumption.recovery_state.current_phase: expected"),
        1,
    );
    let text = run(ws.path(), &["validate"]).stdout;
    for at in [
        ":6:5:", ":8:5:", ":9:5:", ":10:3:", ":11:3:", ":12:3:", ":13:3:",
    ] {
        assert!(
            text.contains(&format!("{rel}{at}")),
            "nothing at {at}:\n{text}"
        );
    }
}

#[test]
fn resumption_as_a_string() {
    check_fixture(
        "resumption-string.yaml",
        ":4:1: error: resumption: expected a map of resumption fields, found a string",
        1,
    );
}

#[test]
fn resumption_as_a_list() {
    check_fixture(
        "resumption-list.yaml",
        ":3:1: error: resumption: expected a map of resumption fields, found a list",
        1,
    );
}

#[test]
fn unterminated_frontmatter() {
    check_fixture(
        "unterminated-frontmatter.md",
        ":1:1: error: frontmatter opened with `---` is never closed",
        1,
    );
}

#[test]
fn malformed_checkpoint_json() {
    check_fixture(
        "malformed-checkpoint.json",
        ":8:1: error: invalid JSON: EOF while parsing an object",
        1,
    );
}

#[test]
fn a_100_mb_file_is_refused_without_reading_it() {
    let ws = workspace("projects/PROJ-GOOD/notes.md", b"");
    let path = ws.path().join("projects/PROJ-HUGE/ORCHESTRATION.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Sparse: instant to make, and it costs no disk.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(100 * 1024 * 1024).unwrap();
    check(
        ws.path(),
        "projects/PROJ-HUGE/ORCHESTRATION.yaml: error: file too large (100 MB); limit 16 MB",
        1,
    );
    let json = run(ws.path(), &["list", "--json"]).stdout;
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let huge = json["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "PROJ-HUGE")
        .expect("the unreadable file is still listed");
    assert_eq!(huge["shape"], "unreadable");
    assert_eq!(huge["warnings"], 1);
}

/// Whether this process can read a file whose mode is 000 (root, or a process
/// with CAP_DAC_OVERRIDE, can).
#[cfg(unix)]
fn permissions_are_bypassed(probe: &Path) -> bool {
    std::fs::read(probe).is_ok()
}

#[cfg(unix)]
#[test]
fn unreadable_file_and_folder() {
    use std::os::unix::fs::PermissionsExt;
    let ws = workspace(
        "projects/PROJ-LOCKED/ORCHESTRATION.yaml",
        b"workflow:\n  id: locked-20260301-001\n",
    );
    write(
        ws.path(),
        "projects/PROJ-SHUT/orchestration/wf/ORCHESTRATION.yaml",
        b"workflow:\n  id: shut-20260301-001\n",
    );
    let locked = ws.path().join("projects/PROJ-LOCKED/ORCHESTRATION.yaml");
    let shut = ws.path().join("projects/PROJ-SHUT/orchestration");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::set_permissions(&shut, std::fs::Permissions::from_mode(0o000)).unwrap();
    let bypassed = permissions_are_bypassed(&locked);
    let list = run(ws.path(), &["list"]);
    let validate = run(ws.path(), &["validate"]);
    // As root, also run as an unprivileged user when `setpriv` can drop to one.
    let as_nobody = if bypassed {
        run_as_nobody(ws.path())
    } else {
        None
    };
    // Restore so the temporary folder can be removed.
    std::fs::set_permissions(&shut, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644)).unwrap();

    assert_eq!(list.code, Some(0));
    assert!(list.stdout.contains("good-20260301-001"), "{}", list.stdout);
    if bypassed {
        println!(
            "running with permission to read mode-000 files (root): asserting that they load normally"
        );
        assert!(
            list.stdout.contains("locked-20260301-001"),
            "{}",
            list.stdout
        );
        assert!(list.stdout.contains("shut-20260301-001"), "{}", list.stdout);
        assert_eq!(validate.code, Some(0), "{}", validate.stdout);
        match as_nobody {
            Some(validate) => {
                println!("and, through setpriv as uid 65534, that they are reported");
                assert_unreadable_reported(&validate);
            }
            None => println!("setpriv is not available: the unprivileged case is not run"),
        }
    } else {
        println!("running without privileges: asserting that mode-000 files are reported");
        assert_unreadable_reported(&validate);
        assert!(list.stdout.contains("PROJ-LOCKED"), "listed as unreadable");
    }
}

#[cfg(unix)]
fn assert_unreadable_reported(validate: &Run) {
    assert_eq!(validate.code, Some(1), "{}", validate.stdout);
    let lines: Vec<&str> = validate.stdout.lines().collect();
    for expected in [
        "projects/PROJ-LOCKED/ORCHESTRATION.yaml: error: cannot read: Permission denied",
        "projects/PROJ-SHUT/orchestration: warning: cannot read folder: Permission denied",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(expected)),
            "no {expected:?} in:\n{}",
            validate.stdout
        );
    }
}

/// `validate` run as uid/gid 65534 through `setpriv`, if it exists and can run the
/// binary there (the workspace is opened up for it first).
#[cfg(unix)]
fn run_as_nobody(root: &Path) -> Option<Run> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).ok()?;
    let binary = assert_cmd::cargo::cargo_bin("resume-tui");
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&binary)
        .args(["validate", "--root"])
        .arg(root)
        .env_remove("JERRY_LIFECYCLE_DIR")
        .env("HOME", root.join("no-home"))
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .output()
        .ok()?;
    let stdout = String::from_utf8(out.stdout).ok()?;
    // No output at all means setpriv could not run the binary (e.g. its folder is closed).
    (!stdout.is_empty()).then_some(Run {
        code: out.status.code(),
        stdout,
    })
}
