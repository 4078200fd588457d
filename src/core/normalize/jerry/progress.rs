//! Where the keys that say what is current (the current phase, the resumption
//! section's next step and gate list) are behind what the rest of the same file
//! records as done: real files are edited by many agents, and the `resumption:`
//! section or a pipeline's `current_phase` is often the part left behind. Each
//! case is one line naming both keys and values; the newer side is current.
//!
//! Evidence is read only from keys the fast path keeps (`prune.rs`): phase lists
//! and `phase_N` blocks, `quality_gates` / `gates`, `barriers`, status keys.

use yaml_serde::Value;

use super::state::{PhaseEntry, Progress, all_phase_lists, progress, same_phase};
use crate::core::model::{Resumption, Summary};
use crate::core::normalize::value::{get, get_bool, get_text, key_text};

/// Each line with the key it is located at.
pub(super) fn behind(
    doc: &Value,
    summary: &Summary,
    res: Option<&Resumption>,
) -> Vec<(String, String)> {
    let lists = all_phase_lists(doc);
    let mut found = Vec::new();
    found.extend(phase_behind(summary, &lists));
    found.extend(other_pipelines_behind(summary, &lists));
    let next = (
        summary.next_step.as_deref(),
        summary.sources.next_step.clone(),
    );
    let activity = (
        summary.activity.as_deref(),
        summary.sources.activity.clone(),
    );
    for (text, key, gates) in [(next.0, next.1, true), (activity.0, activity.1, false)] {
        found.extend(names_only_done(doc, summary, &lists, (text, key), gates));
    }
    found.extend(finished_but_next_step(doc, summary, res, &lists));
    // The section's activity (or v1 prose) in a finished workflow, describing
    // work still to do: the same test, said once per key.
    let activity = (
        summary.activity.as_deref(),
        summary.sources.activity.as_deref(),
    );
    if let (Some(text), Some(key)) = activity
        && !found.iter().any(|(at, _)| at == key)
        && let Some(line) =
            finished_but_says(doc, res, &lists, text, key, "still describes work to do")
    {
        found.push(line);
    }
    found.extend(gates_not_listed(doc, res));
    found.extend(finished_but_gates_open(summary, res));
    found.extend(finished_but_gates_unrun(doc, summary, res));
    found
}

/// The current phase's own entry is done and a later phase of the same list is
/// done or under way.
fn phase_behind(
    summary: &Summary,
    lists: &[Vec<(String, PhaseEntry)>],
) -> Option<(String, String)> {
    let phase = summary.phase.as_deref()?;
    let key = summary.sources.phase.clone()?;
    if summary.sources.phase_in_a_part {
        return None;
    }
    let lists: Vec<&Vec<(String, PhaseEntry)>> = lists.iter().collect();
    phase_behind_in(phase, &key, &lists)
}

/// The same test for each other pipeline's `current_phase`, against its own
/// phase list (else the lists no pipeline owns): the prompt lists every
/// pipeline's phase, and a stale one is marked there.
fn other_pipelines_behind(
    summary: &Summary,
    lists: &[Vec<(String, PhaseEntry)>],
) -> Vec<(String, String)> {
    let owned_by = |list: &Vec<(String, PhaseEntry)>, prefix: &str| {
        list.first().is_some_and(|(k, _)| k.starts_with(prefix))
    };
    summary
        .pipelines
        .iter()
        .filter_map(|p| {
            let key = format!("{}.current_phase", p.key);
            if summary.sources.phase.as_deref() == Some(key.as_str()) {
                return None;
            }
            let phase = p.phase.as_deref()?;
            let own = format!("{}.", p.key);
            let mut mine: Vec<&Vec<(String, PhaseEntry)>> =
                lists.iter().filter(|l| owned_by(l, &own)).collect();
            if mine.is_empty() {
                mine = lists
                    .iter()
                    .filter(|l| !owned_by(l, "pipelines.") && !owned_by(l, "pipeline."))
                    .collect();
            }
            phase_behind_in(phase, &key, &mine)
        })
        .collect()
}

