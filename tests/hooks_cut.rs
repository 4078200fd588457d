//! The hooks' cut (`jerry::prune::Cut::Hooks`) gives the project a reading of
//! the whole file for the hooks gives. It leaves out every key of `resumption:`
//! but those the normaliser reads (`section::READ_KEYS`): the first test holds
//! that list to every key the normaliser's sources name, so that a new reader of
//! `resumption.<key>` cannot be cut away unseen. Aliases count over the whole
//! file.

use std::collections::BTreeSet;

use resume_tui::core::model::{Project, Severity, Shape};
use resume_tui::core::normalize::jerry::prune::{Cut, prune_for};
use resume_tui::core::normalize::jerry::{
    Reading, normalize_orchestration_pruned_with, normalize_orchestration_with,
};

/// What the hooks use of a project: everything but the warnings and notes
/// (they show none), and the errors (a file left unread).
fn as_hooks_see_it(project: &Project) -> (Project, Vec<String>) {
    let errors = project
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    let rest = Project {
        diagnostics: Vec::new(),
        ..project.clone()
    };
    (rest, errors)
}

/// The file read whole for the hooks, and through their cut.
fn both_ways(text: &str) -> (Project, Project) {
    let (source, dir) = ("p/ORCHESTRATION.yaml", "p");
    let full = normalize_orchestration_with(source, dir, text, Reading::ForHooks);
    let cut = normalize_orchestration_pruned_with(source, dir, text, Reading::ForHooks);
    (full, cut)
}

fn assert_same_for_the_hooks(text: &str) {
    let (full, cut) = both_ways(text);
    assert_eq!(as_hooks_see_it(&cut), as_hooks_see_it(&full), "{text}");
}

/// Every word the sources of the normaliser quote (`"next_gate"`, …): any key
/// a reader of the document may look up.
fn words_the_normaliser_quotes() -> BTreeSet<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut words = BTreeSet::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            for quoted in source.split('"').skip(1).step_by(2) {
                let key_like = quoted.starts_with(|c: char| c.is_ascii_lowercase())
                    && quoted
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                if key_like {
                    words.insert(quoted.to_string());
                }
            }
        }
    }
    words
}

/// Each quoted word, as a key of `resumption:` holding text, a number, a map
/// of the keys gates and phases have, or a list of them, in a file that is
/// under way and in one that is done: the hooks' cut reads it as the whole file
/// does. A key read somewhere and missing from `READ_KEYS` fails here.
#[test]
fn every_key_the_normaliser_quotes_reads_alike_under_resumption() {
    let words = words_the_normaliser_quotes();
    assert!(words.len() > 300, "{}", words.len());
    assert!(words.contains("next_gate") && words.contains("last_completed_phase"));
    let values = [
        " go on to phase 3",
        " 2",
        " true",
        " {id: qg-2, status: in_progress, current_gate: qg-2, score: 0.9, phase: 2}",
        "\n    - {id: D1, status: done, phase: 2, path: a.md, score: 0.95}",
        " [phase 2, qg-1]",
    ];
    let heads = [
        "workflow:\n  id: wf\n  status: ACTIVE\n  current_phase: 2\n",
        "workflow:\n  id: wf\n  status: COMPLETE\n  current_phase: 3\nphases:\n  - {id: 3, status: done}\n",
    ];
    let mut cut_away = 0;
    for word in words.iter().filter(|w| *w != "resumption") {
        for head in heads {
            for value in values {
                let text =
                    format!("{head}resumption:\n  next_step: review qg-2\n  {word}:{value}\n");
                assert_same_for_the_hooks(&text);
                let kept = prune_for(&text, Cut::Hooks).unwrap();
                cut_away += usize::from(!kept.text.contains(&format!("  {word}:")));
            }
        }
    }
    assert!(cut_away > 1_000, "the cut was taken: {cut_away}");
}

/// A megabyte of aliases under a key the hooks do not read: the cut leaves
/// them unparsed, and the project is the one the whole file gives.
#[test]
fn aliases_cut_away_give_the_projects_of_the_whole_file() {
    let mut text = String::from(
        "workflow:\n  id: wf\n  status: ACTIVE\n  current_phase: 2\nresumption:\n  \
         recovery_state:\n    next_step: &next go on\n  base: &b {a: 1, b: 2, c: 3, d: 4}\n  uses:\n",
    );
    text.push_str(&"    - *b\n".repeat(20_000));
    text.push_str("  decision_log:\n    - {id: D1, decision: *next}\n");
    assert_same_for_the_hooks(&text);
    let (_, cut) = both_ways(&text);
    assert_eq!(cut.summary.next_step.as_deref(), Some("go on"));
    let decisions = cut.resumption.unwrap().decisions;
    assert_eq!(decisions[0].decision, "go on");
}

