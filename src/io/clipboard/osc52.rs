//! OSC 52 ("set clipboard") escape sequences, built by crossterm, and the tmux
//! DCS passthrough wrapper that carries them through tmux to the outer terminal.

use crossterm::Command;
use crossterm::clipboard::CopyToClipboard;

/// `ESC ] 52 ; c ; <base64> ESC \` for `text`.
pub fn osc52(text: &str) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = CopyToClipboard::to_clipboard_from(text.as_bytes()).write_ansi(&mut out);
    out
}

/// `ESC P tmux ; <sequence with every ESC doubled> ESC \`. tmux (3.3+, with
/// `allow-passthrough on`) forwards the inner sequence to the outer terminal.
pub fn tmux_passthrough(sequence: &str) -> String {
    format!("\x1bPtmux;{}\x1b\\", sequence.replace('\x1b', "\x1b\x1b"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_bytes_are_exact() {
        assert_eq!(osc52("hi"), "\x1b]52;c;aGk=\x1b\\");
        assert_eq!(osc52("é\n"), "\x1b]52;c;w6kK\x1b\\");
        assert_eq!(osc52(""), "\x1b]52;c;\x1b\\");
    }

    #[test]
    fn tmux_wrapped_bytes_are_exact() {
        assert_eq!(
            tmux_passthrough(&osc52("hi")),
            "\x1bPtmux;\x1b\x1b]52;c;aGk=\x1b\x1b\\\x1b\\"
        );
    }
}
