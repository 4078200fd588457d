//! Every Jerry `ORCHESTRATION.yaml` in the shared corpus loads: no error, a next
//! step or a warning saying why there is none, and the shape counts we verified.
//! The corpus is read in place from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/folder.rs"]
mod folder;
#[path = "support/needs.rs"]
mod needs;

use std::collections::BTreeMap;

use resume_tui::core::model::{Severity, Shape};
use resume_tui::core::normalize::jerry::{normalize_orchestration, validate_orchestration};

/// Shape counts of the workflow files under `geekatron+jerry/` (templates excluded),
/// by how many there are: 39 in the shared corpus as checked in (counted by hand with
/// an independent script); 52 in the full set that the survey describes.
fn expected_counts(files: usize) -> Option<[(Shape, usize); 4]> {
    match files {
        39 => Some([
            (Shape::V1, 27),
            (Shape::V2Nested, 3),
            (Shape::Other, 1),
            (Shape::None, 8),
        ]),
        52 => Some([
            (Shape::V1, 32),
            (Shape::V2Nested, 6),
            (Shape::Other, 2),
            (Shape::None, 12),
        ]),
        _ => None,
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_orchestration_file_in_the_corpus_loads() {
    let root = needs::corpus();
    let files = folder::orchestration_files(&root);
    assert!(
        !files.is_empty(),
        "no ORCHESTRATION*.yaml under {}",
        root.display()
    );
    let mut workflow_counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut workflows = 0;
    let mut problems = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let project = normalize_orchestration(&rel, &dir, &text);
        for d in &project.diagnostics {
            println!("  {d}");
            if d.severity == Severity::Error {
                problems.push(format!("error: {d}"));
            }
        }
        for d in validate_orchestration(&rel, &text) {
            println!("  validate: {d}");
            if d.severity == Severity::Error {
                problems.push(format!("validate error: {d}"));
            }
        }
        let has_resumption = project.resumption.is_some();
        let next_step = project
            .summary
            .next_step
            .as_deref()
            .unwrap_or("")
            .trim()
            .to_string();
        let explained = project.diagnostics.iter().any(|d| {
            d.severity >= Severity::Warning
                && (d.message.contains("next_step") || d.message.contains("next step"))
        });
        if has_resumption && next_step.is_empty() && !explained {
            problems.push(format!(
                "{rel}: resumption gives no next step and no warning says why"
            ));
        }
        let is_template = rel.contains("/skills/") || rel.contains("template");
        println!(
            "{:<10} {rel} | trajectory: {:?} ({} gates) | next: {}",
            project.shape.label(),
            project.trajectory.source,
            project.trajectory.gates.len(),
            next_step.chars().take(60).collect::<String>()
        );
        if rel.starts_with("geekatron+jerry/") && !is_template {
            workflows += 1;
            *workflow_counts.entry(project.shape.label()).or_default() += 1;
        } else if rel.starts_with("geekatron+jerry/skills/") {
            assert_eq!(project.shape, Shape::V2Nested, "{rel}: the v2.0 template");
        } else if rel.starts_with("geekatron+jerry@2bac17c2-v1-snapshot/") {
            assert_eq!(project.shape, Shape::V1, "{rel}: the v1 template");
        }
    }
    println!("{workflows} workflow files under geekatron+jerry/: {workflow_counts:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let expected = expected_counts(workflows).unwrap_or_else(|| {
        panic!("{workflows} workflow files: no verified shape counts for a corpus of this size")
    });
    for (shape, count) in expected {
        assert_eq!(
            workflow_counts.get(shape.label()).copied().unwrap_or(0),
            count,
            "{} files in shape {}",
            count,
            shape.label()
        );
    }
}
