//! A manifest whose frontmatter was left behind by its own body: the body's
//! `**Phase**:` / `**Status**:` line reports the frontmatter's `current_phase`
//! as done ("Planning COMPLETE - Ready for Implementation" beside
//! `current_phase: planning`). Not a contradiction: the body is the newer side,
//! as Nexus skills rewrite the body's summary and leave the keys.

use super::body::BodyFacts;
use crate::core::model::NexusManifest;

const DONE_WORDS: [&str; 5] = ["complete", "completed", "done", "finished", "passed"];

/// One line per body fact that reports the current phase done.
pub(super) fn body_ahead(manifest: &NexusManifest, facts: &BodyFacts) -> Vec<String> {
    let Some(phase) = manifest.current_phase.as_deref() else {
        return Vec::new();
    };
    let phase_words = words(phase);
    if phase_words.is_empty() || DONE_WORDS.contains(&phase_words.join(" ").as_str()) {
        return Vec::new();
    }
    let mut lines = Vec::new();
    for (label, value) in [("Phase", &facts.phase), ("Status", &facts.status)] {
        let Some(value) = value else { continue };
        if reports_done(&words(value), &phase_words) {
            lines.push(format!(
                "current_phase is {phase}, but the body's **{label}** says \"{}\"",
                value.trim()
            ));
        }
    }
    lines
}

/// The phase's words followed at once by a done word: `planning complete`.
fn reports_done(value: &[String], phase: &[String]) -> bool {
    value.windows(phase.len() + 1).any(|w| {
        w.get(..phase.len()) == Some(phase)
            && w.last().is_some_and(|d| DONE_WORDS.contains(&d.as_str()))
    })
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(phase: &str, body_phase: Option<&str>, status: Option<&str>) -> Vec<String> {
        let manifest = NexusManifest {
            current_phase: Some(phase.into()),
            ..NexusManifest::default()
        };
        let facts = BodyFacts {
            phase: body_phase.map(str::to_string),
            status: status.map(str::to_string),
            ..BodyFacts::default()
        };
        body_ahead(&manifest, &facts)
    }

    #[test]
    fn a_body_reporting_the_current_phase_done_is_ahead() {
        assert_eq!(
            lines(
                "planning",
                Some("Planning COMPLETE - Ready for Implementation"),
                None
            ),
            [
                "current_phase is planning, but the body's **Phase** says \"Planning COMPLETE - Ready for Implementation\""
            ]
        );
        assert_eq!(lines("phase-4", None, Some("Phase 4 done")).len(), 1);
    }

    #[test]
    fn other_phases_and_unfinished_reports_are_not() {
        assert!(
            lines(
                "execution",
                None,
                Some("Planning COMPLETE - Ready for execution")
            )
            .is_empty()
        );
        assert!(
            lines(
                "phase-4-migration",
                Some("Phase 4 - Migration (IN PROGRESS)"),
                None
            )
            .is_empty()
        );
        assert!(lines("complete", Some("COMPLETE"), None).is_empty());
        assert!(lines("planning", Some("Planning"), None).is_empty());
    }
}