fn phase_behind_in(
    phase: &str,
    key: &str,
    lists: &[&Vec<(String, PhaseEntry)>],
) -> Option<(String, String)> {
    let key = key.to_string();
    lists.iter().find_map(|list| {
        let at = list.iter().position(|(_, e)| same_phase(&e.id, phase))?;
        let (own_key, own) = list.get(at)?;
        let own_status = own.status.as_deref()?;
        if progress(Some(own_status)) != Progress::Done {
            return None;
        }
        let (far_key, far) = list
            .iter()
            .enumerate()
            .rev()
            .find(|(_, (_, e))| progress(e.status.as_deref()) != Progress::Other)
            .filter(|(i, _)| *i > at)
            .map(|(_, found)| found)?;
        let every = list
            .iter()
            .all(|(_, e)| progress(e.status.as_deref()) == Progress::Done);
        let far_status = far.status.as_deref().unwrap_or_default();
        let tail = if every { "; every phase is done" } else { "" };
        Some((
            key.clone(),
            format!(
                "{key} is {phase}, but {own_key}.status is {own_status} and phase {} is {far_status} \
                 at {far_key}.status{tail}",
                far.id
            ),
        ))
    })
}

/// The workflow is finished, and the resumption section's quality trajectory
/// still has a gate under way or gates to run: the trajectory was left behind.
fn finished_but_gates_open(
    summary: &Summary,
    res: Option<&Resumption>,
) -> Option<(String, String)> {
    let q = res?.quality.as_ref()?;
    if progress(summary.status.as_deref()) != Progress::Done {
        return None;
    }
    let status_key = summary
        .sources
        .status
        .clone()
        .unwrap_or_else(|| "the status".into());
    let status = summary.status.as_deref().unwrap_or_default();
    let key = "resumption.quality_trajectory";
    let open = match (&q.current_gate, q.gates_remaining.len()) {
        (Some(gate), 0) => format!("current_gate {gate}"),
        (Some(gate), n) => format!("current_gate {gate} and {n} gates_remaining"),
        (None, 0) => return None,
        (None, n) => format!("{n} gates_remaining ({})", q.gates_remaining.join(", ")),
    };
    Some((
        key.to_string(),
        format!(
            "{status_key} is {status}, but {key} still has {}",
            short(&open)
        ),
    ))
}

/// The resumption section's next step (or its activity) names phases or gates,
/// and the file records every one it names as done. A name followed by a done
/// word ("Phase 2 COMPLETE") or a score ("QG-1: 0.94") is a report, not a
/// step, and is left out; an activity is judged by the phases it names only.
fn names_only_done(
    doc: &Value,
    summary: &Summary,
    lists: &[Vec<(String, PhaseEntry)>],
    (text, key): (Option<&str>, Option<String>),
    with_gates: bool,
) -> Option<(String, String)> {
    let key = key?;
    if !key.starts_with("resumption") {
        return None;
    }
    // A finished workflow's next step is a follow-up (`finished_but_next_step`
    // judges it), and may name phases of something else ("roadmap Phase 1").
    if progress(summary.status.as_deref()) == Progress::Done {
        return None;
    }
    let text = text?;
    let mut named: Vec<(String, String, String)> = Vec::new();
    for (word, next) in words(text) {
        let score = next.parse::<f64>().is_ok();
        if progress(Some(&next)) == Progress::Done || score {
            continue;
        }
        let phase = phase_number(&word);
        if let Some(n) = &phase {
            for (at, e) in lists.iter().flatten() {
                if let (true, Some(status)) = (same_phase(&e.id, n), &e.status) {
                    named.push((format!("phase {n}"), at.clone(), status.clone()));
                }
            }
        }
        let others = if with_gates {
            gate_and_barrier_statuses(doc)
        } else {
            Vec::new()
        };
        for (id, at, status) in others {
            let bare_number = word.chars().all(|c| c.is_ascii_digit());
            if phase.is_none() && !bare_number && id.eq_ignore_ascii_case(&word) {
                named.push((id, at, status));
            }
        }
    }
    if named.is_empty()
        || named
            .iter()
            .any(|(_, _, s)| progress(Some(s)) != Progress::Done)
    {
        return None;
    }
    let (id, at, status) = named.first()?;
    Some((
        key.clone(),
        format!("{key} names {id}, but {at}.status is {status}"),
    ))
}

