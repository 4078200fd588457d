//! Values the design schemas (seeds 002 and 004) bound that a type check lets
//! through: a timestamp without a zone, a negative phase, a score or a fill
//! outside 0–1, an empty `files_to_read`. `validate` reports each as a warning
//! (an error under `--strict`); reading stays tolerant.

use serde_json::Value;

use super::json_locate::Seg;
use super::schema_check::Finding;
use crate::core::model::Severity;

/// Every out-of-range value anywhere under `value`.
pub fn range_findings(value: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    walk(value, &mut Vec::new(), None, &mut out);
    out
}

fn walk(value: &Value, path: &mut Vec<Seg>, key: Option<&str>, out: &mut Vec<Finding>) {
    if let Some(key) = key {
        check(key, value, path, out);
    }
    match value {
        Value::Object(map) => {
            // Under `score_history` the keys are gate ids: their values are scores.
            let inherited = key.filter(|k| is_score(k) || is_fill(k));
            for (k, v) in map {
                path.push(Seg::key(k));
                let judged_as = match inherited {
                    Some(parent) if !is_ranged(k) && !is_time(k) && !v.is_object() => parent,
                    _ => k.as_str(),
                };
                walk(v, path, Some(judged_as), out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                // A list's items are judged by the key that holds the list.
                let inherited = key.filter(|k| is_score(k) || is_fill(k) || is_phase(k));
                walk(v, path, inherited, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn warn(out: &mut Vec<Finding>, path: &[Seg], message: String) {
    out.push(Finding {
        severity: Severity::Warning,
        path: path.to_vec(),
        message,
    });
}

fn check(key: &str, value: &Value, path: &[Seg], out: &mut Vec<Finding>) {
    if key == "files_to_read" && (value.is_null() || value.as_array().is_some_and(Vec::is_empty)) {
        warn(
            out,
            path,
            "is empty: a resumed session is given nothing to read (list at least this file)".into(),
        );
    }
    if let Some(n) = value.as_f64() {
        if is_phase(key) && n < 0.0 {
            warn(
                out,
                path,
                format!("a negative phase ({n}); phases count from 0"),
            );
        }
        if is_score(key) && !(0.0..=1.0).contains(&n) {
            warn(out, path, format!("a score outside 0.0–1.0 ({n})"));
        }
        if is_fill(key) && !(0.0..=1.0).contains(&n) {
            warn(
                out,
                path,
                format!("a fill outside 0.0–1.0 ({n}) is not a fraction; it is left unknown"),
            );
        }
    }
    if let Some(text) = value.as_str()
        && is_time(key)
        && lacks_zone(text)
    {
        warn(
            out,
            path,
            format!("timestamp \"{text}\" has no zone (write Z or an offset such as +01:00)"),
        );
    }
}

fn is_ranged(key: &str) -> bool {
    is_score(key) || is_fill(key) || is_phase(key)
}

fn is_phase(key: &str) -> bool {
    matches!(
        key,
        "current_phase" | "active_phase" | "affects_phases" | "phases_complete"
    )
}

fn is_score(key: &str) -> bool {
    key == "score"
        || key.ends_with("_score")
        || key == "score_history"
        || key == "iteration_scores"
        || key == "scores"
}

fn is_fill(key: &str) -> bool {
    key.contains("fill")
}

fn is_time(key: &str) -> bool {
    key.ends_with("_at") || key == "timestamp" || key == "last_updated"
}

/// A date with a time of day but no `Z` or `±hh:mm` after it.
fn lacks_zone(text: &str) -> bool {
    let text = text.trim();
    let Some(time) = text.get(10..).filter(|_| text.len() > 10) else {
        return false;
    };
    let has_date = text.as_bytes().get(4) == Some(&b'-') && text.as_bytes().get(7) == Some(&b'-');
    let has_time = time.starts_with(['T', 't', ' ']) && time.contains(':');
    if !(has_date && has_time) {
        return false;
    }
    let clock = time.get(1..).unwrap_or_default();
    let zoned = clock.ends_with(['Z', 'z'])
        || clock
            .rfind(['+', '-'])
            .is_some_and(|i| clock.get(i + 1..).is_some_and(|z| z.len() >= 2));
    !zoned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::normalize::schema_check::display_path;
    use serde_json::json;

    fn said(value: Value) -> Vec<String> {
        range_findings(&value)
            .iter()
            .map(|f| format!("{}: {}", display_path(&f.path), f.message))
            .collect()
    }

    #[test]
    fn each_out_of_range_value_is_named_at_its_path() {
        let got = said(json!({
            "recovery_state": {"current_phase": -1, "context_fill_at_update": 1.5,
                               "updated_at": "2026-03-01T11:00:00"},
            "files_to_read": [],
            "quality_trajectory": {"score_history": {"qg-1": [0.9, 1.2]}},
            "compaction_events": {"events": [{"timestamp": "2026-03-01 10:30", "estimated_fill_before": 0.9}]}
        }));
        assert_eq!(
            got,
            [
                "recovery_state.current_phase: a negative phase (-1); phases count from 0",
                "recovery_state.context_fill_at_update: a fill outside 0.0–1.0 (1.5) is not a fraction; it is left unknown",
                "recovery_state.updated_at: timestamp \"2026-03-01T11:00:00\" has no zone (write Z or an offset such as +01:00)",
                "files_to_read: is empty: a resumed session is given nothing to read (list at least this file)",
                "quality_trajectory.score_history.qg-1[1]: a score outside 0.0–1.0 (1.2)",
                "compaction_events.events[0].timestamp: timestamp \"2026-03-01 10:30\" has no zone (write Z or an offset such as +01:00)",
            ]
        );
    }

    #[test]
    fn values_in_range_and_zoned_or_date_only_times_pass() {
        let got = said(json!({
            "updated_at": "2026-03-01T11:00:00Z", "created_at": "2026-03-01T11:00:00+01:00",
            "last_updated": "2026-03-01", "timestamp": "2026-03-01T11:00:00.123-05:00",
            "current_phase": 0, "score": 1.0, "fill_percentage": 0.0,
            "files_to_read": ["a.md"], "affects_phases": [2, 3]
        }));
        assert!(got.is_empty(), "{got:#?}");
    }
}
