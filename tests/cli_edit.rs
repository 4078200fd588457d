//! `ack`, `merge` and `decision` on an unpacked copy of the demo: what they print,
//! what they write, and that failures leave the files as they were.

#[path = "support/folder.rs"]
mod folder;

use std::path::Path;

use assert_cmd::Command;
use resume_tui::core::time::Timestamp;

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";

fn cli(root: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("resume-tui")
        .unwrap()
        .arg("--root")
        .arg(root)
        .args(args)
        .env("RESUME_TUI_CONFIG", root.join("no-config.toml"))
        .assert()
}

fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

fn read(dir: &tempfile::TempDir, rel: &str) -> String {
    std::fs::read_to_string(dir.path().join(rel)).unwrap()
}

#[test]
fn decision_add_prints_what_it_wrote() {
    let dir = folder::demo_copy(NOW);
    let before = read(&dir, PAYOUTS);
    let args = [
        "decision",
        "add",
        "payouts",
        "--decision",
        "Batch replay is mandatory",
    ];
    let done = cli(dir.path(), &[&args[..], &["--affects", "2,3"]].concat()).success();
    assert_eq!(
        stdout(&done),
        format!("{PAYOUTS}: 7 lines changed (+7 \u{2212}0)\n")
    );
    let after = read(&dir, PAYOUTS);
    assert!(after.contains(
        "    - id: \"RD-003\"\n      gate: null\n      iteration: null\n      decision: \"Batch replay is mandatory\"\n"
    ));
    assert_eq!(before.lines().count() + 7, after.lines().count());
}

#[test]
fn dry_runs_print_the_diff_and_write_nothing() {
    let dir = folder::demo_copy(NOW);
    let before = read(&dir, PAYOUTS);
    let done = cli(
        dir.path(),
        &["decision", "apply", "payouts", "RD-002", "--dry-run"],
    )
    .success();
    let out = stdout(&done);
    assert!(
        out.starts_with(&format!("--- a/{PAYOUTS}\n+++ b/{PAYOUTS}\n@@ -")),
        "{out}"
    );
    assert!(
        out.contains("\n-      applied: false                            # Pending"),
        "{out}"
    );
    assert!(
        out.contains("\n+      applied: true                             # Pending"),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "dry run, nothing written: {PAYOUTS}: 2 lines changed (+1 \u{2212}1)\n"
        )),
        "{out}"
    );
    assert_eq!(read(&dir, PAYOUTS), before);
}

#[test]
fn ack_and_merge_follow_the_checkpoint_format() {
    let dir = folder::demo_copy(NOW);
    let done = cli(dir.path(), &["ack", "payouts"]).success();
    let out = stdout(&done);
    assert!(
        out.contains(&format!("{PAYOUTS}: 2 lines changed")),
        "{out}"
    );
    assert!(
        out.contains(".jerry/checkpoints/cx-002-checkpoint.json: 4 lines changed"),
        "{out}"
    );
    let again = cli(dir.path(), &["ack", "payouts", "cx-002"]).success();
    assert_eq!(stdout(&again), "cx-002 is already acknowledged\n");
    let none_left = cli(dir.path(), &["ack", "payouts"]).failure();
    let err = String::from_utf8(none_left.get_output().stderr.clone()).unwrap();
    assert!(err.contains("no unacknowledged checkpoint"), "{err}");

    // cx-004 belongs to the docs rewrite (its compaction events name it); a real-Jerry
    // checkpoint no workflow names can be merged into any workflow.
    cli(dir.path(), &["merge", "fraud", "cx-004"]).failure();
    let loose = read(&dir, ".jerry/checkpoints/cx-004.json")
        .replace("cx-004", "cx-005")
        .replace("docs-rewrite-20260225-001", "elsewhere");
    std::fs::write(dir.path().join(".jerry/checkpoints/cx-005.json"), loose).unwrap();
    let fraud = "projects/PROJ-003-fraud-rules-audit/orchestration/fraud-audit-20260227-001/ORCHESTRATION.yaml";
    let merged = cli(dir.path(), &["merge", "fraud", "cx-005"]).success();
    assert!(stdout(&merged).starts_with(&format!("{fraud}: ")));
    assert!(
        read(&dir, fraud)
            .contains("      note: \"cx-005 at 91 % fill (emergency); merged by resume-tui\"\n")
    );
}

/// `after` with the lines from the one starting `first` through the next line equal
/// to `last` taken out.
fn without_block(after: &str, first: &str, last: &str) -> String {
    let start = after.find(first).expect("the block is there");
    let end = start + after[start..].find(last).expect("the block ends") + last.len();
    format!("{}{}", &after[..start], &after[end..])
}

/// The operator's edits record what the operator did and nothing else: the
/// orchestrator's `updated_at` (which staleness reads) keeps its bytes, and so does
/// every other line of the file.
#[test]
fn operator_edits_change_no_byte_outside_the_edit() {
    let dir = folder::demo_copy(NOW);
    let original = read(&dir, PAYOUTS);

    cli(dir.path(), &["decision", "apply", "payouts", "RD-002"]).success();
    let applied = original.replacen(
        "      applied: false                            # Pending",
        "      applied: true                             # Pending",
        1,
    );
    assert_ne!(applied, original);
    assert_eq!(read(&dir, PAYOUTS), applied);

    cli(dir.path(), &["ack", "payouts", "cx-002"]).success();
    let acknowledged = applied.replacen(
        "        acknowledged: false                     # Re-orientation",
        "        acknowledged: true                      # Re-orientation",
        1,
    );
    assert_ne!(acknowledged, applied);
    assert_eq!(read(&dir, PAYOUTS), acknowledged);

    cli(
        dir.path(),
        &["decision", "add", "payouts", "--decision", "Replay first"],
    )
    .success();
    let added = read(&dir, PAYOUTS);
    assert_eq!(
        without_block(&added, "    - id: \"RD-003\"\n", "      applied: false\n"),
        acknowledged
    );

    cli(
        dir.path(),
        &[
            "decision",
            "edit",
            "payouts",
            "RD-003",
            "--decision",
            "Replay last",
        ],
    )
    .success();
    assert_eq!(
        read(&dir, PAYOUTS),
        added.replacen("\"Replay first\"", "\"Replay last\"", 1)
    );
}

#[test]
fn failures_name_the_problem_and_change_nothing() {
    let dir = folder::demo_copy(NOW);
    let before = read(&dir, PAYOUTS);
    let unknown = cli(dir.path(), &["decision", "apply", "payouts", "RD-042"]).failure();
    let err = String::from_utf8(unknown.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("no decision RD-042 (ids: RD-001, RD-002)"),
        "{err}"
    );
    let nexus = cli(
        dir.path(),
        &["decision", "add", "03-settlement", "--decision", "x"],
    )
    .failure();
    let err = String::from_utf8(nexus.get_output().stderr.clone()).unwrap();
    assert!(err.contains("Nexus project"), "{err}");
    assert_eq!(read(&dir, PAYOUTS), before);

    let broken = before.replacen("resumption:", "resumption: [", 1);
    std::fs::write(dir.path().join(PAYOUTS), &broken).unwrap();
    let bad = cli(
        dir.path(),
        &["decision", "add", "payouts", "--decision", "x"],
    )
    .failure();
    let err = String::from_utf8(bad.get_output().stderr.clone()).unwrap();
    assert!(err.contains("ORCHESTRATION.yaml"), "{err}");
    assert_eq!(read(&dir, PAYOUTS), broken);
}
