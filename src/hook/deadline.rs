//! Every hook's overall deadline: whatever a hook is doing when it runs out (a
//! file that blocks despite every check, a slow disk, work that grew), the
//! process logs it and exits 0 with nothing more on stdout. Claude Code then
//! carries on as if the hook had nothing to say (hooks fail open), long before
//! its own timeout (5 s for the events `hooks install` registers at 5) would
//! kill the hook and report it.

use std::time::Duration;

use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::io::log::{self, Level};

/// Past the stdin reader's own deadline (`hook::stdin::DEADLINE`, 4 s, which
/// reports a payload still trickling in), and under the smallest timeout `hooks
/// install` registers (5 s).
pub const DEADLINE: Duration = Duration::from_millis(4500);

/// A shorter deadline, in milliseconds (never longer): only test builds see it
/// (`io::env::KNOWN`).
pub const VAR: &str = "RESUME_TUI_HOOK_DEADLINE_MS";

/// Starts the watch: a thread that sleeps until the deadline, then logs and ends
/// the process with status 0. Returning from the hook ends the thread with it.
pub fn arm(env: &Env, now: Timestamp) {
    let limit = env
        .get(VAR)
        .and_then(|ms| ms.parse().ok())
        .map(Duration::from_millis)
        .map_or(DEADLINE, |asked| asked.min(DEADLINE));
    let env = env.clone();
    let spawned = std::thread::Builder::new()
        .name("hook-deadline".into())
        .spawn(move || {
            std::thread::sleep(limit);
            let max = Config::default().log.max_bytes;
            let _ = log::append(
                &env,
                max,
                now,
                Level::Error,
                "deadline",
                &format!(
                    "the hook ran past its {} ms deadline and was ended (fail-open: Claude Code carries on without it)",
                    limit.as_millis()
                ),
            );
            std::process::exit(0);
        });
    // Without a thread there is no watch; the hook still runs.
    drop(spawned);
}

/// A hook that never returns, for the deadline's test (`RESUME_TUI_TEST_FAULT=hook-hang`).
#[cfg(feature = "test-fault")]
pub fn test_hang(env: &Env) {
    if env.get("RESUME_TUI_TEST_FAULT") == Some("hook-hang") {
        loop {
            std::thread::park();
        }
    }
}
