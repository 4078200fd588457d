//! `resume-tui ARGS… --root ROOT` as the migrate tests run it: no user config, no
//! Claude project folder, no home.

use std::path::Path;

use assert_cmd::Command;

pub fn cli(root: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("resume-tui")
        .unwrap()
        .args(args)
        .arg("--root")
        .arg(root)
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOME")
        .assert()
}

/// (exit code, stdout, stderr) of [`cli`], for tests that look at a failure's
/// code and both streams.
#[allow(dead_code)] // each test binary includes this module; not all call it
pub fn run(root: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = cli(root, args).get_output().clone();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
