//! Facts a manifest's markdown body states plainly: the first `# heading` (the
//! project's name when the frontmatter has none) and labelled lines such as
//! `**Status**: COMPLETE` or `> **Last Updated**: 2025-12-29`, which are all
//! older manifests without frontmatter have.

/// Labelled facts found in a body; the first occurrence of each label wins.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct BodyFacts {
    pub last_updated: Option<String>,
    pub status: Option<String>,
    pub phase: Option<String>,
    pub next_action: Option<String>,
}

/// The first level-1 heading outside code blocks, without a "- Resume Context"
/// style suffix. A heading that only names the file's role ("Resume Context",
/// "Validation Gate") is not a name.
pub(super) fn first_heading(body: &str) -> Option<String> {
    let heading = prose_lines(body).find_map(|line| line.strip_prefix("# "))?;
    let mut name = heading.trim().trim_matches('#').trim();
    for (prefix, suffix) in [
        ("Resume Context - ", ""),
        ("", " - Resume Context"),
        ("", " - Resume State"),
        ("", " - Session Resume"),
    ] {
        name = name.strip_prefix(prefix).unwrap_or(name);
        if !suffix.is_empty() {
            name = name.strip_suffix(suffix).unwrap_or(name);
        }
    }
    let generic = [
        "resume context",
        "resume state",
        "validation gate",
        "session history",
        "loading manifest",
    ];
    let lower = name.to_lowercase();
    (!name.is_empty() && !generic.contains(&lower.as_str())).then(|| name.to_string())
}

pub(super) fn facts(body: &str) -> BodyFacts {
    let mut facts = BodyFacts::default();
    for line in prose_lines(body) {
        let Some((label, value)) = labelled(line) else {
            continue;
        };
        let slot = match label.as_str() {
            "last updated" | "updated" => &mut facts.last_updated,
            "status" => &mut facts.status,
            "phase" | "current phase" => &mut facts.phase,
            "next action" | "next step" => &mut facts.next_action,
            _ => continue,
        };
        if slot.is_none() {
            *slot = Some(value);
        }
    }
    facts
}

/// Lines outside fenced code blocks.
fn prose_lines(body: &str) -> impl Iterator<Item = &str> {
    let mut in_fence = false;
    body.lines().filter_map(move |raw| {
        let line = raw.trim_end_matches('\r');
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            return None;
        }
        (!in_fence).then_some(line)
    })
}

/// `**Label**: value`, `**Label:** value`, `- Label: value`, `> **Label**: value`
/// → (lower-case label, value without emphasis). Plain `Label: value` lines only
/// count when the label is emphasised or the line is a list/quote item, so prose
/// such as "Note: …" is not mistaken for a fact.
fn labelled(line: &str) -> Option<(String, String)> {
    let mut rest = line.trim_start();
    let mut marked = false;
    while let Some(stripped) = rest
        .strip_prefix('>')
        .or_else(|| rest.strip_prefix("- "))
        .or_else(|| rest.strip_prefix("* "))
    {
        rest = stripped.trim_start();
        marked = true;
    }
    let (label, value) = if let Some(inner) = rest.strip_prefix("**") {
        let end = inner.find("**")?;
        let label = inner.get(..end)?;
        let after = inner.get(end + 2..)?;
        match label.strip_suffix(':') {
            Some(label) => (label, after),
            None => (label, after.trim_start().strip_prefix(':')?),
        }
    } else if marked {
        let (label, value) = rest.split_once(':')?;
        (label, value)
    } else {
        return None;
    };
    let label = label.trim().to_lowercase();
    let value = value.trim().trim_matches('*').trim().to_string();
    (!value.is_empty() && label.len() <= 20).then_some((label, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_name_the_project_unless_generic() {
        assert_eq!(
            first_heading("intro\n# Airtable Builder - Resume Context\n# Other").as_deref(),
            Some("Airtable Builder")
        );
        assert_eq!(
            first_heading("# Resume Context - Airtable Builder\n").as_deref(),
            Some("Airtable Builder")
        );
        assert_eq!(first_heading("## Sub\n# Resume Context\n"), None);
        assert_eq!(first_heading("```\n# not a heading\n```\n"), None);
        assert_eq!(first_heading("#hashtag\n"), None);
    }

    #[test]
    fn labelled_lines_give_status_phase_update_and_next_action() {
        let body = "# P\n\n> **Purpose**: x\n> **Last Updated**: 2025-12-29\n> **Status**: Phase 4 Complete\n\n**Phase:** COMPLETE\n- Next step: run the tests\nNote: prose\n```\n**Status**: in code\n```\n**Status**: second\n";
        assert_eq!(
            facts(body),
            BodyFacts {
                last_updated: Some("2025-12-29".into()),
                status: Some("Phase 4 Complete".into()),
                phase: Some("COMPLETE".into()),
                next_action: Some("run the tests".into()),
            }
        );
        assert_eq!(facts("Status: prose only\n"), BodyFacts::default());
        assert_eq!(
            facts("**bold** text: no\n**Status**:\n"),
            BodyFacts::default()
        );
    }
}
