//! `validate` for manifests: the frontmatter checked against the wire type of its
//! version (1.0 for legacy and unversioned files), every problem located.

use yaml_serde::Value;

use crate::core::locate::KeyIndex;
use crate::core::model::{Diagnostic, Severity};
use crate::core::normalize::frontmatter::{self, Frontmatter};
use crate::core::normalize::json_locate::Seg;
use crate::core::normalize::schema_check::{self, Finding, display_path};
use crate::core::normalize::value::{get, get_text, to_json};
use crate::core::wire::nexus::{NexusManifestV1, NexusManifestV2};

/// Every problem in the manifest `text` (named `source` in diagnostics).
pub fn validate_manifest(source: &str, text: &str) -> Vec<Diagnostic> {
    let split = match frontmatter::split(source, text) {
        Ok(split) => split,
        Err(diagnostic) => return vec![diagnostic],
    };
    let Some(fm) = split.frontmatter else {
        return vec![
            Diagnostic::warning(
                source,
                "no YAML frontmatter: nothing tells a new session what to load; \
             start the file with `---`, `resume_schema_version: \"2.0\"`, …, `---`",
            )
            .at(1, 1),
        ];
    };
    let value: Value = match crate::core::yaml::guard::from_str(fm.text) {
        Ok(value) => value,
        Err(err) => return vec![super::ctx::yaml_error(source, &fm, &err)],
    };
    let version = get_text(&value, "resume_schema_version");
    let legacy = version.is_none() && get(&value, "resume_version").is_some();
    let json = to_json(&value);
    let findings = match version
        .as_deref()
        .map(|v| v.trim().split('.').next().unwrap_or_default())
    {
        Some("2") => schema_check::check::<NexusManifestV2>(&json),
        _ => schema_check::check::<NexusManifestV1>(&json),
    };
    let mut diagnostics = Vec::new();
    // Built at the first finding: one scan of the frontmatter locates them all.
    let mut index = None;
    if legacy {
        diagnostics.push(locate(
            source,
            &fm,
            &mut index,
            Severity::Warning,
            &[Seg::key("resume_version")],
            "legacy `resume_version`; current manifests write `resume_schema_version`",
        ));
    }
    for finding in findings
        .iter()
        .filter(|f| !(legacy && is_about_legacy_version(f)))
    {
        diagnostics.push(locate(
            source,
            &fm,
            &mut index,
            finding.severity,
            &finding.path,
            &finding.message,
        ));
    }
    diagnostics
}

fn is_about_legacy_version(finding: &Finding) -> bool {
    finding.message.contains("`resume_schema_version`")
        || finding.message.contains("`resume_version`")
}

fn locate(
    source: &str,
    fm: &Frontmatter,
    index: &mut Option<KeyIndex>,
    severity: Severity,
    path: &[Seg],
    message: &str,
) -> Diagnostic {
    let keys: Vec<&str> = path
        .iter()
        .filter_map(|seg| match seg {
            Seg::Key(key) => Some(key.as_str()),
            Seg::Index(_) => None,
        })
        .collect();
    let index = index.get_or_insert_with(|| KeyIndex::new(fm.text));
    let (line, column) = match index.locate(&keys) {
        Some((line, column)) if !keys.is_empty() => (fm.file_line(line), column),
        _ => (fm.open_line, 1),
    };
    let text = match display_path(path) {
        p if p.is_empty() => message.to_string(),
        p => format!("{p}: {message}"),
    };
    let diagnostic = match severity {
        Severity::Error => Diagnostic::error(source, text),
        Severity::Warning => Diagnostic::warning(source, text),
        Severity::Info => Diagnostic::info(source, text),
    };
    diagnostic.at(line, column)
}
