//! `quality_trajectory` and `defect_summary` (seed 002, sub-sections 3 and 4).

use yaml_serde::Value;

use super::ctx::{Ctx, child, kind};
use super::fields::Fields;
use crate::core::model::{DefectPattern, DefectSummary, GateCompletion, QualityTrajectory};
use crate::core::normalize::value::{float, get, get_text, get_text_list, key_text, text, to_json};

const TRAJECTORY_KEYS: &[&str] = &[
    "gates_completed",
    "gates_remaining",
    "current_gate",
    "current_gate_iteration",
    "score_history",
    "lowest_dimension",
    "total_iterations_used",
    "total_iterations_budget",
];

/// `None` when the value is not a map (kept as an other field by the caller).
pub(super) fn read_trajectory(
    value: &Value,
    ctx: &mut Ctx,
    path: &[&str],
) -> Option<Option<QualityTrajectory>> {
    if !is_section(value, ctx, path)? {
        return Some(None);
    }
    let mut other = ctx.other_fields(value, TRAJECTORY_KEYS);
    let gates_completed = gates_completed(value, ctx, path);
    let gates_remaining = list_of_text(value, "gates_remaining", ctx, path);
    let score_history = score_history(value, ctx, path);
    let mut f = Fields::new(value, path).keeping(&mut other);
    let current_gate = f.text(ctx, "current_gate");
    let current_gate_iteration = f.int(ctx, "current_gate_iteration");
    let lowest_dimension = f.text(ctx, "lowest_dimension");
    let total_iterations_used = f.int(ctx, "total_iterations_used");
    let total_iterations_budget = f.int(ctx, "total_iterations_budget");
    let q = QualityTrajectory {
        gates_completed,
        gates_remaining,
        current_gate,
        current_gate_iteration,
        score_history,
        lowest_dimension,
        total_iterations_used,
        total_iterations_budget,
        other,
    };
    Some(Some(q))
}

fn gates_completed(value: &Value, ctx: &mut Ctx, path: &[&str]) -> Vec<GateCompletion> {
    let at = child(path, "gates_completed");
    let items = match get(value, "gates_completed") {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Sequence(items)) => items,
        Some(other) => {
            ctx.warn(
                &at,
                format!("expected a list, found {}; ignored", kind(other)),
            );
            return Vec::new();
        }
    };
    let mut gates = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let index = format!("[{i}]");
        if let Some(id) = text(item) {
            gates.push(GateCompletion {
                id,
                ..GateCompletion::default()
            });
        } else if item.is_mapping() {
            let item_path = child(&at, &index);
            match get_text(item, "id").or_else(|| get_text(item, "gate")) {
                Some(id) => {
                    let mut f = Fields::new(item, &item_path);
                    gates.push(GateCompletion {
                        id,
                        score: f.float(ctx, "score"),
                        iterations: f.int(ctx, "iterations"),
                        date: f.text(ctx, "date"),
                        note: f.text(ctx, "note"),
                    });
                    note_unshown_keys(
                        item,
                        &["id", "gate", "score", "iterations", "date", "note"],
                        ctx,
                        &item_path,
                    );
                }
                None => ctx.warn(&item_path, "this entry has no `id`; skipped"),
            }
        } else if !item.is_null() {
            ctx.warn(
                &child(&at, &index),
                format!("expected a gate id or map, found {}; skipped", kind(item)),
            );
        }
    }
    gates
}

fn score_history(value: &Value, ctx: &mut Ctx, path: &[&str]) -> Vec<(String, Vec<f64>)> {
    let at = child(path, "score_history");
    let map = match get(value, "score_history") {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Mapping(map)) => map,
        Some(other) => {
            ctx.warn(
                &at,
                format!(
                    "expected a map of gate → scores, found {}; ignored",
                    kind(other)
                ),
            );
            return Vec::new();
        }
    };
    let mut history = Vec::new();
    for (k, v) in map {
        let gate = key_text(k);
        let scores = match v {
            Value::Sequence(items) => items.as_slice(),
            Value::Null => &[],
            single => std::slice::from_ref(single),
        };
        let mut kept = Vec::new();
        for score in scores {
            match float(score) {
                Some(f) => kept.push(f),
                None => ctx.warn(
                    &child(&at, &gate),
                    format!("{} is not a score; skipped", to_json(score)),
                ),
            }
        }
        history.push((gate, kept));
    }
    history
}

