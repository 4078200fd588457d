//! The checks every migration passes before it is offered: the new text parses to
//! exactly the data intended (same values, same key order), and the file loads into
//! an equivalent model. Tests use the same comparisons.

use yaml_serde::Value;

use crate::core::model::{Project, Summary};
use crate::core::normalize::value::key_text;

/// A YAML error as `file:line:col: message`; `line_offset` is added to the line
/// (for frontmatter, whose YAML starts after the opening fence).
pub fn yaml_error(source: &str, e: &yaml_serde::Error, line_offset: usize) -> String {
    let at = e
        .location()
        .map(|at| (at.line(), at.column()))
        .or_else(|| crate::core::yaml::error_at::position_in(&e.to_string()));
    match at {
        Some((line, column)) => format!(
            "{source}:{}:{column}: not valid YAML: {e}",
            line + line_offset
        ),
        None => format!("{source}: not valid YAML: {e}"),
    }
}

/// `new_text` parses to exactly `expected` (values and key order).
pub fn same_data(expected: &Value, new_text: &str) -> Result<(), String> {
    let new: Value = yaml_serde::from_str(new_text).map_err(|e| yaml_error("result", &e, 0))?;
    match first_difference(expected, &new, String::new()) {
        None => Ok(()),
        Some(at) => Err(format!("differs at {}", at.trim_start_matches('.'))),
    }
}

/// Where two values first differ, comparing map keys in order; `None` if they do not.
pub fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Mapping(x), Value::Mapping(y)) => {
            for (i, ((ka, va), (kb, vb))) in x.iter().zip(y.iter()).enumerate() {
                if ka != kb {
                    return Some(format!(
                        "{at} (key {i}: {} vs {})",
                        key_text(ka),
                        key_text(kb)
                    ));
                }
                if let Some(found) = first_difference(va, vb, format!("{at}.{}", key_text(ka))) {
                    return Some(found);
                }
            }
            (x.len() != y.len()).then(|| format!("{at} ({} vs {} keys)", x.len(), y.len()))
        }
        (Value::Sequence(x), Value::Sequence(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if let Some(found) = first_difference(va, vb, format!("{at}[{i}]")) {
                    return Some(found);
                }
            }
            (x.len() != y.len()).then(|| format!("{at} (length)"))
        }
        _ => (a != b).then_some(at),
    }
}

fn same<T: PartialEq + std::fmt::Debug>(what: &str, a: &T, b: &T) -> Result<(), String> {
    if a == b {
        Ok(())
    } else {
        Err(format!("{what}: {a:?} became {b:?}"))
    }
}

/// A field known before must read the same after; a field unknown before may be filled.
fn kept<T: PartialEq + std::fmt::Debug>(
    what: &str,
    a: &Option<T>,
    b: &Option<T>,
) -> Result<(), String> {
    if a.is_some() {
        same(what, a, b)
    } else {
        Ok(())
    }
}

fn same_summary(a: &Summary, b: &Summary) -> Result<(), String> {
    same("next step", &a.next_step, &b.next_step)?;
    kept("status", &a.status, &b.status)?;
    kept("phase", &a.phase, &b.phase)?;
    kept("phase name", &a.phase_name, &b.phase_name)?;
    kept("activity", &a.activity, &b.activity)?;
    kept("updated at", &a.updated_at_raw, &b.updated_at_raw)?;
    kept("last checkpoint", &a.last_checkpoint, &b.last_checkpoint)
}

/// The same workflow before and after a resumption migration: next step, status,
/// files to read, decisions, agent summaries, compaction events, defects, other
/// fields and the score trajectory.
pub fn equivalent_jerry(before: &Project, after: &Project) -> Result<(), String> {
    same("id", &before.id, &after.id)?;
    same_summary(&before.summary, &after.summary)?;
    let gates = |p: &Project| -> Vec<(String, Vec<f64>)> {
        p.trajectory
            .gates
            .iter()
            .map(|g| (g.gate.clone(), g.scores.clone()))
            .collect()
    };
    same("score trajectory", &gates(before), &gates(after))?;
    let (Some(a), Some(b)) = (&before.resumption, &after.resumption) else {
        return same(
            "resumption section present",
            &before.resumption.is_some(),
            &after.resumption.is_some(),
        );
    };
    same("files to read", &a.files_to_read, &b.files_to_read)?;
    same("decisions", &a.decisions, &b.decisions)?;
    same("agent summaries", &a.agent_summaries, &b.agent_summaries)?;
    same("compaction events", &a.compaction, &b.compaction)?;
    same("defect summary", &a.defects, &b.defects)?;
    kept("quality trajectory", &a.quality, &b.quality)?;
    same("other fields", &a.other, &b.other)?;
    let (ra, rb) = (&a.recovery, &b.recovery);
    same("last checkpoint", &ra.last_checkpoint, &rb.last_checkpoint)?;
    same("next step", &ra.next_step, &rb.next_step)?;
    same(
        "fill at update",
        &ra.context_fill_at_update,
        &rb.context_fill_at_update,
    )?;
    same("updated at", &ra.updated_at_raw, &rb.updated_at_raw)?;
    same(
        "portable",
        &ra.cross_session_portable,
        &rb.cross_session_portable,
    )?;
    same(
        "ephemeral",
        &ra.ephemeral_references,
        &rb.ephemeral_references,
    )?;
    let prose = |r: &crate::core::model::RecoveryState| {
        r.current_state
            .clone()
            .or_else(|| r.current_activity.clone())
    };
    same("current state prose", &prose(ra), &prose(rb))
}

/// The same project before and after a manifest migration: id, name, status,
/// phase, next step, files to load and every other field (a renamed legacy
/// `resume_version` aside).
pub fn equivalent_nexus(before: &Project, after: &Project) -> Result<(), String> {
    same("id", &before.id, &after.id)?;
    kept("name", &before.name, &after.name)?;
    same_summary(&before.summary, &after.summary)?;
    let (Some(a), Some(b)) = (&before.manifest, &after.manifest) else {
        return Err("the manifest no longer reads".to_string());
    };
    let paths = |m: &crate::core::model::NexusManifest| -> Vec<String> {
        m.files_to_load.iter().map(|f| f.path.clone()).collect()
    };
    same("files to load", &paths(a), &paths(b))?;
    same("body", &a.body, &b.body)?;
    for (key, value) in &a.other {
        if key != "resume_version" {
            same(&format!("field {key}"), &Some(value), &b.other.get(key))?;
        }
    }
    Ok(())
}
