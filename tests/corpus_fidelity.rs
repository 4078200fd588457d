//! What resume-tui shows matches what the corpus files say: for every Jerry
//! workflow, the phase, status, current gate and last score are shown whenever
//! the file states them anywhere. "States" is judged here by a reader written
//! independently of the normaliser: any non-empty scalar under a key of that
//! name in the file's maps (not inside lists, not under `resumption.other`-like
//! history), or a phase / gate list entry marked under way. The table printed
//! is the one docs/fidelity.md holds. The corpus is read in place from
//! `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/needs.rs"]
mod needs;

use resume_tui::config::Config;
use resume_tui::core::model::{Project, ProjectKind};
use resume_tui::core::normalize::jerry::parse::parse_slow;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::io::load::load_workspace;
use yaml_serde::Value;

/// Every non-empty scalar under a key in `names`, found through maps only, at
/// most `depth` keys deep, with its dotted key.
/// Keys named `phase_N` or `phase_N_<words>` at any depth (down to `depth` maps).
fn numbered_phase_keys(value: &Value, depth: usize, at: &str, out: &mut Vec<(String, String)>) {
    let Some(map) = value.as_mapping().filter(|_| depth > 0) else {
        return;
    };
    for (k, v) in map {
        let key = k.as_str().unwrap_or_default();
        let path = if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        };
        let numbered = key
            .strip_prefix("phase_")
            .and_then(|r| r.split('_').next())
            .is_some_and(|n| n.parse::<u32>().is_ok());
        if numbered && (v.is_mapping() || v.is_sequence()) {
            out.push((path.clone(), key.to_string()));
        }
        numbered_phase_keys(v, depth - 1, &path, out);
    }
}

fn stated(value: &Value, names: &[&str], depth: usize, at: &str, out: &mut Vec<(String, String)>) {
    let Some(map) = value.as_mapping() else {
        return;
    };
    for (k, v) in map {
        let key = k.as_str().map(str::to_string).unwrap_or_default();
        let path = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        if names.contains(&key.as_str()) {
            let text = match v {
                Value::String(s) => Some(s.trim().to_string()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            };
            if let Some(text) = text.filter(|t| !t.is_empty()) {
                out.push((path.clone(), text));
            }
        }
        if depth > 1 {
            stated(v, names, depth - 1, &path, out);
        }
    }
}

fn under_way(status: &str) -> bool {
    let s = status.to_ascii_uppercase().replace([' ', '-'], "_");
    s == "ACTIVE" || s.ends_with("IN_PROGRESS")
}

/// Entries of a list or a map, for `phases:` and `quality_gates:` / `gates:`.
fn entries(value: Option<&Value>) -> Vec<&Value> {
    match value {
        Some(Value::Sequence(items)) => items.iter().collect(),
        Some(Value::Mapping(map)) => map.values().collect(),
        _ => Vec::new(),
    }
}

fn status_of(entry: &Value) -> Option<&str> {
    entry.get("status").and_then(Value::as_str)
}

struct Facts {
    phase: Vec<(String, String)>,
    status: Vec<(String, String)>,
    gate: Vec<(String, String)>,
    scored: bool,
}

fn facts(doc: &Value) -> Facts {
    let mut phase = Vec::new();
    // Anywhere in the file: a `current_phase` / `phase` value or a `phase_N…` key.
    stated(doc, &["current_phase", "phase"], 8, "", &mut phase);
    numbered_phase_keys(doc, 8, "", &mut phase);
    if let Some(p) = entries(doc.get("phases"))
        .into_iter()
        .find(|e| status_of(e).is_some_and(under_way))
    {
        phase.push((
            "phases[…].status".into(),
            status_of(p).unwrap_or_default().into(),
        ));
    }
    if let Some(map) = doc.as_mapping() {
        for (k, v) in map {
            let key = k.as_str().unwrap_or_default();
            let numbered = key
                .strip_prefix("phase_")
                .and_then(|r| r.split('_').next())
                .is_some_and(|n| n.parse::<u32>().is_ok());
            if let (true, Some(st)) = (numbered, status_of(v)) {
                phase.push((format!("{key}.status"), st.to_string()));
            }
        }
    }
    let mut status = Vec::new();
    for block in ["workflow", "meta", "state", "orchestration"] {
        if let Some(b) = doc.get(block) {
            stated(b, &["status", "workflow_status"], 1, block, &mut status);
        }
    }
    stated(doc, &["status"], 1, "", &mut status);
    if let Some(Value::Mapping(pipes)) = doc.get("pipelines") {
        for p in pipes.values() {
            stated(p, &["status"], 1, "pipelines.*", &mut status);
        }
    }
    if let Some(r) = doc.get("resumption") {
        stated(r, &["workflow_status"], 2, "resumption", &mut status);
    }
    let mut gate = Vec::new();
    stated(doc, &["current_gate"], 3, "", &mut gate);
    let gates = || {
        ["quality_gates", "gates"]
            .into_iter()
            .flat_map(|b| entries(doc.get(b)))
    };
    if let Some(g) = gates().find(|g| status_of(g).is_some_and(under_way)) {
        gate.push((
            "gates[…].status".into(),
            status_of(g).unwrap_or_default().into(),
        ));
    }
    let number = |v: Option<&Value>| v.is_some_and(|v| v.as_f64().is_some());
    let scored = gates().any(|g| {
        number(g.get("score"))
            || number(g.get("final_score"))
            || entries(g.get("iteration_scores"))
                .into_iter()
                .any(|s| s.as_f64().is_some() || number(s.get("score")))
            || entries(g.get("iteration_history"))
                .into_iter()
                .any(|s| number(s.get("score")))
    }) || doc
        .get("resumption")
        .and_then(|r| r.get("quality_trajectory"))
        .and_then(|q| q.get("score_history"))
        .is_some_and(|h| !entries(Some(h)).is_empty());
    Facts {
        phase,
        status,
        gate,
        scored,
    }
}

/// The first key below the top level named `phase` or `phase_N…`: a phase the
/// file names for something other than the workflow (a sub-plan, an experiment).
fn nested_phase_key(value: &Value, at: &str, depth: usize) -> Option<String> {
    let map = value.as_mapping()?;
    map.iter().find_map(|(k, v)| {
        let key = k.as_str().unwrap_or_default();
        let path = if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        };
        let named = key == "phase"
            || key
                .strip_prefix("phase_")
                .and_then(|r| r.split('_').next())
                .is_some_and(|n| n.parse::<u32>().is_ok());
        if named && depth > 0 && !v.is_bool() {
            return Some(path);
        }
        nested_phase_key(v, &path, depth + 1)
    })
}

