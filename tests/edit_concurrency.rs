//! Two writers on one project for a few seconds, both the real binary: the hook mode
//! (`resume-tui hook PreCompact`, twice per session, then `hook PostCompact`) writing
//! checkpoints for new sessions, and the CLI in a loop (`decision add`, `ack --all`,
//! `merge` of the hook's checkpoints). Afterwards: no lost update, no torn file, no
//! error other than the documented "changed on disk", no leftover temporary or lock
//! files, and every comment of the state file still there.

#[path = "support/hook_runner.rs"]
mod hook_runner;
#[path = "support/transcript.rs"]
mod transcript;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hook_runner::{HookRun, HookRunner};
use resume_tui::core::time::Timestamp;
use resume_tui::io::demo;
use serde_json::Value;

const NOW: Timestamp = Timestamp(1_771_331_696);
const SECONDS: u64 = 5;
const PAYOUTS_DIR: &str = "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001";
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const CHECKPOINTS: &str = ".jerry/checkpoints";
const SESSION_PREFIX: &str = "concurrency-";
const CHANGED: &str = "changed on disk since it was read; reload";

fn cli(root: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .arg("--root")
        .arg(root)
        .args(args)
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .output()
        .unwrap()
}

/// Every checkpoint file of the workspace, by file name, parsed (a torn file fails).
fn checkpoints(root: &Path) -> BTreeMap<String, Value> {
    std::fs::read_dir(root.join(CHECKPOINTS))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("cx-") && name.ends_with(".json"))
        .map(|name| {
            let text = std::fs::read_to_string(root.join(CHECKPOINTS).join(&name)).unwrap();
            let value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{name} is torn: {e}\n{text}"));
            (name, value)
        })
        .collect()
}

fn session_of(cp: &Value) -> Option<&str> {
    cp["session_id"].as_str()
}

/// The hook's checkpoints (ours: session ids with the test's prefix) not yet merged.
fn next_to_merge(root: &Path, merged: &BTreeSet<String>) -> Option<String> {
    checkpoints(root)
        .into_iter()
        .filter(|(_, cp)| session_of(cp).is_some_and(|s| s.starts_with(SESSION_PREFIX)))
        .filter_map(|(name, _)| name.strip_suffix("-checkpoint.json").map(str::to_string))
        .find(|id| !merged.contains(id))
}

fn leftovers(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            leftovers(&path, found);
        } else if name.ends_with(".lock") || name.ends_with(".tmp") {
            found.push(path);
        }
    }
}

fn comment_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .collect()
}

fn hook_loop(runner: &HookRunner, deadline: Instant) -> (Vec<String>, Vec<HookRun>) {
    let (mut sessions, mut runs) = (Vec::new(), Vec::new());
    while Instant::now() < deadline {
        let session = format!("{SESSION_PREFIX}{}", sessions.len() + 1);
        runs.extend(runner.compaction(&session, PAYOUTS_DIR));
        sessions.push(session);
    }
    (sessions, runs)
}

#[derive(Default)]
struct CliTally {
    added: BTreeSet<String>,
    acked: BTreeSet<String>,
    merged: BTreeSet<String>,
    conflicts: usize,
}

fn cli_loop(root: &Path, deadline: Instant) -> CliTally {
    let mut tally = CliTally::default();
    let mut i = 0;
    while Instant::now() < deadline {
        i += 1;
        let text = format!("cli-{i}");
        let to_merge = (i % 3 == 2)
            .then(|| next_to_merge(root, &tally.merged))
            .flatten();
        let out = match (&to_merge, i % 3) {
            (Some(id), _) => cli(root, &["merge", "payouts", id]),
            (None, 1) => cli(root, &["ack", "payouts", "--all"]),
            (None, _) => cli(root, &["decision", "add", "payouts", "--decision", &text]),
        };
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            assert!(stderr.contains(CHANGED), "unexpected CLI error: {stderr}");
            tally.conflicts += 1;
            continue;
        }
        match (to_merge, i % 3) {
            (Some(id), _) => {
                assert!(stdout.starts_with(&format!("{PAYOUTS}: ")), "{stdout}");
                tally.merged.insert(id);
            }
            (None, 1) => tally.acked.extend(
                stdout
                    .lines()
                    .filter_map(|l| l.split_once("-checkpoint.json: "))
                    .map(|(file, _)| {
                        format!(
                            "{}-checkpoint.json",
                            file.trim_start_matches(".jerry/checkpoints/")
                        )
                    }),
            ),
            (None, _) => {
                tally.added.insert(text);
            }
        }
    }
    tally
}

