//! Shortening paths and status messages to fit the screen: folders leave from the
//! middle so that the file's name stays in view.

use std::borrow::Cow;

use unicode_width::UnicodeWidthChar;

use crate::core::text::{truncate, width};

/// Shortens a path to at most `max` cells by leaving out folders in the middle
/// (`projects/…/orchestration/ORCHESTRATION.yaml`): the file name stays whole when it
/// fits, then as many folders as fit are kept from both ends, taking turns, the
/// file's own folder first.
/// A file name too long by itself loses its own middle.
pub fn truncate_path(path: &str, max: usize) -> Cow<'_, str> {
    if width(path) <= max {
        return Cow::Borrowed(path);
    }
    let parts: Vec<&str> = path.split('/').collect();
    let Some((name, folders)) = parts.split_last() else {
        return truncate_middle(path, max);
    };
    // `…/name` at the least.
    if folders.is_empty() || width(name) + 1 > max {
        return truncate_middle(name, max);
    }
    if width(name) + 2 > max {
        return Cow::Owned(format!("…{name}"));
    }
    let (mut front, mut back) = (0, folders.len());
    let mut used = width(name) + 2;
    loop {
        let mut grew = false;
        for take_front in [false, true] {
            if front >= back {
                break;
            }
            let part = if take_front {
                folders.get(front)
            } else {
                folders.get(back - 1)
            };
            let cost = part.map_or(usize::MAX, |p| width(p) + 1);
            if used + cost <= max {
                used += cost;
                grew = true;
                if take_front {
                    front += 1;
                } else {
                    back -= 1;
                }
            }
        }
        if !grew || front >= back {
            break;
        }
    }
    // One folder left out: as much of its start as fits, in place of the `…`.
    let left_out = match folders.get(front) {
        Some(only) if front + 1 == back && max - used >= 4 && width(only) > max - used + 1 => {
            truncate(only, max - used + 1)
        }
        _ => Cow::Borrowed("…"),
    };
    let mut out: Vec<&str> = folders.iter().take(front).copied().collect();
    out.push(&left_out);
    out.extend(folders.iter().skip(back).copied());
    out.push(name);
    Cow::Owned(out.join("/"))
}

/// Fits a one-line message (the status bar) to `max` cells: the paths in it (words
/// with a `/`) first lose folders from their middle, the longest first, so that
/// the file's name and what is said after it stay in view; then the end is cut.
pub fn fit_message(text: &str, max: usize) -> Cow<'_, str> {
    if width(text) <= max {
        return Cow::Borrowed(text);
    }
    let mut words: Vec<Cow<'_, str>> = text.split(' ').map(Cow::Borrowed).collect();
    loop {
        let total: usize = words.iter().map(|w| width(w) + 1).sum::<usize>();
        let over = total.saturating_sub(1).saturating_sub(max);
        if over == 0 {
            break;
        }
        let longest = words
            .iter()
            .enumerate()
            .filter(|(_, w)| w.contains('/'))
            .max_by_key(|(_, w)| width(w));
        let Some((i, path)) = longest else {
            break;
        };
        // Never shorter than `…/NAME`: the file name is what says which file.
        let name = path.rsplit('/').next().unwrap_or(path);
        let room = width(path).saturating_sub(over).max(width(name) + 2);
        let shorter = truncate_path(path, room).into_owned();
        if width(&shorter) >= width(path) {
            break;
        }
        if let Some(word) = words.get_mut(i) {
            *word = Cow::Owned(shorter);
        }
    }
    Cow::Owned(truncate(&words.join(" "), max).into_owned())
}

/// Cuts the middle out of `text` so that it fits `max` cells: `start…end`.
pub fn truncate_middle(text: &str, max: usize) -> Cow<'_, str> {
    if width(text) <= max {
        return Cow::Borrowed(text);
    }
    if max == 0 {
        return Cow::Borrowed("");
    }
    let keep = max - 1;
    let tail_cells = keep / 2;
    let head = truncate(text, keep - tail_cells + 1);
    let head = head.strip_suffix('…').unwrap_or(&head).to_string();
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > tail_cells {
            break;
        }
        used += w;
        tail.push(c);
    }
    let tail: String = tail.into_iter().rev().collect();
    Cow::Owned(format!("{head}…{tail}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_lose_folders_from_the_middle_and_keep_the_file_name() {
        let path = "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
        assert_eq!(truncate_path(path, 200), path);
        assert_eq!(
            truncate_path(path, 70),
            "projects/…/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml"
        );
        assert_eq!(truncate_path(path, 40), "projects/…/ORCHESTRATION.yaml");
        assert_eq!(truncate_path(path, 20), "…/ORCHESTRATION.yaml");
        assert_eq!(
            truncate_path("projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml", 43),
            "projects/PROJ-004-docs-…/ORCHESTRATION.yaml"
        );
        for max in 0..path.len() {
            let cut = truncate_path(path, max);
            assert!(width(&cut) <= max, "{max}: {cut}");
        }
        assert_eq!(
            truncate_path("a-very-long-file-name.yaml", 12),
            "a-very….yaml"
        );
        assert_eq!(truncate_path("日本語/テキスト.md", 12), "…テキスト.md");
        assert_eq!(truncate_path("日本語/テキスト.md", 13), "…/テキスト.md");
        assert_eq!(truncate_middle("abcdefghij", 5), "ab…ij");
        assert_eq!(truncate_middle("abc", 0), "");
    }

    #[test]
    fn messages_shorten_their_paths_before_losing_their_end() {
        let message = "not saved: acknowledged cx-002: projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml: Permission denied (os error 13)";
        let said = "not saved: acknowledged cx-002:";
        for (max, path, rest) in [
            (
                200,
                "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml:",
                "Permission denied (os error 13)",
            ),
            (
                120,
                "projects/…/payouts-v2-20260302-001/ORCHESTRATION.yaml:",
                "Permission denied (os error 13)",
            ),
            (
                95,
                "projects/…/ORCHESTRATION.yaml:",
                "Permission denied (os error 13)",
            ),
            (60, "…/ORCHESTRATION.yaml:", "Permi…"),
        ] {
            assert_eq!(fit_message(message, max), format!("{said} {path} {rest}"));
        }
        for max in 0..message.len() {
            assert!(width(&fit_message(message, max)) <= max, "{max}");
        }
        assert_eq!(fit_message("no paths at all here", 10), "no paths …");
    }
}
