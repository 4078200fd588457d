//! A position for the YAML errors that come without one: the guards' refusals,
//! `yaml_serde`'s repetition limit (an alias bomb it stopped itself) and its
//! refusal of a second document. The position is written into the message as
//! `yaml_serde` writes its own (`… at line 3 column 5`), and read back by the
//! callers that report `file:line:column` (`position_in`).

/// `message at line L column C`, or `message` without a position.
pub fn with_position(message: &str, at: Option<(usize, usize)>) -> String {
    match at {
        Some((line, column)) => format!("{message} at line {line} column {column}"),
        None => message.to_string(),
    }
}

/// The last `at line L column C` of `message`.
pub fn position_in(message: &str) -> Option<(usize, usize)> {
    let (_, rest) = message.rsplit_once(" at line ")?;
    let (line, rest) = rest.split_once(" column ")?;
    let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// `e` itself when it has a location; else an error whose message names where in
/// `text` the problem lies, when that can be told.
pub fn locate(text: &str, e: yaml_serde::Error) -> yaml_serde::Error {
    if e.location().is_some() {
        return e;
    }
    let message = e.to_string();
    let (message, at) = if message.contains("more than one document") {
        (
            "a second document (`---`) follows the first: one document per file",
            second_document(text),
        )
    } else if message.contains("repetition limit") {
        (
            "its aliases (`*name`) repeat past the parser's limit: refused as an alias bomb",
            first_alias(text),
        )
    } else {
        return e;
    };
    match at {
        Some(at) => {
            <yaml_serde::Error as serde::de::Error>::custom(with_position(message, Some(at)))
        }
        None => e,
    }
}

/// Line and column (1-based, in characters) of byte `at`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |l| l.chars().count());
    (before.matches('\n').count() + 1, column + 1)
}

/// Whether byte `i` is `sigil` (`&` an anchor, `*` an alias) where YAML allows
/// one: after a space, a line start or a flow indicator, and before a name.
/// Markdown bold (`**x**`) and prose such as `R&D` do not count.
pub fn sigil_at(bytes: &[u8], i: usize, sigil: u8) -> bool {
    bytes.get(i) == Some(&sigil)
        && (i == 0
            || bytes
                .get(i - 1)
                .is_some_and(|p| b" \t\n\r[{,:-".contains(p)))
        && bytes
            .get(i + 1)
            .is_some_and(|n| !n.is_ascii_whitespace() && !b",[]{}*&".contains(n))
}

/// The first alias.
pub fn first_alias(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let at = (0..bytes.len()).position(|i| sigil_at(bytes, i, b'*'))?;
    Some(line_column(text, at))
}

/// The `---` that starts a second document: the first after a line of content.
pub fn second_document(text: &str) -> Option<(usize, usize)> {
    let mut content = false;
    for (n, line) in text.lines().enumerate() {
        let marker = line == "---" || line.starts_with("--- ") || line.starts_with("---\t");
        if marker && content {
            return Some((n + 1, 1));
        }
        let trimmed = line.trim_start();
        if !marker && !trimmed.is_empty() && !trimmed.starts_with('#') && !trimmed.starts_with('%')
        {
            content = true;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_written_and_read_back() {
        let message = with_position("refused", Some((3, 5)));
        assert_eq!(message, "refused at line 3 column 5");
        assert_eq!(position_in(&message), Some((3, 5)));
        assert_eq!(position_in("no position"), None);
        assert_eq!(with_position("plain", None), "plain");
    }

    #[test]
    fn a_second_document_and_an_alias_are_found() {
        assert_eq!(second_document("---\na: 1\n---\nb: 2\n"), Some((3, 1)));
        assert_eq!(second_document("# c\n---\na: 1\n"), None);
        assert_eq!(first_alias("a: &x 1\nb: [*x, *x]\n"), Some((2, 5)));
        assert_eq!(first_alias("a: **bold**\n"), None);
        assert_eq!(line_column("é: x\nab", 7), (2, 2));
    }

    #[test]
    fn a_second_document_error_gets_its_position() {
        let text = "a: 1\n---\nb: 2\n";
        let e = yaml_serde::from_str::<yaml_serde::Value>(text).unwrap_err();
        let located = locate(text, e);
        assert_eq!(position_in(&located.to_string()), Some((2, 1)), "{located}");
    }
}
