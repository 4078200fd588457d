//! Jerry `ORCHESTRATION.yaml` → `Project`. Every shape in docs/formats.md loads;
//! problems become diagnostics, never panics. Only text that is not YAML at all
//! (or not a map of keys) is an error.

mod behind;
mod blockers;
mod compaction;
mod contradict;
mod ctx;
mod decisions;
mod fields;
mod files;
mod gates;
pub mod hook_budget;
mod kept;
pub mod parse;
mod progress;
mod prose_scores;
pub mod prune;
mod quality;
mod recovery;
mod scored_blocks;
mod section;
mod shape;
pub(crate) use shape::V2_SECTIONS;
mod state;
mod toplevel;
mod validate;

pub use behind::note_resumption_behind;
pub use validate::validate_orchestration;

use yaml_serde::Value;

use crate::core::locate::DuplicateKeys;
use crate::core::model::{
    Diagnostic, Project, ProjectKind, Resumption, Shape, Summary, SummarySources,
};
use crate::core::normalize::value::key_text;
use crate::core::staleness::phase_started_at;
use crate::core::trajectory::{Trajectory, TrajectorySource};
pub use ctx::Reading;
use ctx::{Ctx, kind};

/// Normalises one `ORCHESTRATION.yaml`. `source` is the file's path relative to the
/// workspace root, `dir` its folder; both use `/` separators. Staleness,
/// checkpoints and `FileToRead::exists` are left for the loader.
pub fn normalize_orchestration(source: &str, dir: &str, text: &str) -> Project {
    normalize_orchestration_with(source, dir, text, Reading::Full)
}

/// [`normalize_orchestration`] in any [`Reading`], the whole file parsed.
pub fn normalize_orchestration_with(
    source: &str,
    dir: &str,
    text: &str,
    reading: Reading,
) -> Project {
    let mut project = empty_project(source, dir);
    let parsed = match parse::parse(text) {
        Ok(parsed) => parsed,
        Err(e) => return unreadable(source, dir, &e),
    };
    if reading.for_hooks() && hook_budget::past_budget(&parsed.doc) {
        let refusal = hook_budget::refusal(source, text, &parsed.doc);
        left_to_the_hooks_end(parsed.doc, reading);
        return left_unread(source, dir, refusal);
    }
    let doc = parsed.doc;
    if doc.is_null() {
        project.diagnostics.push(Diagnostic::warning(
            source,
            "the file is empty; there is no workflow state to read",
        ));
        return project;
    }
    if !doc.is_mapping() {
        project.shape = Shape::Unreadable;
        project.diagnostics.push(
            Diagnostic::error(
                source,
                format!(
                    "expected a map of top-level keys (workflow:, resumption:, …), found {}; \
                     fix the YAML at line 1",
                    kind(&doc)
                ),
            )
            .at(1, 1),
        );
        return project;
    }
    let mut project = finish(project, &doc, &parsed.duplicates, text, None, reading);
    state::fill_phase_from_a_part(&mut project.summary, &doc);
    left_to_the_hooks_end(doc, reading);
    project
}

/// The project of a file that does not read as YAML (or is refused).
fn unreadable(source: &str, dir: &str, e: &yaml_serde::Error) -> Project {
    left_unread(source, dir, yaml_error(source, e))
}

/// The project of a file left unread, and why.
fn left_unread(source: &str, dir: &str, why: Diagnostic) -> Project {
    let mut project = empty_project(source, dir);
    project.shape = Shape::Unreadable;
    project.diagnostics.push(why);
    project
}

/// `Reading::ForOneHook`: the document's memory is left to the process's end,
/// where giving it back costs nothing. Any other reading gives it back now.
fn left_to_the_hooks_end(doc: Value, reading: Reading) {
    if reading == Reading::ForOneHook {
        std::mem::forget(doc);
    }
}

/// Below this size a file is parsed whole: cutting it costs about as much as the
/// parsing it saves (measured: a 13 KB file three quarters of which the
/// normaliser reads parses faster whole; a 30 KB corpus file, cut first).
const PRUNE_FROM_BYTES: usize = 16 * 1024;

