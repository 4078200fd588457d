//! End to end in tmux, what an operator met at 80×24 and 120×40: the decision
//! form's Decision and Rationale wrap within the field with the cursor shown; the
//! Prompt tab in ASCII shows the Nexus prompt without `?` for its emoji, and `y`
//! copies what it shows; the timeline's line about checkpoints tied to no project
//! fits 80 columns; the timeline pages by half its pane.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use tmux::{Tmux, dashboard_with, demo_workspace};

/// `count` numbered words (`d01 d02 …`) with `prefix`: a text to type whose every
/// part can be looked for on the screen.
fn words(prefix: char, count: usize) -> Vec<String> {
    (1..=count).map(|i| format!("{prefix}{i:02}")).collect()
}

/// Whether the cell after `needle` on `line` (a row of `capture -e`) is drawn
/// reversed, the field having been reversed up to it.
fn reversed_after(line: &str, needle: &str) -> bool {
    let Some((_, rest)) = line.split_once(needle) else {
        panic!("{needle:?} not on {line:?}");
    };
    let mut reversed = true;
    let mut rest = rest;
    while let Some(sgr) = rest.strip_prefix("\x1b[") {
        let Some((params, after)) = sgr.split_once('m') else {
            break;
        };
        for param in params.split(';') {
            match param {
                "" | "0" | "27" => reversed = false,
                "7" => reversed = true,
                _ => {}
            }
        }
        rest = after;
    }
    reversed
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_decision_form_wraps_long_text_within_its_field_and_shows_the_cursor() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    // Longer than three rows of the field at 80 columns, and than one at 120.
    let decision = words('d', 60);
    let rationale = words('r', 30);
    for (w, h) in [(80, 24), (120, 40)] {
        let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "NO_COLOR=1", ""), w, h);
        tmux.wait_for_list(11);
        tmux.keys(&["4", "n"]);
        tmux.wait_for_text("New decision");
        tmux.text(&decision.join(" "));
        tmux.keys(&["Tab"]);
        tmux.text(&rationale.join(" "));
        let last = rationale.last().unwrap().clone();
        let screen = tmux.wait_for("the rationale typed", |s| s.contains(&last));
        // Every word of both, on the rows of its own field, in order.
        let rows: Vec<&str> = screen.lines().collect();
        let form = rows
            .iter()
            .position(|l| l.contains("New decision"))
            .unwrap();
        let at = |label: &str| form + rows[form..].iter().position(|l| l.contains(label)).unwrap();
        let (decision_row, rationale_row) = (at("Decision "), at("Rationale "));
        for (text, from, to) in [
            (&decision, decision_row, rationale_row),
            (&rationale, rationale_row, at("Affects phases")),
        ] {
            let shown = rows[from..to].join(" ");
            let mut rest = shown.as_str();
            for word in text {
                let found = rest.find(word.as_str());
                assert!(found.is_some(), "{w}x{h}: {word} not shown:\n{screen}");
                rest = &rest[found.unwrap() + word.len()..];
            }
        }
        // The cursor, after the last word of the focused field: the one cell of it
        // not drawn reversed.
        let escapes = tmux.capture_escapes();
        let line = escapes.lines().find(|l| l.contains(&last)).unwrap();
        assert!(
            !reversed_after(line, &last),
            "{w}x{h}: no cursor after {last}:\n{line:?}"
        );
        tmux.keys(&["Escape", "y"]);
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn in_ascii_the_prompt_tab_shows_and_copies_the_plain_nexus_sequence() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let plain = std::process::Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .args(["--root", root.to_str().unwrap(), "prompt"])
        .args(["09-ops-runbook-refresh", "--style", "plain"])
        .output()
        .unwrap();
    assert!(plain.status.success(), "{plain:?}");
    let plain = String::from_utf8(plain.stdout).unwrap();
    assert!(plain.contains("*** CATASTROPHIC MANDATORY LOADING SEQUENCE ***"));
    for (w, h) in [(120, 40), (80, 24)] {
        let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "", "--ascii"), w, h);
        tmux.wait_for_list(11);
        tmux.keys(&["/"]);
        tmux.text("runbook");
        tmux.keys(&["Enter", "5"]);
        let screen = tmux.wait_for_text("CATASTROPHIC");
        assert!(
            screen.contains("*** CATASTROPHIC MANDATORY LOADING SEQUENCE ***"),
            "{w}x{h}:\n{screen}"
        );
        assert!(
            !screen.contains("? ?"),
            "{w}x{h}: emoji drawn as ?:\n{screen}"
        );
        // `y` copies the text on the screen: the plain sequence.
        tmux.keys(&["y"]);
        tmux.wait_for_text("copied");
        assert_eq!(
            tmux.output(&["show-buffer"]).trim_end(),
            plain.trim_end(),
            "{w}x{h}"
        );
    }
}

