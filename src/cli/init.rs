//! `resume-tui init [--id ID] [--name TEXT] [--dry-run]`: starts a workspace where
//! there is none: a commented `ORCHESTRATION.yaml` at the root (one workflow, every
//! `resumption:` sub-section present and empty) and the `.jerry/checkpoints/` folder
//! the PreCompact hook writes into. Refuses a folder that already holds a workflow
//! or a Nexus manifest; never overwrites a file.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use super::InitArgs;
use crate::app::Context;
use crate::io::discover::{FileKind, discover};
use crate::io::write::{WriteError, create_new};
use crate::{Error, Result};

const TEMPLATE: &str = include_str!("init/ORCHESTRATION.yaml");
pub const FILE_NAME: &str = "ORCHESTRATION.yaml";
pub const CHECKPOINTS: &str = ".jerry/checkpoints";

pub fn run(ctx: &Context, args: &InitArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let root = &ctx.root;
    refuse_existing(ctx)?;
    let folder = folder_name(root);
    let date = ctx.now.to_iso();
    let day = date.get(..10).unwrap_or("1970-01-01");
    let id = match &args.id {
        Some(id) => checked_id(id)?,
        None => format!("{}-{}-001", slug(&folder), day.replace('-', "")),
    };
    let name = args.name.clone().unwrap_or(folder);
    let text = fill(&id, &name, &date, day);
    let path = root.join(FILE_NAME);
    let io = |e: std::io::Error| Error::io("standard output", e);
    if args.dry_run {
        writeln!(
            out,
            "would write {} ({} bytes):",
            path.display(),
            text.len()
        )
        .map_err(io)?;
        writeln!(out, "{text}").map_err(io)?;
        writeln!(out, "would make {}/", root.join(CHECKPOINTS).display()).map_err(io)?;
        writeln!(out, "nothing written (--dry-run)").map_err(io)?;
        return Ok(ExitCode::SUCCESS);
    }
    create_new(&path, text.as_bytes(), None).map_err(|e| match e {
        WriteError::AlreadyExists { .. } => already(&path),
        other => Error::Write(other),
    })?;
    let checkpoints = root.join(CHECKPOINTS);
    std::fs::create_dir_all(&checkpoints).map_err(|e| Error::io(checkpoints.display(), e))?;
    let lines = [
        format!("wrote {} (workflow {id})", path.display()),
        format!(
            "made  {}/ (the PreCompact hook writes checkpoints there)",
            checkpoints.display()
        ),
        String::new(),
        "Next:".to_string(),
        format!("  edit next_step and files_to_read in {FILE_NAME}"),
        "  resume-tui validate                  # checks it".to_string(),
        "  resume-tui hooks install --project   # checkpoints before each compaction, context on resume".to_string(),
        "  resume-tui                           # the dashboard".to_string(),
    ];
    for line in lines {
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A workflow or manifest already here: init starts workspaces, it never adds to one.
fn refuse_existing(ctx: &Context) -> Result<()> {
    let path = ctx.root.join(FILE_NAME);
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(already(&path));
    }
    let found = discover(&ctx.root, &ctx.env);
    let state: Vec<&str> = found
        .files
        .iter()
        .filter(|f| matches!(f.kind, FileKind::Orchestration | FileKind::NexusManifest))
        .map(|f| f.rel.as_str())
        .collect();
    match state.first() {
        None => Ok(()),
        Some(first) => Err(Error::Usage(format!(
            "{} is already a workspace ({} state file{} found, first {first}); \
             `resume-tui list` shows its projects. init only starts a workspace where \
             there is none; nothing written",
            ctx.root.display(),
            state.len(),
            if state.len() == 1 { "" } else { "s" }
        ))),
    }
}

fn already(path: &Path) -> Error {
    Error::Usage(format!(
        "{}: already exists; init never overwrites a file (nothing written)",
        path.display()
    ))
}

fn folder_name(root: &Path) -> String {
    std::fs::canonicalize(root)
        .ok()
        .as_deref()
        .unwrap_or(root)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "workflow".to_string())
}

/// Lower-case letters, digits and single dashes: what a workflow id is made of.
pub fn slug(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        "workflow".to_string()
    } else {
        slug.to_string()
    }
}

fn checked_id(id: &str) -> Result<String> {
    let fine = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if fine {
        Ok(id.to_string())
    } else {
        Err(Error::Usage(format!(
            "--id {id:?}: use letters, digits, `-`, `_` and `.` only"
        )))
    }
}

/// The template with its values in; the name as a double-quoted YAML scalar.
pub fn fill(id: &str, name: &str, now: &str, day: &str) -> String {
    let quoted = serde_json::Value::String(name.to_string()).to_string();
    TEMPLATE
        .replace("{{id}}", id)
        .replace("{{name}}", &quoted)
        .replace("{{now}}", now)
        .replace("{{date}}", day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_ids() {
        assert_eq!(slug("My Project (v2)"), "my-project-v2");
        assert_eq!(slug("  ---  "), "workflow");
        assert_eq!(slug("Ünïcode_name"), "n-code-name");
    }

    #[test]
    fn a_name_with_quotes_stays_one_yaml_string() {
        let text = fill(
            "w-1",
            "say \"hi\": #1\nnext",
            "2026-01-02T03:04:05Z",
            "2026-01-02",
        );
        let doc: yaml_serde::Value = yaml_serde::from_str(&text).expect("the template parses");
        assert_eq!(
            doc["workflow"]["name"].as_str(),
            Some("say \"hi\": #1\nnext")
        );
        assert_eq!(doc["workflow"]["id"].as_str(), Some("w-1"));
        assert!(!text.contains("{{"), "every placeholder filled");
    }

    #[test]
    fn odd_ids_are_refused() {
        assert!(checked_id("ok-2026.1_a").is_ok());
        assert!(checked_id("a b").is_err());
        assert!(checked_id("x\"y").is_err());
        assert!(checked_id("").is_err());
    }
}
