//! Issue 34, "Nexus prompts say only what is true", on every manifest of the
//! shared corpus: each loading sequence is read against its manifest and its
//! build folder by a reader of this test's own (the folder listed here, the body
//! scanned here). The corpus is read in place from `$RESUME_TUI_CORPUS`
//! (tests/support/needs.rs).

#[path = "support/needs.rs"]
mod needs;

use std::path::Path;

use resume_tui::config::Config;
use resume_tui::core::model::{Project, ProjectKind};
use resume_tui::core::render::{NexusInput, Style, render_nexus};
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::io::load::load_workspace;

const NEXUS: &str = "DorianSchlede+nexus-template";

fn sequences(corpus: &Path) -> Vec<(Project, String)> {
    let root = corpus.join(NEXUS);
    let now = Timestamp::parse("2026-03-01T00:00:00Z").unwrap();
    let ws = load_workspace(&root, &Env::default(), now, &Config::default());
    ws.projects
        .into_iter()
        .filter(|p| p.kind == ProjectKind::Nexus)
        .filter_map(|p| {
            let manifest = p.manifest.clone()?;
            let abs_dir = root.join(&p.dir).display().to_string();
            let text = render_nexus(&NexusInput {
                project: &p,
                manifest: &manifest,
                abs_dir: &abs_dir,
                confidence: None,
                style: Style::Plain,
            })
            .text;
            Some((p, text))
        })
        .collect()
}

