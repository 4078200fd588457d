//! Text from files on its way to the screen: sanitised (no escape sequences, control
//! or bidirectional-override characters ever reach the terminal), measured by display
//! width, and truncated with an ellipsis.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Removes terminal escape sequences (CSI, OSC, DCS, …), C0/C1 control characters
/// and bidi controls. Tabs become a space; newlines are kept only when `keep_newlines`.
pub fn sanitize(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    if text
        .chars()
        .all(|c| !needs_cleaning(c) || (keep_newlines && c == '\n'))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' if keep_newlines => out.push('\n'),
            '\n' | '\t' => out.push(' '),
            '\u{1b}' => skip_escape(&mut chars),
            // C1 string introducers (DCS, SOS, OSC, PM, APC) swallow until ST like their ESC forms.
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\u{9b}' => skip_csi(&mut chars),
            c if is_regional_indicator(c) => out.push(regional_letter(c)),
            c if needs_cleaning(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// One line of file text, safe to draw: newlines become spaces.
pub fn clean(text: &str) -> Cow<'_, str> {
    sanitize(text, false)
}

fn needs_cleaning(c: char) -> bool {
    c.is_control() || is_bidi_control(c) || joins_widths(c) || is_regional_indicator(c)
}

/// Characters that change the width of the characters around them: the emoji and
/// text presentation selectors (`⚠️` is one cell in some terminals, two in others),
/// the zero-width joiner (`👩‍💻` is one glyph or two) and skin-tone modifiers.
/// Without them the width of a text is the sum of its characters' widths, which is
/// how terminals measure it, so the screen and the terminal agree on every cell.
fn joins_widths(c: char) -> bool {
    matches!(
        c,
        '\u{fe0e}' | '\u{fe0f}' | '\u{200d}' | '\u{1f3fb}'..='\u{1f3ff}'
    )
}

/// A flag is two regional indicators, drawn as one glyph or two letters depending
/// on the terminal: they are shown as their letters (`🇯🇵` as `JP`).
fn is_regional_indicator(c: char) -> bool {
    ('\u{1f1e6}'..='\u{1f1ff}').contains(&c)
}

fn regional_letter(c: char) -> char {
    char::from_u32(u32::from(c) - 0x1f1e6 + u32::from('A')).unwrap_or('?')
}

fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

fn skip_escape(chars: &mut Chars<'_>) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => skip_string(chars),
        // Two-byte sequences (ESC c, ESC 7, …) and charset selection (ESC ( B).
        Some('(' | ')' | '*' | '+' | '#' | '%') => {
            chars.next();
        }
        _ => {}
    }
}

/// CSI: parameter and intermediate bytes, then one final byte in `@`..=`~`.
fn skip_csi(chars: &mut Chars<'_>) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) || !(' '..='?').contains(&c) {
            return;
        }
    }
}

/// OSC/DCS/…: until BEL, ST (`ESC \`) or the C1 ST.
fn skip_string(chars: &mut Chars<'_>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            _ => {}
        }
    }
}

/// Display width in terminal cells.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Cuts `text` to at most `max` cells, ending in `…` when something was cut.
pub fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if width(text) <= max {
        return Cow::Borrowed(text);
    }
    if max == 0 {
        return Cow::Borrowed("");
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    Cow::Owned(out)
}

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

/// Pads (or truncates) to exactly `cells` display cells.
pub fn fit(text: &str, cells: usize) -> String {
    let cut = truncate(text, cells);
    let pad = cells.saturating_sub(width(&cut));
    let mut out = cut.into_owned();
    out.extend(std::iter::repeat_n(' ', pad));
    out
}

/// Right-aligns in exactly `cells` display cells.
pub fn fit_right(text: &str, cells: usize) -> String {
    let cut = truncate(text, cells);
    let pad = cells.saturating_sub(width(&cut));
    let mut out: String = std::iter::repeat_n(' ', pad).collect();
    out.push_str(&cut);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_escape_sequences_and_controls() {
        assert_eq!(clean("plain"), "plain");
        assert_eq!(clean("red \u{1b}[31mtext\u{1b}[0m"), "red text");
        assert_eq!(clean("title\u{1b}]0;pwned\u{7}end"), "titleend");
        assert_eq!(clean("osc\u{1b}]52;c;aGk=\u{1b}\\done"), "oscdone");
        assert_eq!(clean("dcs\u{1b}Ptmux;x\u{1b}\\ok"), "dcsok");
        assert_eq!(clean("c1\u{9b}2Jcsi"), "c1csi");
        assert_eq!(clean("bell\u{7}nul\u{0}del\u{7f}"), "bellnuldel");
        assert_eq!(clean("a\tb\nc\rd"), "a b cd");
        assert_eq!(clean("trailing esc\u{1b}"), "trailing esc");
    }

    #[test]
    fn emoji_sequences_are_drawn_as_terminals_measure_them() {
        assert_eq!(clean("\u{26a0}\u{fe0f} warn"), "\u{26a0} warn");
        assert_eq!(width(&clean("\u{26a0}\u{fe0f}")), 1);
        assert_eq!(clean("\u{1f1ef}\u{1f1f5} Tokyo"), "JP Tokyo");
        assert_eq!(clean("\u{1f469}\u{200d}\u{1f4bb}"), "\u{1f469}\u{1f4bb}");
        assert_eq!(width(&clean("\u{1f469}\u{200d}\u{1f4bb}")), 4);
        // The rule: after cleaning, a text is as wide as its characters added up,
        // as a terminal's wcwidth counts it.
        for text in [
            "\u{26a0}\u{fe0f}\u{2764}\u{fe0f}\u{fe0e}",
            "1\u{fe0f}\u{20e3} keycap",
            "\u{1f3f3}\u{fe0f}\u{200d}\u{1f308} flag",
            "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467} family",
            "\u{1f44d}\u{1f3fd} skin tone",
            "e\u{301}t\u{e9} \u{65e5}\u{672c}",
            "\u{1f1fa}\u{1f1f8}\u{1f1ef}",
        ] {
            let cleaned = clean(text);
            let by_char: usize = cleaned
                .chars()
                .map(|c| UnicodeWidthChar::width(c).unwrap_or(0))
                .sum();
            assert_eq!(width(&cleaned), by_char, "{text:?} → {cleaned:?}");
        }
    }

    #[test]
    fn strips_bidi_overrides() {
        assert_eq!(clean("safe\u{202e}txt.exe"), "safetxt.exe");
        assert_eq!(clean("\u{2066}iso\u{2069}"), "iso");
    }

    #[test]
    fn keeps_newlines_when_asked() {
        assert_eq!(sanitize("a\nb\u{1b}[1m", true), "a\nb");
    }

    #[test]
    fn truncates_by_display_width() {
        assert_eq!(truncate("abcdef", 6), "abcdef");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("日本語テキスト", 7), "日本語…");
        assert_eq!(width(&truncate("日本語テキスト", 6)), 5);
        assert_eq!(truncate("abc", 0), "");
        assert_eq!(truncate("abc", 1), "…");
        assert_eq!(fit("日本", 6), "日本  ");
        assert_eq!(fit_right("7%", 4), "  7%");
    }

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
