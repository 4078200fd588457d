//! Finds where a value sits in JSON text, so that problems found in the parsed
//! value can point at a line and column. Best effort: never fails or panics.

/// One step of a path into a JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl Seg {
    pub fn key(key: &str) -> Seg {
        Seg::Key(key.to_string())
    }
}

/// The 1-based line and column (in characters) of the deepest part of `path`
/// found in `text`: the key's opening quote for a key, the element for an index.
/// The empty path is the document's first value.
pub fn locate(text: &str, path: &[Seg]) -> Option<(usize, usize)> {
    let mut scanner = Scanner {
        bytes: text.as_bytes(),
        pos: 0,
    };
    scanner.skip_ws();
    let mut found = scanner.pos;
    for seg in path {
        match scanner.descend(seg) {
            Some(at) => found = at,
            None => break,
        }
    }
    Some(line_col(text, found))
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_whitespace() || b == 0xEF || b == 0xBB || b == 0xBF)
        {
            self.pos += 1;
        }
    }

    /// With `pos` at a value, moves to the value under `seg` and returns where
    /// the key (or element) starts.
    fn descend(&mut self, seg: &Seg) -> Option<usize> {
        self.skip_ws();
        match (self.peek()?, seg) {
            (b'{', Seg::Key(wanted)) => {
                self.pos += 1;
                loop {
                    self.skip_ws();
                    if self.peek()? != b'"' {
                        return None;
                    }
                    let key_at = self.pos;
                    let key = self.string()?;
                    self.skip_ws();
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.pos += 1;
                    self.skip_ws();
                    if key == *wanted {
                        return Some(key_at);
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    if self.peek()? != b',' {
                        return None;
                    }
                    self.pos += 1;
                }
            }
            (b'[', Seg::Index(wanted)) => {
                self.pos += 1;
                for _ in 0..*wanted {
                    self.skip_ws();
                    self.skip_value()?;
                    self.skip_ws();
                    if self.peek()? != b',' {
                        return None;
                    }
                    self.pos += 1;
                }
                self.skip_ws();
                (self.peek()? != b']').then_some(self.pos)
            }
            _ => None,
        }
    }

    /// Reads a string at `pos` (escapes are decoded only as far as keys need).
    fn string(&mut self) -> Option<String> {
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            let b = self.peek()?;
            self.pos += 1;
            match b {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let escaped = self.peek()?;
                    self.pos += 1;
                    match escaped {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'u' => {
                            let hex = self.bytes.get(self.pos..self.pos + 4)?;
                            let code =
                                u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(
                                char::from_u32(code)?.encode_utf8(&mut buf).as_bytes(),
                            );
                            self.pos += 4;
                        }
                        other => out.push(other),
                    }
                }
                other => out.push(other),
            }
        }
    }

    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b if b == open => depth += 1,
                        b if b == close => {
                            depth -= 1;
                            if depth == 0 {
                                self.pos += 1;
                                return Some(());
                            }
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth = depth.checked_sub(1)?,
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
                {
                    self.pos += 1;
                }
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> Seg {
        Seg::key(s)
    }

    const DOC: &str = "{\n  \"a\": {\"x\": \"}\\\"[\", \"b\": 1},\n  \"list\": [\n    {\"p\": 1},\n    {\"p\": 2, \"é\": 3}\n  ],\n  \"b\": true\n}";

    #[test]
    fn finds_keys_and_elements() {
        assert_eq!(locate(DOC, &[k("a")]), Some((2, 3)));
        assert_eq!(locate(DOC, &[k("a"), k("b")]), Some((2, 22)));
        assert_eq!(locate(DOC, &[k("b")]), Some((7, 3)));
        assert_eq!(locate(DOC, &[k("list"), Seg::Index(1)]), Some((5, 5)));
        assert_eq!(
            locate(DOC, &[k("list"), Seg::Index(1), k("p")]),
            Some((5, 6))
        );
        assert_eq!(locate(DOC, &[]), Some((1, 1)));
    }

    #[test]
    fn stops_at_the_deepest_part_found() {
        assert_eq!(locate(DOC, &[k("a"), k("missing")]), Some((2, 3)));
        assert_eq!(locate(DOC, &[k("list"), Seg::Index(9)]), Some((3, 3)));
        assert_eq!(locate(DOC, &[k("nope")]), Some((1, 1)));
    }

    #[test]
    fn survives_garbage() {
        for text in ["", "{", "{\"a\"", "[1,", "\"\\u12", "{\"a\": [}}", "]]]"] {
            let _ = locate(text, &[k("a"), Seg::Index(2), k("b")]);
        }
    }
}
