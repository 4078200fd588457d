//! A generator of Claude Code transcripts (JSONL) for tests: records of every type
//! seen in real files (reference claude-code-hooks.md §5), sidechains, compact
//! boundaries, streamed assistant messages written as several lines sharing one
//! message id, API-error and synthetic records, and garbage.
#![allow(dead_code)]

use serde_json::{Value, json};

pub struct Transcript {
    lines: Vec<String>,
    counter: usize,
    session: String,
    model: String,
    minute: u32,
}

/// `(input, cache_creation, cache_read)`.
pub type Usage = (u64, u64, u64);

impl Transcript {
    pub fn new(session: &str) -> Transcript {
        Transcript {
            lines: Vec::new(),
            counter: 0,
            session: session.to_string(),
            model: "claude-haiku-4-5".to_string(),
            minute: 0,
        }
    }

    pub fn with_model(mut self, model: &str) -> Transcript {
        self.model = model.to_string();
        self
    }

    fn next(&mut self) -> usize {
        self.counter += 1;
        self.counter
    }

    fn envelope(&mut self, kind: &str) -> serde_json::Map<String, Value> {
        let n = self.next();
        self.minute += 1;
        let mut map = serde_json::Map::new();
        map.insert("type".into(), json!(kind));
        map.insert("uuid".into(), json!(format!("uuid-{n}")));
        map.insert(
            "parentUuid".into(),
            json!(format!("uuid-{}", n.saturating_sub(1))),
        );
        map.insert("sessionId".into(), json!(self.session));
        map.insert("cwd".into(), json!("/work"));
        map.insert("version".into(), json!("2.1.240"));
        map.insert("isSidechain".into(), json!(false));
        map.insert(
            "timestamp".into(),
            json!(format!(
                "2026-02-17T{:02}:{:02}:00.000Z",
                10 + self.minute / 60,
                self.minute % 60
            )),
        );
        map
    }

    fn push(&mut self, map: serde_json::Map<String, Value>) -> &mut Transcript {
        self.lines.push(Value::Object(map).to_string());
        self
    }

    fn usage_json((input, creation, read): Usage, output: u64) -> Value {
        json!({
            "input_tokens": input,
            "cache_creation_input_tokens": creation,
            "cache_read_input_tokens": read,
            "output_tokens": output,
            "cache_creation": {"ephemeral_5m_input_tokens": creation, "ephemeral_1h_input_tokens": 0},
            "service_tier": "standard"
        })
    }

    fn assistant_line(
        &mut self,
        id: &str,
        content: Value,
        usage: Usage,
        stop: Option<&str>,
    ) -> &mut Transcript {
        let mut map = self.envelope("assistant");
        map.insert("requestId".into(), json!(format!("req-{id}")));
        map.insert(
            "message".into(),
            json!({
                "id": id,
                "type": "message",
                "role": "assistant",
                "model": self.model,
                "content": content,
                "stop_reason": stop,
                "usage": Self::usage_json(usage, 42),
            }),
        );
        self.push(map)
    }

    pub fn user(&mut self, text: &str) -> &mut Transcript {
        let mut map = self.envelope("user");
        map.insert("message".into(), json!({"role": "user", "content": text}));
        self.push(map)
    }

    /// One assistant message in one line.
    pub fn assistant(&mut self, usage: Usage) -> &mut Transcript {
        let id = format!("msg_{}", self.counter + 1);
        self.assistant_line(
            &id,
            json!([{"type": "text", "text": "Working on it."}]),
            usage,
            Some("end_turn"),
        )
    }

    /// One API response written as `blocks` lines sharing `message.id` (streaming):
    /// thinking, text, …; intermediate lines have `stop_reason: null`.
    pub fn streamed(&mut self, usage: Usage, blocks: usize) -> &mut Transcript {
        let id = format!("msg_stream_{}", self.counter + 1);
        for block in 0..blocks {
            let content = if block == 0 {
                json!([{"type": "thinking", "thinking": "hmm", "signature": "sig"}])
            } else {
                json!([{"type": "text", "text": format!("part {block}")}])
            };
            let stop = (block + 1 == blocks).then_some("end_turn");
            self.assistant_line(&id, content, usage, stop);
        }
        self
    }

