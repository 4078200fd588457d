//! No word only the project's own history explains reaches a reader: the design
//! documents' numbers ("seed 002"), a reference's sections ("§5.3"), work rounds
//! ("stop 24", "issue 16"), open-question ids ("OQ-R3"), or "Template 1/2" without
//! the quotes that mark it as the design's name for a text explained beside it.
//! Checked in the documents and in the string literals of the sources (comments
//! and test modules are for developers, and left alone).

use std::path::{Path, PathBuf};

/// (files and folders checked, (file, heading of a section left out)).
type Scope = (
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

/// Everything a reader sees.
const WHOLE_TREE: Scope = (
    &[
        "README.md",
        "CHANGELOG.md",
        "docs",
        "assets",
        "src",
        "plugin",
    ],
    &[],
);

const SCOPE: Scope = WHOLE_TREE;

/// The jargon in `line`, if any.
fn jargon(line: &str) -> Option<String> {
    let lower = line.to_lowercase();
    // The design documents are numbered 000-004; "seed 42" is a random seed.
    let number_after = |word: &str| {
        let design_number = word.starts_with("seed");
        lower.match_indices(word).find_map(|(at, _)| {
            let rest = lower.get(at + word.len()..)?;
            let rest = rest.strip_prefix('#').unwrap_or(rest);
            let starts_word = at == 0
                || !lower
                    .get(..at)?
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
            let numbered = if design_number {
                let digits: Vec<char> = rest.chars().take(4).collect();
                digits.len() >= 3
                    && digits.first() == Some(&'0')
                    && digits.iter().take(3).all(char::is_ascii_digit)
                    && !digits.get(3).is_some_and(char::is_ascii_digit)
            } else {
                rest.starts_with(|c: char| c.is_ascii_digit())
            };
            (starts_word && numbered).then(|| {
                line.get(at..at + word.len() + 3)
                    .unwrap_or(word)
                    .to_string()
            })
        })
    };
    for word in ["seed ", "seeds ", "stop ", "issue ", "§", "§ ", "oq-r"] {
        if let Some(found) = number_after(word) {
            return Some(found);
        }
    }
    for name in ["Template 1", "Template 2"] {
        for (at, _) in line.match_indices(name) {
            if !line.get(..at).is_some_and(|before| before.ends_with('"')) {
                return Some(name.to_string());
            }
        }
    }
    None
}

fn files(root: &Path, rel: &str, out: &mut Vec<PathBuf>) {
    let path = root.join(rel);
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(&path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for entry in entries {
            let rel = entry
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            files(root, &rel, out);
        }
    } else if path.is_file() {
        out.push(path);
    }
}

/// The lines a reader sees: a document's lines, or a Rust file's lines that hold
/// a string literal, outside comments and test modules.
fn read_lines(path: &Path, text: &str, skipped: Option<&str>) -> Vec<(usize, String)> {
    let rust = path.extension().is_some_and(|e| e == "rs");
    if rust {
        let name = path.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name.ends_with("_tests.rs") {
            return Vec::new();
        }
    }
    let mut out = Vec::new();
    let mut skipping = false;
    for (n, line) in text.lines().enumerate() {
        if rust {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or_default();
            let Some(quoted) = code.split_once('"').map(|(_, rest)| rest) else {
                continue;
            };
            out.push((n + 1, quoted.to_string()));
            continue;
        }
        if let Some(heading) = skipped.filter(|_| line.starts_with("## ")) {
            skipping = line.starts_with(heading);
        }
        if !skipping {
            out.push((n + 1, line.to_string()));
        }
    }
    out
}

#[test]
fn no_output_string_or_document_speaks_the_projects_own_jargon() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (paths, skipped_sections) = SCOPE;
    let mut all = Vec::new();
    for rel in paths {
        files(root, rel, &mut all);
    }
    assert!(all.len() > 10, "the scope holds {} files", all.len());
    let mut found = Vec::new();
    for path in all {
        let text_file = path.extension().is_some_and(|e| {
            ["md", "rs", "toml", "yaml", "txt", "json"].contains(&&*e.to_string_lossy())
        });
        if !text_file {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let skipped = skipped_sections
            .iter()
            .find(|(file, _)| *file == rel)
            .map(|(_, heading)| *heading);
        for (n, line) in read_lines(&path, &text, skipped) {
            if let Some(word) = jargon(&line) {
                found.push(format!("{rel}:{n}: {word:?} in {:?}", line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "jargon a reader cannot look up:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_knows_the_jargon_from_ordinary_words() {
    for bad in [
        "as seed 002 says",
        "(seeds 002/003)",
        "reference §5.3",
        "the final head of stop 24",
        "Round 2 (issue 16)",
        "issue #16",
        "OQ-R3 prescribes",
        "copy Template 2",
    ] {
        assert!(jargon(bad).is_some(), "{bad}");
    }
    for fine in [
        "fuzz/seeds/",
        "more fuzz seeds",
        "the resumption prompt (\"Template 1\" in Jerry's design documents)",
        "STOP: do not continue",
        "a tissue 5 cm",
        "non-stop 24 hours",
        "the generated workspace (seed 42)",
        "the mean of seeds 1–100",
    ] {
        assert_eq!(jargon(fine), None, "{fine}");
    }
}
