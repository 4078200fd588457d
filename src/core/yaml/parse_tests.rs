use super::*;
use crate::core::normalize::jerry::parse::parse_slow;

/// The fast reader takes `text` and gives exactly what `yaml_serde` gives.
#[track_caller]
fn same(text: &str) -> Value {
    let slow = parse_slow(text).unwrap_or_else(|e| panic!("not YAML ({e}):\n{text}"));
    let fast = parse(text).unwrap_or_else(|| panic!("left to yaml_serde:\n{text}"));
    assert_eq!(fast.doc, slow.doc, "value differs on:\n{text}");
    assert_eq!(
        fast.duplicates, slow.duplicates,
        "duplicates differ on:\n{text}"
    );
    fast.doc
}

/// The fast reader leaves `text` to `yaml_serde`.
#[track_caller]
fn left(text: &str) {
    assert!(parse(text).is_none(), "the fast reader took:\n{text}");
}

/// Whatever `yaml_serde` makes of `text`, the fast reader agrees or leaves it.
#[track_caller]
fn agrees(text: &str) {
    match (parse(text), parse_slow(text)) {
        (Some(fast), Ok(slow)) => {
            assert_eq!(fast.doc, slow.doc, "value differs on:\n{text}");
            assert_eq!(
                fast.duplicates, slow.duplicates,
                "duplicates differ on:\n{text}"
            );
        }
        (Some(_), Err(e)) => panic!("the fast reader took what yaml_serde refuses ({e}):\n{text}"),
        (None, _) => {}
    }
}

/// Not YAML: the fast reader must not take it either.
#[track_caller]
fn invalid(text: &str) {
    assert!(parse_slow(text).is_err(), "yaml_serde reads:\n{text}");
    left(text);
}

#[test]
fn plain_scalars_mean_what_yaml_serde_says() {
    for value in [
        "1",
        "-7",
        "+5",
        "007",
        "0x1F",
        "-0x1F",
        "0o17",
        "0b101",
        "1_000",
        "1.5",
        "-2.5e3",
        "1e3",
        ".5",
        "5.",
        ".inf",
        "-.Inf",
        "+.INF",
        ".nan",
        "inf",
        "nan",
        "~",
        "null",
        "NULL",
        "Null",
        "nul",
        "true",
        "False",
        "TRUE",
        "yes",
        "no",
        "on",
        "2026-03-02",
        "2026-03-02T10:00:00Z",
        "10:30",
        "0.5.1",
        "1.0",
        "18446744073709551615",
        "-9223372036854775808",
        "a b  c",
        "x:y",
        "a#b",
        "-x",
        ":x",
        "?x",
        "é 日本語",
    ] {
        same(&format!("k: {value}\n"));
        same(&format!("{value}: v\n"));
        agrees(&format!("k: [{value}]\n"));
        agrees(&format!("k: {{{value}: v}}\n"));
    }
    // Past 64 bits yaml_serde reads a 128-bit number that no Value holds.
    left("k: 18446744073709551616\n");
    left("k: -9223372036854775809\n");
}

#[test]
fn quoted_scalars_unescape_and_fold() {
    same("a: \"tab\\there \\\"q\\\" \\\\ \\u00e9 \\x41 \\U0001F680 \\N \\_ \\/ \\e\"\n");
    same("a: 'it''s # not a comment'\nb: \"\" # c\nc: ''\n");
    same("a: \"one\n  two\n\n  three\n\n\n  four\"\n");
    same("a: 'one \n   two  '\n");
    same("a: \"joined\\\n   here\"\n");
    same("a: \"trailing   \n  spaces\"\n");
    same("a: \"tab\tinside\"\nb: 'and\there'\n");
    same("k:\n  - \"item\nfolded at column 0\"\n  - 'x'\n");
    left("k: 'a\n\tb'\n");
    same("k:\n  - \"item\n    folded\"\n  - 'x'\n");
    invalid("a: \"unterminated\nb: 1\n");
    invalid("a: \"bad \\q escape\"\n");
    invalid("a: \"x\" y\n");
    left("a: \"surrogate \\ud800\"\n");
}

