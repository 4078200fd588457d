//! The few fields of a transcript line the scan needs. Unknown fields are skipped
//! by serde without being stored; `content` that is not a list (user prompts are
//! plain strings) reads as empty.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::{Boundary, FoundUsage, TranscriptScan, UsageSource};
use crate::core::fill::Usage;

/// One Read/Write/Edit/MultiEdit/NotebookEdit call found in the transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolUse {
    pub tool: String,
    pub path: String,
    /// Write, Edit, MultiEdit, NotebookEdit (as opposed to Read).
    pub is_edit: bool,
    pub sidechain: bool,
}

const READ_TOOLS: &[&str] = &["Read"];
const EDIT_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// A string of the record, borrowed from the line where it holds no escape (serde
/// borrows a `Cow<str>` only when it is not inside an `Option`, hence the wrapper).
#[derive(Deserialize)]
struct Text<'a>(#[serde(borrow)] Cow<'a, str>);

impl std::ops::Deref for Text<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl Text<'_> {
    fn into_owned(self) -> String {
        self.0.into_owned()
    }
}

#[derive(Deserialize)]
pub(super) struct Record<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Text<'a>>,
    #[serde(borrow)]
    subtype: Option<Text<'a>>,
    #[serde(rename = "isSidechain")]
    is_sidechain: Option<bool>,
    #[serde(rename = "isApiErrorMessage")]
    is_api_error: Option<bool>,
    #[serde(borrow)]
    timestamp: Option<Text<'a>>,
    #[serde(borrow)]
    message: Option<Message<'a>>,
    #[serde(rename = "compactMetadata", borrow)]
    compact_metadata: Option<CompactMetadata<'a>>,
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    id: Option<Text<'a>>,
    #[serde(borrow)]
    model: Option<Text<'a>>,
    usage: Option<RawUsage>,
    #[serde(default, borrow)]
    content: Content<'a>,
}

#[derive(Deserialize)]
struct RawUsage {
    input_tokens: Option<u64>,
    cache_creation_input_tokens: Option<u64>,
    cache_read_input_tokens: Option<u64>,
    output_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct CompactMetadata<'a> {
    #[serde(borrow)]
    trigger: Option<Text<'a>>,
    #[serde(rename = "preTokens")]
    pre_tokens: Option<u64>,
    #[serde(rename = "postTokens")]
    post_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct Item<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Text<'a>>,
    #[serde(borrow)]
    id: Option<Text<'a>>,
    #[serde(borrow)]
    name: Option<Text<'a>>,
    #[serde(borrow)]
    input: Option<Input<'a>>,
}

#[derive(Deserialize)]
struct Input<'a> {
    #[serde(borrow)]
    file_path: Option<Text<'a>>,
    #[serde(borrow)]
    notebook_path: Option<Text<'a>>,
}

/// The `tool_use` items of a message's content.
#[derive(Default)]
struct Content<'a>(Vec<Item<'a>>);

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ContentVisitor(std::marker::PhantomData))
    }
}

struct ContentVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for ContentVisitor<'a> {
    type Value = Content<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("message content")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'a>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Item>()? {
            if item.kind.as_deref() == Some("tool_use") {
                items.push(item);
            }
        }
        Ok(Content(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content<'a>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Content::default())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Content<'a>, E> {
        Ok(Content::default())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Content<'a>, E> {
        Ok(Content::default())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Content<'a>, E> {
        Ok(Content::default())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Content<'a>, E> {
        Ok(Content::default())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Content<'a>, E> {
        Ok(Content::default())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Content<'a>, E> {
        Ok(Content::default())
    }
}

/// The record on `line`, its strings borrowed from it where they hold no escape.
pub(super) fn parse(line: &[u8]) -> Option<Record<'_>> {
    serde_json::from_slice(line).ok()
}

