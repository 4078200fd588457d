//! A local stand-in for the Anthropic Messages API, for the real Claude Code client
//! (`ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`): HTTP/1.1 on 127.0.0.1, one request
//! per connection (`Connection: close`). `POST /v1/messages` answers streaming (SSE)
//! or not, as asked, with the `usage` the test set; `/v1/messages/count_tokens`
//! answers the same input count; anything else gets an empty 200 (POST) or 404.
//! The summarisation request (its prompt asks for "a detailed summary of the
//! conversation") gets the test's summary, `<analysis>` and `<summary>` parts.
//! Every request is recorded (path, headers, body) for assertions.
//!
//! The accept loop polls a stop flag; dropping the `Api` stops it and joins it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

/// What the stand-in reports to the next requests.
#[derive(Clone, Debug)]
pub struct Answer {
    /// `usage.input_tokens`.
    pub input_tokens: u64,
    pub cache_read_input_tokens: u64,
    pub cache_creation_input_tokens: u64,
    /// The reply to the summarisation request.
    pub summary: String,
    /// Answers this many of the next ordinary `/v1/messages` requests with
    /// `400 prompt is too long` (the trigger of an automatic compaction).
    pub too_long: u32,
    /// Replies of the next conversation turns (requests that offer tools), in
    /// order: each a list of content blocks (`text`, `tool_use`). Then "OK, done.".
    pub turns: std::collections::VecDeque<Vec<Value>>,
}

impl Default for Answer {
    fn default() -> Answer {
        Answer {
            input_tokens: 1_000,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
            summary: summary("The operator asked for the payouts work.", "nothing"),
            too_long: 0,
            turns: Default::default(),
        }
    }
}

/// A summary in the shape Claude Code asks for: `<analysis>` (which Claude Code
/// drops before the model sees it) and `<summary>`.
pub fn summary(kept: &str, analysis: &str) -> String {
    format!(
        "<analysis>\n{analysis}\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   \
         {kept}\n\n2. Current Work:\n   Continuing.\n</summary>"
    )
}

#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn is_messages(&self) -> bool {
        self.method == "POST"
            && (self.path == "/v1/messages" || self.path.starts_with("/v1/messages?"))
    }

    pub fn is_summarisation(&self) -> bool {
        self.is_messages() && is_summarisation(&self.body)
    }

    /// The texts in the body that carry a hook's additionalContext ("… hook
    /// additional context: …" system reminders), in order.
    pub fn hook_contexts(&self) -> Vec<String> {
        let mut out = Vec::new();
        strings(&self.body, &mut out);
        out.retain(|s| s.contains("hook additional context"));
        out
    }

    /// The body as one text (every system reminder and additionalContext is in it).
    pub fn text(&self) -> String {
        self.body.to_string()
    }
}

struct Shared {
    answer: Answer,
    requests: Vec<Request>,
}

