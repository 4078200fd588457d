//! Line arithmetic on the original text: where a line starts and ends, how far it is
//! indented, and where a block (an entry or an item) ends.

pub fn line_start(text: &str, pos: usize) -> usize {
    text.get(..pos)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1)
}

/// The position of the `\n` ending the line holding `pos` (or the end of the text).
pub fn line_end(text: &str, pos: usize) -> usize {
    text.get(pos..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| pos + i)
}

/// Columns from the start of the line to `pos`.
pub fn column(text: &str, pos: usize) -> usize {
    pos - line_start(text, pos)
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Where the block whose first line holds `first` ends: the end (before its `\n`)
/// of the last line that belongs to it. Lines belong when they are indented deeper
/// than `column`, or (with `dash_at_column`) are `-` items at `column`. Blank lines
/// and shallower comments in between are kept with whatever follows them.
pub fn block_end(text: &str, first: usize, column: usize, dash_at_column: bool) -> usize {
    let mut content_end = line_end(text, first);
    let mut pos = content_end + 1;
    while pos < text.len() {
        let end = line_end(text, pos);
        let line = text.get(pos..end).unwrap_or_default();
        let line = line.strip_suffix('\r').unwrap_or(line);
        let indent = indent_of(line);
        let rest = line.get(indent..).unwrap_or_default();
        if rest.is_empty() {
            // blank: belongs to whatever follows
        } else if rest.starts_with('#') {
            if indent > column {
                content_end = end;
            }
        } else if indent > column || (dash_at_column && indent == column && is_dash(rest)) {
            content_end = end;
        } else {
            break;
        }
        pos = end + 1;
    }
    content_end
}

fn is_dash(rest: &str) -> bool {
    rest == "-" || rest.starts_with("- ")
}

/// The line ending the text uses (`\r\n` when its first line ends so).
pub fn newline(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes().get(i - 1) == Some(&b'\r') => "\r\n",
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
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
}
