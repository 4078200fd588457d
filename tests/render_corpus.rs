//! Every project in the real corpus renders Template 1 (or the Nexus loading
//! sequence) with no template variable left and within Claude Code's limit; one
//! snapshot per Jerry resumption shape (v1, v2, other, none).
//!
//! The corpus is read in place from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/needs.rs"]
mod needs;

use std::path::Path;

use resume_tui::core::model::{Project, ProjectKind, Shape};
use resume_tui::core::normalize::jerry::normalize_orchestration;
use resume_tui::core::render::budget::INJECTION_LIMIT_CHARS;
use resume_tui::core::render::nexus::{NexusInput, Style};
use resume_tui::core::render::{Rendered, render_nexus, render_prompt};
use resume_tui::core::time::Timestamp;

/// `{WORKFLOW_ID}`-style template variables (upper case, digits, `_`), not any brace.
fn template_variables(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find('}') else { break };
        let name = &rest[..close];
        if !name.is_empty()
            && name.chars().any(|c| c.is_ascii_uppercase())
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            found.push(format!("{{{name}}}"));
        }
    }
    found
}

#[test]
fn the_variable_check_finds_variables_and_ignores_other_braces() {
    assert_eq!(
        template_variables("a {NEXT_ACTION} b {FILE_1_PATH}"),
        ["{NEXT_ACTION}", "{FILE_1_PATH}"]
    );
    assert!(template_variables("json {\"a\": 1} and {current_gate} and {} and {N}x").len() == 1);
}

fn render(root: &Path, project: &Project) -> Rendered {
    match project.kind {
        ProjectKind::Jerry => render_prompt(project),
        ProjectKind::Nexus => {
            let abs = root.join(&project.dir).display().to_string();
            render_nexus(&NexusInput {
                project,
                manifest: project
                    .manifest
                    .as_ref()
                    .expect("a Nexus project has a manifest"),
                abs_dir: &abs,
                confidence: None,
                style: Style::Emoji,
            })
        }
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_corpus_project_renders_within_budget_with_no_variable_left() {
    let now = Timestamp::parse("2026-03-01T00:00:00Z").unwrap();
    let mut rendered_count = 0;
    let mut problems = Vec::new();
    let mut largest = (0, String::new());
    for (root, project) in needs::corpus_projects(now).iter() {
        let out = render(root, project);
        rendered_count += 1;
        let name = format!("{}/{}", root.display(), project.source);
        let left = template_variables(&out.text);
        if !left.is_empty() {
            problems.push(format!("{name}: unreplaced {left:?}"));
        }
        if out.text.chars().count() > INJECTION_LIMIT_CHARS {
            problems.push(format!("{name}: {} characters", out.text.chars().count()));
        }
        if out.truncated && out.text.contains("truncated by resume-tui") {
            problems.push(format!("{name}: cut at the injection limit"));
        }
        if out.tokens_estimate > 2_000 {
            problems.push(format!(
                "{name}: {} tokens (budget 2,000)",
                out.tokens_estimate
            ));
        }
        if out.sources.first() != Some(&project.source) {
            problems.push(format!("{name}: sources {:?}", out.sources));
        }
        if out.tokens_estimate > largest.0 {
            largest = (out.tokens_estimate, name);
        }
    }
    assert!(
        rendered_count >= 60,
        "only {rendered_count} projects found under {}",
        needs::corpus().display()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    eprintln!(
        "{rendered_count} projects rendered; largest {} tokens: {}",
        largest.0, largest.1
    );
}

fn shape_snapshot(rel: &str, shape: Shape) -> String {
    let path = needs::corpus().join("geekatron+jerry").join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let project = normalize_orchestration(rel, dir, &text);
    assert_eq!(project.shape, shape, "{rel}");
    let out = render_prompt(&project);
    assert!(template_variables(&out.text).is_empty());
    out.text
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn template_1_for_a_v1_project() {
    let text = shape_snapshot(
        "projects/PROJ-004-context-resilience/ORCHESTRATION.yaml",
        Shape::V1,
    );
    insta::assert_snapshot!("corpus_v1", text);
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn template_1_for_a_v2_project() {
    let text = shape_snapshot(
        "projects/PROJ-010-cyber-ops/ORCHESTRATION.yaml",
        Shape::V2Nested,
    );
    insta::assert_snapshot!("corpus_v2", text);
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn template_1_for_an_other_shape_project() {
    let text = shape_snapshot(
        "projects/PROJ-007-jerry-bugs/orchestration/perf-plugin-investigation-20260114-001/ORCHESTRATION.yaml",
        Shape::Other,
    );
    insta::assert_snapshot!("corpus_other", text);
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn template_1_for_a_project_without_a_resumption_section() {
    let text = shape_snapshot(
        "projects/PROJ-001-oss-release/work/EPIC-001-oss-release/FEAT-003-claude-md-optimization/EN-202-claude-md-rewrite/orchestration/ORCHESTRATION.yaml",
        Shape::None,
    );
    insta::assert_snapshot!("corpus_none", text);
}
