//! `files_to_read`: plain paths (v1), `{path, priority, purpose, sections}` maps
//! (v2), a mix of both, or null.

use yaml_serde::Value;

use super::ctx::{Ctx, child, kind};
use super::fields::Fields;
use crate::core::model::FileToRead;
use crate::core::normalize::value::{get, get_text, key_text, text, text_list};

const KNOWN: &[&str] = &["path", "priority", "purpose", "sections"];

/// `None` when the value is not a list at all (the caller keeps it as an other field).
pub(super) fn read_files(value: &Value, ctx: &mut Ctx, path: &[&str]) -> Option<Vec<FileToRead>> {
    let items = match value {
        Value::Null => return Some(Vec::new()),
        Value::Sequence(items) => items,
        Value::Tagged(tagged) => return read_files(&tagged.value, ctx, path),
        other => {
            ctx.wrong_type(
                path,
                "a list of paths or {path, priority, purpose} maps",
                other,
            );
            return None;
        }
    };
    let mut files = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let index = format!("[{i}]");
        let at = child(path, &index);
        match item {
            Value::String(s) if !s.trim().is_empty() => files.push(listed(s)),
            Value::Mapping(map) => {
                if let Some(file) = read_entry(item, ctx, &at) {
                    files.push(file);
                }
                let extra: Vec<String> = map
                    .keys()
                    .map(key_text)
                    .filter(|k| !KNOWN.contains(&k.as_str()))
                    .collect();
                if !extra.is_empty() {
                    ctx.info(&at, format!("keys not shown: {}", extra.join(", ")));
                }
            }
            Value::Null => {}
            other => ctx.warn(
                &at,
                format!(
                    "expected a path or a {{path, priority, purpose}} map, found {} ({}); skipped",
                    kind(other),
                    text(other).unwrap_or_default()
                ),
            ),
        }
    }
    Some(files)
}

fn read_entry(item: &Value, ctx: &mut Ctx, path: &[&str]) -> Option<FileToRead> {
    let Some(file_path) = get_text(item, "path").filter(|p| !p.trim().is_empty()) else {
        ctx.warn(path, "this entry has no `path`; skipped");
        return None;
    };
    let mut f = Fields::new(item, path);
    let priority = f.int(ctx, "priority");
    let purpose = f.text(ctx, "purpose");
    let sections = match get(item, "sections") {
        Some(s @ (Value::Sequence(_) | Value::String(_) | Value::Null)) => text_list(s),
        Some(other) => {
            ctx.warn(
                &child(path, "sections"),
                format!(
                    "expected a list of section names, found {}; ignored",
                    kind(other)
                ),
            );
            Vec::new()
        }
        None => Vec::new(),
    };
    let entry = listed(&file_path);
    Some(FileToRead {
        priority,
        purpose: purpose.or(entry.purpose.clone()),
        sections,
        ..entry
    })
}

/// A listed entry as written: a path, a path followed by words about it
/// (`docs/a.md (sections 1-3)`, `plan.md @work`), or prose that names no file,
/// which is kept as a note and never looked up.
/// The file every Jerry workflow's plan is by convention, beside its state file.
pub(crate) const PLAN_FILE: &str = "ORCHESTRATION_PLAN.md";

/// The state file's sibling plan, when `files_to_read` names none (docs/templates.md,
/// `{ORCHESTRATION_PLAN_PATH}`); whether it exists is the loader's to say.
pub(super) fn sibling_plan(project: &crate::core::model::Project) -> Option<FileToRead> {
    let listed = project.resumption.as_ref().is_some_and(|r| {
        r.files_to_read
            .iter()
            .any(|f| !f.note && f.path.trim_end().ends_with(PLAN_FILE))
    });
    if listed {
        return None;
    }
    let path = match project.dir.trim_end_matches('/') {
        "" => PLAN_FILE.to_string(),
        dir => format!("{dir}/{PLAN_FILE}"),
    };
    Some(FileToRead {
        path,
        purpose: Some(
            "The workflow's plan, beside the state file (files_to_read names no plan).".into(),
        ),
        ..FileToRead::default()
    })
}

