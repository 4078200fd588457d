use super::*;

const TEXT: &str = "\
workflow:
  id: wf
# about resumption
resumption:   # the section
  # leading of a
  a: 1
  b:
    - x

    # deeper comment
    - y
  # leading of c

  c: >
    folded
    text
  d:
  - indentless
  # trailing comment

# DISCLAIMER
other: 2
";

fn slice(range: (usize, usize)) -> &'static str {
    TEXT.get(range.0..range.1).unwrap()
}

#[test]
fn splits_the_section_into_entries_with_their_comments() {
    let s = find(TEXT, "resumption").unwrap();
    assert!(TEXT.get(s.start..).unwrap().starts_with("resumption:"));
    assert!(TEXT.get(s.end..).unwrap().starts_with("\n# DISCLAIMER"));
    assert_eq!(s.child_indent, 2);
    let keys: Vec<&str> = s.entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["a", "b", "c", "d"]);
    let [a, b, c, d] = s.entries.as_slice() else {
        panic!()
    };
    assert_eq!(slice(a.leading), "  # leading of a\n");
    assert_eq!(slice(a.body), "  a: 1\n");
    assert_eq!(
        slice(b.body),
        "  b:\n    - x\n\n    # deeper comment\n    - y\n"
    );
    assert_eq!(slice(c.leading), "  # leading of c\n\n");
    assert_eq!(slice(c.body), "  c: >\n    folded\n    text\n");
    assert_eq!(slice(d.body), "  d:\n  - indentless\n");
    assert_eq!(slice(s.trailing), "  # trailing comment\n");
    assert_eq!(slice(a.plain_key.unwrap()), "a");
}

#[test]
fn quoted_keys_and_crlf() {
    let text = "resumption:\r\n  \"next_step\": go\r\n  b: [1]\r\n";
    let s = find(text, "resumption").unwrap();
    assert_eq!(s.entries[0].key, "next_step");
    assert_eq!(s.entries[0].plain_key, None);
    assert_eq!(s.entries[1].key, "b");
    assert_eq!(s.end, text.len());
}

#[test]
fn layouts_that_cannot_be_split_say_why() {
    let err = |t: &str| find(t, "resumption").unwrap_err();
    assert!(err("a: 1\n").starts_with("no `resumption:` line"));
    assert!(err("resumption: {a: 1}\n").contains("same line"));
    assert!(err("resumption:\n# only a comment\nnext: 1\n").contains("empty"));
    assert!(err("resumption:\n    a: 1\n  b: 2\n").contains("indented less"));
    assert!(err("resumption:\n  ? complex\n  : key\n").contains("not a simple"));
    // `resumptions:` is another key.
    assert!(err("resumptions:\n  a: 1\n").starts_with("no `resumption:` line"));
}

#[test]
fn indenting_leaves_empty_lines_empty() {
    assert_eq!(
        indent_more("a: |\n  x\n\n  y\n", 2),
        "  a: |\n    x\n\n    y\n"
    );
    assert_eq!(indent_more("a\r\n\r\nb", 1), " a\r\n\r\n b");
}
