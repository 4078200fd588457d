//! The stand-in Messages API the real-client suite runs Claude Code against
//! (tests/support/real_client_api.rs), spoken to with a plain TCP client: this runs
//! without Claude Code, so a bare `cargo test` holds the stand-in to its protocol.

#[path = "support/real_client_api.rs"]
mod real_client_api;

use std::io::{Read, Write};
use std::net::TcpStream;

use real_client_api::{Answer, Api, summary};
use serde_json::{Value, json};

/// One request; the whole response (the stand-in closes the connection).
fn call(api: &Api, method: &str, path: &str, headers: &str, body: &Value) -> String {
    let address = api.base_url().trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(address).unwrap();
    let body = body.to_string();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    out
}

fn body_of(response: &str) -> &str {
    response.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

#[test]
fn streams_a_message_with_the_usage_the_test_set() {
    let api = Api::start();
    api.set_fill(0.85, 200_000);
    let response = call(
        &api,
        "POST",
        "/v1/messages?beta=true",
        "anthropic-beta: context-1m-2025-08-07\r\n",
        &json!({"model": "claude-opus-4-6", "stream": true, "tools": [{"name": "Read"}],
            "messages": [{"role": "user", "content": "hi"}]}),
    );
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    let events: Vec<&str> = response
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    assert_eq!(
        events,
        [
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop"
        ]
    );
    assert!(response.contains("\"input_tokens\":170000"), "{response}");
    let recorded = api.requests();
    assert_eq!(recorded.len(), 1);
    assert_eq!(
        recorded[0].header("anthropic-beta"),
        Some("context-1m-2025-08-07")
    );
    assert_eq!(recorded[0].body["model"], "claude-opus-4-6");
}

#[test]
fn answers_the_summarisation_request_with_the_chosen_summary() {
    let api = Api::start();
    let chosen = summary("kept this", "only in the analysis");
    api.set(Answer {
        summary: chosen.clone(),
        ..Answer::default()
    });
    let prompt = "Your task is to create a detailed summary of the conversation so far.";
    let response = call(
        &api,
        "POST",
        "/v1/messages",
        "",
        &json!({"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": prompt}]}]}),
    );
    let message: Value = serde_json::from_str(body_of(&response)).unwrap();
    assert_eq!(message["content"][0]["text"], chosen.as_str());
    assert!(chosen.contains("<analysis>") && chosen.contains("<summary>"));
    assert!(api.requests()[0].is_summarisation());
}

#[test]
fn plays_scripted_tool_turns_then_says_prompt_too_long_when_asked() {
    let api = Api::start();
    let mut answer = Answer::default();
    answer
        .turns
        .push_back(vec![json!({"type": "tool_use", "id": "t1", "name": "Read",
        "input": {"file_path": "/x"}})]);
    api.set(answer);
    let turn = json!({"model": "m", "tools": [{"name": "Read"}], "messages": [{"role": "user", "content": "go"}]});
    let first = call(&api, "POST", "/v1/messages", "", &turn);
    let message: Value = serde_json::from_str(body_of(&first)).unwrap();
    assert_eq!(message["stop_reason"], "tool_use");
    assert_eq!(message["content"][0]["input"]["file_path"], "/x");
    let second = call(&api, "POST", "/v1/messages", "", &turn);
    assert!(second.contains("OK, done."), "{second}");

    let mut answer = api.answer();
    answer.too_long = 1;
    api.set(answer);
    let refused = call(&api, "POST", "/v1/messages", "", &turn);
    assert!(refused.starts_with("HTTP/1.1 400"), "{refused}");
    assert!(refused.contains("prompt is too long"), "{refused}");
    let after = call(&api, "POST", "/v1/messages", "", &turn);
    assert!(after.starts_with("HTTP/1.1 200"), "{after}");
}

#[test]
fn counts_tokens_and_answers_anything_else_harmlessly() {
    let api = Api::start();
    api.set_fill(0.5, 1_000_000);
    let counted = call(
        &api,
        "POST",
        "/v1/messages/count_tokens",
        "",
        &json!({"messages": []}),
    );
    assert_eq!(
        serde_json::from_str::<Value>(body_of(&counted)).unwrap()["input_tokens"],
        500_000
    );
    assert!(call(&api, "GET", "/api/hello", "", &json!(null)).starts_with("HTTP/1.1 404"));
    assert!(call(&api, "POST", "/api/event_logging", "", &json!({})).starts_with("HTTP/1.1 200"));
    assert_eq!(api.requests().len(), 3);
    assert!(api.messages().is_empty());
}
