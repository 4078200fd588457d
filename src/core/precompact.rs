//! The Nexus precompact state as the operator sees it: the project it names, how
//! old it is, and whether SessionStart would still inject it (docs/hooks.md,
//! SessionStart). The hooks and the dashboard share the rules here: where a
//! project's manifest is for an `active_project_id`, and how recent is recent.

use serde::Serialize;

use crate::core::model::{PrecompactState, Project, ProjectKind, Workspace};
use crate::core::time::{Timestamp, describe_age};

/// Where the state sits under a Nexus root.
const STATE_PATH: &str = "00-system/.cache/precompact_state.json";

/// A state dated up to this far in the future still counts as recent (clocks of
/// two machines sharing a folder disagree a little).
pub const FUTURE_MARGIN_SECONDS: i64 = 300;

/// Where the manifest of Nexus project `id` may be, relative to the Nexus root, in
/// the order they are tried (v5 builds, then v4 projects); `None` for an id that
/// is not a plain folder name.
pub fn manifest_places(id: &str) -> Option<[String; 6]> {
    if id.is_empty() || id.contains(['/', '\\']) || id.starts_with('.') {
        return None;
    }
    Some([
        format!("02-projects/{id}/01-planning/resume-context.md"),
        format!("02-builds/active/{id}/01-planning/resume-context.md"),
        format!("02-builds/{id}/01-planning/resume-context.md"),
        format!("02-builds/complete/{id}/01-planning/resume-context.md"),
        format!("02-projects/{id}/01-planning/_resume.md"),
        format!("02-projects/{id}/_resume.md"),
    ])
}

/// Whether a state written `age_seconds` ago is recent enough for another
/// session: within `max_minutes` (`hooks.nexus_state_max_age_minutes`).
pub fn within_bound(age_seconds: i64, max_minutes: u64) -> bool {
    let limit = i64::try_from(max_minutes.saturating_mul(60)).unwrap_or(i64::MAX);
    (-FUTURE_MARGIN_SECONDS..=limit).contains(&age_seconds)
}

/// The project the state names: the Nexus project whose manifest is, under the
/// state's own Nexus root, where [`manifest_places`] puts `active_project_id`.
/// The first place that holds a project wins, as in the hooks.
pub fn named_project<'a>(state: &PrecompactState, projects: &'a [Project]) -> Option<&'a Project> {
    let root = state.path.strip_suffix(STATE_PATH)?;
    let places = manifest_places(state.active_project_id.as_deref()?)?;
    places.iter().find_map(|place| {
        let source = format!("{root}{place}");
        projects
            .iter()
            .find(|p| p.kind == ProjectKind::Nexus && p.source == source)
    })
}

/// The workspace's state seen at `now`, and the project it names, if any.
pub fn of_workspace(
    ws: &Workspace,
    now: Timestamp,
    max_minutes: u64,
) -> Option<(PrecompactView, Option<&Project>)> {
    let state = ws.precompact.as_ref()?;
    let named = named_project(state, &ws.projects);
    Some((view(state, now, max_minutes, named.is_some()), named))
}

/// The workspace's state seen at `now`, when it names `project`.
pub fn of_project(
    ws: &Workspace,
    project: &Project,
    now: Timestamp,
    max_minutes: u64,
) -> Option<PrecompactView> {
    let (view, named) = of_workspace(ws, now, max_minutes)?;
    (named?.source == project.source).then_some(view)
}

/// When the workspace's state names no project of it: says so, with the id it
/// names as written (`precompact state 50 min ago names "x": no such project`).
pub fn orphan_note(ws: &Workspace, now: Timestamp) -> Option<String> {
    let state = ws.precompact.as_ref()?;
    if named_project(state, &ws.projects).is_some() {
        return None;
    }
    let age = state.timestamp.map_or_else(
        || "undated".to_string(),
        |t| describe_age(now.seconds_since(t)),
    );
    Some(match state.active_project_id.as_deref() {
        Some(id) => format!("precompact state {age} names {id:?}: no such project"),
        None => format!("precompact state {age} names no project"),
    })
}

