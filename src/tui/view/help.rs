//! The help screen, generated from the keymap (plus the fixed filter and form
//! keys), and the legend of the glyphs the list and the tabs draw, each with the
//! ASCII character it becomes without Unicode (`tui::glyphs`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::wrapped::{Wrapped, words};
use super::{Scrolling, centered, heading, popup};
use crate::core::text::fit;
use crate::tui::glyphs::Glyphs;
use crate::tui::layout::inside;
use crate::tui::model::Model;

const FIXED: &[(&str, &[(&str, &str)])] = &[
    (
        "While filtering (/)",
        &[
            ("type", "Filter as you type"),
            ("<Enter>", "Keep the filter, back to the list"),
            ("<Esc>", "Clear the filter"),
            ("<Up> <Down>", "Move in the filtered list"),
        ],
    ),
    (
        "In the decision form",
        &[
            ("<Tab> <Down>", "Next field"),
            ("<BackTab> <Up>", "Previous field"),
            ("<Enter> <C-s>", "Validate and save"),
            ("<Esc>", "Cancel"),
        ],
    ),
    (
        "Mouse",
        &[
            ("click", "Select a project, a tab or a row"),
            ("wheel", "Scroll what is under the pointer"),
        ],
    ),
];

/// Every glyph the list and the tabs draw, with what it means there.
pub const LEGEND: &[(&str, &str)] = &[
    ("▸", "the selected row (list, decision form)"),
    (
        "*",
        "a row a live refresh just changed (list, for 3 seconds)",
    ),
    (
        "⚑",
        "checkpoints waiting for the operator (list, with their count); a checkpoint not acknowledged (Compaction)",
    ),
    ("●", "FRESH: updated within the limit"),
    ("◐", "STALE: not updated for longer than the limit"),
    (
        "▲",
        "CRITICAL: the state needs the operator now (the Overview says why); in the fill column, a session past [context] critical",
    ),
    ("○", "UNKNOWN: no update time"),
    ("▶", "ACTIVE, IN_PROGRESS, RUNNING"),
    ("‖", "PAUSED, BLOCKED, WAITING"),
    (
        "✓",
        "COMPLETE, DONE; a file found, a checkpoint acknowledged, a decision applied, a gate passed",
    ),
    (
        "✗",
        "FAILED; a file missing or unreadable, a decision not applied, a gate below its score; an error",
    ),
    ("⊘", "CANCELLED, ABANDONED"),
    (
        "·",
        "no status, or one of its own; not known; a message; the empty part of the fill bar",
    ),
    (
        "↑",
        "rising: the score (list, Quality) or the fill (Overview); the sort reversed",
    ),
    ("↓", "falling; the sort's order; ↓ more: lines hidden below"),
    ("→", "flat: the last two scores the same"),
    (
        "█",
        "the fill column's bar (5 cells, where there is room) and its block",
    ),
    (
        "▁",
        "the fill as a block as high as the fill (▁ to █), below the warning",
    ),
    ("!", "in the fill column, a session past [context] warning"),
    ("?", "a file to read not checked"),
    ("—", "no value"),
    ("…", "text cut to fit"),
];

/// The help's lines, laid out `width` cells wide: each description wraps under
/// itself, right of the key column.
pub fn lines(model: &Model, width: usize) -> Vec<Line<'static>> {
    let t = &model.theme;
    let rows = model.keymap.help_rows();
    let key_w = rows
        .iter()
        .map(|(_, k, _)| k.chars().count())
        .max()
        .unwrap_or(8)
        .clamp(8, 22);
    let mut out = Wrapped::new(model, width, key_w);
    let entry = |out: &mut Wrapped, key: &str, desc: &str| {
        let lead = vec![Span::styled(format!("  {} ", fit(key, key_w)), t.key)];
        out.hang(lead, key_w + 3, vec![words(desc)]);
    };
    let mut group = None;
    for (g, keys, desc) in rows {
        if group != Some(g) {
            if group.is_some() {
                out.blank();
            }
            out.lines.push(heading(model, g.title()));
            group = Some(g);
        }
        entry(&mut out, &keys, &desc);
    }
    for (title, keys) in FIXED {
        out.section(title);
        for (key, desc) in *keys {
            entry(&mut out, key, desc);
        }
    }
    let ascii = model.glyphs == Glyphs::Ascii;
    out.section(if ascii {
        "Glyphs (ASCII)"
    } else {
        "Glyphs (ASCII without Unicode)"
    });
    for (shown, meaning) in legend(model.glyphs) {
        entry(&mut out, &shown, &meaning);
    }
    out.lines
}

