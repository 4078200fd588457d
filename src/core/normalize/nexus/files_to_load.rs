//! `files_to_load`: paths from the parsed YAML, inline `# comments` from the text
//! (YAML parsers drop comments, and the comment is the only note on why a file
//! is listed: `- "01-planning/01-overview.md"    # Purpose, success criteria`).

use yaml_serde::Value;

use super::ctx::Ctx;
use crate::core::model::FileToLoad;
use crate::core::normalize::value::{self, get};

/// The listed files, or `None` when the value cannot be read as a list of paths
/// (the caller then keeps it under other fields; a warning is already recorded).
pub(super) fn read_files_to_load(map: &Value, ctx: &mut Ctx) -> Option<Vec<FileToLoad>> {
    let items: Vec<&Value> = match get(map, "files_to_load") {
        None | Some(Value::Null) => return Some(Vec::new()),
        Some(Value::Sequence(items)) => items.iter().filter(|v| !v.is_null()).collect(),
        Some(scalar) if value::text(scalar).is_some() => vec![scalar],
        Some(other) => {
            ctx.wrong_type("files_to_load", "a list of paths", other);
            return None;
        }
    };
    let mut files = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let path = match item {
            Value::Mapping(_) => value::get_text(item, "path"),
            scalar => value::text(scalar),
        };
        match path {
            Some(path) => files.push(FileToLoad {
                path: path.trim().to_string(),
                comment: match item {
                    Value::Mapping(_) => ["comment", "purpose", "description"]
                        .iter()
                        .find_map(|k| value::get_text(item, k)),
                    _ => None,
                },
                exists: None,
                resolved: None,
            }),
            None => {
                let message = format!(
                    "item {} is {}, not a path; the whole list is kept under other fields",
                    index + 1,
                    super::ctx::kind(item)
                );
                ctx.warn(&["files_to_load"], message);
                return None;
            }
        }
    }
    attach_comments(&mut files, &scan_items(ctx.frontmatter.text));
    Some(files)
}

/// Pairs scanned comments with files by path, in order.
fn attach_comments(files: &mut [FileToLoad], scanned: &[(String, Option<String>)]) {
    let mut next = 0;
    for file in files.iter_mut().filter(|f| f.comment.is_none()) {
        let found = scanned
            .iter()
            .enumerate()
            .skip(next)
            .find(|(_, (path, _))| path.trim() == file.path);
        if let Some((index, (_, comment))) = found {
            file.comment = comment.clone();
            next = index + 1;
        }
    }
}

/// Block-list items under a top-level `files_to_load:` key: (scalar, comment).
fn scan_items(yaml: &str) -> Vec<(String, Option<String>)> {
    let mut items = Vec::new();
    let mut inside = false;
    for raw in yaml.lines() {
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if !inside {
            inside = indent == 0
                && trimmed.strip_prefix("files_to_load:").is_some_and(|rest| {
                    rest.trim().is_empty() || rest.trim_start().starts_with('#')
                });
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some(item) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix('-').filter(|r| r.is_empty()))
        else {
            if indent == 0 {
                break;
            }
            continue;
        };
        items.push(split_scalar(item.trim_start()));
    }
    items
}

/// Splits `"path"   # comment` (or a single-quoted or plain scalar) into the
/// scalar's text and the comment.
fn split_scalar(item: &str) -> (String, Option<String>) {
    let mut chars = item.char_indices();
    let (scalar, rest) = match chars.next() {
        Some((_, quote @ ('"' | '\''))) => {
            let mut text = String::new();
            let mut end = item.len();
            let mut escaped = false;
            let mut iter = chars.peekable();
            while let Some((i, c)) = iter.next() {
                if escaped {
                    text.push(c);
                    escaped = false;
                } else if c == '\\' && quote == '"' {
                    escaped = true;
                } else if c == quote
                    && quote == '\''
                    && iter.peek().is_some_and(|(_, n)| *n == '\'')
                {
                    text.push('\'');
                    iter.next();
                } else if c == quote {
                    end = i + 1;
                    break;
                } else {
                    text.push(c);
                }
            }
            (text, item.get(end..).unwrap_or_default())
        }
        _ => {
            let cut = item
                .char_indices()
                .find(|&(i, c)| c == '#' && item.get(..i).is_some_and(|b| b.ends_with([' ', '\t'])))
                .map_or(item.len(), |(i, _)| i);
            let (scalar, rest) = item.split_at(cut);
            (scalar.trim_end().to_string(), rest)
        }
    };
    let comment = rest
        .trim_start()
        .strip_prefix('#')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty());
    (scalar, comment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_quoted_and_plain_scalars_from_comments() {
        assert_eq!(
            split_scalar("\"01-planning/01-overview.md\"    # Purpose, success"),
            (
                "01-planning/01-overview.md".into(),
                Some("Purpose, success".into())
            )
        );
        assert_eq!(
            split_scalar("'it''s.md' #  why "),
            ("it's.md".into(), Some("why".into()))
        );
        assert_eq!(
            split_scalar("01-planning/research.md  # If research completed"),
            (
                "01-planning/research.md".into(),
                Some("If research completed".into())
            )
        );
        assert_eq!(split_scalar("a#b.md"), ("a#b.md".into(), None));
        assert_eq!(split_scalar("\"a # b.md\""), ("a # b.md".into(), None));
        assert_eq!(
            split_scalar("\"unterminated"),
            ("unterminated".into(), None)
        );
    }

    #[test]
    fn scans_only_the_files_to_load_block() {
        let yaml = "other:\n  - x.md # not this\nfiles_to_load:   # the list\n  # a note\n  - \"a.md\"  # first\n\n  - b.md\n- c.md # zero indent\nnext_action: go # no\n";
        assert_eq!(
            scan_items(yaml),
            vec![
                ("a.md".into(), Some("first".into())),
                ("b.md".into(), None),
                ("c.md".into(), Some("zero indent".into())),
            ]
        );
    }

    #[test]
    fn comments_pair_with_files_by_path_in_order() {
        let mut files: Vec<FileToLoad> = ["a.md", "b.md", "a.md"]
            .iter()
            .map(|p| FileToLoad {
                path: p.to_string(),
                ..FileToLoad::default()
            })
            .collect();
        let scanned = vec![
            ("a.md".to_string(), Some("one".to_string())),
            ("b.md".to_string(), None),
            ("a.md".to_string(), Some("three".to_string())),
        ];
        attach_comments(&mut files, &scanned);
        let comments: Vec<_> = files.iter().map(|f| f.comment.as_deref()).collect();
        assert_eq!(comments, vec![Some("one"), None, Some("three")]);
    }
}
