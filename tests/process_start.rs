//! The binary's start: what the Rust runtime's set-up does before `main` and the
//! program relies on holds (a closed standard stream opened on `/dev/null`,
//! SIGPIPE ignored). It was once done by hand (a C `main`; docs/performance.md,
//! "Hand-written system calls").

#![cfg(all(target_os = "linux", target_env = "gnu"))]

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/transcript.rs"]
mod transcript;

use assert_cmd::cargo::cargo_bin;
use hook_fixture::Fixture;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A standard stream closed by the parent is opened on `/dev/null` before
/// anything else: otherwise the first file the hook opens would take its number,
/// and what it prints would go into that file.
#[test]
fn closed_standard_streams_are_opened_on_dev_null() {
    let fx = Fixture::new();
    let mut cmd = fx.command(&["PreCompact"]);
    cmd.stdin(Stdio::piped());
    // SAFETY: close(2) only, between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            libc::close(2);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    // The hook waits for its stdin, held open here, meanwhile its streams are seen.
    let fd = |n: u32| std::fs::read_link(format!("/proc/{}/fd/{n}", child.id()));
    let started = Instant::now();
    while (fd(1).is_err() || fd(2).is_err()) && started.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let (out, err) = (fd(1), fd(2));
    drop(child.stdin.take());
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert_eq!(out.unwrap().to_str(), Some("/dev/null"));
    assert_eq!(err.unwrap().to_str(), Some("/dev/null"));
}

/// A reader that went away is a write error the program handles (`resume-tui list
/// | head -1` exits 0, quietly), not a death by SIGPIPE.
#[test]
fn a_closed_pipe_is_a_write_error_not_a_signal() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(cargo_bin("resume-tui"))
        .args(["list", "--demo"])
        .env_clear()
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(
        out.status.signal(),
        None,
        "killed by a signal: {:?}",
        out.status
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