/// The legend's rows for the glyph set on screen: with Unicode each glyph and
/// the ASCII character it becomes (`⚑ (@)`); in ASCII each character once, with
/// every meaning it has (`^` is CRITICAL and rising alike).
pub fn legend(glyphs: Glyphs) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = Vec::new();
    for (glyph, meaning) in LEGEND {
        let ascii = crate::tui::glyphs::ascii_for(glyph);
        match glyphs {
            Glyphs::Unicode if glyph.is_ascii() => rows.push(((*glyph).into(), (*meaning).into())),
            Glyphs::Unicode => rows.push((format!("{glyph} ({ascii})"), (*meaning).into())),
            Glyphs::Ascii => {
                let shown = if glyph.is_ascii() { glyph } else { ascii };
                match rows.iter_mut().find(|(key, _)| key == shown) {
                    Some((_, meanings)) => {
                        meanings.push_str("; ");
                        meanings.push_str(meaning);
                    }
                    None => rows.push((shown.into(), (*meaning).into())),
                }
            }
        }
    }
    if glyphs == Glyphs::Ascii {
        let other = "any other character ASCII has none for (an emoji, an accented letter)";
        match rows.iter_mut().find(|(key, _)| key == "?") {
            Some((_, meanings)) => {
                meanings.push_str("; ");
                meanings.push_str(other);
            }
            None => rows.push(("?".into(), other.into())),
        }
    }
    rows
}

pub fn draw(model: &Model, frame: &mut Frame, area: Rect, scroll: u16) {
    let popup_area = popup_area(area);
    let block = popup(
        model,
        frame,
        popup_area,
        "Keys — ? or Esc closes · rebind in keymap.toml",
    );
    frame.render_widget(block, popup_area);
    scrolling(model, area).draw(frame, scroll, model.theme.accent);
}

/// The help's text inside its popup on a screen of `area`.
pub fn scrolling(model: &Model, area: Rect) -> Scrolling {
    Scrolling::of(inside(popup_area(area)), |width| lines(model, width))
}

fn popup_area(area: Rect) -> Rect {
    centered(area, 84, area.height.saturating_sub(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::staleness::StalenessLevel;
    use crate::tui::theme::Theme;
    use crate::tui::view::badges;

    /// The badges the list draws are all in the legend, and each has an ASCII
    /// character of its own (not `?`, which stands for what has none).
    #[test]
    fn the_legend_has_every_badge_glyph_and_its_ascii() {
        let theme = Theme::default_dark();
        let in_legend = |g: &str| LEGEND.iter().any(|(l, _)| *l == g);
        let levels = [
            StalenessLevel::Fresh,
            StalenessLevel::Stale,
            StalenessLevel::Critical,
            StalenessLevel::Unknown,
        ];
        for level in levels {
            let glyph = badges::staleness(level, &theme).glyph;
            assert!(in_legend(glyph), "{level:?}: {glyph}");
        }
        for status in ["ACTIVE", "PAUSED", "DONE", "FAILED", "CANCELLED", "", "ODD"] {
            let glyph = badges::status(Some(status), &theme).glyph;
            assert!(in_legend(glyph), "{status}: {glyph}");
        }
        for (glyph, _) in LEGEND {
            let ascii = crate::tui::glyphs::ascii_for(glyph);
            assert!(
                glyph.is_ascii() || ascii != "?",
                "{glyph} has no ASCII of its own"
            );
        }
    }

    /// In ASCII each character is listed once, with all it means; the flag of
    /// a checkpoint waiting and the fill's warning mark are two characters.
    #[test]
    fn the_ascii_legend_lists_each_character_once_with_all_it_means() {
        let ascii = legend(Glyphs::Ascii);
        for (i, (key, _)) in ascii.iter().enumerate() {
            assert!(key.is_ascii(), "{key}");
            assert!(
                ascii.iter().skip(i + 1).all(|(other, _)| other != key),
                "{key} twice"
            );
        }
        let meaning = |key: &str| {
            ascii
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, m)| m.clone())
                .unwrap_or_default()
        };
        let flag = crate::tui::glyphs::ascii_for("⚑");
        assert_ne!(flag, "!");
        assert!(
            meaning(flag).starts_with("checkpoints waiting"),
            "{ascii:?}"
        );
        assert!(!meaning(flag).contains("warning"), "{ascii:?}");
        assert!(meaning("!").contains("[context] warning"), "{ascii:?}");
        assert!(!meaning("!").contains("checkpoint"), "{ascii:?}");
        // ▲ and ↑ both become ^: one row says both.
        assert!(
            meaning("^").starts_with("CRITICAL") && meaning("^").contains("rising"),
            "{ascii:?}"
        );
        // What ASCII has no character for is drawn `?`: said too.
        assert!(meaning("?").contains("an emoji"), "{ascii:?}");
        // With Unicode, one row a glyph, its ASCII beside it.
        let unicode = legend(Glyphs::Unicode);
        assert_eq!(unicode.len(), LEGEND.len());
        assert!(unicode.iter().any(|(k, _)| *k == format!("⚑ ({flag})")));
    }
}
