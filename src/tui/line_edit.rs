//! The editing keys of the filter, a one-line text field, as terminals send them:
//! Backspace (DEL or ^H) deletes a character, ^W the word before it, ^U the line.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Applies `key` to `text`; false when it is not an editing key.
pub fn edit(text: &mut String, key: &KeyEvent) -> bool {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Backspace => {
            text.pop();
        }
        KeyCode::Char('h') if ctrl => {
            text.pop();
        }
        KeyCode::Char('w') if ctrl => {
            let kept = text
                .trim_end()
                .trim_end_matches(|c: char| !c.is_whitespace())
                .len();
            text.truncate(kept);
        }
        KeyCode::Char('u') if ctrl => text.clear(),
        KeyCode::Char(c) if !ctrl => text.push(c),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(start: &str, keys: &[(KeyCode, KeyModifiers)]) -> String {
        let mut text = start.to_string();
        for &(code, mods) in keys {
            assert!(
                edit(&mut text, &KeyEvent::new(code, mods)),
                "{code:?} {mods:?}"
            );
        }
        text
    }

    const CTRL: KeyModifiers = KeyModifiers::CONTROL;
    const NONE: KeyModifiers = KeyModifiers::NONE;

    #[test]
    fn backspace_as_del_or_ctrl_h_deletes_a_character() {
        assert_eq!(typed("audit", &[(KeyCode::Backspace, NONE)]), "audi");
        assert_eq!(typed("audit", &[(KeyCode::Char('h'), CTRL)]), "audi");
        assert_eq!(typed("", &[(KeyCode::Char('h'), CTRL)]), "");
    }

    #[test]
    fn ctrl_w_deletes_the_word_before_and_ctrl_u_the_line() {
        assert_eq!(
            typed("fraud audit", &[(KeyCode::Char('w'), CTRL)]),
            "fraud "
        );
        assert_eq!(
            typed("fraud audit  ", &[(KeyCode::Char('w'), CTRL)]),
            "fraud "
        );
        assert_eq!(typed("audit", &[(KeyCode::Char('w'), CTRL)]), "");
        assert_eq!(typed("fraud audit", &[(KeyCode::Char('u'), CTRL)]), "");
    }

    #[test]
    fn characters_are_typed_and_other_control_keys_are_not_edits() {
        assert_eq!(typed("a", &[(KeyCode::Char('é'), NONE)]), "aé");
        let mut text = String::from("a");
        assert!(!edit(&mut text, &KeyEvent::new(KeyCode::Char('x'), CTRL)));
        assert!(!edit(&mut text, &KeyEvent::new(KeyCode::Up, NONE)));
        assert_eq!(text, "a");
    }
}
