//! A small line diff: what an edit changes, as a unified diff and a one-line summary.
//! Edits are local, so the common head and tail are trimmed first and only the
//! middle is compared line by line (LCS, from `similar`).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

/// Lines added and removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiffStats {
    pub added: usize,
    pub removed: usize,
}

impl DiffStats {
    pub fn changed(&self) -> usize {
        self.added + self.removed
    }

    /// `path: 3 lines changed (+2 −1)`.
    pub fn summary(&self, path: &str) -> String {
        let n = self.changed();
        let lines = if n == 1 { "line" } else { "lines" };
        format!(
            "{path}: {n} {lines} changed (+{} \u{2212}{})",
            self.added, self.removed
        )
    }
}

/// Middle blocks past this many line pairs are shown as removed-then-added.
const LCS_LIMIT: usize = 4_000_000;

fn split(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

fn lines<'a>(old: &'a str, new: &'a str) -> Vec<Line<'a>> {
    let a = split(old);
    let b = split(new);
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(a.len().min(b.len()) - head)
        .take_while(|(x, y)| x == y)
        .count();
    let mid_a = a.get(head..a.len() - tail).unwrap_or_default();
    let mid_b = b.get(head..b.len() - tail).unwrap_or_default();
    let mut out: Vec<Line> = a.iter().take(head).map(|l| Line::Same(l)).collect();
    out.extend(middle(mid_a, mid_b));
    out.extend(a.iter().skip(a.len() - tail).map(|l| Line::Same(l)));
    out
}

/// The middle, whose first and last lines differ, compared line by line: a longest
/// common subsequence (`similar`'s LCS, which removes before it adds when two choices
/// keep as many lines). It is given the trimmed middle only: with a common head
/// `similar` 2.7's LCS table is off by the head's length and keeps fewer lines.
fn middle<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Line<'a>> {
    if a.len().saturating_mul(b.len()) > LCS_LIMIT {
        let mut out: Vec<Line> = a.iter().map(|l| Line::Removed(l)).collect();
        out.extend(b.iter().map(|l| Line::Added(l)));
        return out;
    }
    let mut capture = similar::algorithms::Capture::new();
    let Ok(()) = similar::algorithms::lcs::diff(&mut capture, a, 0..a.len(), b, 0..b.len());
    let mut out = Vec::new();
    for op in capture.into_ops() {
        let old = a.get(op.old_range()).unwrap_or_default();
        let new = b.get(op.new_range()).unwrap_or_default();
        if op.tag() == similar::DiffTag::Equal {
            out.extend(old.iter().map(|l| Line::Same(l)));
        } else {
            out.extend(old.iter().map(|l| Line::Removed(l)));
            out.extend(new.iter().map(|l| Line::Added(l)));
        }
    }
    out
}

pub fn stats(old: &str, new: &str) -> DiffStats {
    lines(old, new)
        .iter()
        .fold(DiffStats::default(), |mut s, line| {
            match line {
                Line::Added(_) => s.added += 1,
                Line::Removed(_) => s.removed += 1,
                Line::Same(_) => {}
            }
            s
        })
}

/// A unified diff with `context` lines around each change; empty when nothing changed.
pub fn unified(path: &str, old: &str, new: &str, context: usize) -> String {
    let all = lines(old, new);
    let changed: Vec<usize> = all
        .iter()
        .enumerate()
        .filter(|(_, l)| !matches!(l, Line::Same(_)))
        .map(|(i, _)| i)
        .collect();
    if changed.is_empty() {
        return String::new();
    }
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    let mut hunks: Vec<(usize, usize)> = Vec::new();
    for &i in &changed {
        let start = i.saturating_sub(context);
        let end = (i + context + 1).min(all.len());
        match hunks.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => hunks.push((start, end)),
        }
    }
    for (start, end) in hunks {
        let before = all.get(..start).unwrap_or_default();
        let old_start = 1 + before
            .iter()
            .filter(|l| !matches!(l, Line::Added(_)))
            .count();
        let new_start = 1 + before
            .iter()
            .filter(|l| !matches!(l, Line::Removed(_)))
            .count();
        let hunk = all.get(start..end).unwrap_or_default();
        let old_len = hunk.iter().filter(|l| !matches!(l, Line::Added(_))).count();
        let new_len = hunk
            .iter()
            .filter(|l| !matches!(l, Line::Removed(_)))
            .count();
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(old_start, old_len),
            range(new_start, new_len)
        ));
        for line in hunk {
            let (mark, text) = match line {
                Line::Same(t) => (' ', t),
                Line::Removed(t) => ('-', t),
                Line::Added(t) => ('+', t),
            };
            out.push(mark);
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{},0", start - 1),
        1 => start.to_string(),
        _ => format!("{start},{len}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_shows_a_local_change() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nD\nd2\ne\nf\ng\nh\n";
        let s = stats(old, new);
        assert_eq!((s.added, s.removed), (2, 1));
        assert_eq!(
            s.summary("x.yaml"),
            "x.yaml: 3 lines changed (+2 \u{2212}1)"
        );
        assert_eq!(
            unified("x.yaml", old, new, 1),
            "--- a/x.yaml\n+++ b/x.yaml\n@@ -3,3 +3,4 @@\n c\n-d\n+D\n+d2\n e\n"
        );
    }

    #[test]
    fn pure_insertions_and_missing_newlines() {
        assert_eq!(unified("f", "a\n", "a\n", 3), "");
        assert_eq!(
            unified("f", "a\nb", "a\nb\nc\n", 0),
            "--- a/f\n+++ b/f\n@@ -2 +2,2 @@\n-b\n\\ No newline at end of file\n+b\n+c\n"
        );
        assert_eq!(
            unified("f", "x\n", "", 3),
            "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-x\n"
        );
    }

    #[test]
    fn far_apart_changes_make_two_hunks() {
        let old: String = (0..20).map(|i| format!("{i}\n")).collect();
        let new: String = (0..20)
            .map(|i| match i {
                2 => "two\n".to_string(),
                17 => "seventeen\n".to_string(),
                i => format!("{i}\n"),
            })
            .collect();
        let diff = unified("f", &old, &new, 2);
        assert_eq!(diff.matches("@@ -").count(), 2, "{diff}");
        assert_eq!(stats(&old, &new).changed(), 4);
    }
}
