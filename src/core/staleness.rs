//! Staleness of a project's resumption state (seed 004, "Staleness Detection").
//! The rules are implemented in `assess`; the clock is a parameter.
//!
//! - CRITICAL: the last update is older than the latest checkpoint or compaction
//!   event, or was written in a previous session (when the session is known).
//! - STALE: the last update is older than the current phase's start, or more than
//!   `stale_after_minutes` old (not applied to finished workflows, whose last
//!   update is final).
//! - FRESH: none of the above.
//! - UNKNOWN: no readable update time.
//!
//! A date written without a time (`2026-02-19`, or exactly midnight, which real
//! files write when they only know the date) counts as the end of that day, so it is
//! never judged older than something that happened later the same day.

use serde::Serialize;

use crate::core::model::Project;
use crate::core::time::{Timestamp, describe_age, is_date_only, update_effective};

mod phase;

pub use phase::phase_started_at;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Default)]
#[serde(rename_all = "UPPERCASE")]
pub enum StalenessLevel {
    Fresh,
    Stale,
    Critical,
    #[default]
    Unknown,
}

impl StalenessLevel {
    pub fn label(self) -> &'static str {
        match self {
            StalenessLevel::Fresh => "FRESH",
            StalenessLevel::Stale => "STALE",
            StalenessLevel::Critical => "CRITICAL",
            StalenessLevel::Unknown => "UNKNOWN",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Staleness {
    pub level: StalenessLevel,
    /// Why the level was chosen, one sentence each.
    pub reasons: Vec<String>,
    /// Seconds between the last update and `now`, when both are known.
    pub age_seconds: Option<i64>,
    /// `files_to_read` / `files_to_load` entries that do not exist.
    pub missing_files: Vec<String>,
    pub unacknowledged_checkpoints: usize,
}

/// The Claude Code session in progress, when the caller knows it (hook mode does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Session {
    pub id: Option<String>,
    pub started_at: Option<Timestamp>,
}

/// Everything staleness is judged from, gathered from a project by [`facts`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    pub updated_at_raw: Option<String>,
    pub updated_at: Option<Timestamp>,
    /// The status that makes the workflow finished (`COMPLETE`, …), if it is.
    pub finished: Option<String>,
    pub phase: Option<String>,
    pub phase_started_at: Option<Timestamp>,
    /// Id and time of the newest checkpoint.
    pub latest_checkpoint: Option<(String, Timestamp)>,
    /// Id and time of the newest compaction event recorded in the file.
    pub latest_compaction: Option<(String, Timestamp)>,
    pub session: Option<Session>,
    /// Sessions the file says it was written in (Nexus `session_ids`).
    pub recorded_sessions: Vec<String>,
    pub missing_files: Vec<String>,
    pub unacknowledged_checkpoints: usize,
}

/// Assesses `project` at `now`. `session` is the session in progress, if known.
pub fn assess(
    project: &Project,
    session: Option<&Session>,
    now: Timestamp,
    stale_after_minutes: u32,
) -> Staleness {
    judge(&facts(project, session), now, stale_after_minutes)
}

/// Gathers the facts of `project` that the rules look at.
pub fn facts(project: &Project, session: Option<&Session>) -> Facts {
    let summary = &project.summary;
    let mut missing_files = Vec::new();
    if let Some(resumption) = &project.resumption {
        let missing = resumption
            .files_to_read
            .iter()
            .filter(|f| f.exists == Some(false));
        missing_files.extend(missing.map(|f| f.path.clone()));
    }
    let mut recorded_sessions = Vec::new();
    if let Some(manifest) = &project.manifest {
        let missing = manifest
            .files_to_load
            .iter()
            .filter(|f| f.exists == Some(false));
        missing_files.extend(missing.map(|f| f.path.clone()));
        recorded_sessions.clone_from(&manifest.session_ids);
    }
    let latest_checkpoint = project
        .checkpoints
        .iter()
        .filter_map(|c| c.created_at.map(|t| (c.id.clone(), t)))
        .max_by_key(|(_, t)| *t);
    let latest_compaction = project
        .resumption
        .iter()
        .filter_map(|r| r.compaction.as_ref())
        .flat_map(|c| c.events.iter())
        .filter_map(|e| {
            let id = e.id.clone().unwrap_or_else(|| "(no id)".to_string());
            e.timestamp.map(|t| (id, t))
        })
        .max_by_key(|(_, t)| *t);
    Facts {
        updated_at_raw: summary.updated_at_raw.clone(),
        updated_at: summary.updated_at,
        finished: finished_status(project),
        phase: summary.phase.clone(),
        phase_started_at: summary.phase_started_at,
        latest_checkpoint,
        latest_compaction,
        session: session.cloned(),
        recorded_sessions,
        missing_files,
        unacknowledged_checkpoints: project.unacknowledged_checkpoints().count(),
    }
}

const FINISHED: &[&str] = &[
    "complete",
    "completed",
    "done",
    "cancelled",
    "canceled",
    "archived",
];