#[test]
fn block_scalars_keep_lines_and_chomp() {
    same("a: |\n  one\n  # not a comment\n\n  three\nb: 1\n");
    same("a: |-\n  one\n  two\n\n\nb: 1\n");
    same("a: |+\n  one\n  two\n\n\nb: 1\n");
    same("a: >\n  one\n  two\n\n  three\n\n\n  four\nb: 1\n");
    same("a: >-\n  folded\n  text\n");
    same("a: >+\n  kept\n\n");
    same("a: |\n\n  after an empty line\n");
    same("a: |  # comment\n    deeper\n    lines\n");
    same(
        "k:\n  - |\n    in a list\n  - >\n    folded\n    item\n  - x: |\n      in a map\n    y: 2\n",
    );
    left("a: |2\n   explicit indentation\n");
    left("a: >\n  folded\n    more indented\n  back\n");
    left("a: |\n  no final newline");
    same("k: |\n");
    same("k: |\nn: 1\n");
    same("k: |+\n\nn: 1\n");
    same("k: >-\n\nn: 1\n");
    same("k: >\n\n  a\n");
    left("k: |\n  a\n   \n  b\n");
}

#[test]
fn flow_collections_on_one_line_or_several() {
    same("a: []\nb: {}\nc: [1, two, 'three', \"four\", [5, [6]], {k: v}]\n");
    same("a: {x: 1, 'y': [2], \"z\": {w: ~}, n, e: }\n");
    same("a: [1, 2,]\nb: {x: 1,}\n");
    same("a: [\n  one,\n  two,  # comment\n  {k: v,\n   w: x}\n]\nb: 1\n");
    same("k:\n  j: [a,\nb]\n");
    same("a: ['multi\n    line', \"and\n    more\"]\n");
    same("k:\n  - [a, b]\n  - {c: d}\n");
    same("a: {x:\n  1, y\n  , z: [\n  ]}\n");
    left("a: {\"x\"\n  : 1}\n");
    left("a: {x\n  : 1}\n");
    left("a: [x: 1]\n");
    left("a: {\"k\":1}\n");
    same("a: [http://example.com, x:y, 10:30]\nb: {x:y}\n");
    invalid("a: [x:, y]\n");
    invalid("a: [x:]\n");
    left("a: [plain\n  continued]\n");
    left("[a, b]: c\n");
    left("{a: b}: c\n");
    invalid("a: [1, 2\nb: 3\n");
    invalid("a: [1,, 2]\n");
    invalid("a: {x: 1] \n");
}

#[test]
fn block_maps_and_lists_nest_by_indentation() {
    same("a:\n  b:\n    c: 1\n  d: [x]\ne: f\n");
    same("a:\n- one\n- two\nb: indentless list above\n");
    same(
        "a:\n  - x: 1\n    y:\n      - z\n    w: 2\n  -\n    nested: on the next line\n  -\n  - last\n",
    );
    same("a:\n  - x\n");
    same("a:   \nb: # only a comment\nc:\n\n# between\n\n  d: 1\n");
    same("\"quoted key\": 1\n'single': 2\nnull: 3\n1: 4\ntrue: 5\na:b: 6\nk y: 7\n");
    same("---\na: 1\n");
    same("--- # a comment\na: 1\n# the end\n");
    same("a: one\n  two\n\n  three # comment\nb: 1\n");
    same("k:\n  - first\n    second\n");
    left("a:\n  - - nested dash\n");
    left("? complex\n: key\n");
    left("a: &anchor 1\nb: *anchor trailing\n");
    left("a: !tag x\n");
    left("%YAML 1.2\n---\na: 1\n");
    left("a: 1\n---\nb: 2\n");
    left("a: 1\n...\n");
    left("- root list\n");
    left("  a: indented root\n");
    left("a: 1\rb: 2\r\n");
    left("a: 'x\ry'\r\n");
    left("a:\n\tb: 1\n");
    left("");
    left("# only a comment\n");
    invalid("a: b: c\n");
    invalid("a:\n  - x\n  b: y\n");
    invalid("a:\n  b: 1\n   c: 2\n");
    invalid("a: 1\n- b\n");
    invalid("a: - b\n");
    same("a: 1\n b\n");
}

