//! Targets over the readers: every normaliser, its `validate` twin, the frontmatter
//! splitter, the renderers fed by them, and the redactor. Properties: no panic; the
//! model serialises; diagnostics point inside the file; every rendered text is clean
//! of control characters and within Claude Code's injection limit.

use resume_tui::core::model::{Diagnostic, Project};
use resume_tui::core::normalize::{
    checkpoint, context_state, frontmatter as fm, jerry, nexus, precompact,
};
use resume_tui::core::redact::{MARK, redact as redact_text};
use resume_tui::core::render::budget::INJECTION_LIMIT_CHARS;
use resume_tui::core::render::{NexusInput, Style, render_alert, render_nexus, render_prompt};
use resume_tui::core::staleness;
use resume_tui::core::time::Timestamp;
use resume_tui::core::yaml::parse as fast;

use super::source::Source;
use super::{assert_clean, text, yaml_gen};

pub const NOW: Timestamp = Timestamp(1_772_445_600);

fn check_diagnostics(text: &str, diagnostics: &[Diagnostic]) {
    let lines = text.lines().count() + 1;
    for d in diagnostics {
        if let Some(line) = d.line {
            assert!(
                (1..=lines).contains(&line),
                "diagnostic outside the file ({lines} lines): {d}"
            );
        }
        assert!(d.column != Some(0), "columns are 1-based: {d}");
    }
}

fn check_rendered(what: &str, text: &str) {
    assert_clean(what, text);
    assert!(
        text.chars().count() <= INJECTION_LIMIT_CHARS,
        "{what} is over the injection limit"
    );
}

fn check_project(text: &str, project: &Project) {
    check_diagnostics(text, &project.diagnostics);
    serde_json::to_string(project).unwrap();
    let _ = staleness::assess(project, None, NOW, 30);
    check_rendered("Template 1", &render_prompt(project).text);
}

pub fn jerry(data: &[u8]) {
    let text = text(data);
    let project = jerry::normalize_orchestration("p/ORCHESTRATION.yaml", "p", &text);
    check_project(&text, &project);
    check_diagnostics(
        &text,
        &jerry::validate_orchestration("p/ORCHESTRATION.yaml", &text),
    );
}

/// The hooks' pruned parse gives the project the full parse gives (only the
/// diagnostics about entries it does not read may differ), whenever the full parse
/// can read the file at all.
pub fn jerry_fast(data: &[u8]) {
    let text = text(data);
    let full = jerry::normalize_orchestration("p/ORCHESTRATION.yaml", "p", &text);
    let fast = jerry::normalize_orchestration_pruned("p/ORCHESTRATION.yaml", "p", &text);
    check_diagnostics(&text, &fast.diagnostics);
    check_hooks_cut(&text);
    if full.shape == resume_tui::core::model::Shape::Unreadable {
        return;
    }
    let without_diagnostics = |p: &Project| {
        let mut value = serde_json::to_value(p).unwrap();
        value["diagnostics"] = serde_json::Value::Null;
        value
    };
    assert_eq!(
        without_diagnostics(&fast),
        without_diagnostics(&full),
        "the pruned parse differs on:\n{text}"
    );
}

/// The hooks' cut (which leaves out `resumption:`'s unknown keys too) gives the
/// project a whole-file reading for the hooks gives, and the same errors, when
/// the whole file reads (an error in an entry it does not read, the cut may not
/// see, as for the pruned parse above).
pub fn check_hooks_cut(text: &str) {
    use jerry::Reading::ForHooks;
    let full = jerry::normalize_orchestration_with("p/ORCHESTRATION.yaml", "p", text, ForHooks);
    if full.shape == resume_tui::core::model::Shape::Unreadable {
        return;
    }
    let cut =
        jerry::normalize_orchestration_pruned_with("p/ORCHESTRATION.yaml", "p", text, ForHooks);
    let as_hooks_see_it = |p: &Project| {
        let mut value = serde_json::to_value(p).unwrap();
        let errors: Vec<String> = p
            .diagnostics
            .iter()
            .filter(|d| d.severity == resume_tui::core::model::Severity::Error)
            .map(|d| d.message.clone())
            .collect();
        value["diagnostics"] = serde_json::json!(errors);
        value
    };
    assert_eq!(
        as_hooks_see_it(&cut),
        as_hooks_see_it(&full),
        "the hooks' cut differs on:\n{text}"
    );
}