pub(crate) fn listed(raw: &str) -> FileToRead {
    let text = raw.trim();
    let whole = drop_at_suffix(text);
    if ends_like_a_path(whole) || !text.contains(char::is_whitespace) {
        return FileToRead {
            path: whole.to_string(),
            ..FileToRead::default()
        };
    }
    let (first, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let first = drop_at_suffix(first);
    if first.contains('/') || ends_like_a_path(first) {
        let rest = rest
            .split_whitespace()
            .filter(|w| !w.starts_with('@'))
            .collect::<Vec<_>>()
            .join(" ");
        let rest = rest.trim_matches(|c: char| "()-—–:#, ".contains(c));
        return FileToRead {
            path: first.to_string(),
            purpose: (!rest.is_empty()).then(|| rest.to_string()),
            ..FileToRead::default()
        };
    }
    FileToRead {
        path: text.to_string(),
        note: true,
        ..FileToRead::default()
    }
}

/// `plan.md@work` and `plan.md @work` → `plan.md`.
fn drop_at_suffix(text: &str) -> &str {
    match text.rfind('@') {
        Some(at) => {
            let head = text.get(..at).unwrap_or(text).trim_end();
            let tail = text.get(at + 1..).unwrap_or_default();
            let word = !tail.is_empty()
                && tail
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
            if word && (head.contains('/') || ends_like_a_path(head)) {
                head
            } else {
                text
            }
        }
        None => text,
    }
}

/// Ends with `/` or a file extension of 1 to 6 letters or digits.
fn ends_like_a_path(text: &str) -> bool {
    if text.ends_with('/') {
        return !text.contains(char::is_whitespace);
    }
    let name = text.rsplit('/').next().unwrap_or(text);
    match name.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=6).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text_in: &str) -> (Option<Vec<FileToRead>>, Vec<String>) {
        let v: Value = yaml_serde::from_str(text_in).unwrap();
        let mut ctx = Ctx::new("f.yaml", text_in);
        let files = read_files(&v, &mut ctx, &["resumption", "files_to_read"]);
        (
            files,
            ctx.diagnostics.iter().map(|d| d.to_string()).collect(),
        )
    }

    #[test]
    fn plain_paths_keep_the_path_only() {
        let (files, warnings) = read("- a.md   # why\n- 'b c.md'\n");
        let paths: Vec<_> = files.unwrap().into_iter().map(|f| f.path).collect();
        assert_eq!(paths, vec!["a.md", "b c.md"]);
        assert!(warnings.is_empty());
    }

    #[test]
    fn prose_is_a_note_and_words_after_a_path_are_its_purpose() {
        let f = listed("All phase-1 artifacts, in order of importance");
        assert!(f.note, "{f:?}");
        let f = listed("docs/plan.md (sections 1-3)");
        assert_eq!(
            (f.path.as_str(), f.purpose.as_deref()),
            ("docs/plan.md", Some("sections 1-3"))
        );
        assert!(!f.note);
        assert_eq!(
            listed("orchestration/plan.md @work").path,
            "orchestration/plan.md"
        );
        assert_eq!(
            listed("orchestration/plan.md@work").path,
            "orchestration/plan.md"
        );
        assert_eq!(listed("user@example").path, "user@example");
        assert_eq!(listed("docs/").path, "docs/");
        assert_eq!(listed("Makefile").path, "Makefile");
        assert!(!listed("my notes.md").note);
        assert!(
            listed("version 2.0 notes").note,
            "2.0 is no extension of a path"
        );
    }

    #[test]
    fn maps_carry_priority_purpose_and_sections() {
        let (files, warnings) = read(
            "- path: p.yaml\n  priority: 1\n  purpose: State\n  sections: [resumption, next_actions]\n",
        );
        let f = files.unwrap().remove(0);
        assert_eq!(f.path, "p.yaml");
        assert_eq!(f.priority, Some(1));
        assert_eq!(f.purpose.as_deref(), Some("State"));
        assert_eq!(f.sections, vec!["resumption", "next_actions"]);
        assert!(warnings.is_empty());
    }

    #[test]
    fn a_mix_of_paths_and_maps_loads_in_order() {
        let (files, _) = read("- a.md\n- path: b.md\n  priority: 2\n- c.md\n");
        let files = files.unwrap();
        assert_eq!(files.len(), 3);
        assert_eq!(files[1].priority, Some(2));
        assert_eq!(files[2].path, "c.md");
    }

    #[test]
    fn null_is_empty_and_a_map_is_a_type_problem() {
        assert_eq!(read("~").0, Some(vec![]));
        let (files, warnings) = read("a.md: first\n");
        assert_eq!(files, None);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("found a map"), "{warnings:?}");
    }

    #[test]
    fn odd_items_warn_with_their_index_and_are_skipped() {
        let (files, warnings) =
            read("- [nested, list]\n- 42\n- purpose: no path\n- path: ok.md\n  note: extra\n");
        assert_eq!(files.unwrap().len(), 1);
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        assert!(warnings[0].contains("files_to_read[0]: expected a path"));
        assert!(warnings[2].contains("has no `path`"));
        assert!(warnings[3].contains("info: resumption.files_to_read[3]: keys not shown: note"));
    }
}