#[test]
fn duplicate_keys_are_named_as_the_lenient_parser_names_them() {
    let doc =
        same("a: 1\nb:\n  - {x: 1, x: 2}\n  - y: 1\n    y: 2\nc: {d: [{e: 1, e: 2}]}\na: 3\n");
    assert_eq!(doc["a"], Value::from(3));
    same("1: a\n1: b\nnull: c\n~: d\n");
}

/// `levels` block maps nested in one another (the top one included), the
/// innermost holding `leaf`.
fn nested_maps(levels: usize, leaf: &str) -> String {
    let mut text: String = (1..levels)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i - 1)))
        .collect();
    text.push_str(&format!("{}{leaf}\n", " ".repeat(levels - 1)));
    text
}

/// `levels` collections, alternating block lists and maps, the innermost holding `leaf`.
fn nested_lists_and_maps(levels: usize, leaf: &str) -> String {
    let mut text = String::from("top:\n");
    for i in 1..levels - 1 {
        let indent = " ".repeat(2 * (i - 1));
        text.push_str(&if i % 2 == 1 {
            format!("{indent}- \n")
        } else {
            format!("{indent}  m{i}:\n")
        });
    }
    text.push_str(&format!("{}  {leaf}\n", " ".repeat(2 * (levels - 2))));
    text
}

/// As deep as `yaml_serde` reads (128 collections), the fast reader reads too.
#[test]
fn nesting_up_to_yaml_serdes_limit_is_read() {
    same(&nested_maps(128, "leaf: 1"));
    same(&nested_maps(128, "leaf: "));
    same(&nested_maps(126, "leaf: [1, {a: b}]"));
    same(&nested_maps(100, "leaf: 1"));
    same(&nested_lists_and_maps(128, "x: 1"));
    for levels in 120..=129 {
        for leaf in ["x: 1", "x: [1]", "x: {a: 1}", "- 1"] {
            agrees(&nested_maps(levels, leaf));
            agrees(&nested_lists_and_maps(levels, leaf));
        }
    }
}

/// Past 128 levels `yaml_serde` refuses the file, after reading all of it; the
/// fast reader refuses it where the 129th level starts.
#[test]
fn block_nesting_past_yaml_serdes_limit_is_refused_where_it_starts() {
    let mut deep = nested_maps(129, "leaf: 1");
    deep.push_str(&"more: [1, 2, 3]\n".repeat(1_000));
    assert!(parse_slow(&deep).is_err(), "yaml_serde refuses it too");
    assert_eq!(
        read(&deep),
        Err(Refused::TooDeep(TooDeep {
            line: 129,
            column: 129
        }))
    );
    let deep = nested_maps(200, "leaf: 1");
    assert_eq!(
        read(&deep),
        Err(Refused::TooDeep(TooDeep {
            line: 129,
            column: 129
        }))
    );
    let list = format!(
        "top:\n{}- x\n",
        (0..128)
            .map(|i| format!("{}-\n", " ".repeat(2 * i)))
            .collect::<String>()
    );
    assert!(parse_slow(&list).is_err());
    assert!(
        matches!(read(&list), Err(Refused::TooDeep(TooDeep { .. }))),
        "{:?}",
        read(&list)
    );
    let mixed = nested_lists_and_maps(129, "x: 1");
    assert!(parse_slow(&mixed).is_err());
    assert!(
        matches!(read(&mixed), Err(Refused::TooDeep(TooDeep { .. }))),
        "{:?}",
        read(&mixed)
    );
    // Flow nesting past the limit is left to yaml_serde, which says where.
    let flow = format!("a: {}{}\n", "[".repeat(150), "]".repeat(150));
    assert_eq!(read(&flow), Ok(None));
    invalid(&flow);
}

#[test]
fn control_characters_and_line_separators_are_left_to_yaml_serde() {
    left("a: \"esc \u{1b} here\"\n");
    left("a: 'line\u{2028}separator'\n");
    left("a: 'next\u{85}line'\n");
    left("a: \"bom \u{feff} inside\"\n");
    same("a: \"bidi \u{202e} is printable\"\n");
}