/// The fast YAML reader gives exactly what `yaml_serde` gives (value and duplicate
/// keys) whenever it gives anything: on the bytes as text, on a document in real
/// files' styles generated from them, and on documents of anchors and aliases
/// (alias bombs included).
pub fn fast_yaml(data: &[u8]) {
    check_fast_yaml(&text(data));
    if let Some(doc) = yaml_gen::document(&mut Source::new(data)) {
        check_fast_yaml(&doc.text);
    }
    check_fast_yaml(&yaml_gen::alias_document(&mut Source::new(data)));
    let bomb = yaml_gen::alias_bomb(&mut Source::new(data));
    check_fast_yaml(&bomb);
    check_fast_refusal(&bomb);
}

/// When the fast reader refuses a document itself (an alias bomb), the guarded
/// `yaml_serde` read refuses it too, with the same message.
pub fn check_fast_refusal(text: &str) {
    if let Err(fast::Refused::AliasBomb) = fast::read(text) {
        let slow = jerry::parse::parse_slow(text)
            .err()
            .unwrap_or_else(|| panic!("yaml_serde reads what the fast reader refused:\n{text}"));
        let quick = jerry::parse::parse(text).err().unwrap();
        assert_eq!(quick.to_string(), slow.to_string(), "on:\n{text}");
    }
}

/// Whether the fast reader took `text`; panics when it differs from `yaml_serde`.
pub fn check_fast_yaml(text: &str) -> bool {
    let Some(quick) = fast::parse(text) else {
        return false;
    };
    match jerry::parse::parse_slow(text) {
        Ok(slow) => {
            assert_eq!(
                quick.doc, slow.doc,
                "the fast reader's value differs on:\n{text}"
            );
            assert_eq!(
                quick.duplicates, slow.duplicates,
                "the fast reader's duplicate keys differ on:\n{text}"
            );
        }
        Err(e) => panic!("the fast reader took what yaml_serde refuses ({e}):\n{text}"),
    }
    true
}

pub fn nexus(data: &[u8]) {
    let text = text(data);
    let source = "02-projects/07-x/01-planning/resume-context.md";
    let project = nexus::normalize_manifest(source, "02-projects/07-x", &text);
    check_project(&text, &project);
    check_diagnostics(&text, &nexus::validate_manifest(source, &text));
    if let Some(manifest) = &project.manifest {
        for style in [Style::Emoji, Style::Plain] {
            let input = NexusInput {
                project: &project,
                manifest,
                abs_dir: "/ws/02-projects/07-x",
                confidence: Some("high"),
                style,
            };
            check_rendered("the Nexus loading sequence", &render_nexus(&input).text);
        }
    }
}

/// The splitter's answer is made of the file's own pieces, at the lines it names.
pub fn frontmatter(data: &[u8]) {
    let text = text(data);
    let unbommed = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let lines: Vec<&str> = unbommed.split('\n').collect();
    let fence = |n: usize| lines[n - 1].trim_end_matches('\r').trim_end();
    match fm::split("f.md", &text) {
        Ok(split) => {
            assert!(
                unbommed.ends_with(split.body),
                "the body is the file's tail"
            );
            if let Some(front) = split.frontmatter {
                assert!(front.open_line < front.close_line);
                assert_eq!(fence(front.open_line), "---");
                assert!(matches!(fence(front.close_line), "---" | "..."));
                assert!(
                    lines[..front.open_line - 1]
                        .iter()
                        .all(|l| l.trim().is_empty())
                );
                let yaml_lines = front.close_line - front.open_line - 1;
                assert_eq!(front.text.split_inclusive('\n').count(), yaml_lines);
                assert!(unbommed.contains(front.text));
            } else {
                assert_eq!(split.body, unbommed);
            }
        }
        Err(d) => {
            let line = d.line.unwrap();
            assert_eq!(fence(line), "---", "the error is at the opening fence");
        }
    }
}

