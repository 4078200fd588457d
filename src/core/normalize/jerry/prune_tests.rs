use super::*;

fn kept(text: &str) -> String {
    prune(text)
        .map(|p| p.text)
        .unwrap_or_else(|| "<none>".into())
}

#[test]
fn keeps_what_the_normaliser_reads_and_drops_the_rest() {
    let text = "\
# header
workflow:
  id: wf-1
  agents:
    - a
    - b
  status: ACTIVE
execution_queue:
  - step: 1
    note: x
resumption:
  recovery_state:
    next_step: go
quality_gates:
  qg-1:
    threshold: 0.9
    reviewers: [a, b]
    iteration_history:
      - iteration: 1
        score: 0.8
        notes: long
";
    assert_eq!(
        kept(text),
        "\
workflow:
  id: wf-1
  status: ACTIVE
resumption:
  recovery_state:
    next_step: go
quality_gates:
  qg-1:
    threshold: 0.9
    iteration_history:
      - iteration: 1
        score: 0.8
"
    );
    let keys = prune(text).unwrap().top_level_keys;
    assert_eq!(
        keys,
        ["workflow", "execution_queue", "resumption", "quality_gates"]
    );
}

#[test]
fn block_scalars_and_multi_line_quotes_are_kept_or_dropped_whole() {
    let text = "\
notes: |
  status: not a key
  # not a comment

  still the note
resumption:
  current_state: \"line one
status: still inside the quote\"
  next_step: >
    - not an item

    # part of the text
# a comment
counts: [1,
2, 3]
status: done
";
    assert_eq!(
        kept(text),
        "\
resumption:
  current_state: \"line one
status: still inside the quote\"
  next_step: >
    - not an item

    # part of the text
status: done
"
    );
}

#[test]
fn pipelines_keep_phase_starts_and_empty_maps_stay_maps() {
    let text = "\
pipelines:
  main:
    current_phase: 2
    agents:
      x: 1
    phases:
    - id: 1
      started_at: '2026-01-01'
      agents: [a]
    - name: two
      status: in_progress
  side:
    agents:
      y: 2
";
    assert_eq!(
        kept(text),
        "\
pipelines:
  main:
    current_phase: 2
    phases:
    - id: 1
      started_at: '2026-01-01'
    - name: two
      status: in_progress
  side: {}
"
    );
}

#[test]
fn top_level_phase_blocks_keep_their_phase_fields() {
    let text = "\
phase_0:
  name: Gate
  status: COMPLETE
  task:
    id: T-1
phase_0_complete: true
phase_12_review:
  status: PENDING
phase_x: {status: A}
";
    assert_eq!(
        kept(text),
        "\
phase_0:
  name: Gate
  status: COMPLETE
phase_0_complete: true
phase_12_review:
  status: PENDING
"
    );
}

#[test]
fn crlf_lines_keep_their_endings() {
    assert_eq!(
        kept("workflow:\r\n  id: a\r\n  x: 1\r\nother: 2\r\n"),
        "workflow:\r\n  id: a\r\n"
    );
    assert_eq!(kept("checkpoints:\r\n  x: 1\r\n"), "checkpoints: {}\r\n");
}

#[test]
fn what_a_line_reader_cannot_vouch_for_is_refused() {
    for text in [
        "- a\n- b\n",
        "\"quoted\": 1\n",
        "? complex\n: value\n",
        "&anchor a: 1\n",
        "a:\n  *alias : 1\n",
        "a:\n  - &anchored-map first: 1\n",
        "a: *alias trailing\n",
        "a:\n  \"esc\\\"aped\": 1\n",
        "a:\n  'it''s': 1\n",
        "a:\n  spaced : 1\n",
        "a:\n  - &m \"q\": 1\n    b: *x\n",
        "a:\n  [flow, key]: 1\n",
        "a: &x: 1\n",
        "a: !tag x\n",
        "%YAML 1.2\n---\na: 1\n",
        "a: 1\n---\nb: 2\n",
        "a: \"never closed\n",
        "a: [1, 2\n",
        "  indented: 1\n",
        "a:\n\tb: 1\n",
        "true: 1\n",
        "",
        "# only a comment\n",
    ] {
        assert_eq!(prune(text), None, "{text:?}");
    }
    assert!(
        prune("---\na: 1\n").is_some(),
        "a leading document marker is fine"
    );
}

