//! Issue 34, "what the file states, in the prompt", on every corpus Jerry
//! workflow. Each rule reads the YAML with a reader of its own (not the crate's)
//! and checks the prompt says what the file states: the gates when every one has
//! passed, scores kept in `barriers:` / `metrics.quality` with their iteration
//! counts, active blockers most severe first, the update time and staleness
//! verdict, the plan when `files_to_read` names none, every pipeline's phase.
//! The corpus is read in place from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/needs.rs"]
mod needs;

use resume_tui::core::model::{Project, ProjectKind};
use resume_tui::core::render::render_prompt;
use resume_tui::core::time::Timestamp;
use yaml_serde::Value;

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// `quality_gates:` entries as `(id, status)`: a list of maps with ids (also
/// under `quality_gates.gates`), or a map of gate maps keyed by id.
fn listed_gates(doc: &Value) -> Vec<(String, String)> {
    let block = doc.get("quality_gates");
    let inner = block.and_then(|b| b.get("gates"));
    match inner.or(block) {
        Some(Value::Sequence(items)) => items
            .iter()
            .filter_map(|g| Some((text(g.get("id")?)?, text(g.get("status")?)?)))
            .collect(),
        Some(Value::Mapping(map)) => map
            .iter()
            .filter_map(|(k, g)| Some((text(k)?, text(g.get("status")?)?)))
            .collect(),
        _ => Vec::new(),
    }
}

fn passed(status: &str) -> bool {
    let s = status.to_ascii_uppercase();
    s.contains("PASS") || s.contains("COMPLETE")
}

/// Scores kept outside `quality_gates`: a barrier's `quality.actual_score` or
/// `quality.actual_scores.composite`, `metrics.quality.scores[].score`,
/// `metrics.quality.<gate>_score` (not an average/min/max summary).
fn scores_outside(doc: &Value) -> Vec<(String, f64, Option<i64>)> {
    let mut found = Vec::new();
    if let Some(Value::Sequence(barriers)) = doc.get("barriers") {
        for b in barriers {
            let (Some(id), Some(q)) = (b.get("id").and_then(text), b.get("quality")) else {
                continue;
            };
            let score = q
                .get("actual_score")
                .and_then(number)
                .or_else(|| q.get("actual_scores")?.get("composite").and_then(number));
            if let Some(score) = score {
                found.push((id, score, None));
            }
        }
    }
    let Some(quality) = doc.get("metrics").and_then(|m| m.get("quality")) else {
        return found;
    };
    if let Some(Value::Sequence(list)) = quality.get("scores") {
        for s in list {
            let id = s.get("barrier").or_else(|| s.get("gate")).and_then(text);
            if let (Some(id), Some(score)) = (id, s.get("score").and_then(number)) {
                found.push((id, score, None));
            }
        }
    }
    for (k, v) in quality.as_mapping().into_iter().flatten() {
        let Some(key) = text(k) else { continue };
        let Some(id) = key.strip_suffix("_score") else {
            continue;
        };
        let summary = ["average", "avg", "min", "max", "lowest", "current", "mean"];
        if summary.iter().any(|s| id.starts_with(s) || id.ends_with(s)) {
            continue;
        }
        if let Some(score) = number(v) {
            let n = quality
                .get(format!("{id}_iterations"))
                .and_then(|n| n.as_i64());
            found.push((id.to_string(), score, n));
        }
    }
    found
}

/// `blockers.active` entries with an id, as `(id, severity)`.
fn active_blockers(doc: &Value) -> Vec<(String, String)> {
    let Some(Value::Sequence(list)) = doc.get("blockers").and_then(|b| b.get("active")) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|b| {
            let id = text(b.get("id")?)?;
            Some((id, b.get("severity").and_then(text).unwrap_or_default()))
        })
        .collect()
}

fn rank(severity: &str) -> u8 {
    match severity.to_ascii_uppercase().as_str() {
        "CRITICAL" => 0,
        "HIGH" => 1,
        "MEDIUM" => 2,
        "LOW" => 3,
        _ => 4,
    }
}

/// Pipelines under `pipelines:` that state a `current_phase`.
fn pipelines_with_a_phase(doc: &Value) -> Vec<String> {
    let Some(Value::Mapping(map)) = doc.get("pipelines") else {
        return Vec::new();
    };
    map.iter()
        .filter(|(_, p)| p.get("current_phase").and_then(text).is_some())
        .filter_map(|(k, _)| text(k))
        .collect()
}