pub fn checkpoint(data: &[u8]) {
    let text = text(data);
    let marker = text.len().is_multiple_of(2);
    for path in [
        ".jerry/checkpoints/cx-007.json",
        ".jerry/checkpoints/cx-007-checkpoint.json",
    ] {
        check_diagnostics(&text, &checkpoint::validate_checkpoint(path, &text));
        match checkpoint::normalize_checkpoint(path, &text, marker) {
            Ok(cp) => {
                serde_json::to_string(&cp).unwrap();
                let alert = render_alert(&cp, None, std::slice::from_ref(&cp));
                check_rendered("Template 2", &alert.text);
            }
            Err(d) => check_diagnostics(&text, &[d]),
        }
    }
}

pub fn context_state(data: &[u8]) {
    let text = text(data);
    let path = ".jerry/context-monitor-state.json";
    check_diagnostics(&text, &context_state::validate_context_state(path, &text));
    match context_state::normalize_context_state(path, &text) {
        Ok(state) => drop(serde_json::to_string(&state).unwrap()),
        Err(d) => check_diagnostics(&text, &[d]),
    }
}

pub fn precompact(data: &[u8]) {
    let text = text(data);
    let path = "00-system/.cache/precompact_state.json";
    check_diagnostics(&text, &precompact::validate_precompact(path, &text));
    match precompact::normalize_precompact(path, &text) {
        Ok(state) => drop(serde_json::to_string(&state).unwrap()),
        Err(d) => check_diagnostics(&text, &[d]),
    }
}

/// Documents built of anchors and aliases (nested, wide, padded to raise the
/// parser's own repetition limit) load in bounded time and memory: either as a
/// project or as an error that names the aliases.
pub fn yaml_aliases(data: &[u8]) {
    let mut source = Source::new(data);
    let doc = yaml_gen::alias_bomb(&mut source);
    let project = jerry::normalize_orchestration("ORCHESTRATION.yaml", ".", &doc);
    check_diagnostics(&doc, &project.diagnostics);
    let _ = jerry::validate_orchestration("ORCHESTRATION.yaml", &doc);
    let manifest = format!("---\n{doc}---\n");
    let project = nexus::normalize_manifest("resume-context.md", ".", &manifest);
    check_diagnostics(&manifest, &project.diagnostics);
}

const SECRETS: [&str; 9] = [
    "sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh",
    "sk-proj-1234567890abcdefghijKLMN",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKl",
    "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_value",
    "password=hunter2hunter2",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAK\n-----END RSA PRIVATE KEY-----",
];

/// Redaction never panics, is idempotent, and a secret set apart by spaces inside
/// any text is gone from the result.
pub fn redact(data: &[u8]) {
    let text = text(data);
    let once = redact_text(&text).into_owned();
    assert_eq!(
        redact_text(&once),
        once.as_str(),
        "redacting twice changes more"
    );
    let mut source = Source::new(data);
    let secret = *source.pick(&SECRETS);
    let mut at = source.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let planted = format!("{} {secret} {}", &text[..at], &text[at..]);
    let out = redact_text(&planted);
    let body = secret
        .rsplit(['=', ' ', '\n'])
        .find(|s| s.len() > 6)
        .unwrap();
    assert!(
        !out.contains(body),
        "the secret {secret:?} survived in {out:?}"
    );
    assert!(out.contains(MARK));
}
