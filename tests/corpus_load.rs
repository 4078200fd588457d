//! The whole shared corpus loads as a workspace (discover → read → normalise →
//! assemble → staleness) without a panic and without an error: every corpus file
//! is well-formed, so any error would be a bug here. Counts per shape are printed.
//! The corpus is read in place from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/folder.rs"]
mod folder;
#[path = "support/needs.rs"]
mod needs;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use resume_tui::config::Config;
use resume_tui::core::model::{ProjectKind, Severity, Shape, Workspace};
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::io::load::{load_paths, load_workspace};

/// Corpus files that are malformed on purpose, with why. An error from any other
/// file fails the test. (None so far: even the Nexus test data marked "invalid"
/// is well-formed JSON that only breaks the schema, which is a warning.)
const GENUINELY_MALFORMED: &[(&str, &str)] = &[];

fn now() -> Timestamp {
    Timestamp::parse("2026-03-01T00:00:00Z").unwrap()
}

/// Every file under `root` whose name says it is state resume-tui reads, including
/// backups, templates and test data that discovery leaves out.
fn state_files(root: &Path) -> Vec<PathBuf> {
    let is_state = |name: &str| {
        name.starts_with("ORCHESTRATION") && name.ends_with(".yaml")
            || name.starts_with("resume-context.md")
            || name.starts_with("_resume.md")
            || name.starts_with("cx-") && name.ends_with(".json")
            || name.contains("precompact_state") && name.ends_with(".json")
    };
    folder::files_under(root)
        .into_iter()
        .filter(|path| is_state(&folder::file_name(path)))
        .collect()
}

fn errors(ws: &Workspace) -> Vec<String> {
    let project = ws.projects.iter().flat_map(|p| p.diagnostics.iter());
    project
        .chain(ws.diagnostics.iter())
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| {
            !GENUINELY_MALFORMED
                .iter()
                .any(|(file, _)| d.file.ends_with(file))
        })
        .map(ToString::to_string)
        .collect()
}

fn shape_counts(ws: &Workspace) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for project in &ws.projects {
        *counts.entry(project.shape.label()).or_insert(0) += 1;
    }
    counts
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_corpus_loads_as_a_workspace() {
    let root = needs::corpus();
    let started = std::time::Instant::now();
    let ws = load_workspace(&root, &Env::default(), now(), &Config::default());
    let elapsed = started.elapsed();

    let counts = shape_counts(&ws);
    let jerry = ws
        .projects
        .iter()
        .filter(|p| p.kind == ProjectKind::Jerry)
        .count();
    let nexus = ws.projects.len() - jerry;
    let checkpoints: usize = ws
        .projects
        .iter()
        .map(|p| p.checkpoints.len())
        .sum::<usize>()
        + ws.unassigned_checkpoints.len();
    println!(
        "corpus: {} projects ({jerry} jerry, {nexus} nexus), {checkpoints} checkpoints, \
         {} workspace notes, loaded in {elapsed:?}",
        ws.projects.len(),
        ws.diagnostics.len()
    );
    for (shape, n) in &counts {
        println!("  {shape:<22} {n}");
    }

    let errors = errors(&ws);
    assert!(
        errors.is_empty(),
        "errors on well-formed files:\n{}",
        errors.join("\n")
    );

    let files = state_files(&root);
    let workflows = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "ORCHESTRATION.yaml"))
        .count();
    assert_eq!(jerry, workflows, "every ORCHESTRATION.yaml is a project");
    let cx = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "json"))
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("cx-"))
        })
        .count();
    assert_eq!(checkpoints, cx, "every checkpoint file is read");
    assert!(nexus > 0, "no Nexus manifest found");
    assert!(
        !counts.contains_key(Shape::Unreadable.label()),
        "{counts:?}"
    );

    // Every resumption section gives a next step, or a warning says why not.
    for project in ws.projects.iter().filter(|p| p.resumption.is_some()) {
        let has_step = project
            .summary
            .next_step
            .as_deref()
            .is_some_and(|s| !s.trim().is_empty());
        let says_why = project
            .diagnostics
            .iter()
            .any(|d| d.severity >= Severity::Warning && d.message.contains("next_step"));
        assert!(
            has_step || says_why,
            "{}: no next step and no warning",
            project.source
        );
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_state_file_loads_when_named_explicitly() {
    let root = needs::corpus();
    let files = state_files(&root);
    assert!(
        files.len() > 100,
        "only {} state files under {}",
        files.len(),
        root.display()
    );
    let ws = load_paths(&root, &files, now(), &Config::default());
    let errors = errors(&ws);
    assert!(
        errors.is_empty(),
        "errors on well-formed files:\n{}",
        errors.join("\n")
    );
    let strangers: Vec<String> = ws
        .diagnostics
        .iter()
        .filter(|d| d.message.starts_with("not a file resume-tui reads"))
        .map(ToString::to_string)
        .collect();
    assert!(strangers.is_empty(), "{}", strangers.join("\n"));
    let checkpoints = ws.unassigned_checkpoints.len()
        + ws.projects
            .iter()
            .map(|p| p.checkpoints.len())
            .sum::<usize>();
    let precompact = usize::from(ws.precompact.is_some())
        + ws.diagnostics
            .iter()
            .filter(|d| d.message.starts_with("another precompact state"))
            .count();
    println!(
        "explicit: {} files → {} projects, {checkpoints} checkpoints, {precompact} precompact states",
        files.len(),
        ws.projects.len()
    );
    assert_eq!(
        ws.projects.len() + checkpoints + precompact,
        files.len(),
        "every file became a project, a checkpoint or a precompact state"
    );
}