/// The fast reader takes `text` exactly when `yaml_serde` (behind its guard)
/// reads it, and then gives the same.
#[track_caller]
fn taken_iff_read(text: &str) -> bool {
    agrees(text);
    let taken = parse(text).is_some();
    assert_eq!(taken, parse_slow(text).is_ok(), "on:\n{text}");
    taken
}

#[test]
fn aliases_are_copies_of_their_anchors_node() {
    for text in [
        "base: &b {a: 1, b: 2}\nuses:\n  - *b\n  - *b\n",
        "a: &x 1\nb: *x\n",
        "a: &x\n  k: v\n  l: [1, 2]\nb: *x\nc: [*x, *x]\n",
        "a: &x\n  - 1\n  - 2\nb: *x\n",
        "a: &x 'q'\nb: *x\nc: &y \"dq\"\nd: *y\n",
        "a: &x |\n  literal\n  lines\nb: *x\n",
        "a: &x plain\n  folded\nb: *x\n",
        "a: &x # a comment\n  k: 1\nb: *x # another\n",
        "l:\n  - &x {k: 1}\n  - *x\n  - &y\n    m: 2\n  - *y\n  - &z\n    - 3\n  - *z\n",
        "a: &x\nb: *x\n",
        "a: [&x 1, *x, {k: *x}]\nb: {m: &y [2], n: *y}\n",
        "a: [\n  &x 1,\n  *x\n]\nb: *x\n",
        "a: &x-1_y v\nb: *x-1_y\n",
        "a: &x 1\nb: *x\nb: *x\n",
        "a:   &x    spaced\nb:   *x   \n",
    ] {
        same(text);
    }
    let doc = same("a: &x {b: &y [1, 2], c: *y}\nd: *x\ne: *y\n");
    assert_eq!(doc["d"]["c"][1], Value::from(2));
    // A merge key is a plain key `<<` for `yaml_serde`, and so here.
    let doc = same("defaults: &d {a: 1, b: 2}\nx:\n  <<: *d\n  c: 3\ny: *d\n");
    assert_eq!(doc["x"]["<<"]["b"], Value::from(2));
    assert_eq!(doc["x"].get("a"), None);
}

#[test]
fn aliases_yaml_serde_may_read_otherwise_are_left_to_it() {
    invalid("a: *x\n");
    invalid("a: &x *y\n");
    invalid("a: &x 1\nb: *x trailing\n");
    for text in [
        // Recursion.
        "a: &x [*x]\n",
        "a: &x\n  b: *x\n",
        // A duplicate key inside would be reported again at each copy.
        "a: &x {k: 1, k: 2}\nb: *x\n",
        // Anchors and aliases as keys.
        "&k a: 1\n",
        "a: &x k\n*x : 2\n",
        "m: {&k a: 1}\n",
        "m: {a: &x 1, *x : 2}\n",
        // An anchor over an indentless list, or on an empty node.
        "a: &x\n- 1\nb: *x\n",
        "a: [&x , 1]\n",
        "a: &x\tv\n",
        // A name anchored twice: `yaml_serde` takes the second for the first
        // here (`d` is 3).
        "a: &x 1\nb: *x\nc: &x 2\nd: *x\ne: &x [&x 3, *x]\nf: *x\n",
        "a: &x 1\nb: &x 2\nc: *x\n",
        "a: &x !!str 1\n",
    ] {
        left(text);
        agrees(text);
    }
    same("a: &x {k: 1, k: 2}\n");
}

/// Aliases nesting a copy past the 128 levels `yaml_serde` reads are left to it.
#[test]
fn copies_count_toward_the_nesting_limit() {
    let anchored = format!("a: &x {}1{}\n", "[".repeat(100), "]".repeat(100));
    assert!(taken_iff_read(&format!("{anchored}b: *x\n")));
    let deep = format!("{anchored}b: {}*x{}\n", "[".repeat(40), "]".repeat(40));
    assert!(!taken_iff_read(&deep));
}

