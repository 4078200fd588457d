//! What a Nexus loading sequence may claim, read from the manifest and its
//! build folder: the body's "Next Steps" section, the planning files that exist,
//! whether the body asks validation questions, and an archive folder above it.

use crate::core::model::NexusManifest;
use crate::core::workspace::is_archive_folder;

/// The most lines of the body's next-steps section the sequence repeats.
pub(super) const MAX_NEXT_LINES: usize = 20;

/// The body's next-steps section: a heading whose words start with "Next"
/// (`## Next Steps (Phase 2)`, `### Next Task`, `# Next Session Tasks`) and its
/// lines up to the next heading of its level or above, else a labelled
/// paragraph (`**Next Action**:` and the lines after it up to a blank line).
/// Returns the title and the lines, without leading and trailing blank lines.
pub(super) fn next_section(body: &str) -> Option<(String, Vec<String>)> {
    let lines = prose(body);
    heading_section(&lines).or_else(|| labelled_paragraph(&lines))
}

fn heading_section(lines: &[&str]) -> Option<(String, Vec<String>)> {
    let (at, level, title) = lines.iter().enumerate().find_map(|(i, line)| {
        let (level, title) = heading(line)?;
        starts_with_next(title).then(|| (i, level, title.to_string()))
    })?;
    let section: Vec<String> = lines
        .iter()
        .skip(at + 1)
        .take_while(|line| heading(line).is_none_or(|(l, _)| l > level) && !is_rule(line))
        .map(|line| (*line).to_string())
        .collect();
    Some((title, trim_blank(section))).filter(|(_, lines)| !lines.is_empty())
}

fn labelled_paragraph(lines: &[&str]) -> Option<(String, Vec<String>)> {
    let (at, label, rest) = lines.iter().enumerate().find_map(|(i, line)| {
        let inner = line.trim().strip_prefix("**")?;
        let (label, rest) = inner.split_once("**")?;
        let label = label.trim().trim_end_matches(':').trim();
        let rest = rest.trim_start().strip_prefix(':').unwrap_or(rest).trim();
        starts_with_next(label).then(|| (i, label.to_string(), rest.to_string()))
    })?;
    let mut section: Vec<String> = Vec::new();
    if !rest.is_empty() {
        section.push(rest);
    }
    section.extend(
        lines
            .iter()
            .skip(at + 1)
            .take_while(|line| !line.trim().is_empty() && heading(line).is_none())
            .map(|line| (*line).to_string()),
    );
    Some((label, section)).filter(|(_, lines)| !lines.is_empty())
}

/// `## Title` → (2, "Title").
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    let title = line.get(level..)?.strip_prefix(' ')?;
    (1..=6)
        .contains(&level)
        .then(|| (level, title.trim().trim_matches('*').trim()))
}

fn starts_with_next(title: &str) -> bool {
    let first = title
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty());
    first.is_some_and(|w| w.eq_ignore_ascii_case("next"))
}

fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && t.chars().all(|c| c == '-')
}

fn trim_blank(mut lines: Vec<String>) -> Vec<String> {
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let lead = lines.iter().take_while(|l| l.trim().is_empty()).count();
    lines.split_off(lead)
}

/// Lines outside fenced code blocks.
fn prose(body: &str) -> Vec<&str> {
    let mut in_fence = false;
    body.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
                return false;
            }
            !in_fence
        })
        .collect()
}

/// Whether the body has a section of validation questions: a heading that
/// names validation questions, a validation gate or checklist ("Validation
/// Script Updates" is not one).
pub(super) fn asks_validation(body: &str) -> bool {
    prose(body)
        .iter()
        .filter_map(|line| heading(line))
        .map(|(_, title)| title.to_lowercase())
        .any(|t| {
            t.contains("validation")
                && ["question", "gate", "checklist"]
                    .iter()
                    .any(|w| t.contains(w))
        })
}

/// A `next_action` that states no action: empty, `none`, `null`, `n/a`, `-`.
pub(super) fn says_nothing(action: &str) -> bool {
    let action = action.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
    ["", "none", "null", "n/a", "-", "~"].contains(&action.as_str())
}

/// The files the sequence may name, as the build names them: the listed files
/// not known to be missing (found, or not checked), then the build's
/// `01-planning/` files not listed.
pub(super) fn existing_files(manifest: &NexusManifest) -> Vec<String> {
    let mut found: Vec<String> = manifest
        .files_to_load
        .iter()
        .filter(|f| f.exists != Some(false))
        .map(|f| f.path.trim().trim_start_matches("./").to_string())
        .collect();
    for name in manifest.planning_files.iter().flatten() {
        let path = format!("01-planning/{name}");
        if !found.iter().any(|f| f.ends_with(&path)) {
            found.push(path);
        }
    }
    found
}

