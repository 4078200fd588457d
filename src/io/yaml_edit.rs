//! Comment-preserving edits of ORCHESTRATION.yaml and Nexus manifests.
//!
//! 1. Parse the text with `yaml_serde` (a malformed file is reported at file:line:col).
//! 2. `core::edit::plan` decides the ops from the parsed value.
//! 3. `splice` locates each op's node in `yaml-edit`'s lossless tree and rewrites only
//!    that span of the text; for a manifest, only the frontmatter is edited.
//! 4. Re-parse: the result must equal the old value with exactly the ops applied, or
//!    the edit is refused.
//! 5. [`edit_file`] writes through `io::write::replace` (locked, atomic, and refusing
//!    a file that changed since it was read).

mod section;
mod splice;

use std::path::Path;
use std::str::FromStr;

use yaml_serde::Value;

use crate::core::edit::diff::{self, DiffStats};
use crate::core::edit::{EditIntent, Op, PlanError, plan, value_ops};
use crate::core::model::Diagnostic;
use crate::core::normalize::frontmatter;
use crate::io::write::{self, Snapshot, WriteError};

/// The result of an edit: the text before and after, and what was done.
#[derive(Debug, Clone, PartialEq)]
pub struct Edited {
    pub old: String,
    pub new: String,
    pub ops: Vec<Op>,
    /// Why nothing changed, when nothing did ("already acknowledged", …).
    pub note: Option<String>,
}

impl Edited {
    pub fn unchanged(text: &str, note: Option<String>) -> Edited {
        Edited {
            old: text.to_string(),
            new: text.to_string(),
            ops: Vec::new(),
            note,
        }
    }

    pub fn changed(&self) -> bool {
        self.old != self.new
    }

    pub fn stats(&self) -> DiffStats {
        diff::stats(&self.old, &self.new)
    }

    pub fn diff(&self, label: &str) -> String {
        diff::unified(label, &self.old, &self.new, 3)
    }
}

fn parse(label: &str, text: &str, first_line: usize) -> Result<Value, WriteError> {
    crate::core::yaml::guard::from_str(text).map_err(|e| {
        let diagnostic = Diagnostic::error(label, format!("not valid YAML: {e}"));
        let at = e
            .location()
            .map(|at| (at.line(), at.column()))
            .or_else(|| crate::core::yaml::error_at::position_in(&e.to_string()));
        WriteError::Invalid(match at {
            Some((line, column)) => diagnostic.at(line + first_line, column),
            None => diagnostic,
        })
    })
}

fn refused(label: &str, reason: impl Into<String>) -> WriteError {
    WriteError::Refused {
        path: label.into(),
        reason: reason.into(),
    }
}

/// Applies `ops` to YAML `text` and checks that the result parses to `old` plus the ops.
pub fn apply_ops(label: &str, text: &str, old: &Value, ops: &[Op]) -> Result<String, WriteError> {
    if let Some(new_text) = section::apply_in_section(text, old, ops) {
        return Ok(new_text);
    }
    apply_to_whole(label, text, old, ops)
}

/// Locates the ops in the syntax tree of the whole text, and checks the whole result.
fn apply_to_whole(label: &str, text: &str, old: &Value, ops: &[Op]) -> Result<String, WriteError> {
    let doc = yaml_edit::Document::from_str(text).map_err(|e| {
        refused(
            label,
            format!("the YAML editor could not read the file: {e}"),
        )
    })?;
    let mut splices = Vec::new();
    for op in ops {
        splices.extend(splice::splices(text, &doc, op).map_err(|e| refused(label, e))?);
    }
    let new_text = splice::apply(text, splices).map_err(|e| refused(label, e))?;
    let mut expected = old.clone();
    value_ops::apply(&mut expected, ops).map_err(|e| refused(label, e))?;
    let new = yaml_serde::from_str::<Value>(&new_text)
        .map_err(|e| refused(label, format!("the edited file would not parse ({e})")))?;
    if new != expected {
        return Err(refused(
            label,
            format!(
                "the edited file would differ from the intended change at {}",
                first_difference(&expected, &new)
            ),
        ));
    }
    Ok(new_text)
}

fn plan_or_note(
    label: &str,
    value: &Value,
    intent: &EditIntent,
) -> Result<Result<Vec<Op>, String>, WriteError> {
    match plan(value, intent) {
        Ok(ops) if ops.is_empty() => Ok(Err("nothing to change".to_string())),
        Ok(ops) => Ok(Ok(ops)),
        Err(PlanError::AlreadyDone(note)) => Ok(Err(note)),
        Err(e) => Err(WriteError::NotApplicable {
            path: label.into(),
            message: e.to_string(),
        }),
    }
}

