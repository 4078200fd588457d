//! Where a workflow file keeps its state outside `resumption:`. Each fact (status,
//! phase, phase name, activity, current gate, last update) is taken from the
//! first place that holds it, in the order docs/formats.md states, and the key it
//! came from is recorded in `Summary::sources`.

use yaml_serde::Value;

use super::toplevel::first_next_action;
use crate::core::model::{PhaseProgress, PipelineState, Summary, SummarySources};
use crate::core::normalize::value::{get, get_text, key_text, text};
use crate::core::time::Timestamp;

/// A value and the dotted key it was read from.
/// A value and the key path it was read from.
type Sourced = (String, String);
type Found = Option<Sourced>;

/// Status fields outside `resumption:`, first place wins (see docs/formats.md).
pub(super) fn located_summary(doc: &Value) -> Summary {
    let pipelines = pipelines(doc);
    let active = pipelines.first();
    let phases = phase_entries(doc);
    let current = current_entry(&phases);
    let plain = |keys: &[&str], paths: &[&[&str]]| first_of(doc, keys, paths);
    let status = plain(&["status", "workflow_status"], STATUS_PLACES)
        .or_else(|| pipeline_field(active, "status", |p| p.status.clone()));
    let phase = plain(&["current_phase"], PHASE_PLACES)
        .or_else(|| pipeline_field(active, "current_phase", |p| p.phase.clone()))
        .or_else(|| current.map(|(at, e)| (e.id.clone(), format!("{at}.status"))));
    let phase_name = plain(&["current_phase_name"], PHASE_PLACES)
        .or_else(|| pipeline_phase_name(doc, active, phase.as_ref()))
        .or_else(|| {
            current
                .filter(|(_, e)| phase.as_ref().is_none_or(|(p, _)| same_phase(p, &e.id)))
                .and_then(|(at, e)| e.name.clone().map(|n| (n, format!("{at}.name"))))
        });
    let activity = plain(&["current_activity"], PHASE_PLACES).or_else(|| barrier(doc));
    let updated = plain(UPDATE_KEYS, UPDATE_PLACES);
    let (phase, phase_name) = match (phase, phase_name) {
        (None, name) => match last_completed_phase(doc) {
            Some((n, at)) => (
                Some((n.to_string(), at.clone())),
                name.or(Some((format!("phase {n} completed"), at))),
            ),
            None => (None, name),
        },
        other => other,
    };
    let current_gate = plain(&["current_gate"], PHASE_PLACES)
        .or_else(|| gate_in_progress(doc))
        .or_else(|| plain(&["next_gate"], PHASE_PLACES));
    let next_step = first_next_action(doc).map(|n| (n, "next_actions".to_string()));
    let updated_at_raw = updated.as_ref().map(|(v, _)| v.clone());
    let sources = SummarySources {
        status: key_of(&status),
        phase: key_of(&phase),
        phase_name: key_of(&phase_name),
        activity: key_of(&activity),
        current_gate: key_of(&current_gate),
        next_step: key_of(&next_step),
        updated_at: key_of(&updated),
        phase_in_a_part: false,
    };
    Summary {
        status: value_of(status),
        phase: value_of(phase),
        phase_name: value_of(phase_name),
        activity: value_of(activity),
        next_step: value_of(next_step),
        updated_at: updated_at_raw.as_deref().and_then(parse_date),
        updated_at_raw,
        last_checkpoint: text_at(doc, &["checkpoints", "latest_id"]),
        current_gate: value_of(current_gate),
        pipelines,
        sources,
        phase_progress: phase_progress(&phases),
        ..Summary::default()
    }
}

fn phase_progress(phases: &[(String, PhaseEntry)]) -> PhaseProgress {
    let mut found = PhaseProgress::default();
    for (_, entry) in phases.iter().filter(|(_, e)| e.status.is_some()) {
        let list = match progress(entry.status.as_deref()) {
            Progress::Done => &mut found.complete,
            Progress::Active => &mut found.in_progress,
            Progress::Other => &mut found.remaining,
        };
        list.push(entry.id.clone());
    }
    found
}