/// The same `Project` as [`normalize_orchestration`], from a fraction of the
/// parsing: only the entries it reads are parsed (see [`prune`]). What differs:
/// problems in the entries not read (a duplicate key, a syntax error there) are
/// not seen. Small files, and files the pruner cannot vouch for, are read in
/// full. For the hooks, which run on every prompt and show no diagnostics, and
/// the dashboard's first pass.
pub fn normalize_orchestration_fast(source: &str, dir: &str, text: &str) -> Project {
    normalize_orchestration_fast_with(source, dir, text, Reading::Full)
}

/// [`normalize_orchestration_fast`], with warnings and notes located or not
/// (the hooks show none: `Reading::ForHooks`).
pub fn normalize_orchestration_fast_with(
    source: &str,
    dir: &str,
    text: &str,
    reading: Reading,
) -> Project {
    if text.len() < PRUNE_FROM_BYTES {
        return normalize_orchestration_with(source, dir, text, reading);
    }
    normalize_orchestration_pruned_with(source, dir, text, reading)
}

/// [`normalize_orchestration_fast`] whatever the file's size (what the tests and
/// the `jerry_fast` fuzz target hold to the full normaliser's project).
pub fn normalize_orchestration_pruned(source: &str, dir: &str, text: &str) -> Project {
    normalize_orchestration_pruned_with(source, dir, text, Reading::Full)
}

/// [`normalize_orchestration_pruned`] in any [`Reading`]: for the hooks', the
/// cut leaves out `resumption:`'s unknown keys too (`prune::Cut::Hooks`).
pub fn normalize_orchestration_pruned_with(
    source: &str,
    dir: &str,
    text: &str,
    reading: Reading,
) -> Project {
    let cut = if reading.for_hooks() {
        prune::Cut::Hooks
    } else {
        prune::Cut::Full
    };
    let Some(pruned) = prune::prune_for(text, cut) else {
        return read_whole(source, dir, text, reading);
    };
    if pruned.aliases {
        if reading.for_hooks()
            && let Ok(Some(counted)) = crate::core::yaml::parse::read_counting(&pruned.text)
            && counted.values > hook_budget::PARSE_VALUES
        {
            // Refused before the copies are made (and before the whole file
            // is counted: the cut is the most of it that a hook parses).
            let refusal = hook_budget::refusal(source, text, &counted.shape);
            return left_unread(source, dir, refusal);
        }
        // Aliases in the entries cut away still count against the limits of
        // the whole file, as a parse of it would count them: checked without
        // making their copies.
        match crate::core::yaml::parse::within_limits(text) {
            Ok(true) => {}
            Ok(false) => return read_whole(source, dir, text, reading),
            Err(refused) => return unreadable(source, dir, &parse::refusal(text, refused)),
        }
    }
    let read = if reading.for_hooks() && pruned.text.len() > hook_budget::WHOLE_BYTES {
        // What the cut keeps is large: only the fast reader reads it for a
        // hook (`yaml_serde` takes 200 ms a megabyte).
        match crate::core::yaml::parse::read(&pruned.text) {
            Ok(Some(parsed)) => Ok(parsed),
            _ => {
                let refusal = hook_budget::too_large_to_read_whole(source, text);
                return left_unread(source, dir, refusal);
            }
        }
    } else {
        parse::parse(&pruned.text)
    };
    let parsed = match read {
        Ok(parsed) if parsed.doc.is_mapping() => parsed,
        Ok(parsed) if parsed.doc.is_null() => parse::Parsed {
            doc: Value::Mapping(Default::default()),
            duplicates: parsed.duplicates,
        },
        _ => return read_whole(source, dir, text, reading),
    };
    if reading.for_hooks() && hook_budget::past_budget(&parsed.doc) {
        let refusal = hook_budget::refusal(source, text, &parsed.doc);
        left_to_the_hooks_end(parsed.doc, reading);
        return left_unread(source, dir, refusal);
    }
    let project = finish(
        empty_project(source, dir),
        &parsed.doc,
        &parsed.duplicates,
        text,
        Some(pruned.top_level_keys),
        reading,
    );
    left_to_the_hooks_end(parsed.doc, reading);
    // The last-resort phase (a part's, `state::phase_in_a_part`, or the work
    // units', `state::unit_under_way`) may lie anywhere in the file, past what
    // the pruner keeps: such files are read whole (not by a hook past
    // `hook_budget::WHOLE_BYTES`: its phase stays unknown).
    if project.summary.phase.is_none()
        && (text.contains("phase") || lists_units_with_a_status(text))
        && !(reading.for_hooks() && text.len() > hook_budget::WHOLE_BYTES)
    {
        return normalize_orchestration_with(source, dir, text, reading);
    }
    project
}

