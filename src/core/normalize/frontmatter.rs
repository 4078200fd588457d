//! Splits a markdown file into its YAML frontmatter and body.
//!
//! Frontmatter opens with `---` on the first non-blank line (after an optional BOM)
//! and closes with `---` or `...` on a line of its own. Line endings may be LF or CRLF.

use crate::core::model::Diagnostic;

/// The frontmatter block of a markdown file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frontmatter<'a> {
    /// The YAML between the fences (no fences), line endings as in the file.
    pub text: &'a str,
    /// 1-based line of the opening `---`; the YAML's line 1 is the line after it.
    pub open_line: usize,
    /// 1-based line of the closing fence.
    pub close_line: usize,
}

impl Frontmatter<'_> {
    /// Converts a 1-based line inside `text` to the file's line.
    pub fn file_line(&self, yaml_line: usize) -> usize {
        self.open_line + yaml_line
    }
}

/// A markdown file split at its frontmatter fences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    pub frontmatter: Option<Frontmatter<'a>>,
    /// Everything after the closing fence, or the whole text (minus a BOM) when
    /// there is no frontmatter.
    pub body: &'a str,
}

/// Splits `text`; `file` only names the file in the diagnostic. An opening fence
/// without a closing one is an error located at the opening fence.
pub fn split<'a>(file: &str, text: &'a str) -> Result<Split<'a>, Diagnostic> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Lines {
        text,
        pos: 0,
        number: 0,
    };

    let open = loop {
        match lines.next() {
            Some(line) if line.content.trim().is_empty() => continue,
            Some(line) if line.content.trim_end() == "---" => break line,
            _ => {
                return Ok(Split {
                    frontmatter: None,
                    body: text,
                });
            }
        }
    };
    let yaml_start = open.end;
    for line in lines {
        let fence = line.content.trim_end();
        if fence == "---" || fence == "..." {
            let yaml = text.get(yaml_start..line.start).unwrap_or_default();
            let body = text.get(line.end..).unwrap_or_default();
            return Ok(Split {
                frontmatter: Some(Frontmatter {
                    text: yaml,
                    open_line: open.number,
                    close_line: line.number,
                }),
                body,
            });
        }
    }
    Err(Diagnostic::error(
        file,
        "frontmatter opened with `---` is never closed: add a line `---` after the YAML",
    )
    .at(open.number, 1))
}

struct Line<'a> {
    /// Without the line ending.
    content: &'a str,
    start: usize,
    /// Byte offset after the line ending.
    end: usize,
    number: usize,
}

struct Lines<'a> {
    text: &'a str,
    pos: usize,
    number: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.text.get(self.pos..).filter(|r| !r.is_empty())?;
        let start = self.pos;
        let (raw, consumed) = match rest.find('\n') {
            Some(i) => (rest.get(..i).unwrap_or_default(), i + 1),
            None => (rest, rest.len()),
        };
        self.pos += consumed;
        self.number += 1;
        Some(Line {
            content: raw.strip_suffix('\r').unwrap_or(raw),
            start,
            end: self.pos,
            number: self.number,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_frontmatter_and_body() {
        let s = split("f.md", "---\na: 1\nb: 2\n---\n# Title\n").unwrap();
        let fm = s.frontmatter.unwrap();
        assert_eq!(fm.text, "a: 1\nb: 2\n");
        assert_eq!((fm.open_line, fm.close_line), (1, 4));
        assert_eq!(fm.file_line(2), 3, "YAML line 2 is file line 3");
        assert_eq!(s.body, "# Title\n");
    }

    #[test]
    fn accepts_bom_blank_lines_crlf_and_dots() {
        let s = split("f.md", "\u{feff}\r\n  \r\n---\r\nk: v\r\n...\r\nbody\r\n").unwrap();
        let fm = s.frontmatter.unwrap();
        assert_eq!(fm.text, "k: v\r\n");
        assert_eq!((fm.open_line, fm.close_line), (3, 5));
        assert_eq!(s.body, "body\r\n");
    }

    #[test]
    fn no_frontmatter_means_the_whole_text_is_body() {
        let s = split("f.md", "\u{feff}# Heading\n---\nx\n").unwrap();
        assert_eq!(s.frontmatter, None);
        assert_eq!(s.body, "# Heading\n---\nx\n");
        let empty = split("f.md", "").unwrap();
        assert_eq!((empty.frontmatter, empty.body), (None, ""));
    }

    #[test]
    fn a_fence_must_stand_alone() {
        let s = split("f.md", "---yaml\na: 1\n---\n").unwrap();
        assert_eq!(s.frontmatter, None);
        let s = split("f.md", "---\na: '---'\n--- \nrest").unwrap();
        assert_eq!(s.frontmatter.unwrap().text, "a: '---'\n");
        assert_eq!(s.body, "rest");
    }

    #[test]
    fn empty_frontmatter_and_missing_final_newline() {
        let s = split("f.md", "---\n---").unwrap();
        assert_eq!(s.frontmatter.unwrap().text, "");
        assert_eq!(s.body, "");
    }

    #[test]
    fn unterminated_frontmatter_is_an_error_at_the_opening_fence() {
        let err = split("p/resume-context.md", "\n---\na: 1\nb: 2\n").unwrap_err();
        assert_eq!(err.severity, crate::core::model::Severity::Error);
        assert_eq!((err.line, err.column), (Some(2), Some(1)));
        assert_eq!(err.file, "p/resume-context.md");
        assert!(err.message.contains("never closed"), "{}", err.message);
    }
}
