use super::*;

const MTIME: Timestamp = Timestamp(1_767_225_600); // 2026-01-01T00:00:00Z

fn input<'a>(source: &'a str, target: &'a str, text: &'a str) -> ManifestInput<'a> {
    ManifestInput {
        source,
        target,
        dir: "02-projects/24-skills",
        text,
        modified: Some(MTIME),
    }
}

fn changed(text: &str) -> Migration {
    let rel = "02-projects/24-skills/01-planning/resume-context.md";
    match migrate_manifest(&input(rel, rel, text)) {
        Outcome::Changed(m) => m,
        other => panic!("not changed: {other:?}"),
    }
}

const LEGACY: &str = "---
# LOADING MANIFEST
resume_version: 1.6
last_updated: 2026-01-04T12:00:00

# PROJECT IDENTIFICATION
project_id: 24-skills
current_phase: ready-for-implementation

next_action: execute-project
files_to_load:
  - 01-planning/overview.md    # Purpose
---

# Skills Research - Resume Context

Body text.
";

#[test]
fn legacy_version_is_renamed_in_place_and_missing_fields_are_added() {
    let m = changed(LEGACY);
    let expected = LEGACY
        .replace(
            "resume_version: 1.6\n",
            "resume_schema_version: \"1.0\"  # migrated from resume_version: 1.6\n",
        )
        .replace(
            "    # Purpose\n---\n",
            "    # Purpose\n# added by resume-tui migrate nexus\nproject_name: \"Skills Research\"  # from the first heading\n---\n",
        );
    assert_eq!(m.text, expected);
    assert_eq!(
        m.changes,
        [
            "resume_version: 1.6 → resume_schema_version: \"1.0\"",
            "added project_name: \"Skills Research\" (from the first heading)",
        ]
    );
    assert!(m.unresolved.is_empty(), "{:?}", m.unresolved);
}

#[test]
fn a_second_run_changes_nothing() {
    let m = changed(LEGACY);
    let rel = "02-projects/24-skills/01-planning/resume-context.md";
    assert_eq!(
        migrate_manifest(&input(rel, rel, &m.text)),
        Outcome::Unchanged {
            note: "already nexus-1.0".into(),
            unresolved: vec![]
        }
    );
}

#[test]
fn aliases_and_the_modification_time_fill_required_fields() {
    let text =
        "---\nupdated: \"2025-12-28T14:00:00\"\nphase: \"analysis\"\n---\n\n# Resume Context\n";
    let m = changed(text);
    assert_eq!(
        m.text,
        "---\nupdated: \"2025-12-28T14:00:00\"\nphase: \"analysis\"\n# added by resume-tui migrate nexus\n\
         resume_schema_version: \"1.0\"  # the documented Nexus schema\n\
         project_id: \"24-skills\"  # from the folder name\n\
         current_phase: \"analysis\"  # from `phase`\n\
         last_updated: \"2025-12-28T14:00:00\"  # from `updated`\n---\n\n# Resume Context\n"
    );
    assert_eq!(
        m.unresolved,
        [
            "project_name: could not be derived; add it by hand",
            "next_action: could not be derived; add it by hand",
            "files_to_load: could not be derived; add it by hand",
        ]
    );
    let m = changed("---\nproject_id: x\n---\n# Name\n");
    assert!(
        m.text.contains(
            "last_updated: \"2026-01-01T00:00:00Z\"  # from the file's modification time\n"
        ),
        "{}",
        m.text
    );
}

#[test]
fn a_manifest_without_frontmatter_gets_one_from_its_body() {
    let body = "\u{feff}# Airtable Builder - Resume Context\r\n\r\n> **Last Updated**: 2025-12-29\r\n> **Status**: Phase 4 Complete\r\n";
    let m = changed(body);
    assert_eq!(
        m.text,
        "\u{feff}---\r\n# added by resume-tui migrate nexus; the markdown below is unchanged\r\n\
         resume_schema_version: \"1.0\"  # the documented Nexus schema\r\n\
         project_id: \"24-skills\"  # from the folder name\r\n\
         project_name: \"Airtable Builder\"  # from the first heading\r\n\
         last_updated: \"2025-12-29\"  # from the body's Last Updated line\r\n\
         status: \"Phase 4 Complete\"  # from the body's Status line\r\n---\r\n\
         # Airtable Builder - Resume Context\r\n\r\n> **Last Updated**: 2025-12-29\r\n> **Status**: Phase 4 Complete\r\n"
    );
}

#[test]
fn schema_two_and_broken_manifests_are_left_alone() {
    let rel = "02-builds/active/03-x/01-planning/resume-context.md";
    let two = "---\nresume_schema_version: \"2.0\"\nbuild_id: \"03-x\"\n---\n";
    assert_eq!(
        migrate_manifest(&input(rel, rel, two)),
        Outcome::unchanged("already nexus-2.0")
    );
    let broken = "---\nproject_id: [\n---\n";
    match migrate_manifest(&input(rel, rel, broken)) {
        Outcome::Skipped { reason } => assert!(reason.contains("line"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let multi = "---\nresume_version:\n  1.6\n---\n";
    match migrate_manifest(&input(rel, rel, multi)) {
        Outcome::Skipped { reason } => assert!(reason.contains("rename it by hand"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn legacy_paths_map_to_planning_resume_context() {
    assert_eq!(
        legacy_target("02-projects/24-x/01-planning/_resume.md").as_deref(),
        Some("02-projects/24-x/01-planning/resume-context.md")
    );
    assert_eq!(
        legacy_target("02-projects/07-x/_resume.md").as_deref(),
        Some("02-projects/07-x/01-planning/resume-context.md")
    );
    assert_eq!(legacy_target("02-projects/07-x/old_resume.md"), None);
    assert_eq!(legacy_target("02-projects/07-x/resume-context.md"), None);
}
