//! `D`: copies what `resume-tui dropped` prints for the selected checkpoint (in
//! the Compaction tab; elsewhere the project's newest), through the clipboard
//! path every copy takes (`Effect::Copy`).

use super::effect::Effect;
use super::model::{Model, StatusKind, Tab};
use crate::core::dropped::{Origin, compare_checkpoint, known, report};
use crate::core::model::Checkpoint;
use crate::core::render::state::newest_checkpoint;
use crate::core::time::describe_age;

pub(crate) fn copy(model: &mut Model) -> Vec<Effect> {
    if model.unread {
        model.set_status(
            StatusKind::Info,
            "still reading the files; try again in a moment",
        );
        return Vec::new();
    }
    let Some(project) = model.project() else {
        model.set_status(StatusKind::Info, "no project selected");
        return Vec::new();
    };
    if let Some(why) = super::chosen::refusal(model, &project.id) {
        model.set_status(StatusKind::Error, why);
        return Vec::new();
    }
    let selected = (model.tab == Tab::Compaction)
        .then(|| super::project_actions::selected_checkpoint(model))
        .flatten();
    let Some(cp) = selected.or_else(|| newest_checkpoint(&project.checkpoints)) else {
        let text = format!("{} has no checkpoint to compare", project.id);
        model.set_status(StatusKind::Info, text);
        return Vec::new();
    };
    match text_of(model, &project.id, cp) {
        Some(text) => vec![Effect::Copy {
            what: format!("what the compaction after {} dropped", cp.id),
            text,
        }],
        None => {
            let text = format!(
                "{}: no summary to compare with (none recorded, none in its transcript); \
                 `resume-tui dropped {} {}` reads the transcript again",
                cp.id, project.id, cp.id
            );
            model.set_status(StatusKind::Info, text);
            Vec::new()
        }
    }
}

/// The `dropped` command's text for `cp`, from the summary the load attached
/// (recorded by PostCompact, else its transcript's); none without one.
fn text_of(model: &Model, project_id: &str, cp: &Checkpoint) -> Option<String> {
    let (origin, summary) = known(cp)?;
    let comparison = compare_checkpoint(cp, summary);
    let source = match (origin, &cp.transcript_summary) {
        (Origin::Recorded, _) => report::RECORDED_SOURCE.to_string(),
        (Origin::Transcript, Some(transcript)) => report::transcript_source(&transcript.path),
        (Origin::Transcript, None) => return None,
    };
    let when = cp
        .created_at
        .map(|t| format!(" ({})", describe_age(model.now.seconds_since(t))))
        .unwrap_or_default();
    let header = format!("{project_id} · checkpoint {}{when}", cp.id);
    Some(report::as_text(&header, Ok((&source, &comparison))))
}
