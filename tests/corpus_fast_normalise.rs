//! The pruned normaliser behind the hooks' and the dashboard's fast path
//! (`normalize_orchestration_pruned`, which parses only the entries it reads)
//! gives the same project as the full normaliser on every
//! ORCHESTRATION.yaml of the shared corpus, the demo and the test fixtures; the
//! only thing it may miss is a warning about an entry it did not read. The
//! hooks' cut (`resumption:` without its unknown keys) gives the hooks' reading
//! of the whole file.
//! The corpus test runs when `RESUME_TUI_CORPUS` names the corpus (tests/support/needs.rs).

#[path = "support/folder.rs"]
mod folder;
#[path = "support/needs.rs"]
mod needs;

use std::path::{Path, PathBuf};

use resume_tui::core::model::Project;
use resume_tui::core::model::Severity;
use resume_tui::core::normalize::jerry::prune::{Cut, prune, prune_for};
use resume_tui::core::normalize::jerry::{
    Reading, normalize_orchestration, normalize_orchestration_pruned,
    normalize_orchestration_pruned_with, normalize_orchestration_with,
};

fn yaml_files(root: &Path, found: &mut Vec<PathBuf>) {
    let yaml = folder::files_under(root)
        .into_iter()
        .filter(|path| folder::file_name(path).ends_with(".yaml"));
    found.extend(yaml);
}

fn without_diagnostics(project: &Project) -> Project {
    Project {
        diagnostics: Vec::new(),
        ..project.clone()
    }
}

/// Compares both normalisers on `path`; true when the fast path pruned the file.
fn same_project(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false; // not UTF-8: the loader refuses it before normalising
    };
    let source = path.display().to_string();
    let dir = path.parent().unwrap().display().to_string();
    let full = normalize_orchestration(&source, &dir, &text);
    let fast = normalize_orchestration_pruned(&source, &dir, &text);
    assert_eq!(
        without_diagnostics(&fast),
        without_diagnostics(&full),
        "{source}"
    );
    for diagnostic in &fast.diagnostics {
        assert!(
            full.diagnostics.contains(diagnostic),
            "{source}: the fast path adds {diagnostic}"
        );
    }
    let hooks_full = normalize_orchestration_with(&source, &dir, &text, Reading::ForHooks);
    let hooks_cut = normalize_orchestration_pruned_with(&source, &dir, &text, Reading::ForHooks);
    let errors = |p: &Project| {
        let errors = p
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error);
        errors.map(|d| d.message.clone()).collect::<Vec<_>>()
    };
    assert_eq!(errors(&hooks_cut), errors(&hooks_full), "{source}");
    assert_eq!(
        without_diagnostics(&hooks_cut),
        without_diagnostics(&hooks_full),
        "{source}: the hooks' cut"
    );
    prune(&text).is_some() && prune_for(&text, Cut::Hooks).is_some()
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_fast_normaliser_matches_the_full_one_on_every_corpus_file() {
    let mut files = Vec::new();
    yaml_files(&needs::corpus(), &mut files);
    files.retain(|f| {
        let name = f.file_name().unwrap().to_string_lossy();
        name.starts_with("ORCHESTRATION")
    });
    files.sort();
    assert!(files.len() >= 39, "only {} files", files.len());
    let refused: Vec<&PathBuf> = files.iter().filter(|f| !same_project(f)).collect();
    assert!(
        refused.is_empty(),
        "the fast path was not taken for {refused:?}"
    );
    // What it is for: most of each file is never parsed (13 % of the bytes are kept).
    let (mut total, mut kept) = (0, 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        total += text.len();
        kept += prune(&text).unwrap().text.len();
    }
    assert!(kept * 4 < total, "{kept} of {total} bytes kept");
}

#[test]
fn the_fast_normaliser_matches_the_full_one_on_the_demo_and_the_fixtures() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    yaml_files(&here.join("assets/demo"), &mut files);
    yaml_files(&here.join("tests/fixtures"), &mut files);
    files.sort();
    let pruned = files.iter().filter(|f| same_project(f)).count();
    assert!(
        pruned >= 10,
        "the fast path was taken for {pruned} files only"
    );
}
