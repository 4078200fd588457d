use super::*;
use crate::core::model::Severity;

const V1: &str = r#"---
# LOADING MANIFEST
resume_schema_version: "1.0"
last_updated: "2026-01-03T15:30:00"

# PROJECT IDENTIFICATION
project_id: "24-skills-research"
project_name: "Skills Research"
current_phase: execution  # research | planning | execution

# AUTO-LOAD INSTRUCTIONS
next_action: execute-project
files_to_load:
  - "01-planning/01-overview.md"    # Purpose, success criteria
  - 01-planning/plan.md
  - 01-planning/research.md  # If research completed

# EXECUTION STATE (MINIMAL)
current_section: 2
current_task: 5
total_tasks: 12
tasks_completed: 4
progress: "4/12 tasks complete"
mood: focused
---

# Validation Gate

Before continuing, verify.
"#;

const V2: &str = r#"---
session_id: "s-2"
session_ids: ["s-1", "s-2"]
resume_schema_version: "2.0"
last_updated: "2026-01-17T23:12:11.267175Z"
build_id: "02-state-refactor"
build_name: "State Refactor"
build_type: "build"
current_phase: "complete"
next_action: "none"
continue_at: "section 6"
files_to_load: []
blockers: ["waiting on API key"]
rediscovery_round: 1
discovery_complete: true
current_section: 6
current_task: 29
total_tasks: 29
tasks_completed: 29
---
## Progress Summary
"#;

fn manifest(project: &Project) -> &NexusManifest {
    project.manifest.as_ref().unwrap()
}