#[test]
fn the_hook_and_the_cli_lose_nothing() {
    let (dir, log, home, transcripts) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let root = dir.path();
    demo::unpack_into(root, NOW).unwrap();
    let original = std::fs::read_to_string(root.join(PAYOUTS)).unwrap();
    let runner = HookRunner {
        root: root.to_path_buf(),
        log: log.path().to_path_buf(),
        home: home.path().to_path_buf(),
        transcripts: transcripts.path().to_path_buf(),
    };

    let deadline = Instant::now() + Duration::from_secs(SECONDS);
    let (tally, (sessions, runs)) = std::thread::scope(|scope| {
        let hooks = scope.spawn(|| hook_loop(&runner, deadline));
        (cli_loop(root, deadline), hooks.join().unwrap())
    });

    let broken: Vec<&HookRun> = runs.iter().filter(|r| !r.kept_contract()).collect();
    assert!(
        broken.is_empty(),
        "hook runs broke the contract: {broken:#?}"
    );
    let hook_log = runner.log_text();
    let failures: Vec<&str> = hook_log.lines().filter(|l| l.contains(" ERROR ")).collect();
    let unexpected: Vec<&&str> = failures.iter().filter(|l| !l.contains(CHANGED)).collect();
    assert!(unexpected.is_empty(), "hook errors: {unexpected:#?}");
    assert!(
        !tally.added.is_empty() && !tally.merged.is_empty() && !tally.acked.is_empty(),
        "no progress: {} added, {} merged, {} acknowledged, {} sessions",
        tally.added.len(),
        tally.merged.len(),
        tally.acked.len(),
        sessions.len()
    );

    let text = std::fs::read_to_string(root.join(PAYOUTS)).unwrap();
    let state: yaml_serde::Value = yaml_serde::from_str(&text).unwrap();
    let mut comments = comment_lines(&text).into_iter();
    for comment in comment_lines(&original) {
        assert!(comments.any(|c| c == comment), "comment lost: {comment}");
    }
    let log = state["resumption"]["decision_log"].as_sequence().unwrap();
    let texts: BTreeSet<String> = log
        .iter()
        .filter_map(|d| d["decision"].as_str())
        .filter(|t| t.starts_with("cli-"))
        .map(str::to_string)
        .collect();
    assert_eq!(texts, tally.added, "decisions lost or invented");
    let ids: BTreeSet<&str> = log.iter().filter_map(|d| d["id"].as_str()).collect();
    assert_eq!(ids.len(), log.len(), "duplicate decision ids");

    let section = &state["resumption"]["compaction_events"];
    let events = section["events"].as_sequence().unwrap();
    let event_ids: BTreeSet<String> = events
        .iter()
        .filter_map(|e| e["id"].as_str())
        .map(str::to_lowercase)
        .collect();
    assert_eq!(event_ids.len(), events.len(), "an event merged twice");
    let lost: Vec<&String> = tally.merged.difference(&event_ids).collect();
    assert!(lost.is_empty(), "merges lost: {lost:?}");
    assert_eq!(section["count"].as_i64(), Some(events.len() as i64));

    let all = checkpoints(root);
    let cp_ids: Vec<&str> = all
        .values()
        .map(|cp| {
            cp["event_id"]
                .as_str()
                .or(cp["checkpoint_id"].as_str())
                .unwrap()
        })
        .collect();
    let unique: BTreeSet<&str> = cp_ids.iter().copied().collect();
    assert_eq!(
        unique.len(),
        cp_ids.len(),
        "duplicate checkpoint ids: {cp_ids:?}"
    );
    let ours: Vec<(&String, &Value)> = all
        .iter()
        .filter(|(_, cp)| session_of(cp).is_some_and(|s| s.starts_with(SESSION_PREFIX)))
        .collect();
    let per_session: BTreeSet<&str> = ours.iter().filter_map(|(_, cp)| session_of(cp)).collect();
    assert_eq!(ours.len(), sessions.len(), "one checkpoint per session");
    assert_eq!(per_session.len(), sessions.len());
    for file in &tally.acked {
        assert_eq!(
            all[file]["metadata"]["acknowledged"], true,
            "{file}: the acknowledgement was lost"
        );
    }
    // A PostCompact that lost the race to an `ack` is refused and logged; every
    // other one must have left its record.
    let refused = failures
        .iter()
        .filter(|l| l.contains("PostCompact"))
        .count();
    let without_record = ours
        .iter()
        .filter(|(_, cp)| cp.get("post_compact").is_none())
        .count();
    assert!(
        without_record <= refused,
        "{without_record} checkpoints lack post_compact, {refused} PostCompact refusals"
    );

    let mut found = Vec::new();
    leftovers(root, &mut found);
    assert!(found.is_empty(), "left behind: {found:?}");
    eprintln!(
        "{} sessions ({} hook runs, {} refused), {} decisions, {} merges, {} acknowledgements, {} CLI conflicts",
        sessions.len(),
        runs.len(),
        failures.len(),
        tally.added.len(),
        tally.merged.len(),
        tally.acked.len(),
        tally.conflicts
    );
    for line in &failures {
        eprintln!("refused: {line}");
    }
}
