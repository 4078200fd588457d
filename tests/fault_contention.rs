//! Sixteen `decision add` runs on one workflow at the same moment (the real
//! binary): each holds the file's lock from its read to its write and waits for
//! the others, so every one succeeds and every decision is in the file (before,
//! 20–71 % failed "changed on disk").

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::sync::Barrier;

use resume_tui::core::time::Timestamp;
use resume_tui::io::demo;

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const EDITORS: usize = 16;

#[test]
fn sixteen_editors_at_once_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    demo::unpack_into(root, NOW).unwrap();
    let start = Barrier::new(EDITORS);
    let runs: Vec<hostile::Run> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..EDITORS)
            .map(|i| {
                let start = &start;
                scope.spawn(move || {
                    let text = format!("contended decision {i}");
                    let args = ["decision", "add", "payouts", "--decision", text.as_str()];
                    start.wait();
                    hostile::cli(root, &args)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let failed: Vec<&String> = runs
        .iter()
        .filter(|r| r.code != Some(0))
        .map(|r| &r.stderr)
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {EDITORS} failed: {failed:#?}",
        failed.len()
    );
    let text = std::fs::read_to_string(root.join(PAYOUTS)).unwrap();
    for i in 0..EDITORS {
        assert!(
            text.contains(&format!("contended decision {i}\"")),
            "decision {i} lost"
        );
    }
    let leftovers: Vec<String> = hostile::tree(root)
        .into_iter()
        .filter(|f| f.ends_with(".lock") || f.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
