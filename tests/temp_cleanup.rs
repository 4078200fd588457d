//! Tests leave nothing in the temporary folder, also when they fail. Each case runs
//! this test binary again as a child, with `TMPDIR` set to a fresh empty folder:
//! the child does what tests do (run the fuzz transcript target, start the
//! dashboard in tmux, run a command on the demo), then fails on purpose; the
//! folder must be empty afterwards. `.ci/run` checks the same of the whole suite.

#[path = "fuzz_support/mod.rs"]
mod fuzz_support;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;
use std::process::Command;

use hostile::tree;

/// Names the test a child process runs as the planted failure.
const CHILD: &str = "RESUME_TUI_CLEANUP_CHILD";
const PLANTED: &str = "planted failure, after the work";

/// True in the child that runs `test`.
fn in_child(test: &str) -> bool {
    std::env::var(CHILD).is_ok_and(|t| t == test)
}

/// Runs `test` again in a child whose `TMPDIR` is an empty folder; the child
/// fails as planted. Returns what it left there.
fn left_behind_by(test: &str) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--include-ignored", "--test-threads=1"])
        .env("TMPDIR", tmp.path())
        .env(CHILD, test)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !out.status.success() && said.contains(PLANTED),
        "the child did not fail as planted:\n{said}"
    );
    tree(tmp.path())
}

#[test]
fn the_fuzz_transcript_target_leaves_no_file() {
    const TEST: &str = "the_fuzz_transcript_target_leaves_no_file";
    if in_child(TEST) {
        for seed in 0..64u8 {
            let bytes: Vec<u8> = (0..400u32).map(|i| (i as u8).wrapping_mul(seed)).collect();
            fuzz_support::transcript::transcript(&bytes);
        }
        panic!("{PLANTED}");
    }
    assert_eq!(left_behind_by(TEST), Vec::<String>::new());
}

#[test]
fn a_command_on_the_demo_leaves_no_demo_folder() {
    const TEST: &str = "a_command_on_the_demo_leaves_no_demo_folder";
    if in_child(TEST) {
        let out = Command::new(env!("CARGO_BIN_EXE_resume-tui"))
            .args(["--demo", "list"])
            .env("RESUME_TUI_CONFIG", "/nonexistent/config.toml")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("payouts-v2"));
        panic!("{PLANTED}");
    }
    assert_eq!(left_behind_by(TEST), Vec::<String>::new());
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_failing_tmux_test_leaves_no_socket() {
    const TEST: &str = "a_failing_tmux_test_leaves_no_socket";
    if in_child(TEST) {
        let bin = Path::new(env!("CARGO_BIN_EXE_resume-tui"));
        let session = tmux::Tmux::start(&format!(
            "RESUME_TUI_CONFIG=/nonexistent/config.toml {} --demo",
            tmux::quote(bin)
        ));
        session.wait_for_text("Projects 11");
        panic!("{PLANTED}");
    }
    assert_eq!(left_behind_by(TEST), Vec::<String>::new());
}
