//! `migrate resumption` over copies of every Jerry corpus file and of the demo
//! workspace: each v1 / v2-flat section becomes v2 nested, the file loads into an
//! equivalent model, the bytes outside the section are identical, every line of the
//! old section survives, and a second run changes nothing. The corpus is read in
//! place from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/cli.rs"]
mod cli;
#[path = "support/folder.rs"]
mod folder;
#[path = "support/needs.rs"]
mod needs;

use std::path::Path;

use cli::cli;
use resume_tui::core::migrate::Outcome;
use resume_tui::core::migrate::report::Status;
use resume_tui::core::migrate::resumption::migrate_resumption;
use resume_tui::core::model::{Project, Shape};
use resume_tui::core::normalize::jerry::normalize_orchestration;
use resume_tui::core::time::Timestamp;
use resume_tui::io::migrate::{Options, migrate_resumptions};

const NOW: Timestamp = Timestamp(1_772_539_200); // 2026-03-03T12:00:00Z

/// The old section's byte range, found independently of the implementation: from
/// the `resumption:` line to its last indented line.
fn section_range(text: &str) -> (usize, usize) {
    let start = if text.starts_with("resumption:") {
        0
    } else {
        text.find("\nresumption:").unwrap() + 1
    };
    let mut end = start + text[start..].find('\n').unwrap() + 1;
    let mut pos = end;
    for line in text[end..].split_inclusive('\n') {
        pos += line.len();
        let trimmed = line.trim();
        if trimmed.is_empty() || (trimmed.starts_with('#') && !line.starts_with(' ')) {
            continue;
        }
        if !line.starts_with(' ') {
            break;
        }
        end = pos;
    }
    (start, end)
}

fn files_to_read(p: &Project) -> Vec<String> {
    let r = p.resumption.as_ref().unwrap();
    r.files_to_read.iter().map(|f| format!("{f:?}")).collect()
}

fn scores(p: &Project) -> Vec<(String, Vec<f64>)> {
    p.trajectory
        .gates
        .iter()
        .map(|g| (g.gate.clone(), g.scores.clone()))
        .collect()
}

/// The model facts the issue names: next step, scores, decisions, files to read,
/// and what the operator sees as status and activity.
fn assert_equivalent(name: &str, before: &Project, after: &Project) {
    assert_eq!(before.id, after.id, "{name}");
    assert_eq!(before.summary.next_step, after.summary.next_step, "{name}");
    assert_eq!(before.summary.activity, after.summary.activity, "{name}");
    assert_eq!(
        before.summary.last_checkpoint, after.summary.last_checkpoint,
        "{name}"
    );
    if before.summary.status.is_some() {
        assert_eq!(before.summary.status, after.summary.status, "{name}");
    }
    if before.summary.phase.is_some() {
        assert_eq!(before.summary.phase, after.summary.phase, "{name}");
    }
    assert_eq!(scores(before), scores(after), "{name}");
    let (b, a) = (
        before.resumption.as_ref().unwrap(),
        after.resumption.as_ref().unwrap(),
    );
    assert_eq!(b.decisions, a.decisions, "{name}");
    assert_eq!(files_to_read(before), files_to_read(after), "{name}");
    assert_eq!(b.agent_summaries, a.agent_summaries, "{name}");
    assert_eq!(b.compaction, a.compaction, "{name}");
    assert_eq!(b.other, a.other, "{name}: extra keys kept");
}