/// A finished workflow (a finished status outside the resumption section, or
/// `workflow_complete: true`) whose resumption section's next step names one of
/// its own phases: a finished workflow has no phase left to do. A follow-up
/// ("commit and close the feature") names none and is not judged.
fn finished_but_next_step(
    doc: &Value,
    summary: &Summary,
    res: Option<&Resumption>,
    lists: &[Vec<(String, PhaseEntry)>],
) -> Option<(String, String)> {
    let res = res?;
    if progress(res.recovery.workflow_status.as_deref()) == Progress::Done {
        return None;
    }
    let key = summary.sources.next_step.as_deref()?;
    let step = summary.next_step.as_deref()?;
    finished_but_says(doc, Some(res), lists, step, key, "still names a step")
}

/// The workflow is finished (its status, or `workflow_complete`), while `text`
/// (from the resumption section's `key`) names a phase of the file and no done
/// word: it describes a point the workflow has passed.
fn finished_but_says(
    doc: &Value,
    res: Option<&Resumption>,
    lists: &[Vec<(String, PhaseEntry)>],
    step: &str,
    key: &str,
    what: &str,
) -> Option<(String, String)> {
    let res = res?;
    if progress(res.recovery.workflow_status.as_deref()) == Progress::Done
        || !key.starts_with("resumption")
    {
        return None;
    }
    let key = key.to_string();
    let says_done = |t: &str| {
        let tokens: Vec<String> = t.split_whitespace().map(str::to_ascii_uppercase).collect();
        tokens.iter().enumerate().any(|(i, token)| {
            let done = [
                "COMPLETE", "DONE", "FINISHED", "CLOSED", "NONE", "N/A", "PASSED",
            ]
            .iter()
            .any(|w| token.contains(w));
            // "0/3 phases complete" counts nothing done.
            let none_counted = tokens
                .get(i.saturating_sub(3)..i)
                .is_some_and(|before| before.iter().any(|b| b.starts_with("0/")));
            done && !none_counted
        })
    };
    let names_a_phase = words(step).iter().any(|(word, _)| {
        phase_number(word)
            .is_some_and(|n| lists.iter().flatten().any(|(_, e)| same_phase(&e.id, &n)))
    });
    if says_done(step) || !names_a_phase {
        return None;
    }
    let finished = ["workflow", "state", "orchestration"]
        .iter()
        .find_map(|block| {
            let holder = get(doc, block)?;
            let status = get_text(holder, "status")?;
            (progress(Some(&status)) == Progress::Done).then(|| (format!("{block}.status"), status))
        })
        .or_else(|| {
            let status = get_text(doc, "status")?;
            (progress(Some(&status)) == Progress::Done).then(|| ("status".to_string(), status))
        })
        .or_else(|| {
            [None, Some("workflow")].iter().find_map(|block| {
                let holder = block.map_or(Some(doc), |b| get(doc, b))?;
                get_bool(holder, "workflow_complete")?.then(|| {
                    let at = block.map_or("workflow_complete".into(), |b| {
                        format!("{b}.workflow_complete")
                    });
                    (at, "true".to_string())
                })
            })
        })?;
    Some((
        key.clone(),
        format!(
            "{} is {}, but {key} {what}: \"{}\"",
            finished.0,
            finished.1,
            short(step)
        ),
    ))
}

