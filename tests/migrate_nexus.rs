//! `migrate nexus` over a copy of the Nexus corpus and of the demo workspace: legacy
//! `_resume.md` files are renamed (never over an existing manifest), every migrated
//! manifest loads as schema 1.0 or 2.0 with the same id, name, status, phase, next
//! step and files to load, bodies and existing frontmatter lines are kept, and a
//! second run changes nothing. The corpus is read from `$RESUME_TUI_CORPUS`
//! (tests/support/needs.rs).

#[path = "support/cli.rs"]
mod cli;
#[path = "support/folder.rs"]
mod folder;
#[path = "support/needs.rs"]
mod needs;

use std::path::PathBuf;

use cli::cli;
use resume_tui::core::migrate::Outcome;
use resume_tui::core::migrate::nexus::{ManifestInput, legacy_target, migrate_manifest};
use resume_tui::core::migrate::report::Status;
use resume_tui::core::model::{Project, Shape};
use resume_tui::core::normalize::frontmatter;
use resume_tui::core::normalize::nexus::normalize_manifest;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::io::migrate::{Options, migrate_nexus};

const NOW: Timestamp = Timestamp(1_772_539_200); // 2026-03-03T12:00:00Z

fn nexus_corpus() -> PathBuf {
    needs::corpus().join("DorianSchlede+nexus-template")
}

fn is_manifest(rel: &str) -> bool {
    rel.ends_with("/resume-context.md") || rel.ends_with("/_resume.md")
}

