use super::*;

/// (id, decision, rationale, date).
type Parts<'a> = (Option<&'a str>, &'a str, Option<&'a str>, Option<&'a str>);

fn summary(ds: &[Decision]) -> Vec<Parts<'_>> {
    ds.iter()
        .map(|d| {
            (
                d.id.as_deref(),
                d.decision.as_str(),
                d.rationale.as_deref(),
                d.date.as_deref(),
            )
        })
        .collect()
}

#[test]
fn a_list_as_the_templates_ask_gives_one_decision_per_item() {
    let text = "# Decisions\n\n\
        - D-001: Use SQLite for the cache (2026-02-01)\n\
        \x20 - Rationale: one file, no server\n\
        - **Keep the CLI flags stable** — scripts depend on them\n\
        1. [x] Drop Python 3.8\n\
        \n\
        Some closing prose.\n";
    let ds = parse_decisions(text);
    assert_eq!(
        summary(&ds),
        [
            (
                Some("D-001"),
                "Use SQLite for the cache (2026-02-01)",
                Some("one file, no server"),
                Some("2026-02-01")
            ),
            (
                None,
                "Keep the CLI flags stable",
                Some("scripts depend on them"),
                None
            ),
            (None, "Drop Python 3.8", None, None),
        ]
    );
    assert_eq!(ds[2].applied, Some(true));
}

#[test]
fn one_heading_per_decision_takes_its_text_as_the_rationale() {
    let text = "---\ntitle: x\n---\n# Decision log\n\n\
        ## DEC-2 — Split the importer (2026-03-04)\n\
        The importer did two jobs.\nTests were slow.\n\n\
        ```\n- not an item\n```\n\
        ### Use tokio\nFor the watcher.\n";
    let ds = parse_decisions(text);
    assert_eq!(
        summary(&ds),
        [
            (
                Some("DEC-2"),
                "Split the importer (2026-03-04)",
                Some("The importer did two jobs. Tests were slow."),
                Some("2026-03-04")
            ),
            (None, "Use tokio", Some("For the watcher."), None),
        ]
    );
}

#[test]
fn a_heading_that_groups_items_is_not_itself_a_decision() {
    let text = "## Architecture\n- Use one binary\n- No daemon\n## Later\nNothing yet.\n";
    let ds = parse_decisions(text);
    let names: Vec<&str> = ds.iter().map(|d| d.decision.as_str()).collect();
    assert_eq!(names, ["Use one binary", "No daemon", "Later"]);
}

#[test]
fn a_table_with_a_decision_column_gives_one_decision_per_row() {
    let text = "| ID | Date | Decision | Rationale | Status |\n\
        |----|------|----------|-----------|--------|\n\
        | D1 | 2026-01-02 | Ship weekly | Smaller releases | accepted |\n\
        | D2 | | Keep YAML | | proposed |\n";
    let ds = parse_decisions(text);
    assert_eq!(
        summary(&ds),
        [
            (
                Some("D1"),
                "Ship weekly",
                Some("Smaller releases"),
                Some("2026-01-02")
            ),
            (Some("D2"), "Keep YAML", None, None),
        ]
    );
    assert_eq!((ds[0].applied, ds[1].applied), (Some(true), Some(false)));
}

#[test]
fn anything_else_is_read_without_a_panic_and_bounded() {
    assert!(parse_decisions("").is_empty());
    assert!(parse_decisions("just prose\nno list\n").is_empty());
    for hostile in [
        "|",
        "| decision |\n|",
        "## ",
        "- ",
        "1.",
        "**",
        "[x] ",
        "-\u{0301} é",
        "2026-01-0",
    ] {
        let _ = parse_decisions(hostile);
    }
    let many: String = (0..2_000).map(|i| format!("- decision {i}\n")).collect();
    assert_eq!(parse_decisions(&many).len(), MAX_DECISIONS);
    let long = format!("- {}\n", "é".repeat(10_000));
    assert!(parse_decisions(&long)[0].decision.chars().count() <= MAX_TEXT + 1);
}

#[test]
fn ids_are_letters_then_digits_only() {
    assert_eq!(leading_id("D-001: x").0.as_deref(), Some("D-001"));
    assert_eq!(leading_id("**ADR-12** x").0.as_deref(), Some("ADR-12"));
    assert_eq!(leading_id("Use X").0, None);
    assert_eq!(leading_id("Python3 is fine").0, None);
    assert_eq!(leading_id("v2 layout").0, None);
}

#[test]
fn a_bold_lead_is_the_decision_and_the_rest_its_rationale() {
    let text = "- **Poll every 30 s instead of streaming.** Settlement windows close hourly; a\n  websocket adds an ops surface.\n";
    assert_eq!(
        summary(&parse_decisions(text)),
        [(
            None,
            "Poll every 30 s instead of streaming.",
            Some("Settlement windows close hourly; a websocket adds an ops surface."),
            None
        )]
    );
}