    /// One API response whose tool calls are streamed as one line each, sharing
    /// `message.id` (the way Claude Code writes parallel tool calls).
    pub fn streamed_tool_calls(&mut self, usage: Usage, paths: &[&str]) -> &mut Transcript {
        let id = format!("msg_stream_{}", self.counter + 1);
        for (i, path) in paths.iter().enumerate() {
            let content = json!([{"type": "tool_use", "id": format!("{id}_t{i}"), "name": "Read", "input": {"file_path": path}}]);
            let stop = (i + 1 == paths.len()).then_some("tool_use");
            self.assistant_line(&id, content, usage, stop);
        }
        self
    }

    /// An assistant tool call on a file, then its tool result.
    pub fn tool_use(&mut self, tool: &str, path: &str, usage: Usage) -> &mut Transcript {
        let id = format!("msg_{}", self.counter + 1);
        let tool_id = format!("toolu_{}", self.counter + 1);
        let input = match tool {
            "Write" => json!({"file_path": path, "content": "new text\n".repeat(20)}),
            "Edit" => json!({"file_path": path, "old_string": "a", "new_string": "b"}),
            "MultiEdit" => {
                json!({"file_path": path, "edits": [{"old_string": "a", "new_string": "b"}]})
            }
            "Bash" => json!({"command": format!("cat {path}")}),
            _ => json!({"file_path": path}),
        };
        let content = json!([
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": tool_id, "name": tool, "input": input}
        ]);
        self.assistant_line(&id, content, usage, Some("tool_use"));
        let mut map = self.envelope("user");
        map.insert(
            "message".into(),
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": "ok"}]}),
        );
        map.insert(
            "toolUseResult".into(),
            json!({"filePath": path, "success": true}),
        );
        self.push(map)
    }