#[test]
fn version_1_0_fills_every_field() {
    let p = normalize_manifest(
        "02-projects/24-skills-research/01-planning/resume-context.md",
        "02-projects/24-skills-research",
        V1,
    );
    assert_eq!(p.shape, Shape::Nexus1);
    assert_eq!(p.kind, ProjectKind::Nexus);
    assert_eq!(p.id, "24-skills-research");
    assert_eq!(p.name.as_deref(), Some("Skills Research"));
    assert_eq!(p.dir, "02-projects/24-skills-research");
    let m = manifest(&p);
    assert_eq!(m.schema_version.as_deref(), Some("1.0"));
    assert_eq!(m.current_phase.as_deref(), Some("execution"));
    assert_eq!(m.current_section.as_deref(), Some("2"));
    assert_eq!((m.total_tasks, m.tasks_completed), (Some(12), Some(4)));
    assert_eq!(m.progress, Some(serde_json::json!("4/12 tasks complete")));
    assert_eq!(m.last_updated.unwrap().to_iso(), "2026-01-03T15:30:00Z");
    assert_eq!(m.frontmatter_lines, Some((1, 25)));
    assert!(m.body.starts_with("\n# Validation Gate"), "{:?}", m.body);
    assert_eq!(
        m.other,
        serde_json::json!({"mood": "focused"})
            .as_object()
            .unwrap()
            .clone()
    );
    assert_eq!(p.summary.status.as_deref(), Some("ACTIVE"));
    assert_eq!(p.summary.phase.as_deref(), Some("execution"));
    assert_eq!(
        p.summary.activity.as_deref(),
        Some("section 2, task 5 of 12 (4/12 tasks complete)")
    );
    assert_eq!(p.summary.next_step.as_deref(), Some("execute-project"));
    assert_eq!(
        p.summary.updated_at_raw.as_deref(),
        Some("2026-01-03T15:30:00")
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}

#[test]
fn inline_comments_in_files_to_load_are_not_part_of_the_path() {
    let p = normalize_manifest("p/01-planning/resume-context.md", "p", V1);
    let files: Vec<(&str, Option<&str>)> = manifest(&p)
        .files_to_load
        .iter()
        .map(|f| (f.path.as_str(), f.comment.as_deref()))
        .collect();
    assert_eq!(
        files,
        vec![
            (
                "01-planning/01-overview.md",
                Some("Purpose, success criteria")
            ),
            ("01-planning/plan.md", None),
            ("01-planning/research.md", Some("If research completed")),
        ]
    );
}

#[test]
fn version_2_0_reads_build_fields() {
    let p = normalize_manifest(
        "02-builds/active/02-state-refactor/01-planning/resume-context.md",
        "02-builds/active/02-state-refactor",
        V2,
    );
    assert_eq!(p.shape, Shape::Nexus2);
    assert_eq!(p.id, "02-state-refactor");
    assert_eq!(p.name.as_deref(), Some("State Refactor"));
    let m = manifest(&p);
    assert_eq!(m.build_type.as_deref(), Some("build"));
    assert_eq!(m.session_ids, vec!["s-1", "s-2"]);
    assert_eq!(m.blockers, vec!["waiting on API key"]);
    assert_eq!(
        (m.rediscovery_round, m.discovery_complete),
        (Some(1), Some(true))
    );
    assert_eq!(m.continue_at.as_deref(), Some("section 6"));
    assert!(m.files_to_load.is_empty());
    assert!(m.other.is_empty(), "{:?}", m.other);
    assert_eq!(p.summary.status.as_deref(), Some("COMPLETE"));
    assert_eq!(
        p.summary.next_step.as_deref(),
        Some("none (continue at section 6)")
    );
    assert_eq!(
        p.summary.activity.as_deref(),
        Some("section 6, task 29 of 29")
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}

#[test]
fn legacy_resume_version_and_a_lone_session_id() {
    let text = "---\nresume_version: 1.6\nlast_updated: 2026-01-04T12:00:00\nproject_id: 24-x\ncurrent_phase: ready-for-implementation\nsession_id: abc\nsession_ids: [\"\"]\n---\n# Validation Gate\n";
    let p = normalize_manifest(
        "02-projects/24-x/01-planning/_resume.md",
        "02-projects/24-x",
        text,
    );
    assert_eq!(p.shape, Shape::NexusLegacy);
    let m = manifest(&p);
    assert_eq!(m.schema_version.as_deref(), Some("1.6"));
    assert_eq!(m.session_ids, vec!["abc"]);
    assert!(
        m.other.is_empty(),
        "resume_version is the version: {:?}",
        m.other
    );
    assert_eq!(p.name, None, "a generic heading is not a name");
    assert_eq!(
        p.summary.updated_at.unwrap().to_iso(),
        "2026-01-04T12:00:00Z"
    );
}

#[test]
fn unversioned_frontmatter_uses_the_older_key_names_and_keeps_them() {
    let text = "---\nproject_id: 14-hooks\nlast_skill: execute-project\nphase: COMPLETE\nupdated: 2025-12-31T04:30:00\n---\n# Hooks - Resume State\n";
    let p = normalize_manifest(
        "05-archived/14-hooks/_resume.md.backup",
        "05-archived/14-hooks",
        text,
    );
    assert_eq!(p.shape, Shape::NexusUnversioned);
    assert_eq!(p.id, "14-hooks");
    assert_eq!(p.name.as_deref(), Some("Hooks"));
    assert_eq!(p.summary.status.as_deref(), Some("COMPLETE"));
    assert_eq!(p.summary.phase.as_deref(), Some("COMPLETE"));
    assert_eq!(
        p.summary.updated_at.unwrap().to_iso(),
        "2025-12-31T04:30:00Z"
    );
    let keys: Vec<&String> = manifest(&p).other.keys().collect();
    assert_eq!(keys, vec!["last_skill", "phase", "updated"]);
}

#[test]
fn no_frontmatter_reads_the_body() {
    let text = "# Airtable Builder - Resume Context\n\n> **Last Updated**: 2025-12-29\n> **Status**: Phase 4 Complete - data available\n\n**Next Action**: build the dataset\n";
    let p = normalize_manifest(
        "02-projects/07-airtable/_resume.md",
        "02-projects/07-airtable",
        text,
    );
    assert_eq!(p.shape, Shape::NexusNoFrontmatter);
    assert_eq!(p.id, "07-airtable");
    assert_eq!(p.name.as_deref(), Some("Airtable Builder"));
    assert_eq!(p.summary.status.as_deref(), Some("ACTIVE"));
    assert_eq!(
        p.summary.activity.as_deref(),
        Some("Phase 4 Complete - data available")
    );
    assert_eq!(p.summary.next_step.as_deref(), Some("build the dataset"));
    assert_eq!(
        p.summary.updated_at.unwrap().to_iso(),
        "2025-12-29T00:00:00Z"
    );
    let m = manifest(&p);
    assert_eq!(m.body, text);
    assert_eq!(m.frontmatter_lines, None);
    assert!(p.diagnostics.is_empty());

    let done = normalize_manifest(
        "05-archived/13-x/_resume.md.backup",
        "05-archived/13-x",
        "# X\n**Phase**: COMPLETE\n",
    );
    assert_eq!(done.summary.status.as_deref(), Some("COMPLETE"));
    assert_eq!(done.summary.phase.as_deref(), Some("COMPLETE"));
}

#[test]
fn crlf_and_bom_are_read_like_lf() {
    let crlf = format!("\u{feff}{}", V1.replace('\n', "\r\n"));
    let p = normalize_manifest("p/01-planning/resume-context.md", "p", &crlf);
    let lf = normalize_manifest("p/01-planning/resume-context.md", "p", V1);
    assert_eq!(p.shape, Shape::Nexus1);
    let (a, b) = (manifest(&p), manifest(&lf));
    assert_eq!(a.files_to_load, b.files_to_load);
    assert_eq!(a.other, b.other);
    assert_eq!(a.frontmatter_lines, b.frontmatter_lines);
    assert_eq!(p.summary, lf.summary);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}

#[test]
fn unterminated_frontmatter_is_unreadable_with_the_fence_line() {
    let p = normalize_manifest(
        "p/01-planning/resume-context.md",
        "p",
        "\n---\nproject_id: p\n",
    );
    assert_eq!(p.shape, Shape::Unreadable);
    assert_eq!(p.id, "p");
    assert_eq!(p.summary.status, None);
    let d = &p.diagnostics[0];
    assert_eq!(
        (d.severity, d.line, d.column),
        (Severity::Error, Some(2), Some(1))
    );
}

#[test]
fn invalid_yaml_is_located_in_the_file_not_the_frontmatter() {
    let text = "\n---\nproject_id: p\nfiles_to_load:\n  - a.md\n bad: [\n---\nbody\n";
    let p = normalize_manifest("p/01-planning/resume-context.md", "p", text);
    assert_eq!(p.shape, Shape::Unreadable);
    assert_eq!(p.diagnostics.len(), 1);
    let d = &p.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.line, Some(6), "{d}");
    assert!(d.message.starts_with("invalid YAML frontmatter"), "{d}");
    assert!(
        !d.message.contains("line 4 "),
        "line numbers in the message are shifted too: {d}"
    );
    assert_eq!(manifest(&p).body, "body\n");
}

#[test]
fn frontmatter_that_is_a_list_is_kept_with_a_warning() {
    let p = normalize_manifest(
        "p/01-planning/resume-context.md",
        "p",
        "---\n- a\n- b\n---\n# Name\n",
    );
    assert_eq!(p.shape, Shape::NexusUnversioned);
    assert_eq!(p.name.as_deref(), Some("Name"));
    assert_eq!(
        manifest(&p).other["frontmatter"],
        serde_json::json!(["a", "b"])
    );
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].severity, Severity::Warning);
    assert_eq!(p.diagnostics[0].line, Some(2));
}