/// A quote inside a plain scalar of a flow collection is a letter: `[Bob's
/// team]` once made the cut skip to the next quote, dropping the entries
/// between (the review's find).
#[test]
fn a_quote_inside_a_flow_scalar_does_not_swallow_the_entries_after_it() {
    // And one that starts a node, after a comment, a tag or an anchor, does
    // (the second review's finds): here `junk` is one string to `'b'`, and the
    // file has no `resumption:`.
    for start in ["# c\n  ", "!!str ", "&a "] {
        let text = format!(
            "workflow:\n  id: w\njunk: [a, {start}'x]\nresumption:\n  next_step: evil\njunk2: ', 'b']\n"
        );
        let kept = prune_for(&text, Cut::Hooks)
            .map(|p| p.text)
            .unwrap_or_default();
        assert!(!kept.contains("evil"), "{start:?}: {kept}");
    }
    let colon =
        "workflow:\n  id: w\nnotes: [time:'12]\nresumption:\n  next_step: real\njunk: ['x']\n";
    assert!(
        prune_for(colon, Cut::Hooks)
            .unwrap()
            .text
            .contains("next_step: real")
    );
    let json =
        "workflow:\n  id: w\nnotes: {\"a\":\"b, ]\", 'c': 'd'}\nresumption:\n  next_step: go\n";
    assert!(prune(json).unwrap().text.contains("next_step: go"));
    let text = "workflow:\n  id: w\nnotes: [Bob's review]\nresumption:\n  reviewers: [Bob's team]\n  \
                next_step: merge\n  files_to_read: [Carol's notes.md, 'x, y']\n";
    assert_eq!(
        prune_for(text, Cut::Hooks).unwrap().text,
        "workflow:\n  id: w\nresumption:\n  next_step: merge\n  files_to_read: [Carol's notes.md, 'x, y']\n"
    );
}

/// Quoted keys below the top level are keys like any other (Python quotes a
/// key that looks like a number).
#[test]
fn quoted_keys_are_cut_by_their_text() {
    let text = "workflow:\n  'id': w\n  \"agents\": [a]\nphases:\n  '2':\n    status: done\n\
                resumption:\n  'next_step': go\n  \"junk\": &x 1\n";
    assert_eq!(
        prune_for(text, Cut::Hooks).unwrap().text,
        "workflow:\n  'id': w\nphases:\n  '2':\n    status: done\nresumption:\n  'next_step': go\n"
    );
}

/// Anchors and aliases go with their entries, anchored nodes kept whole, and the
/// caller learns that the file has some (their limits count over the whole file).
#[test]
fn anchors_and_aliases_are_kept_or_dropped_with_their_entries() {
    let text = "\
workflow:
  id: &id wf-1
  status: ACTIVE
execution_queue: &queue
  - step: 1
resumption:
  recovery_state:
    next_step: *id
  files_to_read:
    - &first {path: a.md}
    - *first
    - &second
      path: |
        b.md
copy: *queue
";
    let pruned = prune(text).unwrap();
    assert!(pruned.aliases);
    assert_eq!(
        pruned.text,
        "\
workflow:
  id: &id wf-1
  status: ACTIVE
resumption:
  recovery_state:
    next_step: *id
  files_to_read:
    - &first {path: a.md}
    - *first
    - &second
      path: |
        b.md
"
    );
    let anchored = "workflow: &w\n  id: w\n  agents: [a]\nphases:\n  - &p\n    id: 1\n    notes: x\n  - id: 2\n    notes: y\n";
    assert_eq!(
        prune(anchored).unwrap().text,
        "workflow: &w\n  id: w\n  agents: [a]\nphases:\n  - &p\n    id: 1\n    notes: x\n  - id: 2\n",
        "an anchored entry is kept whole"
    );
    let none = "workflow:\n  id: w\nnotes: 'a *b* &c'\nmore: \"[*x]\"\nbold: |\n  **b** &c\n";
    assert!(!prune(none).unwrap().aliases, "in scalars they are text");
    for flow in ["a: [*x, 1]\n", "a: {k: &x 1}\n"] {
        assert!(prune(flow).unwrap().aliases, "{flow:?}");
    }
}

