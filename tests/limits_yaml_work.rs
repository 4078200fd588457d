//! A state file whose YAML would cost unbounded work is refused by
//! `core::yaml::guard` with its line and column (issue 33 item 3), and PostToolUse
//! (which reads the edited file whole) fails open and logs the refusal.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/transcript.rs"]
mod transcript;

use hook_fixture::{Fixture, WORKFLOW, payload};
use serde_json::json;

/// A workflow with 1,001 complex keys (`? [a, b] : c`), one past the limit.
fn complex_keys() -> String {
    let mut yaml = String::from(
        "workflow:\n  id: \"demo-wf-001\"\n  status: \"ACTIVE\"\nresumption:\n  recovery_state:\n    next_step: go\n  complex:\n",
    );
    for i in 0..1_001 {
        yaml.push_str(&format!("    ? [a{i}, b]\n    : c\n"));
    }
    yaml
}

#[test]
fn too_many_complex_keys_are_refused_with_their_line_and_the_hooks_log_it() {
    let fx = Fixture::new();
    fx.write(WORKFLOW, &complex_keys());
    // The 1,001st key is on line 8 + 2 × 1,000.
    let refusal = "more than 1000 complex keys (`? key`, or a list or map used as a key): refused unparsed at line 2008 column 5";
    let file = fx.root().join(WORKFLOW);
    let edit = payload(
        "PostToolUse",
        None,
        json!({"tool_name": "Edit", "tool_input": {"file_path": file}}),
    );
    let (out, _) = fx.run(&["PostToolUse"], &edit);
    assert_eq!(out, "", "fail open, nothing on stdout");
    fx.assert_logged(refusal);
    fx.assert_logged("ORCHESTRATION.yaml:2008:5: error:");
}