#[test]
fn wrong_kinds_are_kept_under_other_fields_with_a_located_warning() {
    let text = "---\nresume_schema_version: \"1.0\"\nproject_name: {a: 1}\ntotal_tasks: soon\nfiles_to_load: {a: b}\nlast_updated: yesterday\n---\n";
    let p = normalize_manifest("p/01-planning/resume-context.md", "p", text);
    let m = manifest(&p);
    let keys: Vec<&String> = m.other.keys().collect();
    assert_eq!(keys, vec!["project_name", "total_tasks", "files_to_load"]);
    assert_eq!(m.last_updated_raw.as_deref(), Some("yesterday"));
    let located: Vec<(Option<usize>, bool)> = p
        .diagnostics
        .iter()
        .map(|d| (d.line, d.severity == Severity::Warning))
        .collect();
    assert_eq!(
        located,
        vec![
            (Some(3), true),
            (Some(4), true),
            (Some(5), true),
            (Some(6), true)
        ]
    );
}

/// Each warning used to scan the frontmatter from the top to find its key; one
/// scan now locates them all, in `normalize_manifest` and in `validate_manifest`.
#[test]
fn many_warnings_scan_the_frontmatter_once() {
    use crate::core::locate::SCANS;
    let text = "---\nresume_schema_version: \"1.0\"\nproject_name: {a: 1}\ntotal_tasks: soon\nfiles_to_load: {a: b}\nlast_updated: yesterday\n---\n";
    let before = SCANS.with(|n| n.get());
    let p = normalize_manifest("p/01-planning/resume-context.md", "p", text);
    assert_eq!(p.diagnostics.len(), 4);
    assert_eq!(SCANS.with(|n| n.get()) - before, 1);
    let before = SCANS.with(|n| n.get());
    let found = validate_manifest("p/01-planning/resume-context.md", text);
    let lines: Vec<Option<usize>> = found
        .iter()
        .filter(|d| d.message.contains("expected"))
        .map(|d| d.line)
        .collect();
    assert_eq!(lines, [Some(3), Some(4), Some(5)], "{found:?}");
    assert_eq!(SCANS.with(|n| n.get()) - before, 1);
}

