//! A v1 or v2-flat `resumption:` section → the v2 nested layout of seed 004.
//!
//! - The recovery fields (`last_checkpoint`, `next_step`, `cross_session_portable`,
//!   `ephemeral_references`, `current_state`, and in v2-flat sections `current_phase`
//!   … `updated_at`) move, text and comments unchanged, into `recovery_state:`.
//! - `current_state` prose that says a lifecycle status or phase (see `prose`)
//!   becomes `current_activity` (verbatim), beside the `workflow_status` /
//!   `current_phase` read from it; prose that says neither stays `current_state`.
//!   A top-level `workflow.status` / `current_phase` / `current_phase_name` wins
//!   over the prose, as it does when the file is read.
//! - Scores the model found in `quality_gates` or in the prose become
//!   `quality_trajectory.score_history`, unless the section has a trajectory.
//! - The v2 sub-sections follow in seed order, then every other key, in file order.
//!
//! Nothing outside the section changes. The result must read back as the same data
//! plus the added fields, and load with the same next step, files, decisions and
//! trajectory; otherwise the file is skipped.

use yaml_serde::{Mapping, Value};

use super::section::{self, Entry, Section, indent_more};
use super::trajectory::{self, History};
use super::{Migration, Outcome, check, newline, prose};
use crate::core::edit::render;
use crate::core::model::Shape;
use crate::core::normalize::jerry::{V2_SECTIONS, normalize_orchestration};
use crate::core::normalize::value::{get, key_text, text};

/// Recovery fields in the order `recovery_state` lists them.
const RECOVERY_ORDER: &[&str] = &[
    "last_checkpoint",
    "current_phase",
    "current_phase_name",
    "workflow_status",
    "current_activity",
    "current_state",
    "next_step",
    "context_fill_at_update",
    "updated_at",
    "cross_session_portable",
    "ephemeral_references",
];

/// Where a v2 sub-section goes after `recovery_state`, in seed order:
/// `files_to_read`, then the sections that mark a v2 file.
fn sub_section_rank(key: &str) -> Option<usize> {
    if key == "files_to_read" {
        return Some(0);
    }
    V2_SECTIONS.iter().position(|k| *k == key).map(|i| i + 1)
}

/// Migrates the `resumption:` section of one ORCHESTRATION.yaml. `source` names the
/// file in messages.
pub fn migrate_resumption(source: &str, text: &str) -> Outcome {
    let before = normalize_orchestration(source, "", text);
    match before.shape {
        Shape::V1 | Shape::V2Flat => {}
        Shape::V2Nested => return Outcome::unchanged("already in the v2 nested layout"),
        Shape::None => return Outcome::skipped("no resumption: section; nothing to migrate"),
        Shape::Unreadable => {
            let why = before.diagnostics.first().map_or_else(
                || "the file does not parse".to_string(),
                ToString::to_string,
            );
            return Outcome::skipped(why);
        }
        _ => {
            return Outcome::skipped(
                "the resumption: section is neither v1 nor v2 flat; left as it is",
            );
        }
    }
    let section = match section::find(text, "resumption") {
        Ok(section) => section,
        Err(why) => return Outcome::skipped(format!("{why}; left as it is")),
    };
    // The section is parsed on its own: the rest of the file is not touched, and
    // may hold what a strict reader rejects (Jerry files have duplicate keys).
    let old_text = text.get(section.start..section.end).unwrap_or_default();
    let offset = text
        .get(..section.start)
        .unwrap_or_default()
        .matches('\n')
        .count();
    let section_doc: Value = match crate::core::yaml::guard::from_str(old_text) {
        Ok(doc) => doc,
        Err(e) => return Outcome::skipped(check::yaml_error(source, &e, offset)),
    };
    let Some(old) = get(&section_doc, "resumption").and_then(Value::as_mapping) else {
        return Outcome::skipped("resumption: is not a map of fields");
    };
    if old.contains_key("recovery_state") {
        return Outcome::skipped(
            "resumption.recovery_state exists but is not a map; fix it by hand first",
        );
    }
    let text_keys: Vec<&str> = section.entries.iter().map(|e| e.key.as_str()).collect();
    let value_keys: Vec<String> = old.keys().map(key_text).collect();
    if text_keys != value_keys {
        return Outcome::skipped(format!(
            "could not match the section's lines to its keys (read {text_keys:?}, parsed {value_keys:?}); left as it is"
        ));
    }
    let known_phase = before.summary.phase.is_some();
    let plan = Plan::new(
        text,
        old,
        &section,
        trajectory::history(&before),
        known_phase,
    );
    let (new_section, expected) = plan.render();
    let new_text = format!(
        "{}{new_section}{}",
        text.get(..section.start).unwrap_or_default(),
        text.get(section.end..).unwrap_or_default()
    );
    let after = normalize_orchestration(source, "", &new_text);
    let new_section_text = new_text
        .get(section.start..new_text.len() - (text.len() - section.end))
        .unwrap_or_default();
    let mut wanted = yaml_serde::Mapping::new();
    wanted.insert(Value::from("resumption"), expected);
    let checked = check::same_data(&Value::Mapping(wanted), new_section_text)
        .and_then(|()| check::equivalent_jerry(&before, &after));
    if let Err(why) = checked {
        return Outcome::skipped(format!(
            "the rewritten section would not read back the same ({why}); left as it is"
        ));
    }
    Outcome::Changed(Migration {
        text: new_text,
        changes: plan.changes(),
        unresolved: plan.unresolved,
    })
}