/// The hooks' cut leaves out what only becomes an other field: `resumption:`'s
/// keys the normaliser does not read (issue 33: 100,000 aliases there made every
/// hook that reads the file copy a million values).
#[test]
fn the_hooks_cut_leaves_out_resumptions_unknown_keys() {
    let mut text = String::from(
        "workflow:\n  id: w\nresumption:\n  next_step: go\n  base: &b {a: 1, b: 2, c: 3, d: 4}\n  \
         uses:\n",
    );
    text.push_str(&"    - *b\n".repeat(1_000));
    text.push_str("  files_to_read:\n    - path: a.md\n  notes: |\n    text\n");
    let hooks = prune_for(&text, Cut::Hooks).unwrap();
    assert_eq!(
        hooks.text,
        "workflow:\n  id: w\nresumption:\n  next_step: go\n  files_to_read:\n    - path: a.md\n"
    );
    assert!(hooks.aliases);
    assert_eq!(
        prune(&text).unwrap().text,
        text,
        "kept whole for the other readers"
    );
    let only_unknown = "workflow:\n  id: w\nresumption:\n  mine: 1\n";
    assert_eq!(
        prune_for(only_unknown, Cut::Hooks).unwrap().text,
        "workflow:\n  id: w\nresumption: {}\n"
    );
}

/// Random documents built from the keys the normaliser reads (and others), in
/// every block and flow style this reader tracks: the fast normaliser must give
/// the full one's project.
mod generated {
    use proptest::prelude::*;

    use super::super::super::{normalize_orchestration, normalize_orchestration_pruned};
    use crate::core::model::{Project, Shape};

    const KEYS: &[&str] = &[
        "workflow",
        "id",
        "name",
        "status",
        "pipelines",
        "phases",
        "current_phase",
        "started_at",
        "quality_gates",
        "gates",
        "score",
        "iteration_history",
        "score_dimensions",
        "threshold",
        "resumption",
        "next_step",
        "recovery_state",
        "updated_at",
        "checkpoints",
        "latest_id",
        "agents",
        "notes",
        "meta",
        "pipeline",
        "next_actions",
        "phase_1_completed",
        "qg-1",
        "main",
        "2",
        "files_to_read",
        "decision_log",
        "quality_trajectory",
        "current_gate",
        "next_gate",
        "blockers",
        "uses",
    ];
    const WORDS: &[&str] = &[
        "alpha",
        "0.91",
        "3",
        "2026-02-17T10:00:00Z",
        "true",
        "null",
        "in_progress",
        "phase-2",
        "key: like",
        "- dash",
        "# hash",
        "",
    ];

    #[derive(Debug, Clone)]
    enum Node {
        Plain(usize),
        Double(Vec<usize>),
        Single(usize),
        Block(bool, Vec<usize>),
        Flow(Vec<usize>, bool),
        Map(Vec<(usize, Node)>, bool),
        Seq(Vec<Node>, bool),
        /// `*aN`.
        Alias(usize),
        /// `&aN` set on the node.
        Anchored(usize, Box<Node>),
    }

    /// Anchors every document sets where any cut keeps them, for the aliases
    /// to name (`a2` and `a3` are set, perhaps twice, by the document itself).
    const PRELUDE: &str = "workflow_id: &a0 wf-9\nnext_actions: &a1\n  - step one\n";

