//! Reading what the binary printed: its stdout after a run that must succeed, the
//! member names of a JSON object it printed or wrote.
#![allow(dead_code)]

use std::process::Output;

use serde_json::Value;

/// The stdout of a run of `args` that must have succeeded (its stderr says why not).
pub fn success_stdout(args: &[&str], out: Output) -> String {
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The member names of `value`, in the order they are stored; fails unless it is
/// an object.
pub fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}
