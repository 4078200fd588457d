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
metrics: [1,
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
        "a: &anchor\n  b: 1\nc: *anchor\n",
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