/// The project folder of a manifest: above `01-planning`, else its own folder.
fn project_dir(rel: &str) -> String {
    let parent = rel.rsplit_once('/').map_or("", |(d, _)| d);
    parent
        .strip_suffix("/01-planning")
        .unwrap_or(parent)
        .to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn body(rel: &str, text: &str) -> String {
    frontmatter::split(rel, text).unwrap().body.to_string()
}

fn assert_equivalent(name: &str, before: &Project, after: &Project) {
    assert_eq!(before.id, after.id, "{name}");
    if before.name.is_some() {
        assert_eq!(before.name, after.name, "{name}");
    }
    let (b, a) = (&before.summary, &after.summary);
    assert_eq!(b.next_step, a.next_step, "{name}");
    assert_eq!(b.status, a.status, "{name}");
    assert_eq!(b.phase, a.phase, "{name}");
    assert_eq!(b.activity, a.activity, "{name}");
    if b.updated_at_raw.is_some() {
        assert_eq!(b.updated_at_raw, a.updated_at_raw, "{name}");
    }
    let paths = |p: &Project| -> Vec<String> {
        let m = p.manifest.as_ref().unwrap();
        m.files_to_load.iter().map(|f| f.path.clone()).collect()
    };
    assert_eq!(paths(before), paths(after), "{name}");
}

/// Every line of the old frontmatter is still there, but a legacy version line,
/// which is rewritten in place.
fn assert_frontmatter_kept(name: &str, old: &str, new: &str) {
    let (Ok(old_split), Ok(new_split)) =
        (frontmatter::split(name, old), frontmatter::split(name, new))
    else {
        panic!("{name}: frontmatter does not split")
    };
    let Some(old_fm) = old_split.frontmatter else {
        return;
    };
    let new_fm = new_split.frontmatter.unwrap().text;
    let mut rest = new_fm;
    for line in old_fm.text.split_inclusive('\n') {
        if line.starts_with("resume_version:") {
            let value = line
                .trim_end()
                .strip_prefix("resume_version:")
                .unwrap()
                .trim();
            let migrated = format!("# migrated from resume_version: {value}");
            assert!(new_fm.contains(&migrated), "{name}: {migrated}");
            continue;
        }
        let at = rest
            .find(line)
            .unwrap_or_else(|| panic!("{name}: lost {line:?}"));
        rest = &rest[at + line.len()..];
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_nexus_corpus_migrates_once_and_keeps_what_each_manifest_says() {
    let dir = tempfile::tempdir().unwrap();
    folder::copy_tree(&nexus_corpus(), dir.path());
    let original = folder::tree(dir.path());
    let report = migrate_nexus(dir.path(), &Env::default(), Options::default());
    assert_eq!(report.count(Status::Failed), 0, "{report:?}");
    let migrated = folder::tree(dir.path());

    let mut renamed = 0;
    for file in &report.files {
        let old_rel = &file.path;
        let new_rel = file.renamed_to.clone().unwrap_or_else(|| old_rel.clone());
        let old = text(&original[old_rel]);
        match file.status {
            Status::Changed => {
                let new = text(&migrated[&new_rel]);
                let dir_rel = project_dir(old_rel);
                let before = normalize_manifest(old_rel, &dir_rel, &old);
                let after = normalize_manifest(&new_rel, &dir_rel, &new);
                assert!(
                    matches!(after.shape, Shape::Nexus1 | Shape::Nexus2),
                    "{new_rel}: {:?}",
                    after.shape
                );
                assert_equivalent(&new_rel, &before, &after);
                assert_eq!(body(&new_rel, &new), body(old_rel, &old), "{new_rel}: body");
                assert_frontmatter_kept(&new_rel, &old, &new);
                if old_rel != &new_rel {
                    renamed += 1;
                    assert!(!migrated.contains_key(old_rel), "{old_rel} still there");
                    assert!(!original.contains_key(&new_rel), "{new_rel} overwritten");
                }
            }
            Status::Unchanged | Status::Skipped => {
                assert_eq!(
                    migrated.get(old_rel),
                    Some(&original[old_rel]),
                    "{old_rel} changed"
                );
            }
            Status::Failed => unreachable!(),
        }
    }
    // Five legacy `_resume.md` files have no manifest beside them; three do, and
    // stay (with their neighbour) as they were.
    assert_eq!(renamed, 5);
    let both_exist = report
        .files
        .iter()
        .filter(|f| f.status == Status::Skipped && f.path.ends_with("_resume.md"))
        .count();
    assert_eq!(both_exist, 3);
    // Only manifests were touched: everything else is byte-identical.
    for (rel, bytes) in &original {
        if !is_manifest(rel) {
            assert_eq!(migrated.get(rel), Some(bytes), "{rel}");
        }
    }

    let again = migrate_nexus(dir.path(), &Env::default(), Options::default());
    assert_eq!(again.count(Status::Changed), 0, "{again:?}");
    assert_eq!(
        folder::tree(dir.path()),
        migrated,
        "a second run writes nothing"
    );
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_corpus_manifest_text_migrates_to_a_schema_shape() {
    let root = nexus_corpus();
    let manifests: Vec<(String, Vec<u8>)> = folder::tree(&root)
        .into_iter()
        .filter(|(rel, _)| is_manifest(rel))
        .collect();
    assert!(manifests.len() >= 40, "only {} manifests", manifests.len());
    for (rel, bytes) in &manifests {
        let old = text(bytes);
        let dir = project_dir(rel);
        let target = legacy_target(rel).unwrap_or_else(|| rel.clone());
        let input = ManifestInput {
            source: rel,
            target: &target,
            dir: &dir,
            text: &old,
            modified: Some(NOW),
        };
        let new = match migrate_manifest(&input) {
            Outcome::Changed(m) => m.text,
            Outcome::Unchanged { .. } => old.clone(),
            Outcome::Skipped { reason } => panic!("{rel}: skipped: {reason}"),
        };
        let after = normalize_manifest(&target, &dir, &new);
        assert!(
            matches!(after.shape, Shape::Nexus1 | Shape::Nexus2),
            "{rel}: {:?}",
            after.shape
        );
        assert_equivalent(rel, &normalize_manifest(rel, &dir, &old), &after);
        let again = ManifestInput {
            source: &target,
            text: &new,
            ..input
        };
        assert!(
            matches!(migrate_manifest(&again), Outcome::Unchanged { .. }),
            "{rel}: second run"
        );
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_legacy_version_becomes_the_schema_version_with_the_old_value_in_a_comment() {
    let rel = "02-projects/24-project-skills-research-resume-expansion/01-planning/_resume.md";
    let old = std::fs::read_to_string(nexus_corpus().join(rel)).unwrap();
    let target = legacy_target(rel).unwrap();
    let dir = project_dir(rel);
    let input = ManifestInput {
        source: rel,
        target: &target,
        dir: &dir,
        text: &old,
        modified: Some(NOW),
    };
    let Outcome::Changed(m) = migrate_manifest(&input) else {
        panic!("not migrated")
    };
    assert!(
        m.text
            .contains("\nresume_schema_version: \"1.0\"  # migrated from resume_version: 1.6\n")
    );
    assert!(!m.text.contains("\nresume_version:"));
    // Its first heading ("Validation Gate") names the file's role, not the project.
    assert!(!m.text.contains("project_name:"), "{}", m.text);
    assert_eq!(
        m.unresolved,
        ["project_name: could not be derived; add it by hand"]
    );
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_binary_migrates_the_demo_and_the_corpus_twice() {
    let dir = tempfile::tempdir().unwrap();
    resume_tui::io::demo::unpack_into(dir.path(), NOW).unwrap();
    let dry = cli(dir.path(), &["migrate", "nexus", "--dry-run"]).success();
    let out = text(&dry.get_output().stdout);
    assert!(
        out.contains(
            "rename from 02-projects/04-chargeback-playbook/01-planning/_resume.md\n\
         rename to 02-projects/04-chargeback-playbook/01-planning/resume-context.md\n"
        ),
        "{out}"
    );
    assert!(
        dir.path()
            .join("02-projects/04-chargeback-playbook/01-planning/_resume.md")
            .exists()
    );

    let run = cli(dir.path(), &["migrate", "nexus", "--backup", "--json"]).success();
    let json: serde_json::Value = serde_json::from_slice(&run.get_output().stdout).unwrap();
    assert!(json["counts"]["changed"].as_u64().unwrap() >= 1, "{json}");
    let planning = dir
        .path()
        .join("02-projects/04-chargeback-playbook/01-planning");
    assert!(!planning.join("_resume.md").exists());
    assert!(planning.join("resume-context.md").exists());
    assert!(planning.join("_resume.md.bak").exists());
    let again = cli(dir.path(), &["migrate", "nexus", "--json"]).success();
    let json: serde_json::Value = serde_json::from_slice(&again.get_output().stdout).unwrap();
    assert_eq!(json["counts"]["changed"], 0, "{json}");

    let corpus = tempfile::tempdir().unwrap();
    folder::copy_tree(&nexus_corpus(), corpus.path());
    let first = cli(corpus.path(), &["migrate", "nexus"]).success();
    assert!(
        text(&first.get_output().stdout)
            .ends_with("migrate nexus: 7 changed, 26 unchanged, 6 skipped, 0 failed\n")
    );
    let second = cli(corpus.path(), &["migrate", "nexus"]).success();
    assert!(
        text(&second.get_output().stdout)
            .ends_with("migrate nexus: 0 changed, 33 unchanged, 6 skipped, 0 failed\n")
    );
}
