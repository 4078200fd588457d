//! Nothing in the shared corpus is skipped silently (issue 14): every
//! ORCHESTRATION.yaml and Nexus manifest in it is a project, a legacy duplicate
//! said so, or excluded with a reason `list --all` shows; and the corpus's test
//! fixture (`…/03-working/test_data/…`) is excluded, not listed.

#[path = "support/needs.rs"]
mod needs;

use std::path::Path;

use resume_tui::config::Config;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::io::load::load_workspace;

fn state_files(root: &Path, rel: &str, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(root.join(rel)).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let child = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if entry.file_type().unwrap().is_dir() {
            state_files(root, &child, out);
        } else if matches!(
            name.as_str(),
            "ORCHESTRATION.yaml" | "resume-context.md" | "_resume.md"
        ) {
            out.push(child);
        }
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_state_file_is_listed_excluded_or_said_to_be_a_duplicate() {
    let root = needs::corpus();
    let now = Timestamp::parse("2026-03-01T00:00:00Z").unwrap();
    let ws = load_workspace(&root, &Env::default(), now, &Config::default());
    let mut files = Vec::new();
    state_files(&root, "", &mut files);
    assert!(files.len() > 50, "{}", files.len());
    for file in &files {
        let listed = ws.projects.iter().any(|p| &p.source == file);
        let excluded = ws.excluded.iter().any(|e| &e.path == file);
        let duplicate = ws
            .diagnostics
            .iter()
            .any(|d| &d.file == file && d.message.contains("legacy duplicate"));
        assert!(
            listed || excluded || duplicate,
            "{file}: neither listed, excluded nor reported"
        );
    }
    let fixture = ws
        .excluded
        .iter()
        .find(|e| e.path.contains("/test_data/"))
        .expect("the corpus's test fixture manifest is excluded");
    assert!(fixture.reason.contains("test-fixture"), "{fixture:?}");
    assert!(
        ws.projects
            .iter()
            .all(|p| !p.source.contains("/test_data/")),
        "no fixture is listed"
    );
}