fn list_of_text(value: &Value, key: &str, ctx: &mut Ctx, path: &[&str]) -> Vec<String> {
    if let Some(v) = get(value, key).filter(|v| v.is_mapping()) {
        ctx.warn(
            &child(path, key),
            format!("expected a list, found {}; ignored", kind(v)),
        );
        return Vec::new();
    }
    get_text_list(value, key)
}

const DEFECT_KEYS: &[&str] = &[
    "total_defects_found",
    "total_defects_resolved",
    "unresolved_defects",
    "recurring_patterns",
    "last_gate_primary_defect",
];

pub(super) fn read_defects(
    value: &Value,
    ctx: &mut Ctx,
    path: &[&str],
) -> Option<Option<DefectSummary>> {
    if !is_section(value, ctx, path)? {
        return Some(None);
    }
    let unresolved = match get(value, "unresolved_defects") {
        Some(Value::Sequence(items)) => items
            .iter()
            .filter(|d| !d.is_null())
            .map(|d| {
                text(d)
                    .or_else(|| get_text(d, "id"))
                    .unwrap_or_else(|| to_json(d).to_string())
            })
            .collect(),
        _ => list_of_text(value, "unresolved_defects", ctx, path),
    };
    let recurring_patterns = patterns(value, ctx, path);
    let mut other = ctx.other_fields(value, DEFECT_KEYS);
    let mut f = Fields::new(value, path).keeping(&mut other);
    let total_defects_found = f.int(ctx, "total_defects_found");
    let total_defects_resolved = f.int(ctx, "total_defects_resolved");
    let last_gate_primary_defect = f.text(ctx, "last_gate_primary_defect");
    Some(Some(DefectSummary {
        total_defects_found,
        total_defects_resolved,
        unresolved_defects: unresolved,
        recurring_patterns,
        last_gate_primary_defect,
        other,
    }))
}

/// Keys of a list entry the model has no place for are named in a note, not dropped silently.
pub(super) fn note_unshown_keys(item: &Value, known: &[&str], ctx: &mut Ctx, path: &[&str]) {
    let extra: Vec<String> = item
        .as_mapping()
        .into_iter()
        .flatten()
        .map(|(k, _)| key_text(k))
        .filter(|k| !known.contains(&k.as_str()))
        .collect();
    if !extra.is_empty() {
        ctx.info(path, format!("keys not shown: {}", extra.join(", ")));
    }
}