/// A markdown heading's words, lower case (`### Next Steps (Phase 2)` → "next steps (phase 2)").
fn headings(body: &str) -> Vec<String> {
    let mut fenced = false;
    body.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            !fenced
        })
        .filter_map(|l| {
            let t = l.trim_start_matches('#');
            (t.len() < l.len() && t.starts_with(' ')).then(|| t.trim().to_lowercase())
        })
        .collect()
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_corpus_loading_sequence_names_only_what_exists() {
    let corpus = needs::corpus();
    let all = sequences(&corpus);
    assert!(all.len() >= 36, "only {} sequences", all.len());
    let mut problems = Vec::new();
    for (project, text) in &all {
        let build = corpus.join(NEXUS).join(&project.dir);
        let body = &project.manifest.as_ref().unwrap().body;
        // The file names a question points at must exist in the build.
        for line in text.lines().filter(|l| l.contains("? (from ")) {
            let from = line
                .rsplit_once("(from ")
                .map(|(_, f)| f.trim_end_matches(')'))
                .unwrap();
            if from != "the resume file" && !build.join(from).exists() {
                problems.push(format!(
                    "{}: {line:?} names a file the build lacks",
                    project.id
                ));
            }
        }
        for bare in [
            "(from overview.md)",
            "(from steps.md)",
            "(from plan.md)",
            "_resume.md file contains",
        ] {
            if text.contains(bare) {
                problems.push(format!("{}: says {bare:?}", project.id));
            }
        }
        let asks = headings(body).iter().any(|h| {
            h.contains("validation")
                && ["question", "gate", "checklist"]
                    .iter()
                    .any(|w| h.contains(w))
        });
        if text.contains("Validation questions you MUST answer") != asks
            || text.contains("The resume file has validation questions") != asks
        {
            problems.push(format!(
                "{}: claims validation questions: {}, body has a validation section: {asks}",
                project.id, !asks
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn the_next_action_and_next_steps_sit_above_the_sequence() {
    let corpus = needs::corpus();
    let (mut with_steps, mut problems) = (0, Vec::new());
    for (project, text) in sequences(&corpus) {
        let step1 = text.find("STEP 1").unwrap();
        match text.find("\nNEXT ACTION: ") {
            Some(at) if at < step1 => {}
            _ => problems.push(format!("{}: no NEXT ACTION above STEP 1", project.id)),
        }
        let manifest = project.manifest.as_ref().unwrap();
        if let Some(action) = manifest
            .next_action
            .as_deref()
            .filter(|a| !["", "none"].contains(&a.trim()))
            && !text.contains(&format!("\nNEXT ACTION: {}\n", action.trim()))
        {
            problems.push(format!(
                "{}: next_action {action:?} not in the header",
                project.id
            ));
        }
        let next_heading = headings(&manifest.body).into_iter().find(|h| {
            h.trim_matches('*')
                .split(|c: char| !c.is_alphanumeric())
                .next()
                == Some("next")
        });
        if next_heading.is_some() {
            with_steps += 1;
            match text.find("\nNEXT STEPS (the resume file's ") {
                Some(at) if at < step1 => {}
                _ => problems.push(format!(
                    "{}: the body's {next_heading:?} section is not shown above STEP 1",
                    project.id
                )),
            }
        }
    }
    assert!(
        with_steps >= 8,
        "only {with_steps} bodies with a Next section"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn a_finished_build_is_never_told_to_execute_a_next_action_of_none() {
    let corpus = needs::corpus();
    let (mut finished, mut problems) = (0, Vec::new());
    for (project, text) in sequences(&corpus) {
        if ["NEXT ACTION: none", "Skill: none", "Continue from: none"]
            .iter()
            .any(|said| text.contains(said))
        {
            problems.push(format!("{}: executes \"none\"", project.source));
        }
        if project.summary.status.as_deref() == Some("COMPLETE") {
            finished += 1;
            if !text.contains("FINISHED: this build is marked COMPLETE") {
                problems.push(format!(
                    "{}: finished, the prompt does not say so",
                    project.source
                ));
            }
            if text.contains("Skill: ") {
                problems.push(format!(
                    "{}: finished, yet told to run a skill",
                    project.source
                ));
            }
        }
        let manifest = project.manifest.as_ref().unwrap();
        if manifest.current_task.is_none()
            && manifest.continue_at.is_none()
            && let Some(section) = &manifest.current_section
            && text.contains(&format!("CURRENT TASK: {section}\n"))
        {
            problems.push(format!(
                "{}: section {section} shown as the task",
                project.source
            ));
        }
    }
    assert!(finished >= 8, "only {finished} finished builds");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn an_archived_build_says_so_in_its_prompt() {
    let corpus = needs::corpus();
    let (mut archived, mut problems) = (0, Vec::new());
    for (project, text) in sequences(&corpus) {
        let in_archive = project.source.split('/').any(|f| f == "05-archived");
        let says = text
            .find("ARCHIVED: this build lies in 05-archived/")
            .is_some_and(|at| at < text.find("PROJECT DETECTED").unwrap());
        archived += usize::from(in_archive);
        if says != in_archive {
            problems.push(format!(
                "{}: archived {in_archive}, prompt says so {says}",
                project.source
            ));
        }
    }
    assert!(archived >= 15, "only {archived} archived builds");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn a_phase_the_body_reports_done_is_never_shown_as_current_without_a_note() {
    let corpus = needs::corpus();
    let (mut ahead, mut problems) = (0, Vec::new());
    for (project, text) in sequences(&corpus) {
        let manifest = project.manifest.as_ref().unwrap();
        let Some(phase) = manifest.current_phase.as_deref() else {
            continue;
        };
        let done = format!("{} complete", phase.to_lowercase().replace('-', " "));
        let reported = manifest.body.lines().any(|line| {
            let line = line.to_lowercase();
            (line.contains("**phase**:") || line.contains("**status**:")) && line.contains(&done)
        });
        if !reported {
            continue;
        }
        ahead += 1;
        if !text.contains(&format!(
            "CURRENT PHASE: {phase} [as current_phase says; behind newer evidence, see NOTE above]"
        )) || !text.contains("NOTE: the manifest is behind newer evidence")
        {
            problems.push(format!("{}: {done:?} in the body, no NOTE", project.source));
        }
    }
    assert!(ahead >= 2, "only {ahead} manifests whose body is ahead");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
