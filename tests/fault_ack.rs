//! Acknowledging writes two files: the workflow's section, then the checkpoint
//! (its `metadata.acknowledged`, or a real Jerry checkpoint's `.acknowledged`
//! marker). When the second write fails (here: the checkpoints
//! folder is not writable), the command says what was already written and that
//! running it again finishes; the checkpoint still shows unacknowledged, and the
//! second run writes the checkpoint and leaves the section as it is.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use resume_tui::core::time::Timestamp;
use resume_tui::io::demo;

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const CHECKPOINT: &str = ".jerry/checkpoints/cx-002-checkpoint.json";

#[test]
fn an_ack_stopped_between_its_two_files_is_finished_by_running_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    demo::unpack_into(root, NOW).unwrap();
    let section = root.join(PAYOUTS);
    let checkpoint = root.join(CHECKPOINT);
    let checkpoint_before = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(
        checkpoint_before.contains("\"acknowledged\": false"),
        "{checkpoint_before}"
    );
    hostile::hand_to_nobody(root);
    hostile::chmod(&root.join(".jerry/checkpoints"), 0o555);

    let first = hostile::cli_as_nobody(root, &["ack", "payouts", "cx-002"]);
    assert_ne!(first.code, Some(0), "{}", first.stdout);
    assert!(
        first
            .stderr
            .contains("was already written: run the same command again to finish"),
        "{}",
        first.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&checkpoint).unwrap(),
        checkpoint_before
    );
    let after_first = std::fs::read_to_string(&section).unwrap();
    let show = hostile::cli(root, &["show", "payouts"]);
    assert!(
        show.stdout.contains("unacknowledged checkpoints: 1"),
        "the checkpoint must still show unacknowledged:\n{}",
        show.stdout
    );

    hostile::chmod(&root.join(".jerry/checkpoints"), 0o755);
    let second = hostile::cli_as_nobody(root, &["ack", "payouts", "cx-002"]);
    assert_eq!(second.code, Some(0), "{}", second.stderr);
    assert!(
        std::fs::read_to_string(&checkpoint)
            .unwrap()
            .contains("\"acknowledged\": true"),
        "the checkpoint was not written"
    );
    assert_eq!(
        std::fs::read_to_string(&section).unwrap(),
        after_first,
        "the section changed again"
    );
}