/// Edits a whole YAML file's text.
pub fn edit_yaml(label: &str, text: &str, intent: &EditIntent) -> Result<Edited, WriteError> {
    let old = parse(label, text, 0)?;
    let ops = match plan_or_note(label, &old, intent)? {
        Ok(ops) => ops,
        Err(note) => return Ok(Edited::unchanged(text, Some(note))),
    };
    let new = apply_ops(label, text, &old, &ops)?;
    Ok(Edited {
        old: text.to_string(),
        new,
        ops,
        note: None,
    })
}

/// Edits the frontmatter of a markdown manifest; the body is not touched.
pub fn edit_manifest(label: &str, text: &str, intent: &EditIntent) -> Result<Edited, WriteError> {
    let split = frontmatter::split(label, text).map_err(WriteError::Invalid)?;
    let Some(front) = split.frontmatter else {
        return Err(WriteError::NotApplicable {
            path: label.into(),
            message: "the manifest has no `---` frontmatter; resume-tui will not add one"
                .to_string(),
        });
    };
    let start = (front.text.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let end = start + front.text.len();
    let (Some(head), Some(yaml), Some(tail)) =
        (text.get(..start), text.get(start..end), text.get(end..))
    else {
        return Err(refused(
            label,
            "could not place the frontmatter in the file",
        ));
    };
    let old = parse(label, yaml, front.open_line)?;
    let ops = match plan_or_note(label, &old, intent)? {
        Ok(ops) => ops,
        Err(note) => return Ok(Edited::unchanged(text, Some(note))),
    };
    let new_yaml = apply_ops(label, yaml, &old, &ops)?;
    Ok(Edited {
        old: text.to_string(),
        new: format!("{head}{new_yaml}{tail}"),
        ops,
        note: None,
    })
}

/// Edits the file at `path` (a manifest when it ends in `.md`) and, unless `dry_run`,
/// writes the result. `label` names the file in messages.
pub fn edit_file(
    path: &Path,
    label: &str,
    intent: &EditIntent,
    dry_run: bool,
) -> Result<Edited, WriteError> {
    let snapshot = crate::io::project_edit::read_to_edit(path)?;
    edit_snapshot(&snapshot, label, intent, dry_run)
}

pub fn edit_snapshot(
    snapshot: &Snapshot,
    label: &str,
    intent: &EditIntent,
    dry_run: bool,
) -> Result<Edited, WriteError> {
    let text = snapshot.text()?;
    let is_manifest = snapshot
        .path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md"));
    let file_name = snapshot.path.file_name().and_then(|n| n.to_str());
    if matches!(file_name, Some("01-overview.md" | "04-steps.md")) {
        // A Nexus build without a manifest is listed from its overview or steps.
        return Err(WriteError::NotApplicable {
            path: label.into(),
            message:
                "not a resume manifest (the build has no resume-context.md): nothing is written"
                    .to_string(),
        });
    }
    let edited = if is_manifest {
        edit_manifest(label, text, intent)?
    } else {
        edit_yaml(label, text, intent)?
    };
    if edited.changed() && !dry_run {
        write::replace(snapshot, edited.new.as_bytes())?;
    }
    Ok(edited)
}

/// The first path where two values differ, for messages.
pub fn first_difference(a: &Value, b: &Value) -> String {
    fn walk(a: &Value, b: &Value, at: String) -> Option<String> {
        match (a, b) {
            (Value::Mapping(x), Value::Mapping(y)) => {
                for (k, v) in x {
                    let key = crate::core::normalize::value::key_text(k);
                    match y.get(k) {
                        Some(w) => {
                            if let Some(found) = walk(v, w, format!("{at}.{key}")) {
                                return Some(found);
                            }
                        }
                        None => return Some(format!("{at}.{key} (missing)")),
                    }
                }
                (x.len() != y.len()).then(|| format!("{at} (extra keys)"))
            }
            (Value::Sequence(x), Value::Sequence(y)) => {
                for (i, (v, w)) in x.iter().zip(y).enumerate() {
                    if let Some(found) = walk(v, w, format!("{at}[{i}]")) {
                        return Some(found);
                    }
                }
                (x.len() != y.len()).then(|| format!("{at} (length)"))
            }
            _ => (a != b).then_some(at),
        }
    }
    walk(a, b, String::new())
        .map(|p| p.trim_start_matches('.').to_string())
        .unwrap_or_else(|| "the top".to_string())
}

#[cfg(test)]
mod tests;