/// Blocks that hold workflow-wide facts, in order (`[]` is the top level).
const PHASE_PLACES: &[&[&str]] = &[&["workflow"], &[], &["state"], &["orchestration"]];
const STATUS_PLACES: &[&[&str]] = &[
    &["workflow"],
    &[],
    &["meta"],
    &["state"],
    &["orchestration"],
];
const UPDATE_PLACES: &[&[&str]] = &[
    &["workflow"],
    &[],
    &["meta"],
    &["metadata"],
    &["state"],
    &["orchestration"],
];
const UPDATE_KEYS: &[&str] = &["updated_at", "last_updated", "updated", "date"];

/// A timestamp, also from `2026-01-01 (Session 6)`: a date followed by a note.
pub(crate) fn parse_date(raw: &str) -> Option<Timestamp> {
    Timestamp::parse(raw).or_else(|| {
        let raw = raw.trim();
        let cut = raw.find(" (").or_else(|| raw.find('('))?;
        Timestamp::parse(raw.get(..cut)?)
    })
}

fn first_of(doc: &Value, keys: &[&str], places: &[&[&str]]) -> Found {
    places.iter().find_map(|place| {
        let top_level = place.is_empty();
        keys.iter()
            .filter(|k| !(top_level && matches!(**k, "updated" | "date")))
            .find_map(|key| {
                let path: Vec<&str> = place.iter().copied().chain([*key]).collect();
                text_at(doc, &path).map(|v| (v, path.join(".")))
            })
    })
}

