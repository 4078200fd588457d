//! `claude --version`, asked once by `hooks install` and `doctor`, with the PATH
//! of the environment snapshot and a deadline (a stuck `claude` must not hang them).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::form::{Version, parse_version};
use crate::io::env::Env;

const DEADLINE: Duration = Duration::from_secs(5);

/// What `claude --version` said: the version, or why there is none.
pub fn claude_version(env: &Env) -> Result<Version, String> {
    let mut command = Command::new("claude");
    command
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(path) = env.get("PATH") {
        command.env("PATH", path);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("`claude --version` could not run: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < DEADLINE => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("`claude --version` did not answer within 5 s".into());
            }
        }
    }
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        use std::io::Read;
        let _ = out.by_ref().take(4096).read_to_string(&mut text);
    }
    parse_version(&text).ok_or_else(|| {
        format!(
            "`claude --version` printed no version: {:?}",
            text.trim().chars().take(80).collect::<String>()
        )
    })
}