/// The file parsed whole, where the cut could not be used; a hook leaves a file
/// past `hook_budget::WHOLE_BYTES` unread instead (parsing it whole, and the
/// normaliser's walks over all of it, cost a hook 100–340 ms a megabyte).
fn read_whole(source: &str, dir: &str, text: &str, reading: Reading) -> Project {
    if reading.for_hooks() && text.len() > hook_budget::WHOLE_BYTES {
        return left_unread(
            source,
            dir,
            hook_budget::too_large_to_read_whole(source, text),
        );
    }
    normalize_orchestration_with(source, dir, text, reading)
}

/// Whether a top-level key holds a list whose entries have a `status` (what
/// `state::unit_under_way` reads), by a look at the lines: a block list under an
/// unindented `key:` with `status:` in it before the next top-level key.
fn lists_units_with_a_status(text: &str) -> bool {
    // Under the last top-level `key:`: `None` until its first line says whether
    // it holds a list.
    let mut list: Option<bool> = Some(false);
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t', '-']) {
            list = if line.trim_end().ends_with(':') {
                None
            } else {
                Some(false)
            };
            continue;
        }
        let is_list = *list.get_or_insert(trimmed.starts_with("- "));
        if is_list && line.contains("status:") && text_before_status_is_a_list(line) {
            return true;
        }
    }
    false
}

/// `  - status: …`, `    status: …` or `  - {id: x, status: …}`: inside a list entry.
fn text_before_status_is_a_list(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.starts_with("- ") || trimmed.starts_with("status:") || trimmed.starts_with('{')
}

fn finish(
    mut project: Project,
    doc: &Value,
    duplicates: &[String],
    text: &str,
    top_level_keys: Option<Vec<String>>,
    reading: Reading,
) -> Project {
    let source = project.source.clone();
    let mut ctx = Ctx::new(&source, text).with_reading(reading);
    report_duplicates(duplicates, text, &mut ctx);
    fill_project(&mut project, doc, &mut ctx);
    if let Some(keys) = top_level_keys {
        project.top_level_keys = keys.into_iter().filter(|k| k != "resumption").collect();
    }
    project.diagnostics = ctx.diagnostics;
    // File order; diagnostics that could not be located keep their place at the end.
    project
        .diagnostics
        .sort_by_key(|d| (d.line.is_none(), d.line, d.column));
    project
}

fn fill_project(project: &mut Project, doc: &Value, ctx: &mut Ctx) {
    let identity = toplevel::identity(doc, &project.source, &project.dir);
    project.id = identity.id;
    project.name = identity.name;
    project.project_ref = identity.project_ref;
    project.top_level_keys = doc
        .as_mapping()
        .into_iter()
        .flatten()
        .map(|(k, _)| key_text(k))
        .filter(|k| k != "resumption")
        .collect();

    let fallback = state::located_summary(doc);
    let gates = scored_blocks::merge_scored_blocks(gates::quality_gates(doc), doc);
    match doc.get("resumption") {
        None => {
            project.shape = Shape::None;
            project.summary = fallback;
            project.trajectory = trajectory(None, &gates);
        }
        Some(section) => {
            project.shape = shape::detect(section);
            let mut resumption = section::read_resumption(section, project.shape, ctx);
            if resumption.decisions.is_empty()
                && let Some(list) = doc.get("decisions")
            {
                resumption.decisions =
                    decisions::read_decisions(list, ctx, &["decisions"]).unwrap_or_default();
            }
            project.summary = summary(&resumption, fallback, section);
            if project.summary.next_step.is_none() && section.is_mapping() {
                ctx.warn(
                    &["resumption"],
                    "has no next_step (nor next_action), and the file has no next_actions to fall back on",
                );
            }
            resumption.paths_base = doc
                .get("paths")
                .and_then(|p| p.get("base"))
                .and_then(crate::core::normalize::value::text)
                .map(|b| b.trim().to_string())
                .filter(|b| !b.is_empty());
            project.trajectory = trajectory(Some(&resumption), &gates);
            project.resumption = Some(resumption);
        }
    }
    project.summary.blockers = blockers::active_blockers(doc);
    project.summary.sibling_plan = files::sibling_plan(project);
    project.summary.phase_started_at = phase_started_at(doc, project.summary.phase.as_deref())
        .or(project.summary.phase_started_at);
    for (at, message) in
        contradict::contradictions(doc, &project.summary, project.resumption.as_ref())
    {
        ctx.warn_text(&at, format!("the file contradicts itself: {message}"));
        project.summary.contradictions.push(message);
    }
    let mut behind = progress::behind(doc, &project.summary, project.resumption.as_ref());
    behind.extend(scored_blocks::statuses_behind_scores(doc));
    for (at, message) in behind {
        ctx.warn_text(&at, format!("{}{message}", behind::WARNING_PREFIX));
        project.summary.behind.push(message);
    }
    if let Some(message) = behind::resumption_behind(project) {
        let at = project
            .summary
            .sources
            .updated_at
            .clone()
            .unwrap_or_default();
        ctx.warn_text(&at, format!("{}{message}", behind::WARNING_PREFIX));
        project.summary.behind.push(message);
    }
}