/// The first existing file whose name ends with `suffix` (`overview.md` finds
/// `01-planning/01-overview.md`).
pub(super) fn file_ending<'a>(existing: &'a [String], suffix: &str) -> Option<&'a str> {
    existing
        .iter()
        .map(String::as_str)
        .find(|path| path.rsplit('/').next().is_some_and(|n| n.ends_with(suffix)))
}

/// The archive folder a state file lies in: Nexus's `05-archived/` or
/// `02-builds/complete/`, or any archive folder (`_archive/`, `archived/`, …).
pub(super) fn archive_folder(source: &str) -> Option<String> {
    let parts: Vec<&str> = source.split('/').collect();
    let folders = parts.split_last().map_or(&[][..], |(_, f)| f);
    if let Some(pair) = folders.windows(2).find(|w| w == &["02-builds", "complete"]) {
        return Some(pair.join("/"));
    }
    folders
        .iter()
        .find(|f| **f == "05-archived" || is_archive_folder(f))
        .map(|f| (*f).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::FileToLoad;

    #[test]
    fn the_next_steps_heading_and_its_lines() {
        let body = "# X\n## Done\n- a\n### Next Steps (Phase 2)\n\n1. Build\n2. Test\n\
                    #### detail\nmore\n### Later\nno\n";
        let (title, lines) = next_section(body).unwrap();
        assert_eq!(title, "Next Steps (Phase 2)");
        assert_eq!(lines, ["1. Build", "2. Test", "#### detail", "more"]);
        let body = "## Next Action\n```\n## Next fenced\n```\nRun it\n---\nafter\n";
        assert_eq!(next_section(body).unwrap().1, ["Run it"]);
    }

    #[test]
    fn a_labelled_next_action_paragraph() {
        let body = "text\n**Next Action**:\nReview 03-plan.md:\n- Phase 1\n\nAll details in x\n";
        let (title, lines) = next_section(body).unwrap();
        assert_eq!(title, "Next Action");
        assert_eq!(lines, ["Review 03-plan.md:", "- Phase 1"]);
        let body = "**Next**: Phase 4.2 - re-analyze\n";
        assert_eq!(next_section(body).unwrap().1, ["Phase 4.2 - re-analyze"]);
        assert_eq!(
            next_section("## Nextcloud setup\nx\n## Quick Start for Next\ny\n"),
            None
        );
        assert_eq!(next_section("## Next Steps\n\n"), None);
    }

    #[test]
    fn validation_is_a_heading_not_a_word() {
        assert!(asks_validation("## Validation Questions\n1. x\n"));
        assert!(asks_validation("# Validation Gate\n1. x\n"));
        assert!(!asks_validation("## Validation Script Updates\nx\n"));
        assert!(!asks_validation("the validation passed\n"));
        assert!(says_nothing(" None ") && says_nothing("") && !says_nothing("plan-build"));
    }

    #[test]
    fn existing_files_are_the_found_listed_ones_and_the_planning_folder() {
        let listed = |path: &str, exists| FileToLoad {
            path: path.into(),
            exists: Some(exists),
            ..FileToLoad::default()
        };
        let manifest = NexusManifest {
            files_to_load: vec![
                listed("01-planning/01-overview.md", true),
                listed("01-planning/03-plan.md", false),
            ],
            planning_files: Some(vec!["01-overview.md".into(), "04-steps.md".into()]),
            ..NexusManifest::default()
        };
        let existing = existing_files(&manifest);
        assert_eq!(
            existing,
            ["01-planning/01-overview.md", "01-planning/04-steps.md"]
        );
        assert_eq!(
            file_ending(&existing, "steps.md"),
            Some("01-planning/04-steps.md")
        );
        assert_eq!(file_ending(&existing, "plan.md"), None);
    }

    #[test]
    fn archive_folders_above_the_file() {
        let a = |s: &str| archive_folder(s);
        assert_eq!(
            a("n/05-archived/07-x/01-planning/resume-context.md").as_deref(),
            Some("05-archived")
        );
        assert_eq!(
            a("02-builds/complete/03-x/01-planning/r.md").as_deref(),
            Some("02-builds/complete")
        );
        assert_eq!(
            a("02-builds/_old/01-planning/r.md").as_deref(),
            Some("_old")
        );
        assert_eq!(a("02-builds/active/03-x/01-planning/r.md"), None);
        assert_eq!(a("05-archived"), None);
    }
}