impl Record<'_> {
    pub(super) fn apply(self, scan: &mut TranscriptScan) {
        let sidechain = self.is_sidechain == Some(true);
        match (self.kind.as_deref(), self.subtype.as_deref()) {
            (Some("assistant"), _) => self.apply_assistant(scan, sidechain),
            (Some("system"), Some("compact_boundary")) if !sidechain => self.apply_boundary(scan),
            _ => {}
        }
    }

    fn apply_assistant(self, scan: &mut TranscriptScan, sidechain: bool) {
        let Some(message) = self.message else {
            return;
        };
        if !sidechain
            && (message.id.is_none() || message.id.as_deref() != scan.last_message_id.as_deref())
        {
            scan.assistant_messages += 1;
            scan.last_message_id = message.id.as_deref().map(str::to_string);
        }
        if scan.tool_uses.len() < scan.tool_cap {
            collect_tool_uses(scan, &message.content, sidechain);
        }
        if sidechain || self.is_api_error == Some(true) {
            return;
        }
        let model = message
            .model
            .filter(|m| !m.starts_with('<'))
            .map(Text::into_owned);
        if scan.model.is_none() {
            scan.model.clone_from(&model);
        }
        if scan.usage.is_some() || scan.last_boundary.is_some() {
            return;
        }
        let Some(raw) = message.usage else {
            return;
        };
        let usage = Usage {
            input_tokens: raw.input_tokens.unwrap_or(0),
            cache_creation_input_tokens: raw.cache_creation_input_tokens.unwrap_or(0),
            cache_read_input_tokens: raw.cache_read_input_tokens.unwrap_or(0),
            output_tokens: raw.output_tokens.unwrap_or(0),
        };
        if usage.context_tokens() == 0 {
            return;
        }
        scan.usage = Some(FoundUsage {
            usage,
            source: UsageSource::AssistantRecord,
            model,
            message_id: message.id.map(Text::into_owned),
            timestamp: self.timestamp.map(Text::into_owned),
        });
    }

    fn apply_boundary(self, scan: &mut TranscriptScan) {
        if scan.last_boundary.is_some() {
            return;
        }
        let meta = self.compact_metadata;
        let timestamp = self.timestamp.map(Text::into_owned);
        let boundary = Boundary {
            trigger: meta
                .as_ref()
                .and_then(|m| m.trigger.as_deref().map(str::to_string)),
            pre_tokens: meta.as_ref().and_then(|m| m.pre_tokens),
            post_tokens: meta.as_ref().and_then(|m| m.post_tokens),
            timestamp: timestamp.clone(),
        };
        if scan.usage.is_none()
            && let Some(post) = boundary.post_tokens.filter(|&t| t > 0)
        {
            scan.usage = Some(FoundUsage {
                usage: Usage {
                    input_tokens: post,
                    ..Usage::default()
                },
                source: UsageSource::CompactBoundary,
                model: None,
                message_id: None,
                timestamp,
            });
        }
        scan.last_boundary = Some(boundary);
    }
}

fn collect_tool_uses(scan: &mut TranscriptScan, content: &Content<'_>, sidechain: bool) {
    // Items of one message are in call order; the scan lists newest first.
    for item in content.0.iter().rev() {
        let Some(name) = item.name.as_deref() else {
            continue;
        };
        let is_edit = EDIT_TOOLS.contains(&name);
        if !is_edit && !READ_TOOLS.contains(&name) {
            continue;
        }
        let path = item
            .input
            .as_ref()
            .and_then(|i| i.file_path.as_deref().or(i.notebook_path.as_deref()));
        let Some(path) = path.filter(|p| !p.is_empty()) else {
            continue;
        };
        if let Some(id) = item.id.as_deref()
            && !scan.seen_tool_ids.insert(id.to_string())
        {
            continue;
        }
        if scan.tool_uses.len() >= scan.tool_cap {
            return;
        }
        scan.tool_uses.push(ToolUse {
            tool: name.to_string(),
            path: path.to_string(),
            is_edit,
            sidechain,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn borrowed(text: Option<&Text<'_>>) -> bool {
        matches!(text, Some(Text(Cow::Borrowed(_))))
    }

    /// Strings without an escape are borrowed from the line, not copied; one with
    /// an escape is decoded.
    #[test]
    fn plain_strings_are_borrowed_and_escaped_ones_decoded() {
        let line = br#"{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","message":{"id":"m1","model":"opus","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a/caf\u00e9 \"x\".md"}}]}}"#;
        let record = parse(line).unwrap();
        let message = record.message.as_ref().unwrap();
        let item = message.content.0.first().unwrap();
        for (field, text) in [
            ("type", record.kind.as_ref()),
            ("timestamp", record.timestamp.as_ref()),
            ("message.id", message.id.as_ref()),
            ("message.model", message.model.as_ref()),
            ("item.type", item.kind.as_ref()),
            ("item.name", item.name.as_ref()),
        ] {
            assert!(borrowed(text), "{field} was copied");
        }
        let path = item.input.as_ref().unwrap().file_path.as_ref().unwrap();
        assert!(!borrowed(Some(path)));
        assert_eq!(&**path, "/a/café \"x\".md");
    }
}