/// The values aliases copy count against the guard's budget exactly as
/// `yaml_serde`'s read counts them: one byte of padding more or less decides.
#[test]
fn copies_count_toward_the_value_budget_as_yaml_serde_counts_them() {
    fn values(v: &Value) -> usize {
        1 + match v {
            Value::Sequence(items) => items.iter().map(values).sum(),
            Value::Mapping(map) => map.iter().map(|(k, v)| values(k) + values(v)).sum(),
            _ => 0,
        }
    }
    let body = format!(
        "a: &x [1, 2, 3, 4, {{k: v}}, 6, 7, 8, 9]\nb: [{}]\n",
        vec!["*x"; 20_000].join(", ")
    );
    let padded = |pad: usize| format!("# {}\n{body}", "p".repeat(pad));
    let all = values(&parse_slow(&padded(200_000)).unwrap().doc);
    let text_len = padded(0).len();
    let pad = all - text_len - crate::core::yaml::guard::ALIAS_ALLOWANCE;
    assert!(taken_iff_read(&padded(pad)));
    assert!(!taken_iff_read(&padded(pad - 1)));
    assert_eq!(read(&padded(pad - 1)), Err(Refused::AliasBomb));
    let err = crate::core::normalize::jerry::parse::parse(&padded(pad - 1)).unwrap_err();
    assert!(
        err.to_string().contains("refused as an alias bomb"),
        "{err}"
    );
}

/// `yaml_serde` allows 100 alias jumps per event of the document (aliases met
/// inside copies included): past that, the fast reader leaves it the document.
#[test]
fn alias_jumps_count_toward_yaml_serdes_repetition_limit() {
    let mut flips = 0;
    let mut last = None;
    for uses in 250..330 {
        let text = format!(
            "a0: &a0 [x]\na1: &a1 [{}]\na2: &a2 [{}]\nl: [{}]\n",
            ["*a0"; 10].join(", "),
            ["*a1"; 10].join(", "),
            vec!["*a2"; uses].join(", ")
        );
        let taken = taken_iff_read(&text);
        flips += usize::from(last.is_some_and(|l| l != taken));
        last = Some(taken);
    }
    assert_eq!(flips, 1, "the limit lies inside the range tried");
    assert_eq!(last, Some(false));
}

/// Whether reading `text` once stopped making copies (`alias::EAGER_COPIES`).
fn counted_only(text: &str) -> bool {
    let mut cursor = Cursor::new(text);
    block::document(&mut cursor);
    cursor.aliases.counting_only
}

