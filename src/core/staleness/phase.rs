//! When did the current phase start? Jerry files record `started_at` on phase
//! entries under `pipelines.<name>.phases[]` (or a top-level `phases:`).

use yaml_serde::Value;

use crate::core::normalize::value::{get, get_text, text};
use crate::core::time::Timestamp;

const START_KEYS: &[&str] = &["started_at", "start_time", "started"];
const ACTIVE_STATUSES: &[&str] = &[
    "in_progress",
    "in-progress",
    "active",
    "running",
    "executing",
];

/// The start of the current phase recorded in an ORCHESTRATION.yaml document.
/// `current_phase` is the phase as the resumption section or status fields give it
/// (`3`, `"phase-3"`); when it is unknown, each pipeline's own `current_phase` is
/// used, then a phase whose status says it is running. The latest match wins.
pub fn phase_started_at(doc: &Value, current_phase: Option<&str>) -> Option<Timestamp> {
    let mut starts = Vec::new();
    for pipeline in children(get(doc, "pipelines")) {
        let own = get_text(pipeline, "current_phase");
        let wanted = current_phase.map(str::to_string).or(own);
        collect(get(pipeline, "phases"), wanted.as_deref(), &mut starts);
    }
    collect(get(doc, "phases"), current_phase, &mut starts);
    starts.into_iter().max()
}

fn collect(phases: Option<&Value>, wanted: Option<&str>, starts: &mut Vec<Timestamp>) {
    for (key, phase) in entries(phases) {
        let id = ["id", "phase", "number"]
            .iter()
            .find_map(|k| get_text(phase, k))
            .or(key);
        let matches = match (wanted, id.as_deref()) {
            (Some(wanted), Some(id)) => same_phase(wanted, id),
            (Some(_), None) => false,
            (None, _) => get_text(phase, "status")
                .is_some_and(|s| ACTIVE_STATUSES.contains(&s.to_ascii_lowercase().as_str())),
        };
        if matches {
            let start = START_KEYS
                .iter()
                .find_map(|k| get_text(phase, k))
                .and_then(|t| Timestamp::parse(&t));
            starts.extend(start);
        }
    }
}

/// Values of a mapping or items of a list.
fn children(value: Option<&Value>) -> Vec<&Value> {
    entries(value).into_iter().map(|(_, v)| v).collect()
}

/// Items of a list (no key) or entries of a mapping (key as text).
fn entries(value: Option<&Value>) -> Vec<(Option<String>, &Value)> {
    match value {
        Some(Value::Sequence(items)) => items.iter().map(|v| (None, v)).collect(),
        Some(Value::Mapping(map)) => map.iter().map(|(k, v)| (text(k), v)).collect(),
        _ => Vec::new(),
    }
}

/// `3`, `"3"`, `"phase-3"`, `"Phase 3"` and `"phase-3-analysis"` name the same phase.
pub fn same_phase(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    match (first_number(a), first_number(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn first_number(s: &str) -> Option<u64> {
    let digits: String = s
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}
