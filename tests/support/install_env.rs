//! A project folder, a home and a log folder for `hooks install` and `doctor`
//! through the binary, with no other environment than a PATH of `<home>/bin`
//! (which holds `resume-tui`, a link to the built binary, as an installed one
//! would be found) and the system folders; a fake `claude` there on demand.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use assert_cmd::cargo::cargo_bin;
use tempfile::TempDir;

pub struct Env {
    pub project: TempDir,
    pub home: TempDir,
    pub log: TempDir,
}

impl Env {
    pub fn new() -> Env {
        let env = Env {
            project: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
            log: tempfile::tempdir().unwrap(),
        };
        let bin = env.bin();
        std::fs::create_dir_all(&bin).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(cargo_bin("resume-tui"), bin.join("resume-tui")).unwrap();
        env
    }

    /// `<home>/bin`, first on the PATH the commands get.
    pub fn bin(&self) -> PathBuf {
        self.home.path().join("bin")
    }

    /// The PATH the commands get: `<home>/bin` and the system folders.
    pub fn path(&self) -> String {
        format!("{}:/usr/bin:/bin", self.bin().display())
    }

    pub fn cmd(&self, args: &[&str]) -> Command {
        self.cmd_of(&cargo_bin("resume-tui"), args)
    }

    /// `cmd`, running the binary at `program` (a copy or link under another name).
    pub fn cmd_of(&self, program: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(["--root", self.project.path().to_str().unwrap()])
            .args(args)
            .env_clear()
            .env("HOME", self.home.path())
            .env("PATH", self.path())
            .env("RESUME_TUI_LOG_DIR", self.log.path());
        cmd
    }

    /// The project level's settings file.
    pub fn settings(&self) -> PathBuf {
        self.project.path().join(".claude/settings.json")
    }

    pub fn local_settings(&self) -> PathBuf {
        self.project.path().join(".claude/settings.local.json")
    }

    pub fn user_settings(&self) -> PathBuf {
        self.home.path().join(".claude/settings.json")
    }

    /// The settings file at `path`, parsed.
    pub fn read(&self, path: &Path) -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    pub fn write_settings(&self, path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

pub fn exe() -> String {
    std::fs::canonicalize(cargo_bin("resume-tui"))
        .unwrap()
        .display()
        .to_string()
}

/// A `claude` on PATH that prints `version`.
pub fn fake_claude(env: &Env, version: &str) -> String {
    let bin = env.bin();
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("claude");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho '{version} (Claude Code)'\n"),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    env.path()
}
