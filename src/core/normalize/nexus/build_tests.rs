use super::*;
use crate::core::normalize::nexus::normalize_manifest;

const OVERVIEW: &str = "---\nid: 04-onboarding\nname: Improved Onboarding\nstatus: IN_PROGRESS\ncreated: 2026-01-23\nbuild_path: 02-builds/active/04-onboarding/\n---\n\n# Improved Onboarding\n";

const STEPS: &str = "# X - Execution Steps\n\n**Last Updated**: 2026-01-25\n\n## Context Requirements\n\n- [ ] not a phase box\n\n## Phase 1: Planning\n\n- [x] Complete 01-overview.md\n- [X] Complete 02-discovery.md\n\n## Phase 2: Build it\n\n### 2a: part\n- [x] first\n- [ ] second\n  - [ ] nested\n\n## Phase 3: Launch\n\n- [ ] ship\n\n## Notes\n\n- [x] a note box\n- [y] not a box\n";

fn file<'a>(source: &'a str, text: &'a str) -> BuildFile<'a> {
    BuildFile { source, text }
}

#[test]
fn steps_count_every_box_and_group_them_by_phase() {
    let steps = read_steps(file("s.md", STEPS));
    assert_eq!((steps.checked, steps.boxes), (4, 8));
    let phases: Vec<(&str, usize, usize)> = steps
        .phases
        .iter()
        .map(|p| (p.heading.as_str(), p.checked, p.boxes))
        .collect();
    assert_eq!(
        phases,
        [
            ("Phase 1: Planning", 2, 2),
            ("Phase 2: Build it", 1, 3),
            ("Phase 3: Launch", 0, 1)
        ]
    );
    assert_eq!(steps.phase(), Some("execution"));
    assert_eq!(steps.current().unwrap().heading, "Phase 2: Build it");
    assert_eq!(steps.last_updated.as_deref(), Some("2026-01-25"));
}

#[test]
fn the_phase_follows_nexus_rule() {
    let planning = read_steps(file(
        "s",
        "## Phase 1: P\n- [x] a\n- [ ] b\n## Phase 2\n- [ ] c\n",
    ));
    assert_eq!(planning.phase(), Some("planning"));
    let done = read_steps(file("s", "## Phase 1: P\n- [x] a\n## Phase 2\n- [x] c\n"));
    assert_eq!((done.phase(), done.current()), (Some("complete"), None));
    assert_eq!(read_steps(file("s", "# nothing\n")).phase(), None);
}

#[test]
fn overview_frontmatter_and_older_bold_lines() {
    let (o, d) = read_overview(file("o.md", OVERVIEW));
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(o.id.as_deref(), Some("04-onboarding"));
    assert_eq!(o.name.as_deref(), Some("Improved Onboarding"));
    assert_eq!(o.status.as_deref(), Some("IN_PROGRESS"));
    assert_eq!(o.created.as_deref(), Some("2026-01-23"));

    let older = "# Data Sync - Overview\n\n**Build Type**: Generic\n**Created**: 2025-12-01\n**Status**: Planning\n";
    let (o, _) = read_overview(file("o.md", older));
    assert_eq!(o.name.as_deref(), Some("Data Sync"));
    assert_eq!(o.status.as_deref(), Some("Planning"));
    assert_eq!(o.created.as_deref(), Some("2025-12-01"));
    for (heading, name) in [
        ("# Runbooks: overview\n", "Runbooks"),
        ("# Sync — Overview\n", "Sync"),
        ("# Overview\n", "Overview"),
        ("# Plain name\n", "Plain name"),
    ] {
        let (o, _) = read_overview(file("o.md", heading));
        assert_eq!(o.name.as_deref(), Some(name), "{heading}");
    }
}

