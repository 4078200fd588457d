use super::*;

const TEXT: &str = "a:\n  b: 1\n\n  # about c\n  c:\n    - x\n    # deeper\n\n# top\nd: 2\n";

#[test]
fn blocks_end_at_their_last_deeper_line() {
    let end = block_end(TEXT, 0, 0, false);
    assert_eq!(
        TEXT.get(..end).unwrap().lines().last(),
        Some("    # deeper")
    );
    let c = TEXT.find("c:").unwrap();
    let end = block_end(TEXT, c, 2, false);
    assert_eq!(
        TEXT.get(..end).unwrap().lines().last(),
        Some("    # deeper")
    );
    let b = TEXT.find("b:").unwrap();
    assert_eq!(block_end(TEXT, b, 2, false), line_end(TEXT, b));
}

#[test]
fn indentless_items_belong_to_their_key() {
    let text = "list:\n- a\n- b\nnext: 1\n";
    let end = block_end(text, 0, 0, true);
    assert_eq!(text.get(..end), Some("list:\n- a\n- b"));
    assert_eq!(block_end(text, 0, 0, false), 5);
}

#[test]
fn crlf_blank_lines_are_blank_and_blocks_end_before_the_line_break() {
    let text = "a:\r\n  b: 1\r\n\r\n  c: 2\r\nd: 3\r\n";
    let end = block_end(text, 0, 0, false);
    assert_eq!(text.get(..end), Some("a:\r\n  b: 1\r\n\r\n  c: 2\r"));
}

#[test]
fn lines_cover_the_text_byte_for_byte() {
    for text in ["", "a", "a\n", "a\n\n", "\n", "  x: 1\r\n- y\nlast"] {
        let all: Vec<Line> = lines(text).collect();
        let joined: String = all
            .iter()
            .map(|l| text.get(l.start..l.end).unwrap())
            .collect();
        assert_eq!(joined, text);
        for line in &all {
            assert!(!line.text.contains('\n'));
            assert_eq!(
                line.text,
                text.get(line.start..line.start + line.text.len()).unwrap()
            );
        }
    }
    let all: Vec<Line> = lines("  x: 1\r\n- y\n\nlast").collect();
    let texts: Vec<&str> = all.iter().map(|l| l.text).collect();
    assert_eq!(texts, ["  x: 1\r", "- y", "", "last"]);
    assert_eq!(all[0].indent, 2);
    assert_eq!(all[0].content(), "x: 1\r");
    assert_eq!(all[0].without_cr(), "  x: 1");
    assert!(all[1].is_dash());
    assert!(!all[0].is_dash());
}

#[test]
fn the_newline_style_is_the_first_lines() {
    assert_eq!(newline("a\r\nb\n"), "\r\n");
    assert_eq!(newline("a\nb\r\n"), "\n");
    assert_eq!(newline("a"), "\n");
}

#[test]
fn columns_count_from_the_start_of_the_line() {
    let text = "ab\n  cd";
    assert_eq!(line_start(text, 6), 3);
    assert_eq!(column(text, 6), 3);
    assert_eq!(line_end(text, 0), 2);
    assert_eq!(line_end(text, 4), text.len());
}