/// The resumption section's recovery fields first, then the rest of the file;
/// each value keeps the key it came from.
fn summary(res: &Resumption, fallback: Summary, section: &Value) -> Summary {
    let rec = &res.recovery;
    let nested = section.get("recovery_state").filter(|v| v.is_mapping());
    let key_of = |keys: &[&str]| {
        keys.iter().find_map(|k| match nested {
            Some(state) if state.get(*k).is_some() => {
                Some(format!("resumption.recovery_state.{k}"))
            }
            _ => section.get(*k).map(|_| format!("resumption.{k}")),
        })
    };
    let pick =
        |ours: &Option<String>, keys: &[&str], theirs: Option<String>, from: &Option<String>| {
            match ours {
                Some(v) => (Some(v.clone()), key_of(keys)),
                None => (theirs, from.clone()),
            }
        };
    let src = &fallback.sources;
    let (status, status_src) = pick(
        &rec.workflow_status,
        &["workflow_status"],
        fallback.status,
        &src.status,
    );
    let (phase, phase_src) = pick(
        &rec.current_phase,
        &["current_phase"],
        fallback.phase,
        &src.phase,
    );
    let last_done = section
        .get("last_completed_phase")
        .and_then(crate::core::normalize::value::text)
        .filter(|_| phase.is_none());
    let (phase, phase_src, fallback_name) = match last_done {
        Some(n) => (
            Some(n.clone()),
            Some("resumption.last_completed_phase".to_string()),
            Some(format!("phase {n} completed")),
        ),
        None => (phase, phase_src, None),
    };
    let (phase_name, name_src) = pick(
        &rec.current_phase_name,
        &["current_phase_name"],
        fallback.phase_name.or(fallback_name),
        &src.phase_name,
    );
    let activity_here = rec
        .current_activity
        .clone()
        .or_else(|| rec.current_state.clone());
    let (activity, activity_src) = pick(
        &activity_here,
        &["current_activity", "current_state", "context_summary"],
        fallback.activity,
        &src.activity,
    );
    let (next_step, next_src) = pick(
        &rec.next_step,
        &["next_step", "next_action"],
        fallback.next_step,
        &src.next_step,
    );
    let gate_here = res.quality.as_ref().and_then(|q| q.current_gate.clone());
    let (current_gate, gate_src) = match gate_here {
        Some(g) => (
            Some(g),
            Some("resumption.quality_trajectory.current_gate".to_string()),
        ),
        None => match (next_gate_in(section), &src.current_gate) {
            (Some(next), Some(key)) if key.ends_with("next_gate") => next,
            (Some(next), None) => next,
            _ => (fallback.current_gate, src.current_gate.clone()),
        },
    };
    let (updated_at, updated_at_raw, updated_src) = match &rec.updated_at_raw {
        Some(raw) => (rec.updated_at, Some(raw.clone()), key_of(&["updated_at"])),
        None => (
            fallback.updated_at,
            fallback.updated_at_raw,
            src.updated_at.clone(),
        ),
    };
    Summary {
        status,
        phase,
        phase_name,
        activity,
        next_step,
        updated_at,
        updated_at_raw,
        last_checkpoint: rec.last_checkpoint.clone().or(fallback.last_checkpoint),
        fill_at_update: rec.context_fill_at_update.or(fallback.fill_at_update),
        phase_started_at: fallback.phase_started_at,
        current_gate,
        pipelines: fallback.pipelines,
        phase_progress: fallback.phase_progress,
        contradictions: Vec::new(),
        behind: Vec::new(),
        sibling_plan: None,
        blockers: Vec::new(),
        sources: SummarySources {
            status: status_src,
            phase: phase_src,
            phase_name: name_src,
            activity: activity_src,
            current_gate: gate_src,
            next_step: next_src,
            updated_at: updated_src,
            phase_in_a_part: false,
        },
    }
}

