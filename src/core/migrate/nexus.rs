//! A Nexus manifest → the documented frontmatter schema (seed 000), and where a
//! legacy `_resume.md` goes.
//!
//! - `resume_version: X` (legacy) becomes `resume_schema_version: "1.0"` on the same
//!   line, with `# migrated from resume_version: X` after it. The legacy counter
//!   numbered revisions of the design, not schemas, so 1.x (and anything else) maps
//!   to "1.0"; a manifest with `build_id` maps to "2.0".
//! - A manifest with no version gets `resume_schema_version` ("1.0", or "2.0" with
//!   `build_id`).
//! - Schema 1.0: absent required fields are added where they can be derived
//!   (`project_id` from the folder, `project_name` from the first heading,
//!   `current_phase` from `phase`, `last_updated` from `updated`, else the file's
//!   modification time), at the end of the frontmatter, each with a comment naming
//!   its source. Schema 2.0 manifests are left as they are.
//! - A manifest without frontmatter gets one, built from the same facts its
//!   markdown was read with; the markdown is not touched.
//!
//! Every other line, comment and the body stay byte-identical; the result must parse
//! to the old fields plus the added ones and load as the same project.

use yaml_serde::{Mapping, Value};

use super::nexus_fields::{self, Added, Sources};
use super::{Migration, Outcome, check, newline};
use crate::core::model::{Project, Shape};
use crate::core::normalize::frontmatter::{self, Frontmatter};
use crate::core::normalize::nexus::normalize_manifest;
use crate::core::time::Timestamp;

/// One manifest to migrate.
#[derive(Debug, Clone, Copy)]
pub struct ManifestInput<'a> {
    /// Where the file is now, relative to the workspace root.
    pub source: &'a str,
    /// Where it will be (differs from `source` for a legacy `_resume.md`).
    pub target: &'a str,
    /// The project folder, relative to the root.
    pub dir: &'a str,
    pub text: &'a str,
    /// The file's modification time (for a missing `last_updated`).
    pub modified: Option<Timestamp>,
}

/// Where a legacy manifest belongs: `<project>/01-planning/resume-context.md`, for
/// `<project>/01-planning/_resume.md` and for the older `<project>/_resume.md`.
/// `None` for any other path.
pub fn legacy_target(rel: &str) -> Option<String> {
    let folder = rel.strip_suffix("_resume.md")?;
    if !(folder.is_empty() || folder.ends_with('/')) {
        return None;
    }
    if folder.ends_with("01-planning/") {
        Some(format!("{folder}resume-context.md"))
    } else {
        Some(format!("{folder}01-planning/resume-context.md"))
    }
}

pub fn migrate_manifest(input: &ManifestInput) -> Outcome {
    let before = normalize_manifest(input.source, input.dir, input.text);
    if before.shape == Shape::Unreadable {
        let why = before.diagnostics.first().map_or_else(
            || "the manifest does not parse".to_string(),
            ToString::to_string,
        );
        return Outcome::skipped(why);
    }
    let split = match frontmatter::split(input.source, input.text) {
        Ok(split) => split,
        Err(diagnostic) => return Outcome::skipped(diagnostic.to_string()),
    };
    let folder = input.dir.rsplit('/').next().filter(|f| !f.is_empty());
    let sources = Sources {
        folder,
        before: &before,
        modified: input.modified,
    };
    let planned = match split.frontmatter {
        None => Ok(prepend(input, &sources)),
        Some(fm) => edit_frontmatter(input, fm, &sources),
    };
    let (text, expected, changes, unresolved) = match planned {
        Ok(Some(planned)) => planned,
        Ok(None) => {
            return Outcome::Unchanged {
                note: format!("already {}", before.shape.label()),
                unresolved: missing_now(input),
            };
        }
        Err(outcome) => return outcome,
    };
    if let Err(why) = verify(input, &before, &text, expected) {
        return Outcome::skipped(format!(
            "the migrated manifest would not read back the same ({why}); left as it is"
        ));
    }
    Outcome::Changed(Migration {
        text,
        changes,
        unresolved,
    })
}

type Planned = (String, Mapping, Vec<String>, Vec<String>);

/// A manifest without frontmatter: a new frontmatter block in front of the text.
fn prepend(input: &ManifestInput, sources: &Sources) -> Option<Planned> {
    let nl = newline(input.text);
    let added = nexus_fields::for_body(sources);
    let (bom, rest) = match input.text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", input.text),
    };
    let mut text = format!(
        "{bom}---{nl}# added by resume-tui migrate nexus; the markdown below is unchanged{nl}"
    );
    for a in &added {
        text.push_str(&a.line(nl));
    }
    text.push_str(&format!("---{nl}{rest}"));
    let mut changes = vec!["added a frontmatter block (the file had none)".to_string()];
    changes.extend(added.iter().map(describe));
    let unresolved = nexus_fields::still_missing(None, &added);
    Some((
        text,
        as_mapping(&Mapping::new(), &added),
        changes,
        unresolved,
    ))
}

