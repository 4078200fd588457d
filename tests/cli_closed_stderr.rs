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

/// A warning about a broken config file, to a closed stderr, does not stop
/// `list`, `show` or `prompt`: each still prints and exits 0.
#[test]
fn a_config_warning_to_a_closed_stderr_stops_no_command() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config.toml");
    std::fs::write(&config, "[ui\nbroken = ").unwrap();
    let root = tmp.path().join("ws");
    resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
    for args in [
        vec!["list"],
        vec!["show", "payouts"],
        vec!["prompt", "payouts"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_resume-tui"))
            .args(&args)
            .arg("--root")
            .arg(&root)
            .env("RESUME_TUI_CONFIG", &config)
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("HOME")
            .stdin(Stdio::null())
            .stderr(writer)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", out.status);
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    }
}
