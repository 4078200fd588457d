//! Reading a file descriptor with a timeout for silence, without a thread: wait
//! with `poll(2)` until it is readable, then read what is there.

use std::io::Read;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};

use super::{Collector, Payload, Wait};

// A payload is a few hundred bytes: the buffer starts small (zeroing 64 KB
// touched 16 fresh pages, more than the rest of the read) and doubles while
// reads fill it.
const FIRST_CHUNK: usize = 4 * 1024;
const MAX_CHUNK: usize = 64 * 1024;

/// One JSON object from `file`, as `read_payload` reads it.
pub fn read_fd<F: AsFd + Read>(mut file: F, wait: Wait, max: usize) -> Payload {
    let mut collector = Collector::new(max);
    let mut chunk = vec![0u8; FIRST_CHUNK];
    let started = Instant::now();
    loop {
        let Some(timeout) = wait.next(started) else {
            return collector.late();
        };
        match readable_within(&file, timeout) {
            Ok(true) => {}
            Ok(false) => return collector.timed_out(timeout, &wait),
            Err(e) => return Payload::Invalid(format!("stdin: {e}")),
        }
        match file.read(&mut chunk) {
            Ok(0) => return collector.at_eof(),
            Ok(n) => {
                if let Some(done) = collector.push(chunk.get(..n).unwrap_or_default()) {
                    return done;
                }
                if n == chunk.len() && chunk.len() < MAX_CHUNK {
                    chunk.resize(chunk.len() * 2, 0);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Payload::Invalid(format!("stdin: {e}")),
        }
    }
}

/// Whether `fd` has something to read (data, end of file or an error) within
/// `timeout`.
fn readable_within(fd: &impl AsFd, timeout: Duration) -> std::io::Result<bool> {
    let timeout = Timespec {
        tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(timeout.subsec_nanos()),
    };
    loop {
        let mut fds = [PollFd::new(fd, PollFlags::IN)];
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(ready) => return Ok(ready > 0),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn pipe_with(bytes: &[u8]) -> (std::io::PipeReader, std::io::PipeWriter) {
        let (reader, mut writer) = std::io::pipe().unwrap();
        writer.write_all(bytes).unwrap();
        (reader, writer)
    }

    #[test]
    fn an_object_is_taken_without_waiting_for_eof() {
        let (reader, _open) = pipe_with(br#" {"hook_event_name":"PreCompact"} more"#);
        let payload = read_fd(reader, Wait::silence(Duration::from_secs(30)), 1 << 20);
        assert!(matches!(payload, Payload::Object(map) if map["hook_event_name"] == "PreCompact"));
    }

    #[test]
    fn silence_gives_up_and_eof_ends() {
        let (reader, _open) = pipe_with(br#"{"hook_event_name":"Sess"#);
        let payload = read_fd(reader, Wait::silence(Duration::from_millis(100)), 1 << 20);
        assert_eq!(payload, Payload::Silent { bytes: 24 });
        let (reader, writer) = pipe_with(b"  \n");
        drop(writer);
        assert_eq!(
            read_fd(reader, Wait::silence(Duration::from_secs(30)), 1 << 20),
            Payload::Empty
        );
        let (reader, writer) = pipe_with(b"[1]");
        drop(writer);
        assert!(matches!(
            read_fd(reader, Wait::silence(Duration::from_secs(30)), 1 << 20),
            Payload::Invalid(_)
        ));
    }

    #[test]
    fn chunks_written_apart_are_joined_and_the_cap_holds() {
        let (reader, mut writer) = pipe_with(br#"{"a": "#);
        let late = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            writer.write_all(br#""b"}"#).unwrap();
            writer
        });
        let payload = read_fd(reader, Wait::silence(Duration::from_secs(30)), 1 << 20);
        assert!(matches!(payload, Payload::Object(map) if map["a"] == "b"));
        drop(late.join().unwrap());
        let (reader, _open) = pipe_with(&[b'{'; 300]);
        assert_eq!(
            read_fd(reader, Wait::silence(Duration::from_secs(30)), 100),
            Payload::TooLarge
        );
    }
}
