//! Issue 34, "the stale side": on every corpus workflow whose current phase (or
//! next step) is behind what the same file records as done, the prompt says so
//! in a NOTE line and marks the stale line with its key; and no prompt repeats a
//! done phase as current without that line. The corpus is read in place from
//! `$RESUME_TUI_CORPUS` (tests/support/needs.rs); the judgement here uses a
//! reader of its own (the phase lists of the YAML), not the crate's. Also: the
//! current gate `show --json` knows is the prompt's "Current gate".

#[path = "support/needs.rs"]
mod needs;

use resume_tui::core::model::{Project, ProjectKind};
use resume_tui::core::render::render_prompt;
use resume_tui::core::time::Timestamp;
use yaml_serde::Value;

fn done(status: &str) -> bool {
    let s = status.to_ascii_uppercase();
    ["COMPLETE", "COMPLETED", "DONE", "PASSED", "PASS"]
        .iter()
        .any(|w| s.ends_with(w))
}

fn bare(id: &str) -> String {
    id.trim()
        .to_ascii_lowercase()
        .trim_start_matches("phase")
        .trim_start_matches(['-', '_', ' '])
        .to_string()
}

/// Each phase list of the file as `(id, status)` in order.
fn phase_lists(doc: &Value) -> Vec<Vec<(String, String)>> {
    let mut holders = vec![doc.get("phases")];
    for key in ["pipelines", "pipeline"] {
        match doc.get(key) {
            Some(Value::Mapping(map)) if key == "pipelines" => {
                holders.extend(map.values().map(|p| p.get("phases")))
            }
            Some(p) => holders.push(p.get("phases")),
            None => {}
        }
    }
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    holders
        .into_iter()
        .flatten()
        .filter_map(|list| list.as_sequence())
        .map(|items| {
            items
                .iter()
                .filter_map(|p| Some((text(p.get("id")?)?, text(p.get("status")?)?)))
                .collect()
        })
        .collect()
}

/// The phase shown as current is done in a phase list that records a later
/// phase as done too.
fn shown_phase_is_behind(project: &Project, doc: &Value) -> bool {
    let Some(phase) = project.summary.phase.as_deref() else {
        return false;
    };
    phase_lists(doc).iter().any(|list| {
        let Some(at) = list.iter().position(|(id, _)| bare(id) == bare(phase)) else {
            return false;
        };
        done(&list[at].1) && list[at + 1..].iter().any(|(_, s)| done(s))
    })
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn no_corpus_prompt_repeats_a_done_phase_or_step_as_current_without_saying_so() {
    let now = Timestamp::parse("2026-03-01T00:00:00Z").unwrap();
    let (mut stale_phase, mut noted, mut gates) = (0, 0, 0);
    let mut problems = Vec::new();
    for (root, p) in needs::corpus_projects(now)
        .iter()
        .filter(|(_, p)| p.kind == ProjectKind::Jerry)
    {
        let text = std::fs::read_to_string(root.join(&p.source)).unwrap();
        let Ok(doc) = yaml_serde::from_str::<Value>(&text) else {
            continue;
        };
        let prompt = flat(&render_prompt(p).text);
        if prompt.contains("confirm with the operator") && p.summary.contradictions.is_empty() {
            problems.push(format!("{}: an alarm without a contradiction", p.source));
        }
        for line in &p.summary.behind {
            noted += 1;
            if !prompt.contains(&flat(line)) {
                problems.push(format!("{}: the prompt lacks \"{line}\"", p.source));
            }
        }
        if let Some(gate) = &p.summary.current_gate {
            gates += 1;
            if !prompt.contains(&format!("Current gate: {}", flat(gate))) {
                problems.push(format!(
                    "{}: current gate {gate} is not the prompt's",
                    p.source
                ));
            }
        }
        if shown_phase_is_behind(p, &doc) {
            stale_phase += 1;
            let key = p.summary.sources.phase.clone().unwrap_or_default();
            if !prompt.contains("NOTE: part of the state file is behind newer evidence")
                || !prompt.contains(&format!("[as {key} says; behind newer evidence"))
            {
                problems.push(format!(
                    "{}: phase {:?} ({key}) is done with a later phase done, and the prompt \
                     does not say so",
                    p.source, p.summary.phase
                ));
            }
        }
    }
    eprintln!("{stale_phase} prompts show a phase behind the phase list; {noted} NOTE lines");
    assert!(gates >= 2, "workflows with a current gate: {gates}");
    assert!(stale_phase >= 3, "the corpus has such files: {stale_phase}");
    assert!(
        noted >= stale_phase + 2,
        "finished workflows naming a phase as next: {noted}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