fn edit_frontmatter(
    input: &ManifestInput,
    fm: Frontmatter,
    sources: &Sources,
) -> Result<Option<Planned>, Outcome> {
    let value: Value = crate::core::yaml::guard::from_str(fm.text)
        .map_err(|e| Outcome::skipped(check::yaml_error(input.source, &e, fm.open_line)))?;
    let map = match value {
        Value::Mapping(map) => map,
        Value::Null => Mapping::new(),
        _ => {
            return Err(Outcome::skipped(
                "the frontmatter is not a map of fields; fix it by hand",
            ));
        }
    };
    let build = map.contains_key("build_id");
    let target_version = if build { "2.0" } else { "1.0" };
    let has_version = map.contains_key("resume_schema_version");
    let legacy = !has_version && map.contains_key("resume_version");
    let start = (fm.text.as_ptr() as usize).wrapping_sub(input.text.as_ptr() as usize);
    let end = start + fm.text.len();
    let nl = newline(input.text);
    let mut text = input.text.get(..start).unwrap_or_default().to_string();
    let mut yaml = fm.text.to_string();
    let mut changes = Vec::new();
    let mut version_added = Vec::new();
    if legacy {
        let (line, old) = legacy_line(&yaml).ok_or_else(|| {
            Outcome::skipped(
                "resume_version is not a one-line `resume_version: X` entry; rename it by hand",
            )
        })?;
        let new_line = format!(
            "resume_schema_version: \"{target_version}\"  # migrated from resume_version: {old}"
        );
        yaml.replace_range(line.0..line.1, &new_line);
        changes.push(format!(
            "resume_version: {old} → resume_schema_version: \"{target_version}\""
        ));
    } else if !has_version {
        version_added.push(Added {
            key: "resume_schema_version",
            value: target_version.to_string(),
            from: "the documented Nexus schema",
        });
    }
    let mut added = version_added;
    if !build && !is_two(&map) {
        added.extend(nexus_fields::for_frontmatter(&map, sources));
    }
    if !legacy && added.is_empty() {
        return Ok(None);
    }
    if !added.is_empty() {
        yaml.push_str(&format!("# added by resume-tui migrate nexus{nl}"));
        for a in &added {
            yaml.push_str(&a.line(nl));
        }
    }
    changes.extend(added.iter().map(describe));
    text.push_str(&yaml);
    text.push_str(input.text.get(end..).unwrap_or_default());
    let mut counted = added.clone();
    if legacy {
        counted.push(Added {
            key: "resume_schema_version",
            value: target_version.to_string(),
            from: "",
        });
    }
    let unresolved = if build || is_two(&map) {
        Vec::new()
    } else {
        nexus_fields::still_missing(Some(&map), &counted)
    };
    let expected = renamed(&map, legacy, target_version);
    Ok(Some((
        text,
        as_mapping(&expected, &added),
        changes,
        unresolved,
    )))
}

fn is_two(map: &Mapping) -> bool {
    map.get("resume_schema_version")
        .and_then(crate::core::normalize::value::text)
        .is_some_and(|v| v.trim().starts_with('2'))
}

/// The byte range of the column-0 `resume_version:` line (without its line ending)
/// and the text after the colon; `None` if the entry spans several lines.
fn legacy_line(yaml: &str) -> Option<((usize, usize), String)> {
    let mut lines = crate::core::yaml::lines::lines(yaml).peekable();
    while let Some(line) = lines.next() {
        let content = line.text.trim_end_matches('\r');
        if let Some(rest) = content.strip_prefix("resume_version:") {
            let value = rest.trim();
            let continued = lines.peek().is_some_and(|next| {
                next.text.starts_with([' ', '\t']) && !next.text.trim().is_empty()
            });
            if value.is_empty() || continued {
                return None;
            }
            return Some(((line.start, line.start + content.len()), value.to_string()));
        }
    }
    None
}

/// `map` with `resume_version` renamed in place when `legacy`.
fn renamed(map: &Mapping, legacy: bool, version: &str) -> Mapping {
    map.iter()
        .map(|(k, v)| {
            if legacy && k.as_str() == Some("resume_version") {
                (Value::from("resume_schema_version"), Value::from(version))
            } else {
                (k.clone(), v.clone())
            }
        })
        .collect()
}

fn as_mapping(base: &Mapping, added: &[Added]) -> Mapping {
    let mut map = base.clone();
    for a in added {
        map.insert(Value::from(a.key), Value::from(a.value.as_str()));
    }
    map
}

fn describe(a: &Added) -> String {
    format!("added {}: {:?} ({})", a.key, a.value, a.from)
}

/// Required fields a manifest already in shape still lacks (for the report).
fn missing_now(input: &ManifestInput) -> Vec<String> {
    let Ok(split) = frontmatter::split(input.source, input.text) else {
        return Vec::new();
    };
    let Some(fm) = split.frontmatter else {
        return Vec::new();
    };
    match crate::core::yaml::guard::from_str::<Value>(fm.text) {
        Ok(Value::Mapping(map)) if !map.contains_key("build_id") && !is_two(&map) => {
            nexus_fields::still_missing(Some(&map), &[])
        }
        _ => Vec::new(),
    }
}

fn verify(
    input: &ManifestInput,
    before: &Project,
    text: &str,
    expected: Mapping,
) -> Result<(), String> {
    let split = frontmatter::split(input.target, text).map_err(|d| d.to_string())?;
    let fm = split.frontmatter.ok_or("no frontmatter")?;
    let new: Value = yaml_serde::from_str(fm.text)
        .map_err(|e| check::yaml_error(input.target, &e, fm.open_line))?;
    if let Some(at) = check::first_difference(&Value::Mapping(expected), &new, String::new()) {
        return Err(format!(
            "frontmatter differs at {}",
            at.trim_start_matches('.')
        ));
    }
    let old_body = frontmatter::split(input.source, input.text)
        .map(|s| s.body)
        .unwrap_or_default();
    if split.body != old_body {
        return Err("the body changed".to_string());
    }
    let after = normalize_manifest(input.target, input.dir, text);
    if !matches!(after.shape, Shape::Nexus1 | Shape::Nexus2) {
        return Err(format!("it reads as {}", after.shape.label()));
    }
    check::equivalent_nexus(before, &after)
}

#[cfg(test)]
#[path = "nexus_tests.rs"]
mod tests;
