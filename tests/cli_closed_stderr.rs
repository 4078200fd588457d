//! An error reported to a stderr nobody reads any more (`resume-tui … 2>&1 | true`)
//! ends with the error's exit code, not a panic on the broken pipe.

use std::process::{Command, Stdio};

#[test]
fn an_error_to_a_closed_stderr_keeps_its_exit_code() {
    let tmp = tempfile::tempdir().unwrap();
    // The reading end is closed before the binary starts: its first write fails.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .args(["ack", "nonsense", "--root"])
        .arg(tmp.path())
        .env("RESUME_TUI_CONFIG", tmp.path().join("no-config.toml"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOME")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(writer)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1), "{status}");
}