    /// A user line carrying a large tool result (padding, as real transcripts have).
    pub fn big_tool_result(&mut self, bytes: usize) -> &mut Transcript {
        let mut map = self.envelope("user");
        map.insert(
            "message".into(),
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "x".repeat(bytes)}]}),
        );
        self.push(map)
    }

    /// A subagent's assistant record in the main file (older versions, `/btw`).
    pub fn sidechain(&mut self, usage: Usage) -> &mut Transcript {
        let id = format!("msg_side_{}", self.counter + 1);
        let mut map = self.envelope("assistant");
        map.insert("isSidechain".into(), json!(true));
        map.insert(
            "message".into(),
            json!({"id": id, "role": "assistant", "model": self.model, "content": [{"type": "text", "text": "sub"}], "usage": Self::usage_json(usage, 1)}),
        );
        self.push(map)
    }

    /// A synthetic API-error record: zero usage, `isApiErrorMessage`.
    pub fn api_error(&mut self) -> &mut Transcript {
        let mut map = self.envelope("assistant");
        map.insert("isApiErrorMessage".into(), json!(true));
        map.insert(
            "message".into(),
            json!({"id": "err", "role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": "API Error: 529 overloaded"}], "usage": Self::usage_json((0, 0, 0), 0)}),
        );
        self.push(map)
    }

    /// An API-error record that (wrongly) carries usage; it must still be skipped.
    pub fn api_error_with_usage(&mut self, usage: Usage) -> &mut Transcript {
        let mut map = self.envelope("assistant");
        map.insert("isApiErrorMessage".into(), json!(true));
        map.insert(
            "message".into(),
            json!({"id": "err2", "role": "assistant", "model": self.model, "content": [], "usage": Self::usage_json(usage, 0)}),
        );
        self.push(map)
    }

    /// A `<synthetic>` assistant line with zero usage (interrupted turn).
    pub fn synthetic(&mut self) -> &mut Transcript {
        let mut map = self.envelope("assistant");
        map.insert(
            "message".into(),
            json!({"id": "syn", "role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": "No response requested."}], "usage": Self::usage_json((0, 0, 0), 0)}),
        );
        self.push(map)
    }

    /// The boundary and the compact summary a compaction writes.
    pub fn compact_boundary(
        &mut self,
        trigger: &str,
        pre: u64,
        post: Option<u64>,
    ) -> &mut Transcript {
        let mut map = self.envelope("system");
        map.insert("subtype".into(), json!("compact_boundary"));
        map.insert("content".into(), json!("Conversation compacted"));
        map.insert("level".into(), json!("info"));
        map.insert("logicalParentUuid".into(), json!("uuid-prev"));
        let mut meta = json!({"trigger": trigger, "preTokens": pre, "durationMs": 60_000});
        if let Some(post) = post {
            meta["postTokens"] = json!(post);
        }
        map.insert("compactMetadata".into(), meta);
        self.push(map);
        let mut summary = self.envelope("user");
        summary.insert("isCompactSummary".into(), json!(true));
        summary.insert("isVisibleInTranscriptOnly".into(), json!(true));
        summary.insert(
            "message".into(),
            json!({"role": "user", "content": [{"type": "text", "text": "This session is being continued from a previous conversation (assistant summary)."}]}),
        );
        self.push(summary)
    }

    /// A subagent's compaction boundary: never the main chain's.
    pub fn sidechain_boundary(&mut self) -> &mut Transcript {
        let mut map = self.envelope("system");
        map.insert("isSidechain".into(), json!(true));
        map.insert("subtype".into(), json!("compact_boundary"));
        map.insert(
            "compactMetadata".into(),
            json!({"trigger": "auto", "preTokens": 1, "postTokens": 1}),
        );
        self.push(map)
    }

    /// One record of each other type real transcripts hold.
    pub fn every_other_type(&mut self) -> &mut Transcript {
        self.lines.push(json!({"type": "summary", "summary": "Refactor the assistant module", "leafUuid": "uuid-1"}).to_string());
        let kinds = [
            (
                "file-history-snapshot",
                json!({"messageId": "m", "snapshot": {"trackedFileBackups": {}}}),
            ),
            (
                "progress",
                json!({"data": {"type": "hook_progress", "hookName": "PreCompact"}}),
            ),
            (
                "queue-operation",
                json!({"operation": "enqueue", "content": "next prompt"}),
            ),
            ("custom-title", json!({"customTitle": "assistant work"})),
            ("ai-title", json!({"aiTitle": "Working with the assistant"})),
            ("agent-name", json!({"agentName": "general-purpose"})),
            ("last-prompt", json!({"lastPrompt": "continue"})),
            ("mode", json!({"mode": "plan"})),
            ("pr-link", json!({"url": "https://example.invalid/pr/1"})),
            (
                "attachment",
                json!({"attachment": {"type": "hook_additional_context", "content": ["<context-monitor>"], "hookName": "UserPromptSubmit", "hookEvent": "UserPromptSubmit"}}),
            ),
            (
                "attachment",
                json!({"attachment": {"type": "hook_success", "hookName": "SessionStart:startup", "exitCode": 0, "stdout": "", "stderr": ""}}),
            ),
        ];
        for (kind, extra) in kinds {
            let mut map = self.envelope(kind);
            if let Value::Object(extra) = extra {
                map.extend(extra);
            }
            self.push(map);
        }
        let mut meta = self.envelope("user");
        meta.insert("isMeta".into(), json!(true));
        meta.insert(
            "message".into(),
            json!({"role": "user", "content": "Stop hook feedback: assistant"}),
        );
        self.push(meta);
        let mut system = self.envelope("system");
        system.insert("subtype".into(), json!("informational"));
        system.insert("content".into(), json!("assistant notice"));
        self.push(system)
    }

    pub fn garbage(&mut self, line: &str) -> &mut Transcript {
        self.lines.push(line.to_string());
        self
    }

    pub fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        text.push('\n');
        text
    }

    /// The text without its final newline (a file still being written).
    pub fn text_unterminated(&self) -> String {
        self.lines.join("\n")
    }

    pub fn write(&self, path: &std::path::Path) {
        std::fs::write(path, self.text()).unwrap();
    }
}