pub struct Api {
    port: u16,
    shared: Arc<Mutex<Shared>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Api {
    pub fn start() -> Api {
        let listener = TcpListener::bind("127.0.0.1:0").expect("stand-in API: bind 127.0.0.1:0");
        listener
            .set_nonblocking(true)
            .expect("stand-in API: nonblocking");
        let port = listener.local_addr().expect("stand-in API: address").port();
        let shared = Arc::new(Mutex::new(Shared {
            answer: Answer::default(),
            requests: Vec::new(),
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (shared, stop) = (shared.clone(), stop.clone());
            std::thread::spawn(move || accept_loop(&listener, &shared, &stop))
        };
        Api {
            port,
            shared,
            stop,
            thread: Some(thread),
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn set(&self, answer: Answer) {
        self.lock().answer = answer;
    }

    pub fn answer(&self) -> Answer {
        self.lock().answer.clone()
    }

    /// Reports `fill` (0..1) of a `window`-token context: all of it as input.
    pub fn set_fill(&self, fill: f64, window: u64) {
        let mut shared = self.lock();
        shared.answer.input_tokens = (fill * window as f64).round() as u64;
        shared.answer.cache_read_input_tokens = 0;
        shared.answer.cache_creation_input_tokens = 0;
    }

    pub fn requests(&self) -> Vec<Request> {
        self.lock().requests.clone()
    }

    /// The `/v1/messages` requests (the model's requests), in order.
    pub fn messages(&self) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(Request::is_messages)
            .collect()
    }

    /// The text of every `/v1/messages` request, joined: what reached the model.
    pub fn messages_text(&self) -> String {
        self.messages().iter().map(Request::text).collect()
    }

    pub fn clear(&self) {
        self.lock().requests.clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Api {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Mutex<Shared>>, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                let shared = shared.clone();
                // Detached: a connection ends with its one request or its read timeout.
                std::thread::spawn(move || {
                    let _ = serve(stream, &shared);
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5)); // the accept poll, not a wait for a result
            }
            Err(_) => return,
        }
    }
}

fn serve(stream: TcpStream, shared: &Mutex<Shared>) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let Some(request) = read_request(&mut reader)? else {
        return Ok(());
    };
    let answer = {
        let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
        shared.requests.push(request.clone());
        let mut answer = shared.answer.clone();
        answer.turns.clear();
        if request.is_messages() && !request.is_summarisation() {
            if shared.answer.too_long > 0 {
                shared.answer.too_long -= 1;
            } else if offers_tools(&request.body)
                && let Some(turn) = shared.answer.turns.pop_front()
            {
                answer.turns.push_back(turn);
            }
        }
        answer
    };
    respond(stream, &request, &answer)
}

fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut headers = Vec::new();
    for _ in 0..200 {
        line.clear();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let header = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let mut body = Vec::new();
    if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(len.min(64 << 20), 0);
        reader.read_exact(&mut body)?;
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        for _ in 0..100_000 {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    Ok(Some(Request {
        method,
        path,
        headers,
        body,
    }))
}

fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

fn is_summarisation(body: &Value) -> bool {
    let last = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].to_string())
        .unwrap_or_default();
    last.contains("create a detailed summary of the conversation")
}

fn offers_tools(body: &Value) -> bool {
    body["tools"].as_array().is_some_and(|t| !t.is_empty())
}

fn respond(mut stream: TcpStream, request: &Request, answer: &Answer) -> std::io::Result<()> {
    let body = &request.body;
    if request.method != "POST" {
        return send(&mut stream, "404 Not Found", "application/json", b"{}");
    }
    if request.path.starts_with("/v1/messages/count_tokens") {
        let out = json!({"input_tokens": answer.input_tokens}).to_string();
        return send(&mut stream, "200 OK", "application/json", out.as_bytes());
    }
    if !request.is_messages() {
        return send(&mut stream, "200 OK", "application/json", b"{}");
    }
    let summarising = is_summarisation(body);
    if answer.too_long > 0 && !summarising {
        let out = json!({"type": "error", "error": {"type": "invalid_request_error",
            "message": "prompt is too long: 250000 tokens > 200000 maximum"}})
        .to_string();
        return send(
            &mut stream,
            "400 Bad Request",
            "application/json",
            out.as_bytes(),
        );
    }
    let text = if summarising {
        answer.summary.clone()
    } else {
        "OK, done.".to_string()
    };
    let blocks = match answer.turns.front() {
        Some(turn) => turn.clone(),
        None => vec![json!({"type": "text", "text": text})],
    };
    let stop_reason = if blocks.iter().any(|b| b["type"] == "tool_use") {
        "tool_use"
    } else {
        "end_turn"
    };
    let model = body["model"].as_str().unwrap_or("claude-sonnet-4-6");
    let usage = json!({
        "input_tokens": answer.input_tokens,
        "cache_creation_input_tokens": answer.cache_creation_input_tokens,
        "cache_read_input_tokens": answer.cache_read_input_tokens,
        "output_tokens": 12,
    });
    if body["stream"].as_bool() == Some(true) {
        let mut events = vec![(
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_standin",
                "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": null, "stop_sequence": null, "usage": usage}}),
        )];
        for (index, block) in blocks.iter().enumerate() {
            events.extend(block_events(index, block));
        }
        events.push((
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": stop_reason,
                "stop_sequence": null}, "usage": {"output_tokens": 12}}),
        ));
        events.push(("message_stop", json!({"type": "message_stop"})));
        let mut out = String::new();
        for (name, data) in events {
            out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
        }
        return send(&mut stream, "200 OK", "text/event-stream", out.as_bytes());
    }
    let out = json!({"id": "msg_standin", "type": "message", "role": "assistant", "model": model,
        "content": blocks, "stop_reason": stop_reason,
        "stop_sequence": null, "usage": usage})
    .to_string();
    send(&mut stream, "200 OK", "application/json", out.as_bytes())
}

/// The SSE events that stream one content block.
fn block_events(index: usize, block: &Value) -> Vec<(&'static str, Value)> {
    let (start, delta) = if block["type"] == "tool_use" {
        let start = json!({"type": "tool_use", "id": block["id"], "name": block["name"],
            "input": {}});
        let delta = json!({"type": "input_json_delta", "partial_json": block["input"].to_string()});
        (start, delta)
    } else {
        let text = block["text"].as_str().unwrap_or("");
        (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": text}),
        )
    };
    vec![
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": index,
            "content_block": start}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index,
            "delta": delta}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ),
    ]
}

fn send(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         request-id: req_standin\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}