/// A field moved into `recovery_state`, possibly under its v2 name.
struct Moved<'s> {
    entry: &'s Entry,
    slot: &'static str,
    rename: Option<&'static str>,
}

/// A field added to `recovery_state`, read from elsewhere.
struct Derived {
    key: &'static str,
    text: String,
    value: Value,
    from: String,
}

struct Plan<'a> {
    text: &'a str,
    old: &'a Mapping,
    section: &'a Section,
    nl: &'static str,
    moved: Vec<Moved<'a>>,
    derived: Vec<Derived>,
    rest: Vec<&'a Entry>,
    history: Option<History>,
    unresolved: Vec<String>,
}

impl<'a> Plan<'a> {
    fn new(
        text: &'a str,
        old: &'a Mapping,
        section: &'a Section,
        history: Result<Option<History>, String>,
        known_phase: bool,
    ) -> Plan<'a> {
        let has = |key: &str| old.contains_key(key);
        let mut plan = Plan {
            text,
            old,
            section,
            nl: newline(text),
            moved: Vec::new(),
            derived: Vec::new(),
            rest: Vec::new(),
            history: None,
            unresolved: Vec::new(),
        };
        let prose_text = old.get("current_state").and_then(Value::as_str);
        let facts = prose_text.map(prose::read_state).unwrap_or_default();
        for entry in &section.entries {
            let key = entry.key.as_str();
            let plain = entry.plain_key.is_some();
            let moved = match key {
                "current_state" if plain && !has("current_activity") && !facts.is_empty() => {
                    Some(("current_activity", Some("current_activity")))
                }
                "next_action" if plain && !has("next_step") => {
                    Some(("next_step", Some("next_step")))
                }
                _ => RECOVERY_ORDER
                    .iter()
                    .find(|k| **k == key)
                    .map(|k| (*k, None)),
            };
            match moved {
                Some((slot, rename)) => plan.moved.push(Moved {
                    entry,
                    slot,
                    rename,
                }),
                None => plan.rest.push(entry),
            }
        }
        if prose_text.is_some() && facts.is_empty() {
            plan.unresolved.push(
                "current_state: no workflow status or phase could be read from it; kept verbatim as recovery_state.current_state"
                    .to_string(),
            );
        }
        let mut facts = facts;
        if known_phase {
            // The file states a phase elsewhere (e.g. `phase_2_completed`); the model
            // keeps reading it from there.
            facts.phase = None;
        }
        plan.derive(&has, facts);
        plan.rest
            .sort_by_key(|e| sub_section_rank(&e.key).unwrap_or(usize::MAX));
        match history {
            Ok(h) if !has("quality_trajectory") => plan.history = h,
            Ok(_) => {}
            Err(why) => plan.unresolved.push(why),
        }
        plan
    }

    /// Status, phase and phase name from the top level of the file, else the prose.
    fn derive(&mut self, has: &dyn Fn(&str) -> bool, facts: prose::ProseFacts) {
        let top = |paths: &[&[&str]]| {
            paths.iter().find_map(|path| {
                let (first, rest) = path.split_first()?;
                let entry = section::top_entry(self.text, first)?;
                let parsed: Value = yaml_serde::from_str(entry).ok()?;
                let mut value = get(&parsed, first)?;
                for key in rest {
                    value = get(value, key)?;
                }
                let shown = text(value).filter(|t| !t.trim().is_empty())?;
                Some((value.clone(), shown, path.join(".")))
            })
        };
        let fields: [(&'static str, &[&[&str]]); 3] = [
            (
                "workflow_status",
                &[&["workflow", "status"], &["status"], &["meta", "status"]],
            ),
            (
                "current_phase",
                &[
                    &["workflow", "current_phase"],
                    &["current_phase"],
                    &["pipeline", "current_phase"],
                ],
            ),
            (
                "current_phase_name",
                &[&["workflow", "current_phase_name"], &["current_phase_name"]],
            ),
        ];
        for (key, paths) in fields {
            if has(key) {
                continue;
            }
            let from_prose = match key {
                "workflow_status" => facts.status.map(|s| (Value::from(s), s.to_string())),
                "current_phase" => facts.phase.map(|p| (Value::from(p), p.to_string())),
                _ => None,
            };
            let from_top = top(paths);
            if let (Some((_, top_text, path)), Some((_, prose_text))) = (&from_top, &from_prose)
                && !top_text.trim().eq_ignore_ascii_case(prose_text)
            {
                self.unresolved.push(format!(
                    "{key}: current_state says {prose_text}, {path} says {}; kept {path}",
                    top_text.trim()
                ));
            }
            let found =
                from_top.or_else(|| from_prose.map(|(v, s)| (v, s, "current_state".to_string())));
            if let Some((value, shown, from)) = found {
                let rendered = match &value {
                    Value::Number(n) => n.to_string(),
                    _ => render::double_quoted(shown.trim()),
                };
                let value = match value {
                    Value::Number(n) => Value::Number(n),
                    _ => Value::from(shown.trim()),
                };
                self.derived.push(Derived {
                    key,
                    text: rendered,
                    value,
                    from,
                });
            }
        }
    }

    fn slice(&self, (start, end): (usize, usize)) -> &'a str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// The entry's text with a trailing newline, its key renamed if asked.
    fn body(&self, entry: &Entry, rename: Option<&str>) -> String {
        let mut body = match (rename, entry.plain_key) {
            (Some(new), Some((k0, k1))) => format!(
                "{}{new}{}",
                self.slice((entry.body.0, k0)),
                self.slice((k1, entry.body.1))
            ),
            _ => self.slice(entry.body).to_string(),
        };
        if !body.ends_with('\n') {
            body.push_str(self.nl);
        }
        body
    }

    /// The new section text, and the value it must read back as.
    fn render(&self) -> (String, Value) {
        let s = self.section;
        let step = s.child_indent;
        let pad = " ".repeat(s.child_indent);
        let mut out = self.slice((s.start, s.body_start)).to_string();
        if !out.ends_with('\n') {
            out.push_str(self.nl);
        }
        let opening = s
            .entries
            .first()
            .filter(|first| self.moved.iter().any(|m| std::ptr::eq(m.entry, *first)));
        if let Some(first) = opening {
            out.push_str(self.slice(first.leading));
        }
        out.push_str(&format!("{pad}recovery_state:{}", self.nl));
        let mut recovery = Mapping::new();
        for slot in RECOVERY_ORDER {
            for m in self.moved.iter().filter(|m| m.slot == *slot) {
                if opening.is_none_or(|first| !std::ptr::eq(first, m.entry)) {
                    out.push_str(&indent_more(
                        &comments_only(self.slice(m.entry.leading)),
                        step,
                    ));
                }
                out.push_str(&indent_more(&self.body(m.entry, m.rename), step));
                let key = m.rename.unwrap_or(m.entry.key.as_str());
                let value = self
                    .old
                    .get(m.entry.key.as_str())
                    .cloned()
                    .unwrap_or_default();
                recovery.insert(Value::from(key), value);
            }
            for d in self.derived.iter().filter(|d| d.key == *slot) {
                let pad2 = " ".repeat(s.child_indent + step);
                out.push_str(&format!(
                    "{pad2}{}: {}  # from {} (resume-tui migrate){}",
                    d.key, d.text, d.from, self.nl
                ));
                recovery.insert(Value::from(d.key), d.value.clone());
            }
        }
        let mut section = Mapping::new();
        section.insert(Value::from("recovery_state"), Value::Mapping(recovery));
        let spaced = s
            .entries
            .iter()
            .any(|e| has_blank_line(self.slice(e.leading)));
        let mut history = self.history.as_ref();
        // In a section that separates its entries with blank lines, an entry that
        // lands after another than it followed before gets one too.
        let mut previous: Option<Option<usize>> = None;
        for entry in &self.rest {
            let rank = sub_section_rank(&entry.key);
            if rank.is_none_or(|r| r > 1)
                && let Some(h) = history.take()
            {
                self.push_history(&mut out, &mut section, h, spaced);
                previous = Some(None);
            }
            let index = s.entries.iter().position(|e| std::ptr::eq(e, *entry));
            let follows = matches!(previous, Some(Some(p)) if Some(p + 1) == index);
            let leading = self.slice(entry.leading);
            if spaced && previous.is_some() && !follows && !has_blank_line(leading) {
                out.push_str(self.nl);
            }
            previous = Some(index);
            out.push_str(leading);
            out.push_str(&self.body(entry, None));
            let value = self
                .old
                .get(entry.key.as_str())
                .cloned()
                .unwrap_or_default();
            section.insert(Value::from(entry.key.as_str()), value);
        }
        if let Some(h) = history {
            self.push_history(&mut out, &mut section, h, spaced);
        }
        out.push_str(self.slice(s.trailing));
        (out, Value::Mapping(section))
    }

    fn push_history(&self, out: &mut String, section: &mut Mapping, h: &History, spaced: bool) {
        if spaced {
            out.push_str(self.nl);
        }
        let step = self.section.child_indent;
        out.push_str(&trajectory::render_entry(h, step, step, self.nl));
        section.insert(Value::from("quality_trajectory"), trajectory::value(h));
    }

    fn changes(&self) -> Vec<String> {
        let mut changes = Vec::new();
        let moved: Vec<String> = self
            .moved
            .iter()
            .map(|m| match m.rename {
                Some(new) => format!("{} (now {new})", m.entry.key),
                None => m.entry.key.clone(),
            })
            .collect();
        if !moved.is_empty() {
            changes.push(format!("moved into recovery_state: {}", moved.join(", ")));
        }
        for d in &self.derived {
            changes.push(format!(
                "added recovery_state.{}: {} (from {})",
                d.key, d.text, d.from
            ));
        }
        if let Some(h) = &self.history {
            changes.push(format!(
                "added quality_trajectory.score_history for {} gate(s) (from {})",
                h.gates.len(),
                h.source
            ));
        }
        let extras: Vec<&str> = self
            .rest
            .iter()
            .filter(|e| sub_section_rank(&e.key).is_none())
            .map(|e| e.key.as_str())
            .collect();
        if !extras.is_empty() {
            changes.push(format!(
                "kept after the v2 sub-sections: {}",
                extras.join(", ")
            ));
        }
        changes
    }
}

fn has_blank_line(text: &str) -> bool {
    text.split_inclusive('\n')
        .any(|line| line.trim().is_empty())
}

/// The comment lines of a run of blank and comment lines.
fn comments_only(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|line| !line.trim().is_empty())
        .collect()
}

#[cfg(test)]
#[path = "resumption_tests.rs"]
mod tests;
