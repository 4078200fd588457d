//! Sessions compacting at the same moment: 16 PreCompact runs of 16 different
//! sessions started together, round after round, on one workspace (the real
//! binary). Each round must leave 16 more checkpoints, every one whole and of its
//! own session: the number a run picks is reserved by creating the file
//! exclusively, and a run that loses a number takes the next.
//!
//! `RESUME_TUI_PARALLEL_ROUNDS` sets the number of rounds (3 by default; the
//! figure in docs/reliability.md is from 100).

#[path = "support/hook_runner.rs"]
mod hook_runner;
#[path = "support/transcript.rs"]
mod transcript;

use std::collections::BTreeSet;
use std::sync::Barrier;

use hook_runner::HookRunner;
use resume_tui::core::time::Timestamp;
use resume_tui::io::demo;
use serde_json::Value;

const NOW: Timestamp = Timestamp(1_771_331_696);
const SESSIONS: usize = 16;
const EDITS_IN: &str = "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001";

fn rounds() -> usize {
    std::env::var("RESUME_TUI_PARALLEL_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
}

/// The session of every checkpoint the test's sessions wrote (a torn file fails).
fn sessions_with_checkpoints(runner: &HookRunner) -> Vec<String> {
    let dir = runner.root.join(".jerry/checkpoints");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with("-checkpoint.json") {
            continue;
        }
        let text =
            std::fs::read_to_string(runner.root.join(".jerry/checkpoints").join(&name)).unwrap();
        let value: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is torn: {e}"));
        if let Some(session) = value["session_id"]
            .as_str()
            .filter(|s| s.starts_with("par-"))
        {
            found.push(session.to_string());
        }
    }
    found
}

#[test]
fn sixteen_sessions_compacting_together_lose_no_checkpoint() {
    let (dir, log, home, transcripts) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    demo::unpack_into(dir.path(), NOW).unwrap();
    let runner = HookRunner {
        root: dir.path().to_path_buf(),
        log: log.path().to_path_buf(),
        home: home.path().to_path_buf(),
        transcripts: transcripts.path().to_path_buf(),
    };
    let rounds = rounds();
    for round in 0..rounds {
        let sessions: Vec<String> = (0..SESSIONS).map(|i| format!("par-{round}-{i}")).collect();
        let paths: Vec<_> = sessions
            .iter()
            .map(|s| runner.transcript(s, EDITS_IN))
            .collect();
        let start = Barrier::new(SESSIONS);
        let runs = std::thread::scope(|scope| {
            let handles: Vec<_> = sessions
                .iter()
                .zip(&paths)
                .map(|(session, path)| {
                    let (runner, start) = (&runner, &start);
                    scope.spawn(move || {
                        start.wait();
                        runner.run("PreCompact", session, path)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<_>>()
        });
        for run in &runs {
            assert!(run.kept_contract(), "round {round}: {run:#?}");
        }
        let written: Vec<String> = sessions_with_checkpoints(&runner);
        let distinct: BTreeSet<&String> = written.iter().collect();
        assert_eq!(
            distinct.len(),
            written.len(),
            "round {round}: a session has two checkpoints"
        );
        assert_eq!(
            written.len(),
            SESSIONS * (round + 1),
            "round {round}: checkpoints lost; log:\n{}",
            runner.log_text()
        );
    }
    let log = runner.log_text();
    let errors: Vec<&str> = log.lines().filter(|l| l.contains(" ERROR ")).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}