/// The status (or Nexus phase, or folder) that says the work is over, if any.
fn finished_status(project: &Project) -> Option<String> {
    let summary = &project.summary;
    let words = [summary.status.as_deref(), summary.phase.as_deref()];
    if let Some(word) = words
        .into_iter()
        .flatten()
        .find(|w| FINISHED.contains(&w.trim().to_ascii_lowercase().as_str()))
    {
        return Some(word.trim().to_string());
    }
    let archived = ["05-archived/", "02-builds/complete/"];
    archived
        .iter()
        .any(|a| project.source.starts_with(a) || project.source.contains(&format!("/{a}")))
        .then(|| "archived".to_string())
}

/// Applies the rules to `facts` at `now`.
pub fn judge(facts: &Facts, now: Timestamp, stale_after_minutes: u32) -> Staleness {
    let mut staleness = Staleness {
        missing_files: facts.missing_files.clone(),
        unacknowledged_checkpoints: facts.unacknowledged_checkpoints,
        ..Staleness::default()
    };
    let Some(updated) = facts.updated_at else {
        staleness.level = StalenessLevel::Unknown;
        staleness.reasons.push(match &facts.updated_at_raw {
            Some(raw) => format!("The update time \"{raw}\" is not a date or time."),
            None => "No update time is recorded, so its age cannot be judged.".to_string(),
        });
        return staleness;
    };
    let date_only = facts.updated_at_raw.as_deref().is_some_and(is_date_only);
    let effective = update_effective(facts.updated_at_raw.as_deref(), updated);
    let written = if date_only {
        format!("on {}", updated.to_iso().get(..10).unwrap_or_default())
    } else {
        format!("at {}", updated.to_iso())
    };
    let age = now.seconds_since(effective);
    staleness.age_seconds = Some(now.seconds_since(updated));

    let critical = critical_reasons(facts, effective, &written);
    let stale = stale_reasons(facts, effective, &written, age, stale_after_minutes);
    staleness.level = if !critical.is_empty() {
        StalenessLevel::Critical
    } else if !stale.is_empty() {
        StalenessLevel::Stale
    } else {
        StalenessLevel::Fresh
    };
    staleness.reasons.extend(critical);
    staleness.reasons.extend(stale);
    if staleness.level == StalenessLevel::Fresh {
        let reason = if date_only && facts.finished.is_none() && age <= 0 {
            "Updated today (the time of day is not recorded).".to_string()
        } else {
            fresh_reason(facts, age, stale_after_minutes)
        };
        staleness.reasons.push(reason);
    }
    staleness
}

fn critical_reasons(facts: &Facts, effective: Timestamp, written: &str) -> Vec<String> {
    let mut reasons = Vec::new();
    if let Some((id, at)) = &facts.latest_checkpoint
        && *at > effective
    {
        reasons.push(format!(
            "Last updated {written}, before checkpoint {id} was written at {}.",
            at.to_iso()
        ));
    }
    let same_as_checkpoint = |id: &str| {
        facts
            .latest_checkpoint
            .as_ref()
            .is_some_and(|(checkpoint, _)| checkpoint.eq_ignore_ascii_case(id))
    };
    if let Some((id, at)) = &facts.latest_compaction
        && *at > effective
        && !same_as_checkpoint(id)
    {
        reasons.push(format!(
            "Last updated {written}, before compaction event {id} at {}.",
            at.to_iso()
        ));
    }
    let Some(session) = &facts.session else {
        return reasons;
    };
    if let Some(start) = session.started_at
        && start > effective
    {
        reasons.push(format!(
            "Last updated {written}, before the current session started at {}.",
            start.to_iso()
        ));
    }
    if let Some(id) = &session.id
        && !facts.recorded_sessions.is_empty()
        && !facts.recorded_sessions.contains(id)
    {
        reasons.push(format!(
            "Written in a previous session: the current session {id} is not among the {} it records.",
            facts.recorded_sessions.len()
        ));
    }
    reasons
}

fn stale_reasons(
    facts: &Facts,
    effective: Timestamp,
    written: &str,
    age: i64,
    stale_after_minutes: u32,
) -> Vec<String> {
    let mut reasons = Vec::new();
    if let Some(start) = facts.phase_started_at
        && start > effective
    {
        let phase = facts
            .phase
            .as_deref()
            .map_or_else(String::new, |p| format!(" {p}"));
        reasons.push(format!(
            "Last updated {written}, before the current phase{phase} started at {}.",
            start.to_iso()
        ));
    }
    let limit = i64::from(stale_after_minutes) * 60;
    if facts.finished.is_none() && age > limit {
        reasons.push(format!(
            "Last updated {}, more than the {stale_after_minutes}-minute limit.",
            describe_age(age)
        ));
    }
    reasons
}

fn fresh_reason(facts: &Facts, age: i64, stale_after_minutes: u32) -> String {
    if let Some(status) = &facts.finished {
        return format!(
            "The workflow is {status}; its last update ({}) is final.",
            describe_age(age)
        );
    }
    if age < 0 {
        return format!(
            "The update time is {} (clocks may differ).",
            describe_age(age)
        );
    }
    format!(
        "Updated {}, within the {stale_after_minutes}-minute limit.",
        describe_age(age)
    )
}

#[cfg(test)]
mod tests;