/// What `show --json` and the dashboard say about the state (strings as the
/// file holds them; views clean them before drawing).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrecompactView {
    /// Relative to the workspace root.
    pub path: String,
    /// As written.
    pub timestamp: Option<String>,
    /// Whole minutes since `timestamp` (negative when dated ahead); `null` when
    /// the timestamp is missing or not a time.
    pub age_minutes: Option<i64>,
    pub session_id: Option<String>,
    pub confidence: Option<String>,
    pub detection_method: Option<String>,
    /// Whether a SessionStart (`compact`, `resume`, `fork`) of any session would
    /// inject it now: recent, confidence `high` or `medium`, a known project.
    pub injectable: bool,
    /// Why, in words: `older than 30 min: never injected`.
    pub injection: String,
    #[serde(skip)]
    age_seconds: Option<i64>,
}

/// The state as seen at `now`, with the bound `max_minutes`; `known` is whether
/// it names a project of this workspace ([`named_project`]).
pub fn view(
    state: &PrecompactState,
    now: Timestamp,
    max_minutes: u64,
    known: bool,
) -> PrecompactView {
    let age_seconds = state.timestamp.map(|t| now.seconds_since(t));
    let (injectable, injection) = injection(state, age_seconds, max_minutes, known);
    PrecompactView {
        path: state.path.clone(),
        timestamp: state.timestamp_raw.clone(),
        age_minutes: age_seconds.map(|s| s.div_euclid(60)),
        session_id: state.session_id.clone(),
        confidence: state.confidence.clone(),
        detection_method: state.detection_method.clone(),
        injectable,
        injection,
        age_seconds,
    }
}

fn injection(
    state: &PrecompactState,
    age_seconds: Option<i64>,
    max_minutes: u64,
    known: bool,
) -> (bool, String) {
    // A state of its own session is injected there whatever its age.
    let never = |why: String| {
        let what = if state.session_id.is_some() {
            "injected only if its own session resumes"
        } else {
            "never injected"
        };
        (false, format!("{why}: {what}"))
    };
    let Some(age) = age_seconds else {
        return never("no readable timestamp".into());
    };
    if age < -FUTURE_MARGIN_SECONDS {
        return never("dated in the future".into());
    }
    if !within_bound(age, max_minutes) {
        return never(format!("older than {max_minutes} min"));
    }
    // Recent: the next SessionStart consumes it, and injects only a project it
    // finds with confidence high or medium.
    if !known {
        return (
            false,
            "names no project here: the next SessionStart removes it, injects nothing".into(),
        );
    }
    let confidence = state.confidence.as_deref().unwrap_or("low");
    if !matches!(confidence, "high" | "medium") {
        return (
            false,
            format!("confidence {confidence}: the next SessionStart removes it, injects nothing"),
        );
    }
    (
        true,
        format!("younger than {max_minutes} min: the next SessionStart injects it"),
    )
}

impl PrecompactView {
    /// `2026-02-17T11:44:56Z (50 min ago)`, or the raw text when not a time.
    pub fn written(&self) -> String {
        let raw = self.timestamp.as_deref().unwrap_or("no timestamp");
        match self.age_seconds {
            Some(age) => format!("{raw} ({})", describe_age(age)),
            None => raw.to_string(),
        }
    }

    /// `50 min ago`, or `undated`.
    pub fn age(&self) -> String {
        self.age_seconds
            .map_or_else(|| "undated".to_string(), describe_age)
    }

    /// The session it names, or `no session`.
    pub fn session(&self) -> &str {
        self.session_id.as_deref().unwrap_or("no session")
    }

    /// `high · detected by transcript`.
    pub fn detection(&self) -> String {
        format!(
            "{} · detected by {}",
            self.confidence.as_deref().unwrap_or("no confidence"),
            self.detection_method.as_deref().unwrap_or("?")
        )
    }

    /// One line for the Overview: `precompact state from 50 min ago (no session;
    /// high, detected by transcript) — older than 30 min: never injected`.
    pub fn summary(&self) -> String {
        let session = match self.session_id.as_deref() {
            Some(id) => format!("session {id}"),
            None => "no session".to_string(),
        };
        let age = match self.age_seconds {
            Some(age) => format!("from {}", describe_age(age)),
            None => "undated".to_string(),
        };
        format!(
            "precompact state {age} ({session}; {}) — {}",
            self.detection().replace(" · ", ", "),
            self.injection
        )
    }
}

#[cfg(test)]
#[path = "precompact_tests.rs"]
mod tests;