/// `count` checkpoints of `workflow` (a project's id, or one no project has) in the
/// workspace's `.jerry/checkpoints/`, a minute apart, the newest `cx-9NN` last.
fn add_checkpoints(root: &Path, workflow: &str, first: usize, count: usize) {
    for n in first..first + count {
        let text = format!(
            "{{\"checkpoint_id\": \"cx-{n}\", \
             \"resumption_state\": {{\"workflow_id\": \"{workflow}\"}}, \
             \"created_at\": \"2026-01-01T10:{:02}:00Z\"}}\n",
            n % 60
        );
        std::fs::write(
            root.join(format!(".jerry/checkpoints/cx-{n}-checkpoint.json")),
            text,
        )
        .unwrap();
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn at_80_columns_the_timeline_says_whole_how_many_checkpoints_it_leaves_out() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    add_checkpoints(&root, "retired-20250101-001", 900, 28);
    let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "", ""), 80, 24);
    tmux.wait_for_list(11);
    tmux.keys(&["t"]);
    let screen = tmux.wait_for_text("tied to no project");
    // The note's rows, from its first to the line of keys, read as one text.
    let rows: Vec<&str> = screen.lines().collect();
    let from = rows
        .iter()
        .position(|l| l.contains("tied to no project"))
        .unwrap();
    let to = rows.iter().position(|l| l.contains("j/k select")).unwrap();
    let note: Vec<&str> = rows[from..to]
        .iter()
        .map(|l| l.trim_matches('│').trim())
        .collect();
    assert_eq!(
        note.join(" "),
        "28 checkpoints tied to no project: not on the lanes; resume-tui timeline lists them.",
        "{screen}"
    );
    assert!(note.iter().all(|l| !l.contains('…')), "{screen}");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_timeline_pages_by_half_its_list() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    add_checkpoints(&root, "docs-rewrite-20260225-001", 900, 50);
    for (w, h) in [(120, 40), (80, 24)] {
        let tmux = Tmux::start_sized(&dashboard_with(tmp.path(), &root, "", ""), w, h);
        tmux.wait_for_list(11);
        tmux.keys(&["t"]);
        let screen = tmux.wait_for_text("▸ ⚑ cx-004");
        // The list's rows, newest first, the selection on the first.
        let ids: Vec<String> = screen
            .lines()
            .filter(|l| l.contains(" ago ") && l.contains(" cx-"))
            .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("cx-")))
            .map(str::to_string)
            .collect();
        assert!(
            ids.len() > 10,
            "{w}x{h}: a list longer than 10 rows:\n{screen}"
        );
        let half = ids.len() / 2;
        tmux.keys(&["C-d"]);
        let moved = format!(" {} ", ids[half]);
        tmux.wait_for(&format!("{moved} selected"), |s| {
            s.lines().any(|l| l.contains('▸') && l.contains(&moved))
        });
        tmux.keys(&["C-u"]);
        tmux.wait_for_text("▸ ⚑ cx-004");
    }
}