/// `gates_completed` of the resumption section leaves out gates that
/// `quality_gates` / `gates` mark as passed.
fn gates_not_listed(doc: &Value, res: Option<&Resumption>) -> Option<(String, String)> {
    let quality = res?.quality.as_ref()?;
    let listed = |id: &str| {
        quality
            .gates_completed
            .iter()
            .any(|g| g.id.trim().eq_ignore_ascii_case(id.trim()))
    };
    let passed: Vec<(String, String, String)> = gate_statuses(doc)
        .into_iter()
        .filter(|(id, _, s)| progress(Some(s)) == Progress::Done && !listed(id))
        .collect();
    let (id, at, status) = passed.last()?;
    let shown = if quality.gates_completed.is_empty() {
        "[]".to_string()
    } else {
        let ids: Vec<&str> = quality
            .gates_completed
            .iter()
            .map(|g| g.id.as_str())
            .collect();
        format!("[{}]", ids.join(", "))
    };
    let more = match passed.len() {
        1 => String::new(),
        n => format!(" ({n} passed gates are not listed)"),
    };
    Some((
        "resumption.quality_trajectory.gates_completed".into(),
        format!(
            "resumption.quality_trajectory.gates_completed is {shown}, but {at}.status of {id} is {status}{more}"
        ),
    ))
}

/// The workflow is finished, no quality trajectory lists its gates, and its
/// gate block still holds gates that neither passed nor were skipped: run and
/// not recorded, or never run, the file does not say which.
fn finished_but_gates_unrun(
    doc: &Value,
    summary: &Summary,
    res: Option<&Resumption>,
) -> Option<(String, String)> {
    if res.is_some_and(|r| r.quality.is_some())
        || progress(summary.status.as_deref()) != Progress::Done
    {
        return None;
    }
    let open: Vec<(String, String, String)> = gate_statuses(doc)
        .into_iter()
        .filter(|(_, _, s)| progress(Some(s)) != Progress::Done)
        .collect();
    let (_, at, _) = open.first()?;
    let block = at.split(['.', '[']).next().unwrap_or("quality_gates");
    let status_key = summary
        .sources
        .status
        .clone()
        .unwrap_or_else(|| "the status".into());
    let status = summary.status.as_deref().unwrap_or_default();
    let gates: Vec<String> = open.iter().map(|(id, _, s)| format!("{id} {s}")).collect();
    Some((
        block.to_string(),
        format!(
            "{status_key} is {status}, but {block} still holds {} (run and not recorded, or never run: the file does not say)",
            short(&gates.join(", "))
        ),
    ))
}

/// `(id, key, status)` of every gate under `quality_gates:` / `gates:`.
fn gate_statuses(doc: &Value) -> Vec<(String, String, String)> {
    let mut all = Vec::new();
    for block in ["quality_gates", "gates"] {
        all.extend(statuses_under(doc, block));
    }
    all
}

fn gate_and_barrier_statuses(doc: &Value) -> Vec<(String, String, String)> {
    let mut all = gate_statuses(doc);
    all.extend(statuses_under(doc, "barriers"));
    all
}

