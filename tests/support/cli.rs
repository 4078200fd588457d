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
