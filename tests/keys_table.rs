//! The key tables of the README and docs/keybindings.md say what
//! assets/keymap.default.toml binds: every action, all its keys, its description,
//! in the keymap's order. A key added to the keymap and not to the tables fails
//! here, with the table to paste.

use std::path::Path;

#[derive(serde::Deserialize)]
struct File {
    keymap: Vec<Entry>,
}

#[derive(serde::Deserialize)]
struct Entry {
    on: String,
    run: String,
    desc: String,
}

const NOOP_ROW: &str = "| `noop` | — | Does nothing; bind a key to it to unbind a default. |";

fn expected_rows() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("assets/keymap.default.toml")).unwrap();
    let file: File = toml::from_str(&text).unwrap();
    let mut rows: Vec<(String, Vec<String>, String)> = Vec::new();
    for entry in file.keymap {
        match rows.iter_mut().find(|(run, ..)| *run == entry.run) {
            Some((_, keys, _)) => keys.push(entry.on),
            None => rows.push((entry.run, vec![entry.on], entry.desc)),
        }
    }
    let mut out: Vec<String> = rows
        .into_iter()
        .map(|(run, keys, desc)| {
            let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
            format!("| `{run}` | {} | {desc} |", keys.join(" "))
        })
        .collect();
    out.push(NOOP_ROW.to_string());
    out
}

/// The rows of the table headed "| action (`run`) | keys (`on`) | what it does |".
fn table_rows(doc: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(doc)).unwrap();
    let mut lines = text.lines();
    lines
        .by_ref()
        .find(|l| l.starts_with("| action (`run`) | keys (`on`) |"))
        .unwrap_or_else(|| panic!("{doc} has no key table"));
    lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_and_keybindings_tables_hold_every_binding_of_the_keymap() {
    let expected = expected_rows();
    assert!(expected.len() > 30, "{} actions", expected.len());
    assert!(
        expected
            .iter()
            .any(|r| r.starts_with("| `timeline` | `t` |")),
        "{expected:?}"
    );
    for doc in ["README.md", "docs/keybindings.md"] {
        assert!(
            table_rows(doc) == expected,
            "{doc}'s key table differs from assets/keymap.default.toml; it should read:\n{}",
            expected.join("\n")
        );
    }
}