/// Why a cell is empty, for the table's last column.
fn why_empty(doc: &Value, project: &Project) -> String {
    let s = &project.summary;
    let mut why = Vec::new();
    if s.phase.is_none() {
        why.push(match nested_phase_key(doc, "", 0) {
            Some(key) => format!(
                "no phase of the workflow: `{key}` is the phase of something inside it, not the workflow's"
            ),
            None => "no current phase, phase list, `phase_N:` block or `phase_N_completed` in the file".into(),
        });
    }
    if s.current_gate.is_none() {
        why.push("no current gate and no gate marked in progress".into());
    }
    if project.trajectory.last_score().is_none() {
        why.push("no scored gate".into());
    }
    if why.is_empty() {
        "—".into()
    } else {
        why.join("; ")
    }
}

fn cell(value: Option<&str>, source: Option<&str>) -> String {
    match (value, source) {
        (Some(v), Some(s)) => format!("{} ← `{s}`", v.replace('|', "/")),
        (Some(v), None) => v.replace('|', "/"),
        (None, _) => "—".into(),
    }
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_stated_phase_status_gate_and_score_is_shown() {
    let root = needs::corpus();
    let now = Timestamp::parse("2026-03-01T00:00:00Z").unwrap();
    let ws = load_workspace(&root, &Env::default(), now, &Config::default());
    let mut failures = Vec::new();
    let mut rows = 0;
    let jerry: Vec<&Project> = ws
        .projects
        .iter()
        .filter(|p| p.kind == ProjectKind::Jerry)
        .collect();
    println!(
        "| file | phase | status | current gate | last score | contradictions | why a cell is empty |"
    );
    println!("|---|---|---|---|---|---|---|");
    for project in jerry {
        let text = std::fs::read_to_string(root.join(&project.source)).unwrap();
        // The lenient reader (duplicate keys: the last wins, as Jerry's tools read them).
        let Ok(parsed) = parse_slow(&text) else {
            continue;
        };
        let doc = parsed.doc;
        rows += 1;
        let f = facts(&doc);
        let s = &project.summary;
        let mut missing = |stated: &[(String, String)], shown: bool, what: &str| {
            if !stated.is_empty() && !shown {
                failures.push(format!(
                    "{}: {what} stated at {:?} but not shown",
                    project.source, stated
                ));
            }
        };
        missing(&f.phase, s.phase.is_some(), "phase");
        missing(&f.status, s.status.is_some(), "status");
        missing(&f.gate, s.current_gate.is_some(), "current gate");
        if f.scored && project.trajectory.last_score().is_none() {
            failures.push(format!(
                "{}: scores stated but no last score shown",
                project.source
            ));
        }
        let score = project
            .trajectory
            .last_score()
            .map(|(gate, score)| format!("{gate} {score:.3}"));
        println!(
            "| `{}` | {} | {} | {} | {} | {} | {} |",
            project.source,
            cell(s.phase.as_deref(), s.sources.phase.as_deref()),
            cell(s.status.as_deref(), s.sources.status.as_deref()),
            cell(s.current_gate.as_deref(), s.sources.current_gate.as_deref()),
            score.unwrap_or_else(|| "—".into()),
            if s.contradictions.is_empty() {
                "—".to_string()
            } else {
                s.contradictions.join("; ").replace('|', "/")
            },
            why_empty(&doc, project)
        );
    }
    assert!(rows >= 39, "only {rows} workflows read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
