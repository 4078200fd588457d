//! Every path a corpus resumption prompt prints resolves from the workspace root,
//! or the prompt marks it as not found (issue 14). The corpus is read in place
//! from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/needs.rs"]
mod needs;

use resume_tui::core::model::ProjectKind;
use resume_tui::core::render::render_prompt;
use resume_tui::core::time::Timestamp;

/// The paths a Template 1 text names: the plan, each `[PRIORITY n]` file and the
/// `[CHECKPOINT]`, each with whether the line marks it as not found.
fn named_paths(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let rest = if let Some(plan) = line.strip_prefix("ORCHESTRATION PLAN: ") {
            if plan.starts_with("none listed") {
                continue;
            }
            plan
        } else if let Some((_, file)) = line.split_once("] ").filter(|(head, _)| {
            let head = head.trim_start_matches(|c: char| c.is_ascii_digit());
            head.starts_with(". [PRIORITY") || head.starts_with(". [CHECKPOINT")
        }) {
            file
        } else {
            continue;
        };
        let (path, marked) = match rest.split_once("  [not found") {
            Some((path, _)) => (path, true),
            None => (rest, false),
        };
        out.push((path.trim().to_string(), marked));
    }
    out
}

#[test]
fn the_reader_finds_plans_files_and_checkpoints() {
    let text = "ORCHESTRATION PLAN: a/PLAN.md  [not found]\n1. [PRIORITY 1] a/x.md\n\
                2. [NOTE] read the thing\n3. [CHECKPOINT] .jerry/checkpoints/cx-001.json\n";
    assert_eq!(
        named_paths(text),
        [
            ("a/PLAN.md".to_string(), true),
            ("a/x.md".to_string(), false),
            (".jerry/checkpoints/cx-001.json".to_string(), false)
        ]
    );
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_path_in_every_corpus_prompt_exists_or_is_marked_missing() {
    let now = Timestamp::parse("2026-03-01T00:00:00Z").unwrap();
    let (mut prompts, mut paths, mut marked) = (0, 0, 0);
    let mut problems = Vec::new();
    for (root, project) in needs::corpus_projects(now)
        .iter()
        .filter(|(_, project)| project.kind == ProjectKind::Jerry)
    {
        prompts += 1;
        for (path, is_marked) in named_paths(&render_prompt(project).text) {
            paths += 1;
            if is_marked {
                marked += 1;
            } else if !root.join(&path).exists() {
                problems.push(format!(
                    "{}/{}: \"{path}\" neither exists from the root nor is marked",
                    root.display(),
                    project.source
                ));
            }
        }
    }
    eprintln!("{prompts} prompts, {paths} paths, {marked} marked not found");
    assert!(prompts >= 39, "only {prompts} prompts");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
