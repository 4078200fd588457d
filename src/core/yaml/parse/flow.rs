//! Flow lists and maps (`[a, b]`, `{k: v}`), on one line or over several (with
//! any indentation, as for `yaml_serde`). Plain scalars that go on to the next
//! line, keys that are collections, single-pair maps inside lists (`[a: 1]`) and
//! JSON-style `"k":v` are left to `yaml_serde`.

use yaml_serde::{Mapping, Value};

use super::alias;
use super::cursor::Cursor;
use super::quoted;
use super::scalar::{resolve, starts_plain};

/// The collection whose bracket is at byte `start` of the cursor's line, and the
/// rest of the line where it closes (the cursor is left on that line).
pub(super) fn read<'a>(cursor: &mut Cursor<'a>, start: usize) -> Option<(Value, &'a str)> {
    let text = cursor.current()?.text;
    let mut flow = Flow {
        cursor,
        text,
        pos: start,
    };
    let value = flow.node()?;
    let rest = flow.text.get(flow.pos..)?;
    Some((value, rest))
}

struct Flow<'c, 'a> {
    cursor: &'c mut Cursor<'a>,
    /// The cursor's line.
    text: &'a str,
    pos: usize,
}

impl Flow<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.text.as_bytes().get(self.pos + ahead).copied()
    }

    /// Skips spaces, comments and line breaks; `None` at the end of the text.
    fn skip_space(&mut self) -> Option<()> {
        loop {
            while self.peek() == Some(b' ') {
                self.pos += 1;
            }
            let at_comment = self.peek() == Some(b'#')
                && (self.pos == 0 || self.text.as_bytes().get(self.pos - 1) == Some(&b' '));
            if self.peek().is_some() && !at_comment {
                return Some(());
            }
            self.next_line()?;
        }
    }

    fn next_line(&mut self) -> Option<()> {
        loop {
            self.cursor.at += 1;
            let line = self.cursor.current()?;
            if line.is_document_marker() {
                return None;
            }
            if line.is_empty() {
                continue;
            }
            self.text = line.text;
            self.pos = line.indent;
            return Some(());
        }
    }

    fn node(&mut self) -> Option<Value> {
        match self.peek()? {
            b'[' => self.list(),
            b'{' => self.map(),
            b'*' => self.alias(),
            b'&' => self.anchored(),
            _ => {
                let value = self.scalar()?;
                self.cursor.aliases.scalar();
                Some(value)
            }
        }
    }

    fn alias(&mut self) -> Option<Value> {
        let (name, after) = alias::name(self.text.get(self.pos + 1..)?)?;
        if !matches!(
            after.as_bytes().first(),
            None | Some(b' ' | b',' | b']' | b'}')
        ) {
            return None;
        }
        self.pos += 1 + name.len();
        let nesting = self.cursor.nesting();
        self.cursor.aliases.alias(name, nesting)
    }

    /// An anchor and the node after it on its line.
    fn anchored(&mut self) -> Option<Value> {
        let (name, after) = alias::name(self.text.get(self.pos + 1..)?)?;
        if !after.starts_with(' ') {
            return None;
        }
        self.pos += 1 + name.len();
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
        if matches!(
            self.peek(),
            None | Some(b',' | b']' | b'}' | b'&' | b'*' | b'!' | b'#')
        ) {
            return None;
        }
        let duplicates = self.cursor.duplicates.len();
        let started = self.cursor.aliases.start(name, duplicates)?;
        let value = self.node()?;
        let duplicates = self.cursor.duplicates.len();
        self.cursor.aliases.close(started, &value, duplicates);
        Some(value)
    }

    fn scalar(&mut self) -> Option<Value> {
        if quoted::Quote::of(self.peek()?).is_some() {
            let (text, rest) = quoted::read(self.cursor, self.pos)?;
            self.text = self.cursor.current()?.text;
            self.pos = self.text.len() - rest.len();
            return Some(Value::String(text));
        }
        let rest = self.text.get(self.pos..)?;
        // `yaml_serde` refuses `[:x]`; `?` starts an explicit key here.
        if !starts_plain(rest) || rest.starts_with([':', '?']) {
            return None;
        }
        let bytes = rest.as_bytes();
        let mut end = 0;
        while let Some(&b) = bytes.get(end) {
            match (b, bytes.get(end + 1)) {
                (b',' | b'[' | b']' | b'{' | b'}', _) => break,
                (b':', None | Some(b' ')) => break,
                // `yaml_serde` refuses `x:,` and `x:]`; `x:y` is one scalar.
                (b':', Some(b',' | b'?' | b'[' | b']' | b'{' | b'}')) => return None,
                (b'#', _) if bytes.get(end.wrapping_sub(1)) == Some(&b' ') => break,
                _ => end += 1,
            }
        }
        let value = rest.get(..end)?.trim_end_matches(' ');
        if value.contains('\t') {
            return None;
        }
        self.pos += end;
        if self.pos == self.text.len() && !self.ends_at_line_end() {
            return None;
        }
        resolve(value)
    }

    /// After a plain scalar that reached the end of its line: it goes on to the
    /// next line (left to `yaml_serde`) unless that line starts with `,`, `]` or
    /// `}`.
    fn ends_at_line_end(&self) -> bool {
        let mut index = self.cursor.at + 1;
        while let Some(line) = self.cursor.line(index) {
            if !line.is_empty() {
                return matches!(line.content().as_bytes().first(), Some(b',' | b']' | b'}'));
            }
            index += 1;
        }
        false
    }

    fn list(&mut self) -> Option<Value> {
        self.cursor.open_collection(None)?;
        self.cursor.aliases.collection();
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space()?;
            match self.peek()? {
                b']' => break,
                b',' => return None,
                _ => {}
            }
            self.cursor.enter_index(items.len())?;
            let item = self.node()?;
            self.cursor.leave_index();
            items.push(item);
            self.skip_space()?;
            match self.peek()? {
                b',' => self.pos += 1,
                b']' => break,
                _ => return None,
            }
        }
        self.pos += 1;
        Some(super::fitted_list(items))
    }

    fn map(&mut self) -> Option<Value> {
        self.cursor.open_collection(None)?;
        self.cursor.aliases.collection();
        self.pos += 1;
        let mut map = Mapping::with_capacity(1);
        loop {
            self.skip_space()?;
            match self.peek()? {
                b'}' => break,
                b',' | b'[' | b'{' => return None,
                _ => {}
            }
            let key = self.scalar()?;
            self.cursor.aliases.scalar();
            // A key's `:` must be on its line (a simple key is one line long).
            while self.peek() == Some(b' ') {
                self.pos += 1;
            }
            let (key, value) = if self.peek() == Some(b':') {
                if !matches!(self.peek_at(1), None | Some(b' ' | b',' | b'}')) {
                    return None;
                }
                self.pos += 1;
                self.skip_space()?;
                if matches!(self.peek()?, b',' | b'}') {
                    self.cursor.aliases.scalar();
                    (key, Value::Null)
                } else {
                    self.cursor.enter_key(key)?;
                    let value = self.node()?;
                    (self.cursor.leave_key()?, value)
                }
            } else {
                self.skip_space()?;
                if self.peek()? == b':' {
                    return None;
                }
                self.cursor.aliases.scalar();
                (key, Value::Null)
            };
            self.cursor.insert(&mut map, key, value);
            self.skip_space()?;
            if !self.after_entry()? {
                break;
            }
        }
        self.pos += 1;
        Some(super::fitted_map(map))
    }

    /// `,` (another entry may follow: true) or `}` (the end: false).
    fn after_entry(&mut self) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.pos += 1;
                Some(true)
            }
            b'}' => Some(false),
            _ => None,
        }
    }
}