/// An alias bomb (or nesting too deep) in what the cut leaves out is refused
/// as a read of the whole file refuses it: the hooks do not read past it.
#[test]
fn what_the_whole_file_refuses_the_cut_refuses_alike() {
    let bomb = |at: &str| {
        let mut text =
            String::from("workflow:\n  id: wf\n  current_phase: 2\nresumption:\n  next_step: go\n");
        text.push_str(at);
        text.push_str("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for level in 1..9 {
            let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
            text.push_str(&format!("{at}a{level}: &a{level} [{aliases}]\n"));
        }
        text.replacen("a0: &a0", &format!("{at}a0: &a0"), 1)
    };
    let flow = "workflow:\n  id: wf\n  current_phase: 2\nresumption:\n  next_step: go\n\
                junk: {a0: &a0 [x, x, x, x, x, x, x, x, x, x], a1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0], \
                a2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1], a3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2], \
                a4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3], a5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4], \
                a6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]}\n";
    for text in [bomb(""), bomb("  "), flow.to_string()] {
        let (full, _) = both_ways(&text);
        assert_eq!(full.shape, Shape::Unreadable, "{text}");
        assert_same_for_the_hooks(&text);
        assert!(prune_for(&text, Cut::Hooks).is_some());
    }
    let mut deep =
        String::from("workflow:\n  id: wf\n  current_phase: 2\nresumption:\n  next_step: &n go\n");
    for depth in 0..130 {
        deep.push_str(&format!("{}k{depth}:\n", "  ".repeat(depth + 1)));
    }
    deep.push_str(&format!("{}v: *n\n", "  ".repeat(131)));
    let (full, _) = both_ways(&deep);
    assert_eq!(full.shape, Shape::Unreadable);
    assert_same_for_the_hooks(&deep);
}

/// An alias kept whose anchor was cut away: the kept text does not parse
/// alone, and the whole file is read instead.
#[test]
fn an_alias_to_an_anchor_cut_away_reads_the_whole_file() {
    let text = "workflow:\n  id: wf\n  current_phase: 2\nnotes: &n from the notes\n\
                resumption:\n  mine: &m mine\n  next_step: *n\n  current_state: *m\n";
    assert_same_for_the_hooks(text);
    let (_, cut) = both_ways(text);
    assert_eq!(cut.summary.next_step.as_deref(), Some("from the notes"));
    assert_eq!(cut.summary.activity.as_deref(), Some("mine"));
}

/// An anchor on an entry the cut would keep in part: an alias to it copies the
/// whole entry, whose other keys its own place may read (here `status`, cut
/// from `resumption:`, read under `workflow:`). The cut keeps it whole.
#[test]
fn an_alias_to_an_entry_kept_in_part_reads_the_whole_entry() {
    let text =
        "resumption: &r\n  next_step: go\n  status: DONE\n  current_phase: 2\nworkflow: *r\n";
    assert_same_for_the_hooks(text);
    let (_, cut) = both_ways(text);
    assert_eq!(cut.summary.status.as_deref(), Some("DONE"));
}

/// The review's finds: a quote inside a flow scalar (`[Bob's team]`) once
/// swallowed the entries after it; lines after a key the cut does not parse
/// (`"q": 1`, `a : 1`) went unseen, a bomb or a second anchor among them; an
/// anchor or alias inside a flow list made the budget count what the cut keeps
/// only to hold entries together. Each now reads as the whole file reads.
#[test]
fn the_reviews_cases_read_as_the_whole_file_reads() {
    let apostrophe = "workflow:\n  id: wf-k\n  status: ACTIVE\n  current_phase: 2\nresumption:\n  \
                      reviewers: [Bob's team]\n  next_step: merge the release branch\n  \
                      files_to_read: [Carol's notes.md]\n";
    assert_same_for_the_hooks(apostrophe);
    let (_, cut) = both_ways(apostrophe);
    assert_eq!(
        cut.summary.next_step.as_deref(),
        Some("merge the release branch")
    );

    let mut bomb = String::from(
        "workflow:\n  id: wf-e\n  status: ACTIVE\nresumption:\n  next_step: go\njunk:\n  \"q\": 1\n  a0: &a0 [lol, lol]\n",
    );
    for level in 1..10 {
        let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
        bomb.push_str(&format!("  a{level}: &a{level} [{aliases}]\n"));
    }
    let spaced = bomb.replace("  \"q\": 1\n", "  q : 1\n");
    for text in [&bomb, &spaced] {
        let (full, _) = both_ways(text);
        assert_eq!(full.shape, Shape::Unreadable);
        assert_same_for_the_hooks(text);
    }

    let redefined = "workflow:\n  id: wf-j\n  status: ACTIVE\nresumption:\n  \"q\": 1\n  \
                     next_step: &a keep going\n  note: &a stale text from a dropped key\n  \
                     current_activity: *a\n";
    assert_same_for_the_hooks(redefined);

    let mut flagged =
        String::from("workflow:\n  id: wf-c\n  status: ACTIVE\n  tags: [R&D]\nphases:\n");
    for i in 0..4_000 {
        flagged.push_str(&format!(
            "  - notes: [a, b, c, d, e, f, g, h, i, j, k, l]\n    id: {i}\n    status: done\n"
        ));
    }
    flagged.push_str("resumption:\n  next_step: go\n");
    assert_same_for_the_hooks(&flagged);
    let (_, cut) = both_ways(&flagged);
    assert_ne!(cut.shape, Shape::Unreadable, "{:?}", cut.diagnostics);
}