fn statuses_under(doc: &Value, block: &str) -> Vec<(String, String, String)> {
    let items: Vec<(String, Option<String>, &Value)> = match get(doc, block) {
        Some(Value::Sequence(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{block}[{i}]"), None, v))
            .collect(),
        Some(Value::Mapping(map)) => map
            .iter()
            .map(|(k, v)| {
                let key = key_text(k);
                (format!("{block}.{key}"), Some(key), v)
            })
            .collect(),
        _ => Vec::new(),
    };
    items
        .into_iter()
        .filter_map(|(at, key, v)| Some((get_text(v, "id").or(key)?, at, get_text(v, "status")?)))
        .collect()
}

/// Each word of `text` (letters, digits, `-`, `_`) with the word after it.
fn words(text: &str) -> Vec<(String, String)> {
    let list: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    list.iter()
        .enumerate()
        .filter(|(_, w)| w.chars().any(|c| c.is_ascii_digit()))
        .map(|(i, w)| {
            let next = list.get(i + 1).copied().unwrap_or_default();
            let word = match (i.checked_sub(1).and_then(|j| list.get(j)), w.parse::<u32>()) {
                (Some(before), Ok(_)) if before.eq_ignore_ascii_case("phase") => {
                    format!("phase {w}")
                }
                _ => (*w).to_string(),
            };
            (word, next.to_string())
        })
        .collect()
}

/// `phase 3`, `phase-3`, `phase_3` → `3`.
fn phase_number(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    let rest = lower.strip_prefix("phase")?;
    let digits = rest.trim_start_matches(['-', '_', ' ']);
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then(|| digits.to_string())
}

fn short(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= 120 {
        one
    } else {
        format!("{}…", one.chars().take(119).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use crate::core::normalize::jerry::normalize_orchestration;

    fn behind(text: &str) -> Vec<String> {
        let p = normalize_orchestration("w/ORCHESTRATION.yaml", "w", text);
        assert!(p.summary.contradictions.is_empty(), "{:?}", p.summary);
        p.summary.behind
    }

    #[test]
    fn a_current_phase_behind_the_phase_list() {
        let yaml = "workflow: {id: w, status: COMPLETE}\npipelines:\n  a: {current_phase: 0}\n\
                    phases:\n  - {id: 0, status: COMPLETE}\n  - {id: 1, status: COMPLETE}\n";
        assert_eq!(
            behind(yaml),
            [
                "pipelines.a.current_phase is 0, but phases[0].status is COMPLETE and phase 1 is \
              COMPLETE at phases[1].status; every phase is done"
            ]
        );
        let current = yaml.replace("{id: 1, status: COMPLETE}", "{id: 1, status: PENDING}");
        assert!(behind(&current).is_empty(), "nothing later under way");
    }

    #[test]
    fn a_finished_workflow_whose_activity_describes_work_to_do() {
        let yaml = "workflow: {id: w, status: COMPLETE}\nphases:\n  - {id: 1, status: COMPLETE}\n\
                    resumption:\n  current_state: WORKFLOW PLANNED. 0/3 phases complete. Ready to \
                    begin Phase 1.\n  next_step: Close the feature\n";
        assert_eq!(
            behind(yaml),
            [
                "workflow.status is COMPLETE, but resumption.current_state still describes work to \
                 do: \"WORKFLOW PLANNED. 0/3 phases complete. Ready to begin Phase 1.\""
            ]
        );
        let done = yaml.replace("0/3 phases complete", "3/3 phases complete");
        assert!(behind(&done).is_empty(), "a report of work done");
    }

    #[test]
    fn a_finished_workflow_whose_gate_block_still_has_gates_not_run() {
        let yaml = "workflow: {id: w, status: COMPLETE}\nresumption:\n  next_step: none\n\
                    quality_gates:\n  pg1: {status: PASSED, score: 0.95}\n  pg2: {status: PLANNED}\n";
        assert_eq!(
            behind(yaml),
            [
                "workflow.status is COMPLETE, but quality_gates still holds pg2 PLANNED \
                 (run and not recorded, or never run: the file does not say)"
            ]
        );
        let active = yaml.replace("status: COMPLETE", "status: ACTIVE");
        assert!(behind(&active).is_empty());
        let all_passed = yaml.replace("status: PLANNED", "status: SKIPPED");
        assert!(behind(&all_passed).is_empty());
    }

    #[test]
    fn a_finished_workflow_whose_trajectory_still_has_gates_to_run() {
        let yaml = "workflow: {id: w, status: COMPLETE}\nresumption:\n  next_step: none\n  \
                    quality_trajectory:\n    gates_completed: []\n    gates_remaining: [g-1, g-2]\n    \
                    current_gate: g-2\n";
        assert_eq!(
            behind(yaml),
            [
                "workflow.status is COMPLETE, but resumption.quality_trajectory still has \
              current_gate g-2 and 2 gates_remaining"
            ]
        );
        let active = yaml.replace("status: COMPLETE", "status: ACTIVE");
        assert!(behind(&active).is_empty());
    }

    #[test]
    fn every_pipeline_behind_its_own_phase_list_is_named() {
        let yaml = "workflow: {id: w, status: COMPLETE}\npipelines:\n  a: {current_phase: 0}\n  \
                    b: {current_phase: 0}\nphases:\n  - {id: 0, status: COMPLETE}\n  \
                    - {id: 1, status: COMPLETE}\n";
        let found = behind(yaml);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[1].starts_with("pipelines.b.current_phase is 0, but phases[0]"));
        let own = "workflow: {id: w, status: ACTIVE}\npipelines:\n  a:\n    current_phase: 2\n    \
                   phases:\n      - {id: 1, status: COMPLETE}\n      - {id: 2, status: IN_PROGRESS}\n  \
                   b:\n    current_phase: 1\n    phases:\n      - {id: 1, status: COMPLETE}\n      \
                   - {id: 2, status: COMPLETE}\n";
        assert_eq!(
            behind(own),
            [
                "pipelines.b.current_phase is 1, but pipelines.b.phases[0].status is COMPLETE and \
                 phase 2 is COMPLETE at pipelines.b.phases[1].status; every phase is done"
            ]
        );
    }

    #[test]
    fn a_next_step_naming_only_done_phases_or_gates() {
        let yaml = "workflow: {id: w, status: ACTIVE}\nphases:\n  - {id: 1, status: COMPLETE}\n  \
                    - {id: 2, status: IN_PROGRESS}\nquality_gates:\n  - {id: QG-1, status: PASSED}\n\
                    resumption:\n  next_step: Run QG-1 after Phase 1\n";
        assert_eq!(
            behind(yaml),
            ["resumption.next_step names QG-1, but quality_gates[0].status is PASSED"]
        );
        let ahead = yaml.replace("after Phase 1", "then Phase 2");
        assert!(behind(&ahead).is_empty(), "names phase 2, under way");
        let report = yaml.replace("Run QG-1 after Phase 1", "Phase 1 COMPLETE; go on");
        assert!(behind(&report).is_empty(), "a report, not a step");
    }

    #[test]
    fn a_finished_workflow_whose_next_step_names_a_phase() {
        let yaml = "workflow: {id: w, status: COMPLETE}\nphases:\n  - {id: 1, status: COMPLETE}\n\
                    resumption:\n  next_step: Execute Phase 1 agent x\n";
        assert_eq!(
            behind(yaml),
            [
                "workflow.status is COMPLETE, but resumption.next_step still names a step: \
              \"Execute Phase 1 agent x\""
            ]
        );
        let follow_up = yaml.replace("Execute Phase 1 agent x", "Commit and close the feature");
        assert!(behind(&follow_up).is_empty());
    }

    #[test]
    fn passed_gates_missing_from_gates_completed() {
        let yaml = "workflow: {id: w, status: ACTIVE}\nquality_gates:\n  - {id: QG-1, status: PASSED}\n  \
                    - {id: QG-2, status: PASS}\nresumption:\n  quality_trajectory:\n    gates_completed: []\n";
        assert_eq!(
            behind(yaml),
            [
                "resumption.quality_trajectory.gates_completed is [], but quality_gates[1].status \
              of QG-2 is PASS (2 passed gates are not listed)"
            ]
        );
        let listed = yaml.replace("gates_completed: []", "gates_completed: [QG-1, qg-2]");
        assert!(behind(&listed).is_empty());
    }
}