/// Does `files_to_read` (or one of its other names) name a plan?
fn lists_a_plan(doc: &Value) -> bool {
    let Some(section) = doc.get("resumption") else {
        return false;
    };
    let lists = [
        "files_to_read",
        "key_reference_files",
        "key_artifacts_to_read",
    ];
    let files: Vec<&Value> = lists
        .iter()
        .filter_map(|k| section.get(*k)?.as_sequence())
        .flatten()
        .collect();
    files.iter().any(|f| {
        let path = text(f).or_else(|| f.get("path").and_then(text));
        path.is_some_and(|p| p.trim_end().ends_with("ORCHESTRATION_PLAN.md"))
    })
}

struct Tally {
    status_behind_score: usize,
    all_passed: usize,
    finished_with_open_gates: usize,
    outside: usize,
    blockers: usize,
    pipelines: usize,
    unlisted_plan: usize,
}

fn check(p: &Project, doc: &Value, prompt: &str, tally: &mut Tally, problems: &mut Vec<String>) {
    let mut fail = |what: String| problems.push(format!("{}: {what}", p.source));

    let gates = listed_gates(doc);
    let trajectory = doc
        .get("resumption")
        .and_then(|r| r.get("quality_trajectory"));
    let list_len = |key: &str| match trajectory.and_then(|t| t.get(key)) {
        Some(Value::Sequence(items)) => Some(items.len()),
        _ => None,
    };
    let no_current = trajectory
        .and_then(|t| t.get("current_gate"))
        .is_none_or(Value::is_null);
    let section_all_passed =
        list_len("gates_completed").unwrap_or(0) > 0 && list_len("gates_remaining") == Some(0);
    let listed_all_passed = !gates.is_empty() && gates.iter().all(|(_, s)| passed(s));
    if no_current && (section_all_passed || (trajectory.is_none() && listed_all_passed)) {
        tally.all_passed += 1;
        if prompt.contains("Current gate: unknown") {
            fail("every quality gate has passed, and the prompt's current gate is unknown".into());
        }
    }

    // A finished workflow whose trajectory still has gates to run says so.
    let finished = [
        doc.get("workflow").and_then(|w| w.get("status")),
        doc.get("resumption")
            .and_then(|r| r.get("recovery_state"))
            .and_then(|r| r.get("workflow_status")),
    ]
    .into_iter()
    .flatten()
    .filter_map(text)
    .any(|s| s.to_ascii_uppercase().starts_with("COMPLETE"));
    let open_gates = !no_current || list_len("gates_remaining").unwrap_or(0) > 0;
    if finished && trajectory.is_some() && open_gates {
        tally.finished_with_open_gates += 1;
        if !prompt.contains("but resumption.quality_trajectory still has") {
            fail("finished, with gates still open in the trajectory, and no NOTE line".into());
        }
    }

    let outside = scores_outside(doc);
    // A listed gate not passed, scored at or above its threshold elsewhere.
    if let Some(Value::Sequence(items)) = doc.get("quality_gates") {
        for g in items {
            let (Some(id), Some(status), Some(threshold)) = (
                g.get("id").and_then(text),
                g.get("status").and_then(text),
                g.get("threshold").and_then(number),
            ) else {
                continue;
            };
            let scored = outside
                .iter()
                .any(|(o, score, _)| *o == id && *score >= threshold);
            if !passed(&status) && g.get("score").is_none() && scored {
                tally.status_behind_score += 1;
                if !prompt.contains(&format!("quality_gates marks {id} {status}")) {
                    fail(format!(
                        "{id} is {status} but scored elsewhere, and no NOTE line"
                    ));
                }
            }
        }
    }
    if !outside.is_empty() {
        tally.outside += 1;
        if !prompt.contains("QUALITY TRAJECTORY:") || prompt.contains("Last gate score: none") {
            fail(format!(
                "scores outside quality_gates ({outside:?}) and no last gate score"
            ));
        }
        for (id, score, n) in &outside {
            let shown = format!("({id} iter ");
            if let (Some(n), Some(at)) = (n, prompt.find(&shown)) {
                let rest = &prompt[at + shown.len()..];
                if !rest.starts_with(&format!("{n})")) {
                    fail(format!(
                        "{id} {score} took {n} iterations (its _iterations key)"
                    ));
                }
            }
        }
    }

    let blockers = active_blockers(doc);
    if !blockers.is_empty() {
        tally.blockers += 1;
        let section = prompt.split("ACTIVE BLOCKERS (most severe first):").nth(1);
        match section {
            None => fail(format!(
                "active blockers {blockers:?} and no blocker section"
            )),
            Some(after) => {
                let mut order: Vec<(usize, u8)> = blockers
                    .iter()
                    .map(|(id, sev)| {
                        (
                            after.find(&format!("{id}:")).unwrap_or(usize::MAX),
                            rank(sev),
                        )
                    })
                    .collect();
                if order.iter().any(|(at, _)| *at == usize::MAX) {
                    fail(format!("a blocker of {blockers:?} is not in its section"));
                }
                order.sort();
                if order.windows(2).any(|w| w[0].1 > w[1].1) {
                    fail(format!("blockers {blockers:?} are not most severe first"));
                }
            }
        }
    }

    let when = p.summary.updated_at_raw.as_deref().unwrap_or("unknown");
    let verdict = p.staleness.level.label();
    if !prompt.contains(&format!("STATE AS OF: {}", flat(when)))
        || !prompt.contains(&format!("({verdict}"))
    {
        fail(format!("no 'STATE AS OF: {when} ({verdict}…' line"));
    }
    if let Some(reason) = p.staleness.reasons.first() {
        let reason = flat(reason.trim_end_matches('.'));
        if !prompt.contains(&reason) {
            fail(format!(
                "the staleness reason '{reason}' is not in the prompt"
            ));
        }
    }

    if !lists_a_plan(doc) {
        tally.unlisted_plan += 1;
        let sibling = match p.dir.as_str() {
            "" => "ORCHESTRATION_PLAN.md".to_string(),
            dir => format!("{dir}/ORCHESTRATION_PLAN.md"),
        };
        if !prompt.contains(&format!(
            "ORCHESTRATION PLAN: {sibling} [not found: files_to_read names no plan, and none \
             is beside the state file]"
        )) && !prompt.contains(&format!(
            "ORCHESTRATION PLAN: {sibling} [beside the state file"
        )) {
            fail(format!(
                "files_to_read names no plan; the prompt says nothing of {sibling}"
            ));
        }
    }

    let pipelines = pipelines_with_a_phase(doc);
    if pipelines.len() >= 2 {
        tally.pipelines += 1;
        let line = prompt
            .split("- Pipelines (active first): ")
            .nth(1)
            .and_then(|rest| rest.split(" - ").next())
            .unwrap_or_default();
        for name in &pipelines {
            if !line.contains(&format!("{name} phase")) {
                fail(format!(
                    "pipeline {name} has a phase and the prompt's pipelines line lacks it"
                ));
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_corpus_prompt_states_what_its_file_states() {
    let now = Timestamp::parse("2026-03-01T00:00:00Z").unwrap();
    let mut tally = Tally {
        status_behind_score: 0,
        all_passed: 0,
        finished_with_open_gates: 0,
        outside: 0,
        blockers: 0,
        pipelines: 0,
        unlisted_plan: 0,
    };
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
        check(p, &doc, &prompt, &mut tally, &mut problems);
    }
    eprintln!(
        "all gates passed {}, scores outside quality_gates {}, active blockers {}, \
         several pipelines {}, no plan listed {}",
        tally.all_passed, tally.outside, tally.blockers, tally.pipelines, tally.unlisted_plan
    );
    // The corpus has each case: the rules above were checked on real files.
    assert!(
        tally.all_passed >= 3,
        "all gates passed: {}",
        tally.all_passed
    );
    assert!(tally.outside >= 5, "scores outside: {}", tally.outside);
    assert!(
        tally.status_behind_score >= 2,
        "gate statuses behind scores: {}",
        tally.status_behind_score
    );
    assert!(
        tally.finished_with_open_gates >= 1,
        "finished with open gates: {}",
        tally.finished_with_open_gates
    );
    assert!(tally.blockers >= 1, "active blockers: {}", tally.blockers);
    assert!(
        tally.pipelines >= 5,
        "several pipelines: {}",
        tally.pipelines
    );
    assert!(
        tally.unlisted_plan >= 5,
        "no plan listed: {}",
        tally.unlisted_plan
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
