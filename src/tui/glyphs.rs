//! The glyph set: Unicode (box drawing, `⚑ ◐ ▲ ‖ ✓`, the Braille chart) or ASCII
//! for terminals that cannot show them — a non-UTF-8 locale (`LANG=C`, Latin-1),
//! the Linux console's fonts, the VT terminals. The views always draw Unicode; for
//! ASCII each drawn cell is mapped to one ASCII character just before it is sent,
//! so the layout (one cell per glyph) stays the same.

use ratatui::buffer::Buffer;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Glyphs {
    Unicode,
    Ascii,
}

impl Glyphs {
    /// `ui.glyphs` from the config: `auto` (or empty) detects; else `unicode` or `ascii`.
    pub fn parse(setting: &str) -> Result<Option<Glyphs>, String> {
        match setting.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(None),
            "unicode" => Ok(Some(Glyphs::Unicode)),
            "ascii" => Ok(Some(Glyphs::Ascii)),
            other => Err(format!(
                "config: ui.glyphs = {other:?}: expected auto, unicode or ascii"
            )),
        }
    }

    /// ASCII when the locale in force (`LC_ALL`, else `LC_CTYPE`, else `LANG`, the
    /// first one set) is not UTF-8, or `TERM` is the Linux console or a VT; Unicode
    /// otherwise, also when no locale is set at all.
    pub fn detect(locale: [Option<&str>; 3], term: Option<&str>) -> Glyphs {
        let term = term.unwrap_or("").to_ascii_lowercase();
        if term == "linux" || term.starts_with("vt") {
            return Glyphs::Ascii;
        }
        let in_force = locale.into_iter().flatten().find(|v| !v.is_empty());
        match in_force {
            Some(locale) if !is_utf8(locale) => Glyphs::Ascii,
            _ => Glyphs::Unicode,
        }
    }
}

fn is_utf8(locale: &str) -> bool {
    let lower = locale.to_ascii_lowercase();
    lower.contains("utf-8") || lower.contains("utf8")
}

/// Replaces every cell's symbol with ASCII.
pub fn to_ascii(buffer: &mut Buffer) {
    for cell in buffer.content.iter_mut() {
        let symbol = cell.symbol();
        if !symbol.is_ascii() {
            let ascii = ascii_for(symbol);
            cell.set_symbol(ascii);
        }
    }
}

/// One ASCII character for a drawn symbol (a wide one becomes `?` and the blank
/// cell after it shows).
pub fn ascii_for(symbol: &str) -> &'static str {
    let Some(c) = symbol.chars().next() else {
        return " ";
    };
    match c {
        '─' | '━' | '═' | '╌' | '╍' | '┄' | '┈' => "-",
        '│' | '┃' | '║' | '╎' | '┆' | '┊' | '▏' | '▕' => "|",
        '\u{2500}'..='\u{257f}' => "+",
        '\u{2800}' => " ",
        '\u{2801}'..='\u{28ff}' => "*",
        '█' | '▉' | '▊' | '▋' | '▌' | '▍' | '▐' | '▓' | '▒' | '░' | '■' => {
            "#"
        }
        '▁' | '▂' | '▃' | '▄' | '▅' | '▆' | '▇' => "_",
        '▔' | '▀' => "\"",
        '●' | '•' => "*",
        '○' => "o",
        '◐' => "%",
        '▲' | '↑' => "^",
        '▼' | '↓' => "v",
        '▸' | '▶' | '→' | '≥' => ">",
        '◂' | '◀' | '←' | '≤' => "<",
        '‖' => "=",
        '✓' => "+",
        '✗' | '×' => "x",
        '⊘' => "0",
        // Not `!`: that is the fill column's warning mark.
        '⚑' => "@",
        '…' => "~",
        '—' | '–' | '‐' | '−' => "-",
        '·' => ".",
        '°' => "o",
        '“' | '”' | '„' => "\"",
        '‘' | '’' => "'",
        _ => "?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn the_locale_and_term_choose_the_glyphs() {
        use Glyphs::*;
        let cases = [
            ([None, None, Some("C.UTF-8")], "xterm-256color", Unicode),
            ([None, None, Some("en_US.utf8")], "xterm", Unicode),
            ([None, None, None], "xterm", Unicode),
            ([None, None, Some("C")], "xterm", Ascii),
            ([None, None, Some("POSIX")], "xterm", Ascii),
            ([None, None, Some("de_DE.ISO-8859-1")], "xterm", Ascii),
            ([Some("C"), None, Some("en_US.UTF-8")], "xterm", Ascii),
            ([Some(""), Some("en_US.UTF-8"), Some("C")], "xterm", Unicode),
            ([None, None, Some("en_US.UTF-8")], "linux", Ascii),
            ([None, None, Some("en_US.UTF-8")], "vt100", Ascii),
        ];
        for (locale, term, want) in cases {
            assert_eq!(
                Glyphs::detect(locale, Some(term)),
                want,
                "{locale:?} {term}"
            );
        }
    }

    #[test]
    fn the_config_forces_either_set() {
        assert_eq!(Glyphs::parse("ASCII"), Ok(Some(Glyphs::Ascii)));
        assert_eq!(Glyphs::parse("auto"), Ok(None));
        assert!(Glyphs::parse("emoji").unwrap_err().contains("ui.glyphs"));
    }

    #[test]
    fn every_cell_becomes_one_ascii_character() {
        let mut buffer = Buffer::empty(Rect::new(0, 0, 12, 1));
        buffer.set_string(0, 0, "┌▸⚑1 ◐ ⣀é日…", ratatui::style::Style::new());
        to_ascii(&mut buffer);
        let text: String = buffer.content.iter().map(|c| c.symbol()).collect();
        assert!(text.is_ascii(), "{text}");
        assert_eq!(text, "+>@1 % *?? ~");
    }
}