#[test]
fn unknown_versions_and_ids_from_the_path() {
    let p = normalize_manifest(
        "resume-context.md",
        "",
        "---\nresume_schema_version: \"9.1\"\n---\n",
    );
    assert_eq!(p.shape, Shape::NexusUnversioned);
    assert_eq!(p.id, "resume-context.md");
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(id_from_path("a/b/01-planning/_resume.md"), "b");
    assert_eq!(id_from_path("a/b/_resume.md"), "b");
}

#[test]
fn completion_words() {
    for yes in [
        "complete",
        "COMPLETE",
        "Completed",
        "COMPLETE - moved to 31",
        "done",
    ] {
        assert!(is_complete(yes), "{yes}");
    }
    for no in ["execution", "phase-4", "incomplete", "Phase 4 Complete", ""] {
        assert!(!is_complete(no), "{no}");
    }
}

mod validation {
    use super::*;

    fn summary(diagnostics: &[Diagnostic]) -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| {
                format!(
                    "{:?} {}:{} {}",
                    d.severity,
                    d.line.unwrap_or(0),
                    d.column.unwrap_or(0),
                    d.message
                )
            })
            .collect()
    }

    #[test]
    fn a_complete_v1_manifest_only_notes_unknown_keys() {
        let got = summary(&validate_manifest("m.md", V1));
        assert_eq!(
            got,
            vec!["Info 24:1 mood: unknown field `mood` (kept as an other field)"]
        );
    }

    #[test]
    fn v2_is_checked_against_the_v2_type() {
        assert_eq!(
            summary(&validate_manifest("m.md", V2)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn missing_fields_warn_and_wrong_types_are_errors_with_file_lines() {
        let text = "\n---\nresume_schema_version: \"1.0\"\nproject_id: p\ncurrent_task: soon\nfiles_to_load:\n  - a.md\n  - {x: 1}\n---\n";
        let got = summary(&validate_manifest("m.md", text));
        assert_eq!(
            got,
            vec![
                "Warning 2:1 missing required field `last_updated`",
                "Warning 2:1 missing required field `project_name`",
                "Warning 2:1 missing required field `current_phase`",
                "Warning 2:1 missing required field `next_action`",
                "Error 5:1 current_task: expected integer or null, found a string",
                "Error 6:1 files_to_load[1]: expected string, found a map",
            ]
        );
    }

    #[test]
    fn legacy_and_missing_frontmatter_are_warnings() {
        let legacy = "---\nresume_version: 1.6\nlast_updated: x\nproject_id: p\nproject_name: n\ncurrent_phase: c\nnext_action: a\nfiles_to_load: []\n---\n";
        assert_eq!(
            summary(&validate_manifest("m.md", legacy)),
            vec![
                "Warning 2:1 resume_version: legacy `resume_version`; current manifests write `resume_schema_version`"
            ]
        );
        let none = validate_manifest("m.md", "# Title\n");
        assert_eq!(none.len(), 1);
        assert_eq!(
            (none[0].severity, none[0].line),
            (Severity::Warning, Some(1))
        );
    }

    #[test]
    fn syntax_errors_and_list_frontmatter_are_errors() {
        let bad = validate_manifest("m.md", "---\na: [\n---\n");
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].severity, Severity::Error);
        assert!(bad[0].line.unwrap() >= 2);
        let list = summary(&validate_manifest("m.md", "---\n- a\n---\n"));
        assert_eq!(list, vec!["Error 1:1 expected object, found a list"]);
    }
}

#[test]
fn duplicate_keys_and_tabs_are_located_errors() {
    let dup = normalize_manifest(
        "m.md",
        "",
        "---\nproject_id: a\nnext_action: x\nproject_id: b\n---\n",
    );
    assert_eq!(dup.shape, Shape::Unreadable);
    let d = &dup.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(
        (d.line, d.column),
        (Some(4), Some(1)),
        "the repeated key: {d}"
    );
    let tabs = normalize_manifest("m.md", "", "---\nfiles_to_load:\n\t- a.md\n---\n");
    assert_eq!(tabs.shape, Shape::Unreadable);
    assert_eq!(tabs.diagnostics[0].line, Some(3), "{}", tabs.diagnostics[0]);
}
