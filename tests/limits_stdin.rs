//! A hook payload that trickles in a byte at a time is never silent long enough
//! for the silence limit; the whole read has one deadline, after which the hook
//! logs and returns (printing nothing, PreCompact included), long before the writer
//! would have finished.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use std::io::Write;
use std::time::Duration;

use hook_fixture::Fixture;

/// Bytes the writer would send, one per 100 ms: a minute of trickle.
const TRICKLE: usize = 600;

#[test]
fn a_trickling_stdin_is_cut_off_by_one_deadline() {
    let fx = Fixture::new();
    let mut child = fx.spawn(&["PreCompact"]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut sent = 0;
        let first = stdin.write_all(b"{\"hook_event_name\": \"PreCompact\", \"x\": \"");
        if first.is_err() {
            return sent;
        }
        while sent < TRICKLE {
            std::thread::sleep(Duration::from_millis(100));
            if stdin.write_all(b"a").and_then(|()| stdin.flush()).is_err() {
                break;
            }
            sent += 1;
        }
        sent
    });
    let run = hostile::finish_or_kill(child, "PreCompact on a trickling stdin");
    let sent = writer.join().unwrap();
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stdout, "", "PreCompact prints nothing");
    assert!(
        sent < TRICKLE,
        "the hook read the whole trickle ({sent} bytes) instead of giving up"
    );
    let log = fx.log();
    assert!(
        log.contains("no complete JSON object on stdin within"),
        "{log}"
    );
}