/// Every non-blank line of the old section is in the new one (indentation aside),
/// the two renamed keys allowed for: values and comments move, they are not lost.
fn assert_lines_kept(name: &str, old_section: &str, new_section: &str) {
    let new_lines: Vec<&str> = new_section.lines().map(str::trim_start).collect();
    for line in old_section
        .lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
    {
        let renamed = line
            .replacen("current_state:", "current_activity:", 1)
            .replacen("next_action:", "next_step:", 1);
        assert!(
            new_lines.contains(&line) || new_lines.contains(&renamed.as_str()),
            "{name}: lost line {line:?}\n--- new section:\n{new_section}"
        );
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_corpus_section_migrates_to_v2_nested_and_reads_the_same() {
    let root = needs::corpus();
    let files = folder::orchestration_files(&root);
    assert!(
        files.len() >= 41,
        "only {} ORCHESTRATION files",
        files.len()
    );
    let (mut changed, mut unchanged, mut skipped) = (0, 0, 0);
    for path in &files {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let before = normalize_orchestration(&name, "", &text);
        let outcome = migrate_resumption(&name, &text);
        let migration = match (before.shape, outcome) {
            (Shape::V1 | Shape::V2Flat, Outcome::Changed(m)) => m,
            (Shape::V2Nested, Outcome::Unchanged { .. }) => {
                unchanged += 1;
                continue;
            }
            (Shape::None | Shape::Other, Outcome::Skipped { .. }) => {
                skipped += 1;
                continue;
            }
            (shape, outcome) => panic!("{name}: {shape:?} gave {outcome:?}"),
        };
        changed += 1;
        let new = &migration.text;
        let after = normalize_orchestration(&name, "", new);
        assert_eq!(after.shape, Shape::V2Nested, "{name}");
        assert_equivalent(&name, &before, &after);

        let (start, end) = section_range(&text);
        let tail = text.len() - end;
        assert_eq!(
            new[..start],
            text[..start],
            "{name}: bytes before the section"
        );
        assert_eq!(
            new[new.len() - tail..],
            text[end..],
            "{name}: bytes after it"
        );
        assert_lines_kept(&name, &text[start..end], &new[start..new.len() - tail]);

        assert!(
            matches!(migrate_resumption(&name, new), Outcome::Unchanged { .. }),
            "{name}: second run"
        );
    }
    // 27 v1 workflow files and the v1 template snapshot; 3 nested and the v2
    // template; 8 without a section and 1 of another layout.
    assert_eq!((changed, unchanged, skipped), (28, 4, 9));
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_proj_001_section_becomes_the_seed_004_layout() {
    let path =
        needs::corpus().join("geekatron+jerry/projects/PROJ-001-oss-release/ORCHESTRATION.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    let Outcome::Changed(m) = migrate_resumption("PROJ-001", &text) else {
        panic!("not migrated")
    };
    let (start, _) = section_range(&text);
    let section = &m.text[start..];
    assert!(section.starts_with(
        "resumption:\n  recovery_state:\n    last_checkpoint: \"CP-003\"\n    \
         workflow_status: \"COMPLETE\"  # from workflow.status (resume-tui migrate)\n    \
         current_activity: \"WORKFLOW COMPLETE. All 4 phases done."
    ));
    assert!(section.contains(
        "    - \"projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md\"   # Strategic context\n"
    ));
    assert!(
        section.contains("      qg-final: [0.9055, 0.9335]\n"),
        "{section}"
    );
}

fn rel_files(root: &Path) -> Vec<String> {
    folder::orchestration_files(root)
        .iter()
        .map(|p| folder::relative(root, p))
        .collect()
}

#[test]
fn the_demo_workspace_migrates_and_loads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    resume_tui::io::demo::unpack_into(dir.path(), NOW).unwrap();
    let files = rel_files(dir.path());
    let models = |root: &Path| -> Vec<Project> {
        files
            .iter()
            .map(|rel| {
                let text = std::fs::read_to_string(root.join(rel)).unwrap();
                normalize_orchestration(rel, "", &text)
            })
            .collect()
    };
    let before = models(dir.path());
    let report = migrate_resumptions(dir.path(), &files, Options::default());
    let status = |needle: &str| {
        report
            .files
            .iter()
            .find(|f| f.path.contains(needle))
            .map(|f| f.status)
    };
    assert_eq!(status("PROJ-001-ledger"), Some(Status::Changed), "v1");
    assert_eq!(status("PROJ-004-docs"), Some(Status::Changed), "v2 flat");
    assert_eq!(status("PROJ-002-payouts"), Some(Status::Unchanged));
    assert_eq!(status("PROJ-003-fraud"), Some(Status::Unchanged));
    assert_eq!(status("PROJ-005-webhook"), Some(Status::Skipped), "other");
    let after = models(dir.path());
    for (b, a) in before.iter().zip(&after) {
        if b.resumption.is_some() && b.shape != Shape::Other {
            assert_eq!(a.shape, Shape::V2Nested, "{}", b.source);
            assert_equivalent(&b.source, b, a);
        }
    }
    let again = migrate_resumptions(dir.path(), &files, Options::default());
    assert_eq!(again.count(Status::Changed), 0, "{again:?}");
}

fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    rel_files(root)
        .into_iter()
        .map(|rel| {
            let bytes = std::fs::read(root.join(&rel)).unwrap();
            (rel, bytes)
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_binary_dry_runs_then_migrates_the_jerry_corpus_once() {
    let dir = tempfile::tempdir().unwrap();
    folder::copy_tree(&needs::corpus().join("geekatron+jerry"), dir.path());
    let original = snapshot(dir.path());

    let dry = cli(dir.path(), &["migrate", "resumption", "--all", "--dry-run"]).success();
    let out = String::from_utf8(dry.get_output().stdout.clone()).unwrap();
    assert!(out.contains("--- a/projects/PROJ-001-oss-release/ORCHESTRATION.yaml\n"));
    assert!(out.contains("+  recovery_state:\n"));
    assert!(
        out.ends_with(
            "(dry run: nothing written): 27 to change, 3 unchanged, 9 skipped, 0 failed\n"
        ),
        "{out}"
    );
    assert_eq!(snapshot(dir.path()), original, "a dry run writes nothing");

    let run = cli(dir.path(), &["migrate", "resumption", "--all", "--json"]).success();
    let json: serde_json::Value = serde_json::from_slice(&run.get_output().stdout).unwrap();
    assert_eq!(json["format"], "resume-tui.migrate.v1");
    assert_eq!(json["counts"]["changed"], 27);
    assert_eq!(json["counts"]["failed"], 0);

    let again = cli(dir.path(), &["migrate", "resumption", "--all", "--json"]).success();
    let json: serde_json::Value = serde_json::from_slice(&again.get_output().stdout).unwrap();
    assert_eq!(json["counts"]["changed"], 0);
    assert_eq!(json["counts"]["unchanged"], 30);
}

#[test]
fn one_project_with_backups_that_never_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    resume_tui::io::demo::unpack_into(dir.path(), NOW).unwrap();
    let rel = "projects/PROJ-001-ledger-migration/ORCHESTRATION.yaml";
    let path = dir.path().join(rel);
    let original = std::fs::read(&path).unwrap();
    let out = cli(dir.path(), &["migrate", "resumption", rel, "--backup"]).success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains(&format!("backup: {rel}.bak")), "{text}");
    assert_eq!(
        std::fs::read(dir.path().join(format!("{rel}.bak"))).unwrap(),
        original
    );
    assert_ne!(std::fs::read(&path).unwrap(), original);

    // Put the old text back and migrate again: the first backup stays, a second appears.
    std::fs::write(&path, &original).unwrap();
    cli(dir.path(), &["migrate", "resumption", rel, "--backup"]).success();
    assert_eq!(
        std::fs::read(dir.path().join(format!("{rel}.bak"))).unwrap(),
        original
    );
    assert_eq!(
        std::fs::read(dir.path().join(format!("{rel}.bak.1"))).unwrap(),
        original
    );
}

#[test]
fn the_command_line_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    resume_tui::io::demo::unpack_into(dir.path(), NOW).unwrap();
    cli(dir.path(), &["migrate", "resumption"])
        .failure()
        .code(2);
    let nexus = cli(
        dir.path(),
        &["migrate", "resumption", "05-vendor-risk-review"],
    )
    .failure()
    .code(1);
    let err = String::from_utf8(nexus.get_output().stderr.clone()).unwrap();
    assert!(err.contains("use `resume-tui migrate nexus`"), "{err}");
}