    fn node() -> impl Strategy<Value = Node> {
        let word = 0..WORDS.len();
        let leaf = prop_oneof![
            4 => (0..5usize).prop_map(Node::Plain),
            1 => prop::collection::vec(0..5usize, 1..3).prop_map(Node::Double),
            1 => (0..5usize).prop_map(Node::Single),
            1 => (any::<bool>(), prop::collection::vec(word.clone(), 1..4))
                .prop_map(|(folded, lines)| Node::Block(folded, lines)),
            1 => (prop::collection::vec(0..5usize, 0..3), any::<bool>())
                .prop_map(|(items, wrap)| Node::Flow(items, wrap)),
            1 => prop_oneof![3 => 0..2usize, 1 => 2..4usize].prop_map(Node::Alias),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                (
                    prop::collection::vec((0..KEYS.len(), inner.clone()), 0..5),
                    any::<bool>()
                )
                    .prop_map(|(entries, comments)| Node::Map(entries, comments)),
                (prop::collection::vec(inner.clone(), 0..4), any::<bool>())
                    .prop_map(|(items, indentless)| Node::Seq(items, indentless)),
                (2..4usize, inner).prop_map(|(n, node)| Node::Anchored(n, Box::new(node))),
            ]
        })
    }

    fn spaces(n: usize) -> String {
        " ".repeat(n)
    }

    /// The value on the key's line, and the lines after it.
    fn inline(node: &Node, cont: usize, out: &mut String) -> String {
        let pad = spaces(cont);
        match node {
            Node::Plain(w) => ["alpha", "0.91", "3", "2026-02-17T10:00:00Z", "x y"][*w].into(),
            Node::Double(lines) => {
                let lines: Vec<String> = lines.iter().map(|w| format!("d{w}")).collect();
                format!("\"{}\"", lines.join(&format!("\n{pad}")))
            }
            Node::Single(w) => format!("'it''s {w}'"),
            Node::Block(folded, lines) => {
                for line in lines {
                    out.push_str(
                        &format!("{pad}{}\n", WORDS[*line]).replace(&format!("{pad}\n"), "\n"),
                    );
                }
                if *folded { ">".into() } else { "|".into() }
            }
            Node::Flow(items, wrap) => {
                let items: Vec<String> = items.iter().map(|i| format!("f{i}")).collect();
                let sep = if *wrap {
                    format!(",\n{pad}")
                } else {
                    ", ".into()
                };
                format!("[{}]", items.join(&sep))
            }
            Node::Alias(n) => format!("*a{n}"),
            Node::Anchored(n, node) => match node.as_ref() {
                Node::Map(..) | Node::Seq(..) | Node::Anchored(..) => "*a1".into(),
                scalar => format!("&a{n} {}", inline(scalar, cont, out)),
            },
            Node::Map(..) | Node::Seq(..) => unreachable!(),
        }
    }

    fn entry(key: &str, node: &Node, indent: usize, out: &mut String) {
        let pad = spaces(indent);
        match node {
            Node::Anchored(n, inner) if matches!(inner.as_ref(), Node::Map(e, _) if !e.is_empty()) =>
            {
                let Node::Map(entries, comments) = inner.as_ref() else {
                    unreachable!()
                };
                out.push_str(&format!("{pad}{key}: &a{n}\n"));
                map_body(entries, *comments, indent + 2, out);
            }
            Node::Anchored(n, inner) if matches!(inner.as_ref(), Node::Seq(i, _) if !i.is_empty()) =>
            {
                let Node::Seq(items, _) = inner.as_ref() else {
                    unreachable!()
                };
                out.push_str(&format!("{pad}{key}: &a{n}\n"));
                for item in items {
                    self::item(item, indent + 2, out);
                }
            }
            Node::Map(entries, _) if entries.is_empty() => {
                out.push_str(&format!("{pad}{key}: {{}}\n"))
            }
            Node::Seq(items, _) if items.is_empty() => out.push_str(&format!("{pad}{key}: []\n")),
            Node::Map(entries, comments) => {
                out.push_str(&format!("{pad}{key}:\n"));
                map_body(entries, *comments, indent + 2, out);
            }
            Node::Seq(items, indentless) => {
                out.push_str(&format!("{pad}{key}:\n"));
                let at = if *indentless { indent } else { indent + 2 };
                for item in items {
                    self::item(item, at, out);
                }
            }
            scalar => {
                let mut after = String::new();
                let value = inline(scalar, indent + 2, &mut after);
                out.push_str(&format!("{pad}{key}: {value}\n{after}"));
            }
        }
    }

    fn map_body(entries: &[(usize, Node)], comments: bool, indent: usize, out: &mut String) {
        let mut seen = Vec::new();
        for (key, value) in entries {
            if seen.contains(key) {
                continue;
            }
            seen.push(*key);
            if comments {
                out.push_str(&format!("{}# about {}\n\n", spaces(indent / 2), KEYS[*key]));
            }
            entry(KEYS[*key], value, indent, out);
        }
    }

    fn item(node: &Node, indent: usize, out: &mut String) {
        let pad = spaces(indent);
        match node {
            Node::Map(entries, _) if !entries.is_empty() => {
                let mut body = String::new();
                map_body(entries, false, indent + 2, &mut body);
                out.push_str(&format!("{pad}- {}", body.trim_start_matches(' ')));
            }
            Node::Map(..) => out.push_str(&format!("{pad}- {{}}\n")),
            Node::Seq(items, _) if !items.is_empty() => {
                out.push_str(&format!("{pad}-\n"));
                for inner in items {
                    item(inner, indent + 2, out);
                }
            }
            Node::Seq(..) => out.push_str(&format!("{pad}- []\n")),
            scalar => {
                let mut after = String::new();
                let value = inline(scalar, indent + 2, &mut after);
                out.push_str(&format!("{pad}- {value}\n{after}"));
            }
        }
    }

    fn without_diagnostics(p: Project) -> Project {
        Project {
            diagnostics: Vec::new(),
            ..p
        }
    }

    proptest! {
        #[test]
        fn the_fast_normaliser_gives_the_full_ones_project(
            entries in prop::collection::vec((0..KEYS.len(), node()), 1..8),
        ) {
            let mut text = String::from(PRELUDE);
            map_body(&entries, true, 0, &mut text);
            let full = normalize_orchestration("p/ORCHESTRATION.yaml", "p", &text);
            prop_assume!(full.shape != Shape::Unreadable);
            let fast = normalize_orchestration_pruned("p/ORCHESTRATION.yaml", "p", &text);
            prop_assert_eq!(without_diagnostics(fast), without_diagnostics(full), "{}", text);
        }

        #[test]
        fn the_hooks_cut_gives_the_full_ones_project_for_the_hooks(
            entries in prop::collection::vec((0..KEYS.len(), node()), 1..8),
        ) {
            use super::super::super::{Reading, normalize_orchestration_with, normalize_orchestration_pruned_with};
            let mut text = String::from(PRELUDE);
            map_body(&entries, true, 0, &mut text);
            let full = normalize_orchestration_with("p/ORCHESTRATION.yaml", "p", &text, Reading::ForHooks);
            // A syntax error in an entry not read, no cut sees (aliases apart:
            // `tests/hooks_cut.rs`).
            prop_assume!(full.shape != Shape::Unreadable);
            let cut = normalize_orchestration_pruned_with("p/ORCHESTRATION.yaml", "p", &text, Reading::ForHooks);
            let errors = |p: &Project| p.diagnostics.iter()
                .filter(|d| d.severity == crate::core::model::Severity::Error)
                .map(|d| d.message.clone()).collect::<Vec<_>>();
            prop_assert_eq!(errors(&cut), errors(&full), "{}", text);
            prop_assert_eq!(without_diagnostics(cut), without_diagnostics(full), "{}", text);
        }

        #[test]
        fn never_panics_on_yaml_like_input(text in r#"[ \-:#'"{}\[\],|>a-z0-9_\n]{0,300}"#) {
            let _ = super::prune(&text);
            let _ = normalize_orchestration_pruned("p/ORCHESTRATION.yaml", "p", &text);
        }
    }
}