/// Copies past `EAGER_COPIES` within the limits, nested or flat: the reader
/// stops making copies, then reads the document again with every copy, and
/// gives what `yaml_serde` gives.
#[test]
fn a_document_whose_copies_multiply_is_counted_then_read_again_whole() {
    let nested = |uses: usize| {
        format!(
            "a0: &a0 [x]\na1: &a1 [{}]\na2: &a2 [{}]\nl: [{}]\n",
            ["*a0"; 10].join(", "),
            ["*a1"; 10].join(", "),
            vec!["*a2"; uses].join(", ")
        )
    };
    let below = nested(200); // 42,200 values copied
    assert!(!counted_only(&below));
    same(&below);
    let past = nested(260); // 54,860
    assert!(counted_only(&past));
    let doc = same(&past);
    assert_eq!(doc["l"].as_sequence().map(Vec::len), Some(260));
    assert_eq!(doc["l"][259], doc["a2"]);
    // The stand-ins keep the nesting the copies would have.
    let deep = |levels: usize| {
        format!(
            "a0: &a0 {}x{}\na1: &a1 [{}]\nl: [{}]\na2: &a2 [*a1]\nd: {}*a2{}\n",
            "[".repeat(60),
            "]".repeat(60),
            ["*a0"; 10].join(", "),
            vec!["*a1"; 100].join(", "),
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    assert!(counted_only(&deep(10)));
    assert!(taken_iff_read(&deep(10)));
    assert!(!taken_iff_read(&deep(70)), "past 128 levels with the copy");
    let flat = |uses: usize| {
        let uses = vec!["*b"; uses].join(", ");
        format!("b: &b {{a: 1, b: 2}}\nl: [{uses}]\n")
    };
    assert!(!counted_only(&flat(9_000)), "45,000 values copied");
    assert!(counted_only(&flat(11_000)), "55,000");
    same(&flat(11_000));
}

/// An alias bomb is refused by the fast reader with the guarded read's own
/// message (at its first alias), without `yaml_serde` reading the file again;
/// one it cannot read to the end is left to `yaml_serde`.
#[test]
fn an_alias_bomb_is_refused_as_the_guarded_read_refuses_it() {
    let doc = crate::core::yaml::guard::tests::bomb(9, 10, 200_000);
    assert_eq!(read(&doc), Err(Refused::AliasBomb));
    assert!(counted_only(&doc), "its copies stopped being made early");
    let err = crate::core::normalize::jerry::parse::parse(&doc).unwrap_err();
    let err = err.to_string();
    assert!(err.contains("refused as an alias bomb"), "{err}");
    assert!(err.contains("at line 3 column 10"), "{err}");
    assert_eq!(err, parse_slow(&doc).unwrap_err().to_string());
    // What the fast reader cannot read to the end is left to `yaml_serde`: a
    // syntax error further down, block nesting past 128 further down.
    let broken = format!("{doc}b: [unclosed\n");
    assert_eq!(read(&broken), Ok(None));
    let deep = format!("{doc}{}", nested_maps(130, "x: 1"));
    assert_eq!(read(&deep), Ok(None));
}

/// Finished maps and lists keep at most one spare slot (most maps of a file
/// hold one or two entries; the room they grew for was a third of the memory).
#[test]
fn maps_and_lists_give_back_their_spare_room() {
    let text = "a: {x: 1}\nb: [1, 2, 3, 4, 5]\nc:\n  d: 1\n  e: 2\n  f: 3\n  g: 4\n  h: 5\nl:\n  - 1\n  - 2\n  - 3\n  - 4\n  - 5\n";
    let doc = same(text);
    let spare_map = |v: &Value| {
        let m = v.as_mapping().unwrap();
        m.capacity() - m.len()
    };
    let spare_list = |v: &Value| {
        let Value::Sequence(items) = v else { panic!() };
        items.capacity() - items.len()
    };
    assert!(spare_map(&doc) <= 1);
    assert!(spare_map(&doc["a"]) <= 1);
    assert!(spare_map(&doc["c"]) <= 1);
    assert!(spare_list(&doc["b"]) <= 1);
    assert!(spare_list(&doc["l"]) <= 1);
}

/// A file saved with CRLF line breaks reads as `yaml_serde` reads it, in block,
/// quoted and folded scalars, comments and duplicate keys alike (it went to
/// `yaml_serde`, 110–140 ms a megabyte for a hook).
#[test]
fn crlf_line_breaks_read_as_yaml_serde_reads_them() {
    for text in [
        "a: 1\r\nb: 2\r\n",
        "a: |\r\n  one\r\n  two\r\n\r\nb: >-\r\n  folded\r\n  text\r\n",
        "a: |+\r\n  kept\r\n\r\n\r\nb: 1\r\n",
        "a: \"two\r\n  lines\"\r\nb: 'single\r\n\r\n  para'\r\n",
        "a: \"escaped \\\r\n  break\"\r\n# comment\r\nk:\r\n  - x\r\n  - {y: [1, 2]}\r\nk: again\r\n",
        "a: &x {b: 1}\r\nc: *x\r\n",
        "a: plain\r\n  continued\r\nb: 1",
    ] {
        same(text);
    }
}

/// The alias budget is the text's as written: a CRLF file read with LF breaks is
/// a byte shorter a line, and its copies once ran past the shorter text's budget
/// while `yaml_serde` read them within the file's (the second review's find).
#[test]
fn a_crlf_files_aliases_count_against_the_files_own_budget() {
    let head = format!("b: &b [{}]\r\nu:\r\n", ["1"; 10].join(", "));
    let text = format!("{head}{}", "  - *b\r\n".repeat(30_000));
    let lf = text.replace("\r\n", "\n");
    let values = 14 + 30_000 * 11;
    assert!(guard::budget(&lf) < values && values <= guard::budget(&text));
    same(&text);
}
