//! A fault on demand, for the end-to-end tests of terminal restoration only
//! (`tests/tui_restore.rs`). `RESUME_TUI_TEST_FAULT` set to `panic` makes the run
//! loop panic at the first key press; `error` makes it fail there the way a terminal
//! that cannot be drawn on does; `panic-in-thread` panics on a thread of its own
//! (as a load or copy worker could) while another keeps the run loop drawing, so
//! that a draw after the terminal is given back would be caught. Not a feature for
//! operators: any other value, or none, changes nothing, and only test builds have
//! it (the `test-fault` cargo feature, which the tests' dev-dependency turns on).
//!
//! `RESUME_TUI_TEST_HOLD_LOAD` set to a path holds the first load after its
//! discovery frame until that path exists (at most a minute), so that an
//! end-to-end test sees the rows still loading, then filled, without timing.
//! `RESUME_TUI_TEST_HOLD_WATCH` holds the run loop the same way between that
//! frame and the watches it sets, so that a test can change the workspace there.

use std::sync::mpsc::Sender;
use std::time::Duration;

use super::msg::Msg;
use crate::io::env::Env;
use crate::{Error, Result};

pub const VAR: &str = "RESUME_TUI_TEST_FAULT";
pub const HOLD_LOAD: &str = "RESUME_TUI_TEST_HOLD_LOAD";
pub const HOLD_WATCH: &str = "RESUME_TUI_TEST_HOLD_WATCH";

/// Waits, on the load's worker, until the path `RESUME_TUI_TEST_HOLD_LOAD` names
/// exists; returns at once when it is not set.
pub fn hold_load(env: &Env) {
    hold(env, HOLD_LOAD);
}

/// Waits, on the run loop, until the path `RESUME_TUI_TEST_HOLD_WATCH` names
/// exists; returns at once when it is not set.
pub fn hold_watch(env: &Env) {
    hold(env, HOLD_WATCH);
}

fn hold(env: &Env, var: &str) {
    let Some(path) = env.get(var).map(std::path::PathBuf::from) else {
        return;
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !path.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestFault {
    Panic,
    Error,
    PanicInThread,
}

impl TestFault {
    pub fn from_env(env: &Env) -> Option<TestFault> {
        match env.get(VAR)? {
            "panic" => Some(TestFault::Panic),
            "error" => Some(TestFault::Error),
            "panic-in-thread" => Some(TestFault::PanicInThread),
            _ => None,
        }
    }

    /// Called by the run loop at a key press; `tx` reaches the run loop.
    #[allow(
        clippy::panic,
        reason = "the panic is the point: asked for by the terminal-restore tests"
    )]
    pub fn strike(self, tx: &Sender<Msg>) -> Result<()> {
        match self {
            TestFault::Panic => panic!("{VAR}=panic: a panic in the run loop, as asked"),
            TestFault::Error => Err(Error::io(
                "terminal",
                std::io::Error::other(format!("{VAR}=error: a failure in the run loop, as asked")),
            )),
            TestFault::PanicInThread => {
                let redraws = tx.clone();
                std::thread::spawn(move || {
                    while redraws.send(Msg::Tick).is_ok() {
                        std::thread::sleep(Duration::from_micros(50));
                    }
                });
                std::thread::spawn(|| {
                    std::thread::sleep(Duration::from_millis(30));
                    panic!("{VAR}=panic-in-thread: a worker's panic, as asked")
                });
                Ok(())
            }
        }
    }
}