/// The resumption section's `next_gate` (under `quality_trajectory:`,
/// `recovery_state:` or the section itself), with its key: the gate that is
/// current when none is under way.
fn next_gate_in(section: &Value) -> Option<(Option<String>, Option<String>)> {
    ["quality_trajectory", "recovery_state", ""]
        .iter()
        .find_map(|block| {
            let holder = match *block {
                "" => Some(section),
                block => section.get(block),
            }?;
            let gate = holder
                .get("next_gate")
                .and_then(crate::core::normalize::value::text)?;
            let gate = gate.trim().to_string();
            let key = match *block {
                "" => "resumption.next_gate".to_string(),
                block => format!("resumption.{block}.next_gate"),
            };
            (!gate.is_empty()).then_some((Some(gate), Some(key)))
        })
}

/// `score_history` (or scored `gates_completed`), else `quality_gates`, else scores
/// in the v1 prose; gate details from `quality_gates` are merged in by id.
fn trajectory(
    res: Option<&Resumption>,
    gates: &[crate::core::trajectory::GateTrajectory],
) -> Trajectory {
    let from_section = res.and_then(|r| r.quality.as_ref()).map(|q| {
        let history = if q.score_history.iter().any(|(_, s)| !s.is_empty()) {
            q.score_history.clone()
        } else {
            q.gates_completed
                .iter()
                .filter_map(|g| g.score.map(|s| (g.id.clone(), vec![s])))
                .collect()
        };
        Trajectory::from_history(TrajectorySource::ResumptionSection, &history)
    });
    let mut chosen = match from_section.filter(Trajectory::has_scores) {
        Some(t) => t,
        None if gates.iter().any(|g| !g.scores.is_empty()) => {
            return Trajectory {
                source: TrajectorySource::QualityGates,
                gates: gates.to_vec(),
            };
        }
        None => {
            let prose = res
                .and_then(|r| r.recovery.current_state.as_deref())
                .map(prose_scores::scores_in_prose)
                .unwrap_or_default();
            if prose.is_empty() {
                return Trajectory::default();
            }
            Trajectory::from_history(TrajectorySource::Prose, &prose)
        }
    };
    chosen.enrich(gates);
    chosen
}

/// Duplicate keys are invalid YAML, but Jerry's own tooling read such files (the
/// last value wins), so they load with a warning at the repeated key.
fn report_duplicates(duplicates: &[String], text: &str, ctx: &mut Ctx) {
    if duplicates.is_empty() {
        return;
    }
    if ctx.reading().for_hooks() {
        for path in duplicates {
            ctx.warn_text(path, duplicate_message(path));
        }
        return;
    }
    let mut located = DuplicateKeys::locate(text);
    for path in duplicates {
        let message = duplicate_message(path);
        let keys: Vec<&str> = path
            .split('.')
            .map(|k| k.split('[').next().unwrap_or(k))
            .collect();
        match located.take(&keys) {
            Some((line, column)) => ctx.push_at(message, line, column),
            None => ctx.warn_text(path, message),
        }
    }
}

fn duplicate_message(path: &str) -> String {
    format!(
        "{path}: this key appears more than once in its map; the last value is used \
         (strict YAML readers reject the file: remove the duplicate)"
    )
}

fn yaml_error(source: &str, e: &yaml_serde::Error) -> Diagnostic {
    let message = e.to_string();
    let at = e
        .location()
        .map(|at| (at.line(), at.column()))
        .or_else(|| crate::core::yaml::error_at::position_in(&message));
    match at {
        Some((line, column)) => Diagnostic::error(
            source,
            format!("not valid YAML: {message}; fix the YAML at line {line}"),
        )
        .at(line, column),
        None => Diagnostic::error(source, format!("not valid YAML: {message}")),
    }
}

fn empty_project(source: &str, dir: &str) -> Project {
    let id = toplevel::derived_id(source, dir);
    Project::at(ProjectKind::Jerry, id, source, dir, Shape::None)
}

#[cfg(test)]
mod tests;