fn text_at(doc: &Value, path: &[&str]) -> Option<String> {
    let mut value = doc;
    for key in path {
        value = get(value, key)?;
    }
    text(value)
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

fn key_of(found: &Found) -> Option<String> {
    found.as_ref().map(|(_, key)| key.clone())
}

fn value_of(found: Found) -> Option<String> {
    found.map(|(value, _)| value)
}

fn pipeline_field(
    active: Option<&PipelineState>,
    key: &str,
    pick: impl Fn(&PipelineState) -> Option<String>,
) -> Found {
    let p = active?;
    pick(p).map(|v| (v, format!("{}.{key}", p.key)))
}

/// The name of the active pipeline's current phase, from its `phases:` list.
fn pipeline_phase_name(
    doc: &Value,
    active: Option<&PipelineState>,
    phase: Option<&(String, String)>,
) -> Found {
    let (phase, from) = phase?;
    let p = active.filter(|p| from.starts_with(&p.key))?;
    let mut holder = doc;
    for key in p.key.split('.') {
        holder = get(holder, key)?;
    }
    let at = format!("{}.phases", p.key);
    entries(get(holder, "phases"), &at)
        .into_iter()
        .find_map(|(at, key, v)| {
            let id = ["id", "phase", "number"]
                .iter()
                .find_map(|k| get_text(v, k))
                .or(key)?;
            let name = get_text(v, "name").or_else(|| get_text(v, "title"))?;
            same_phase(&id, phase).then(|| (name, format!("{at}.name")))
        })
}

/// `pipelines.<name>` (and a single `pipeline:`), the active one first, then those
/// not finished, then the rest, each group in file order.
pub(super) fn pipelines(doc: &Value) -> Vec<PipelineState> {
    let mut found: Vec<PipelineState> = Vec::new();
    if let Some(Value::Mapping(map)) = get(doc, "pipelines") {
        for (k, v) in map {
            let name = key_text(k);
            found.extend(pipeline(v, name.clone(), format!("pipelines.{name}")));
        }
    }
    if let Some(single) = get(doc, "pipeline") {
        found.extend(pipeline(single, "pipeline".into(), "pipeline".into()));
    }
    found.sort_by_key(|p| match progress(p.status.as_deref()) {
        Progress::Active => 0,
        Progress::Other => 1,
        Progress::Done => 2,
    });
    found
}

fn pipeline(value: &Value, name: String, key: String) -> Option<PipelineState> {
    value.as_mapping()?;
    let phase = get_text(value, "current_phase").filter(|t| !t.trim().is_empty());
    let status = get_text(value, "status").filter(|t| !t.trim().is_empty());
    (phase.is_some() || status.is_some()).then_some(PipelineState {
        name,
        key,
        phase,
        status,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Progress {
    Active,
    Done,
    Other,
}

/// How a status word reads: `IN_PROGRESS`, `ACTIVE`, `PHASE_3_IN_PROGRESS` are
/// active; `COMPLETE(D)`, `DONE`, `PASS(ED)`, `SKIPPED` are done.
pub(crate) fn progress(status: Option<&str>) -> Progress {
    let Some(status) = status else {
        return Progress::Other;
    };
    let s = status.trim().to_ascii_uppercase().replace([' ', '-'], "_");
    let word = s.rsplit('_').next().unwrap_or(&s);
    if s == "ACTIVE" || s.ends_with("IN_PROGRESS") || s == "RUNNING" {
        Progress::Active
    } else if matches!(
        word,
        "COMPLETE" | "COMPLETED" | "DONE" | "PASS" | "PASSED" | "SKIPPED" | "FINISHED"
    ) && !s.contains("PENDING")
    {
        Progress::Done
    } else {
        Progress::Other
    }
}

/// One entry of `phases:` (a list, or a map of phase keys).
pub(super) struct PhaseEntry {
    pub id: String,
    pub name: Option<String>,
    pub status: Option<String>,
}

/// The top-level `phases:`, else top-level `phase_N:` blocks, else the `phases:`
/// of the first pipeline (the active one first) that has them.
pub(super) fn phase_entries(doc: &Value) -> Vec<(String, PhaseEntry)> {
    let top = phase_list(get(doc, "phases"), "phases");
    if !top.is_empty() {
        return top;
    }
    let blocks = phase_blocks(doc);
    if !blocks.is_empty() {
        return blocks;
    }
    pipelines(doc)
        .iter()
        .map(|p| {
            let holder = p.key.split('.').try_fold(doc, get);
            phase_list(
                holder.and_then(|h| get(h, "phases")),
                &format!("{}.phases", p.key),
            )
        })
        .find(|list| !list.is_empty())
        .unwrap_or_default()
}

/// Every phase list of the file: the top-level `phases:`, the `phase_N:` blocks,
/// and each pipeline's `phases:`.
pub(super) fn all_phase_lists(doc: &Value) -> Vec<Vec<(String, PhaseEntry)>> {
    let mut lists = vec![phase_list(get(doc, "phases"), "phases"), phase_blocks(doc)];
    for p in pipelines(doc) {
        let holder = p.key.split('.').try_fold(doc, get);
        lists.push(phase_list(
            holder.and_then(|h| get(h, "phases")),
            &format!("{}.phases", p.key),
        ));
    }
    lists.retain(|l| !l.is_empty());
    lists
}

fn phase_list(value: Option<&Value>, at: &str) -> Vec<(String, PhaseEntry)> {
    entries(value, at)
        .into_iter()
        .filter_map(|(at, key, v)| {
            v.as_mapping()?;
            let id = ["id", "phase", "number"]
                .iter()
                .find_map(|k| get_text(v, k))
                .or(key)?;
            let entry = PhaseEntry {
                id,
                name: get_text(v, "name").or_else(|| get_text(v, "title")),
                status: get_text(v, "status"),
            };
            Some((at, entry))
        })
        .collect()
}

/// Top-level blocks named `phase_N` or `phase_N_<words>` that carry a `status`
/// (FEAT-005's `phase_0: {name, status}`), in order of N. Keys like
/// `phase_0_complete: true` are scalars, not blocks, and are left out.
fn phase_blocks(doc: &Value) -> Vec<(String, PhaseEntry)> {
    let Some(map) = doc.as_mapping() else {
        return Vec::new();
    };
    let mut found: Vec<(i64, String, PhaseEntry)> = map
        .iter()
        .filter_map(|(k, v)| {
            let key = key_text(k);
            let rest = key.strip_prefix("phase_")?;
            let (digits, words) = rest.split_once('_').unwrap_or((rest, ""));
            let n = digits.parse::<i64>().ok()?;
            v.as_mapping()?;
            let status = get_text(v, "status")?;
            let named = (!words.is_empty()).then(|| words.replace('_', " "));
            let name = get_text(v, "name")
                .or_else(|| get_text(v, "title"))
                .or(named);
            let entry = PhaseEntry {
                id: n.to_string(),
                name,
                status: Some(status),
            };
            Some((n, key, entry))
        })
        .collect();
    found.sort_by_key(|(n, _, _)| *n);
    found
        .into_iter()
        .map(|(_, key, entry)| (key, entry))
        .collect()
}

/// The phase marked active, else the first not done, else (every phase done)
/// the last.
fn current_entry(phases: &[(String, PhaseEntry)]) -> Option<&(String, PhaseEntry)> {
    let with_status = || phases.iter().filter(|(_, e)| e.status.is_some());
    with_status()
        .find(|(_, e)| progress(e.status.as_deref()) == Progress::Active)
        .or_else(|| with_status().find(|(_, e)| progress(e.status.as_deref()) != Progress::Done))
        .or_else(|| with_status().next_back())
}

/// Items of a list (`at` = `key[i]`) or entries of a map (`at` = `key.name`).
fn entries<'a>(value: Option<&'a Value>, at: &str) -> Vec<(String, Option<String>, &'a Value)> {
    match value {
        Some(Value::Sequence(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{at}[{i}]"), None, v))
            .collect(),
        Some(Value::Mapping(map)) => map
            .iter()
            .map(|(k, v)| {
                let key = key_text(k);
                (format!("{at}.{key}"), Some(key), v)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `1`, `phase-1`, `phase_1`, `Phase 1` name the same phase.
pub(crate) fn same_phase(a: &str, b: &str) -> bool {
    let bare = |s: &str| {
        let s = s.trim().to_ascii_lowercase();
        let s = s
            .trim_start_matches("phase")
            .trim_start_matches(['-', '_', ' ']);
        s.to_string()
    };
    bare(a) == bare(b)
}

/// The first barrier under way (else the first not passed), as an activity.
fn barrier(doc: &Value) -> Found {
    let all = entries(get(doc, "barriers"), "barriers");
    let read = |(at, key, v): &(String, Option<String>, &Value)| {
        let status = get_text(v, "status")?;
        let id = get_text(v, "id").or_else(|| key.clone())?;
        Some((id, status, format!("{at}.status")))
    };
    let with_status: Vec<_> = all.iter().filter_map(read).collect();
    let pick = with_status
        .iter()
        .find(|(_, s, _)| progress(Some(s)) == Progress::Active)
        .or_else(|| {
            with_status
                .iter()
                .find(|(_, s, _)| progress(Some(s)) == Progress::Other)
        })?;
    let (id, status, at) = pick;
    let label = if id.to_ascii_lowercase().starts_with("barrier") {
        format!("{id}: {status}")
    } else {
        format!("barrier {id}: {status}")
    };
    Some((label, at.clone()))
}

/// The gate of `quality_gates:` / `gates:` marked IN_PROGRESS (or ACTIVE).
fn gate_in_progress(doc: &Value) -> Found {
    ["quality_gates", "gates"].iter().find_map(|block| {
        let value = get(doc, block);
        let inner = value.and_then(|v| get(v, "gates"));
        let (value, at) = match inner {
            Some(list @ Value::Sequence(_)) => (Some(list), format!("{block}.gates")),
            _ => (value, (*block).to_string()),
        };
        entries(value, &at).into_iter().find_map(|(at, key, v)| {
            let status = get_text(v, "status")?;
            (progress(Some(&status)) == Progress::Active)
                .then(|| get_text(v, "id").or(key))
                .flatten()
                .map(|id| (id, format!("{at}.status")))
        })
    })
}

/// The highest N of top-level `phase_N_completed` keys whose value is set.
fn last_completed_phase(doc: &Value) -> Option<(i64, String)> {
    doc.as_mapping()?
        .iter()
        .filter(|(_, v)| !v.is_null() && v.as_bool() != Some(false))
        .filter_map(|(k, _)| {
            let key = key_text(k);
            let n = key
                .strip_prefix("phase_")?
                .strip_suffix("_completed")?
                .parse::<i64>()
                .ok()?;
            Some((n, key))
        })
        .max()
}

/// The last resort, when no workflow-level key states a phase: the first phase a
/// part of the file states, in file order — a `phase:` / `current_phase:` value,
/// or a map of `phase_N_<words>` keys holding steps (its highest N). The key path it came from
/// is its source, so `show` says it is a part's phase.
/// Applied by the full reader only (the fast one may have cut the part out).
pub(super) fn fill_phase_from_a_part(summary: &mut Summary, doc: &Value) {
    if summary.phase.is_some() {
        return;
    }
    let found = phase_in_a_part(doc, "", 0).or_else(|| unit_under_way(doc));
    if let Some(((phase, at), name)) = found {
        summary.phase = Some(phase);
        summary.sources.phase = Some(at);
        summary.sources.phase_in_a_part = true;
        if summary.phase_name.is_none()
            && let Some((name, at)) = name
        {
            summary.phase_name = Some(name);
            summary.sources.phase_name = Some(at);
        }
    }
}

/// A file that states no phase but lists its work as units with a status
/// (`work_items:`, `enablers:`, `tasks:` … at the top level, each an entry with an
/// `id` or `name`): the first unit not done is where the work stands; every unit
/// done, the work is `complete`, named by how many units of which lists.
pub(super) fn unit_under_way(doc: &Value) -> Option<(Sourced, Option<Sourced>)> {
    let mut units = 0;
    let mut lists = Vec::new();
    for (k, v) in doc.as_mapping()? {
        let Some(items) = v.as_sequence() else {
            continue;
        };
        let key = key_text(k);
        let mut listed = false;
        for (i, item) in items.iter().enumerate() {
            let Some(status) = get_text(item, "status") else {
                continue;
            };
            let Some(id) = get_text(item, "id").or_else(|| get_text(item, "name")) else {
                continue;
            };
            if progress(Some(&status)) != Progress::Done {
                let name = get_text(item, "name")
                    .filter(|n| *n != id)
                    .map(|n| (n, format!("{key}[{i}].name")));
                return Some(((id, format!("{key}[{i}].status")), name));
            }
            units += 1;
            listed = true;
        }
        if listed {
            lists.push(key);
        }
    }
    let at = format!("{}[*].status", lists.first()?);
    let name = format!("all {units} units of {} done", lists.join(", "));
    Some((("complete".into(), at.clone()), Some((name, at))))
}

fn phase_in_a_part(value: &Value, at: &str, depth: usize) -> Option<(Sourced, Option<Sourced>)> {
    let map = value.as_mapping().filter(|_| depth < 8)?;
    let join = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    let numbered = map
        .iter()
        .filter(|(_, v)| v.is_mapping() || v.is_sequence())
        .filter_map(|(k, _)| {
            let key = key_text(k);
            let rest = key.strip_prefix("phase_")?;
            let (digits, words) = rest.split_once('_').unwrap_or((rest, ""));
            Some((
                digits.parse::<i64>().ok()?,
                words.replace('_', " "),
                key.clone(),
            ))
        })
        .max_by_key(|(n, _, _)| *n);
    if let Some((n, words, key)) = numbered {
        let name = (!words.is_empty()).then(|| (words, join(&key)));
        return Some(((n.to_string(), join(&key)), name));
    }
    for (k, v) in map {
        let key = key_text(k);
        if (key == "phase" || key == "current_phase")
            && let Some(stated) = text(v).filter(|t| !t.trim().is_empty())
        {
            return Some(((stated.trim().to_string(), join(&key)), None));
        }
        if let Some(found) = phase_in_a_part(v, &join(&key), depth + 1) {
            return Some(found);
        }
    }
    None
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