/// Issue 33: each top-level key was looked for in the list of those seen, so
/// 30,000 of them (a 0.5 MB file) cost every hook seconds; 100,000 here is 5 × 10⁹
/// comparisons the old way. Every key is still listed once, in order.
#[test]
fn many_top_level_keys_are_listed_once_in_linear_time() {
    let mut text = String::from("workflow:\n  id: w\n");
    for i in 0..100_000 {
        text.push_str(&format!("pad{i}: {i}\n"));
    }
    text.push_str("pad7: again\nresumption:\n  recovery_state:\n    next_step: go\n");
    let keys = prune(&text).unwrap().top_level_keys;
    assert_eq!(keys.len(), 100_002);
    assert_eq!(keys.first().map(String::as_str), Some("workflow"));
    assert_eq!(keys.get(8).map(String::as_str), Some("pad7"));
    assert_eq!(keys.last().map(String::as_str), Some("resumption"));
}

#[test]
fn a_top_level_list_of_units_with_a_status_is_seen_without_parsing() {
    use super::super::lists_units_with_a_status as units;
    assert!(units(
        "status: DONE\nwork_items:\n  - id: W1\n    status: DONE\n"
    ));
    assert!(units("enablers:\n- {id: E1, status: DONE}\n"));
    assert!(!units(
        "workflow:\n  id: w\n  status: ACTIVE\nhistory:\n  - step 1 done\n"
    ));
    assert!(!units(
        "resumption:\n  files_to_read:\n    - {path: a, status: x}\n"
    ));
    assert!(!units("notes: a\n# status: x\n"));
}