fn patterns(value: &Value, ctx: &mut Ctx, path: &[&str]) -> Vec<DefectPattern> {
    let at = child(path, "recurring_patterns");
    let items = match get(value, "recurring_patterns") {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Sequence(items)) => items,
        Some(other) => {
            ctx.warn(
                &at,
                format!("expected a list, found {}; ignored", kind(other)),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if let Some(pattern) = text(item) {
            out.push(DefectPattern {
                pattern,
                ..DefectPattern::default()
            });
        } else if let Some(pattern) = get_text(item, "pattern") {
            let index = format!("[{i}]");
            let item_path = child(&at, &index);
            let resolution = Fields::new(item, &item_path).text(ctx, "resolution");
            out.push(DefectPattern {
                pattern,
                gates_affected: get_text_list(item, "gates_affected"),
                resolution,
            });
            note_unshown_keys(
                item,
                &["pattern", "gates_affected", "resolution"],
                ctx,
                &item_path,
            );
        } else if !item.is_null() {
            let index = format!("[{i}]");
            ctx.warn(&child(&at, &index), "this entry has no `pattern`; skipped");
        }
    }
    out
}

/// `Some(true)` for a map, `Some(false)` for null (no section), `None` for anything
/// else (reported as the wrong type).
fn is_section(value: &Value, ctx: &mut Ctx, path: &[&str]) -> Option<bool> {
    if value.is_null() {
        return Some(false);
    }
    if !value.is_mapping() {
        ctx.wrong_type(path, "a map", value);
        return None;
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trajectory(text_in: &str) -> (QualityTrajectory, Vec<String>) {
        let v: Value = yaml_serde::from_str(text_in).unwrap();
        let mut ctx = Ctx::new("f.yaml", text_in);
        let q = read_trajectory(&v, &mut ctx, &["resumption", "quality_trajectory"]);
        let warnings = ctx.diagnostics.iter().map(|d| d.message.clone()).collect();
        (q.unwrap().unwrap(), warnings)
    }

    #[test]
    fn gates_completed_as_ids() {
        let (q, warnings) = trajectory("gates_completed: [qg-1, qg-2]\ngates_remaining: [qg-3]\n");
        let ids: Vec<_> = q.gates_completed.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, vec!["qg-1", "qg-2"]);
        assert_eq!(q.gates_completed[0].score, None);
        assert_eq!(q.gates_remaining, vec!["qg-3"]);
        assert!(warnings.is_empty());
    }

    #[test]
    fn gates_completed_as_maps() {
        let (q, _) = trajectory(
            "gates_completed:\n  - id: qg-1\n    score: 0.941\n    iterations: 3\n    \
             date: '2026-02-17'\n    note: passed late\n  - qg-2\n  - {score: 0.9}\n",
        );
        assert_eq!(q.gates_completed.len(), 2);
        let g = &q.gates_completed[0];
        assert_eq!(
            (g.id.as_str(), g.score, g.iterations),
            ("qg-1", Some(0.941), Some(3))
        );
        assert_eq!(g.date.as_deref(), Some("2026-02-17"));
        assert_eq!(g.note.as_deref(), Some("passed late"));
        assert_eq!(q.gates_completed[1].id, "qg-2");
    }

    #[test]
    fn score_history_skips_non_numbers_with_a_warning_and_keeps_extra_keys() {
        let (q, warnings) = trajectory(
            "score_history:\n  qg-1: [0.825, '0.916', pending, 0.941]\n  qg-2: 0.96\n\
             leniency_bias_detected: true\ntotal_iterations_used: 5\n",
        );
        assert_eq!(
            q.score_history,
            vec![
                ("qg-1".to_string(), vec![0.825, 0.916, 0.941]),
                ("qg-2".to_string(), vec![0.96]),
            ]
        );
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("score_history.qg-1: \"pending\" is not a score"));
        assert_eq!(q.other["leniency_bias_detected"], serde_json::json!(true));
        assert_eq!(q.total_iterations_used, Some(5));
    }

    #[test]
    fn defect_summary_reads_patterns_and_keeps_other_keys() {
        let text_in = "total_defects_found: 14\nunresolved_defects: [D-1, {id: D-2}]\n\
            recurring_patterns:\n  - pattern: Evidence gaps\n    gates_affected: [qg-1]\n    \
            resolution: Added URLs\n  - Loose text\n  - {gates_affected: [qg-2]}\nextra: x\n";
        let v: Value = yaml_serde::from_str(text_in).unwrap();
        let mut ctx = Ctx::new("f.yaml", text_in);
        let d = read_defects(&v, &mut ctx, &["resumption", "defect_summary"])
            .unwrap()
            .unwrap();
        assert_eq!(d.total_defects_found, Some(14));
        assert_eq!(d.unresolved_defects, vec!["D-1", "D-2"]);
        assert_eq!(d.recurring_patterns.len(), 2);
        assert_eq!(d.recurring_patterns[0].gates_affected, vec!["qg-1"]);
        assert_eq!(d.recurring_patterns[1].pattern, "Loose text");
        assert_eq!(ctx.diagnostics.len(), 1);
        assert_eq!(d.other["extra"], serde_json::json!("x"));
    }

    #[test]
    fn a_list_where_a_map_belongs_is_a_type_problem() {
        let v: Value = yaml_serde::from_str("[1, 2]").unwrap();
        let mut ctx = Ctx::new("f.yaml", "");
        assert!(read_trajectory(&v, &mut ctx, &["q"]).is_none());
        assert!(read_defects(&v, &mut ctx, &["d"]).is_none());
        assert_eq!(ctx.diagnostics.len(), 2);
    }
}