#[test]
fn a_build_without_manifest_is_listed_with_nothing_to_resume_from() {
    let dir = "02-builds/active/04-onboarding";
    let overview_path = format!("{dir}/01-planning/01-overview.md");
    let steps_path = format!("{dir}/01-planning/04-steps.md");
    let files = BuildFiles {
        overview: Some(file(&overview_path, OVERVIEW)),
        steps: Some(file(&steps_path, STEPS)),
    };
    let p = build_without_manifest(dir, files).unwrap();
    assert_eq!(p.shape, Shape::NexusNoManifest);
    assert_eq!(p.source, overview_path);
    assert_eq!(p.id, "04-onboarding");
    assert_eq!(p.name.as_deref(), Some("Improved Onboarding"));
    assert!(p.manifest.is_none());
    let s = &p.summary;
    assert_eq!(s.status.as_deref(), Some("IN_PROGRESS"));
    assert_eq!(s.phase.as_deref(), Some("execution"));
    assert_eq!(s.phase_name.as_deref(), Some("Phase 2: Build it"));
    assert_eq!(s.activity.as_deref(), Some("4 of 8 steps checked"));
    // The steps' own date is newer news than the creation date.
    assert_eq!(s.updated_at_raw.as_deref(), Some("2026-01-25"));
    assert_eq!(
        s.sources.updated_at.as_deref(),
        Some(format!("{steps_path}: Last Updated").as_str())
    );
    assert!(
        p.diagnostics
            .iter()
            .any(|d| d.message.starts_with(NOTHING_TO_RESUME)),
        "{:?}",
        p.diagnostics
    );

    // Steps alone: the folder names it, and the creation date is unknown.
    let only_steps = BuildFiles {
        overview: None,
        steps: Some(file(&steps_path, "## Phase 1\n- [x] a\n")),
    };
    let p = build_without_manifest(dir, only_steps).unwrap();
    assert_eq!(
        (p.id.as_str(), p.source.as_str()),
        ("04-onboarding", steps_path.as_str())
    );
    assert_eq!(p.summary.status.as_deref(), Some("COMPLETE"));
    assert!(build_without_manifest(dir, BuildFiles::default()).is_none());
}

#[test]
fn the_overview_fills_gaps_and_a_disagreement_is_said() {
    let manifest = "---\nresume_schema_version: \"2.0\"\nbuild_id: \"04-onboarding\"\ncurrent_phase: \"execution\"\ntotal_tasks: 8\ntasks_completed: 2\n---\nbody\n";
    let dir = "02-builds/active/04-onboarding";
    let mut p = normalize_manifest(
        &format!("{dir}/01-planning/resume-context.md"),
        dir,
        manifest,
    );
    let done = "---\nname: Onboarding\nstatus: ✅ COMPLETE\ncreated: 2026-01-23\n---\n";
    apply_build_files(
        &mut p,
        BuildFiles {
            overview: Some(file("o.md", done)),
            steps: Some(file("s.md", STEPS)),
        },
    );
    assert_eq!(p.name.as_deref(), Some("Onboarding"));
    // COMPLETE in the overview: the build is finished, and the manifest disagrees.
    assert_eq!(p.summary.status.as_deref(), Some("COMPLETE"));
    assert_eq!(p.summary.contradictions.len(), 1, "{:?}", p.summary);
    // The manifest's own phase stays; a finished build has no current section.
    assert_eq!(p.summary.phase.as_deref(), Some("execution"));
    assert_eq!(p.summary.phase_name, None);
    assert!(
        p.diagnostics
            .iter()
            .any(|d| d.message.contains("4 of 8 steps checked here")),
        "{:?}",
        p.diagnostics
    );
    assert_eq!(p.summary.updated_at_raw.as_deref(), Some("2026-01-25"));
}

#[test]
fn planning_status_is_kept_as_written() {
    assert_eq!(status_word("Planning"), "PLANNING");
    assert_eq!(status_word("in progress"), "IN_PROGRESS");
    assert_eq!(status_word("✅ COMPLETE"), "COMPLETE");
}
