//! Reading the hook payload: exactly one JSON object, without waiting for EOF
//! (Claude Code sometimes never closes stdin), giving up after a period of silence
//! or, for a writer that trickles a byte at a time and is never silent, at one
//! deadline for the whole read.
//!
//! On Unix the hook polls stdin with a timeout and reads what is there (`poll`);
//! elsewhere a thread reads raw chunks and passes them over a channel, and may
//! stay blocked on a stdin that never closes (the process exits without waiting
//! for it). Either way the chunks go to a [`Collector`], which tracks where the
//! top-level object ends (strings, escapes and nesting) and parses it once, as
//! soon as its closing brace arrives.

use std::io::Read;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;

#[cfg(unix)]
mod poll;

/// How long stdin may stay silent before the hook gives up on it.
pub const SILENCE: Duration = Duration::from_secs(2);
/// How long the whole read may take, however the bytes arrive.
pub const DEADLINE: Duration = Duration::from_secs(4);
/// A payload larger than this is refused (a Write tool call carries the file).
pub const MAX_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// One JSON object.
    Object(serde_json::Map<String, Value>),
    /// Nothing but whitespace before EOF.
    Empty,
    /// Not a JSON object, with a reason naming line and column where known.
    Invalid(String),
    /// No complete object before `silence` passed without new bytes.
    Silent {
        bytes: usize,
    },
    /// No complete object before the deadline, bytes still arriving.
    Late {
        bytes: usize,
    },
    TooLarge,
}

/// Reads one JSON object from the process's stdin: on Unix by polling it (no
/// thread to start), elsewhere through [`read_payload`].
pub fn read_stdin(wait: Wait, max: usize) -> Payload {
    read_stdin_for(Reader::Hook, wait, max)
}

/// Who reads stdin: what it says when typed at a terminal differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    Hook,
    StatusLine,
}

/// [`read_stdin`] for `reader`.
pub fn read_stdin_for(reader: Reader, wait: Wait, max: usize) -> Payload {
    // Under Claude Code stdin is a pipe; typed at a terminal, say what is awaited
    // rather than wait in silence (on stderr: stdout stays the hook's output).
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        let _ = terminal_notice(reader, wait, &mut std::io::stderr());
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() {
            return poll::read_fd(std::fs::File::from(fd), wait, max);
        }
    }
    read_payload(std::io::stdin(), wait, max)
}

/// What a hook or status line started at a terminal says before it reads.
pub fn terminal_notice(
    reader: Reader,
    wait: Wait,
    err: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let secs = wait.silence.as_secs();
    match reader {
        Reader::Hook => writeln!(
            err,
            "resume-tui: reading one event as JSON on standard input, as Claude Code sends it; \
             giving up after {secs} s of silence (no output, exit 0). To try one by hand:\n  \
             echo '{{\"hook_event_name\":\"SessionStart\",\"cwd\":\".\"}}' | resume-tui hook --dry-run --explain",
        ),
        Reader::StatusLine => writeln!(
            err,
            "resume-tui statusline: reading Claude Code's status-line JSON on standard input; \
             after {secs} s of silence it prints the line from what it has. To try one by hand:\n  \
             echo '{{\"session_id\":\"s1\",\"cwd\":\".\"}}' | resume-tui statusline",
        ),
    }
}

/// How long a read waits: for each chunk (`silence`) and in all (`deadline`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait {
    pub silence: Duration,
    pub deadline: Duration,
}

impl Wait {
    /// The hook's: [`SILENCE`] and [`DEADLINE`].
    pub const HOOK: Wait = Wait {
        silence: SILENCE,
        deadline: DEADLINE,
    };

    /// `silence`, with the deadline at least as long.
    pub fn silence(silence: Duration) -> Wait {
        Wait {
            silence,
            deadline: DEADLINE.max(silence),
        }
    }

    /// How long the next wait may be, started at `started`; `None` past the deadline.
    fn next(&self, started: Instant) -> Option<Duration> {
        let left = self.deadline.checked_sub(started.elapsed())?;
        (!left.is_zero()).then(|| left.min(self.silence))
    }
}

/// Reads one JSON object from `reader` on a separate thread.
pub fn read_payload<R: Read + Send + 'static>(reader: R, wait: Wait, max: usize) -> Payload {
    let (tx, rx) = mpsc::channel::<std::io::Result<Vec<u8>>>();
    let spawned = std::thread::Builder::new()
        .name("hook-stdin".into())
        .spawn(move || pump(reader, &tx));
    if spawned.is_err() {
        return Payload::Invalid("could not start the stdin reader".into());
    }
    let mut collector = Collector::new(max);
    let started = Instant::now();
    loop {
        let Some(timeout) = wait.next(started) else {
            return collector.late();
        };
        match rx.recv_timeout(timeout) {
            Ok(Ok(chunk)) => {
                if let Some(done) = collector.push(&chunk) {
                    return done;
                }
            }
            Ok(Err(e)) => return Payload::Invalid(format!("stdin: {e}")),
            Err(RecvTimeoutError::Disconnected) => return collector.at_eof(),
            Err(RecvTimeoutError::Timeout) => return collector.timed_out(timeout, &wait),
        }
    }
}

/// The bytes read so far and where the top-level object stands.
struct Collector {
    buf: Vec<u8>,
    scanner: Scanner,
    max: usize,
}

impl Collector {
    fn new(max: usize) -> Collector {
        Collector {
            buf: Vec::new(),
            scanner: Scanner::default(),
            max,
        }
    }

    /// Takes a chunk; the payload once it is decided.
    fn push(&mut self, chunk: &[u8]) -> Option<Payload> {
        let from = self.buf.len();
        self.buf.extend_from_slice(chunk);
        if self.buf.len() > self.max {
            return Some(Payload::TooLarge);
        }
        match self
            .scanner
            .feed(self.buf.get(from..).unwrap_or_default(), from)
        {
            Scan::More => None,
            Scan::Complete(end) => Some(parse(self.buf.get(..end).unwrap_or_default())),
            Scan::NotAnObject => Some(Payload::Invalid(not_an_object(&self.buf))),
        }
    }

    fn at_eof(&self) -> Payload {
        at_eof(&self.buf)
    }

    /// Nothing arrived for `waited`: silence, or the deadline when that cut the wait short.
    fn timed_out(&self, waited: Duration, wait: &Wait) -> Payload {
        if waited < wait.silence {
            self.late()
        } else {
            Payload::Silent {
                bytes: self.buf.len(),
            }
        }
    }

    fn late(&self) -> Payload {
        Payload::Late {
            bytes: self.buf.len(),
        }
    }
}

fn pump<R: Read>(mut reader: R, tx: &mpsc::Sender<std::io::Result<Vec<u8>>>) {
    // A payload is a few hundred bytes: the buffer starts small (zeroing 64 KB
    // cost more than the rest of the read) and doubles while reads fill it.
    const FIRST_CHUNK: usize = 4 * 1024;
    const MAX_CHUNK: usize = 64 * 1024;
    let mut chunk = vec![0u8; FIRST_CHUNK];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                let bytes = chunk.get(..n).unwrap_or_default().to_vec();
                if tx.send(Ok(bytes)).is_err() {
                    return;
                }
                if n == chunk.len() && chunk.len() < MAX_CHUNK {
                    chunk.resize(chunk.len() * 2, 0);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        }
    }
}

fn at_eof(buf: &[u8]) -> Payload {
    if skip_preamble(buf).is_empty() {
        return Payload::Empty;
    }
    // The object never closed (or was never an object): let serde name the place.
    parse(buf)
}

fn skip_preamble(buf: &[u8]) -> &[u8] {
    let buf = buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(buf);
    let start = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
    buf.get(start..).unwrap_or_default()
}

fn parse(bytes: &[u8]) -> Payload {
    let bytes = skip_preamble(bytes);
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Payload::Object(map),
        Ok(_) => Payload::Invalid("stdin holds JSON, but not an object".into()),
        Err(e) => Payload::Invalid(format!(
            "stdin:{}:{}: {}",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        )),
    }
}

fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

fn not_an_object(buf: &[u8]) -> String {
    let text = String::from_utf8_lossy(skip_preamble(buf));
    let start: String = text.chars().take(20).collect();
    format!("stdin is not a JSON object (starts with {start:?})")
}

enum Scan {
    More,
    /// The object ends before this offset.
    Complete(usize),
    NotAnObject,
}

/// Tracks the nesting of the top-level value across chunks.
#[derive(Default)]
struct Scanner {
    started: bool,
    /// Bytes of a UTF-8 byte order mark seen before the start.
    bom: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Scanner {
    fn feed(&mut self, bytes: &[u8], offset: usize) -> Scan {
        for (i, &b) in bytes.iter().enumerate() {
            if !self.started {
                if b.is_ascii_whitespace() {
                    continue;
                }
                if offset + i == self.bom && b"\xEF\xBB\xBF".get(self.bom) == Some(&b) {
                    self.bom += 1;
                    continue;
                }
                if b != b'{' {
                    return Scan::NotAnObject;
                }
                self.started = true;
                self.depth = 1;
                continue;
            }
            if self.in_string {
                match (self.escaped, b) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Scan::Complete(offset + i + 1);
                    }
                }
                _ => {}
            }
        }
        Scan::More
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminal_notice_says_what_is_read_and_how_to_try_one() {
        let mut err = Vec::new();
        terminal_notice(Reader::Hook, Wait::HOOK, &mut err).expect("written to a Vec");
        let said = String::from_utf8(err).expect("UTF-8");
        assert!(said.contains("as JSON on standard input"), "{said}");
        assert!(said.contains("after 2 s of silence"), "{said}");
        let example = said
            .split("echo '")
            .nth(1)
            .and_then(|rest| rest.split('\'').next())
            .expect("an example event");
        let event: Value = serde_json::from_str(example).expect("the example is JSON");
        assert_eq!(event["hook_event_name"], "SessionStart");
    }

    #[test]
    fn the_status_line_says_what_it_reads_and_names_its_own_command() {
        let mut err = Vec::new();
        terminal_notice(Reader::StatusLine, Wait::HOOK, &mut err).expect("written to a Vec");
        let said = String::from_utf8(err).expect("UTF-8");
        assert!(
            said.contains("status-line JSON on standard input"),
            "{said}"
        );
        assert!(
            said.trim_end().ends_with("| resume-tui statusline"),
            "{said}"
        );
        assert!(
            !said.contains("hook_event_name") && !said.contains("no output"),
            "{said}"
        );
    }

    struct Chunks(Vec<Vec<u8>>);

    impl Read for Chunks {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            out[..chunk.len()].copy_from_slice(&chunk);
            Ok(chunk.len())
        }
    }

    /// A reader that yields its bytes, then blocks forever (stdin never closed).
    struct Open(Option<Vec<u8>>);

    impl Read for Open {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            match self.0.take() {
                Some(bytes) => {
                    out[..bytes.len()].copy_from_slice(&bytes);
                    Ok(bytes.len())
                }
                None => loop {
                    std::thread::park();
                },
            }
        }
    }

    fn read(chunks: &[&str]) -> Payload {
        let chunks = chunks
            .iter()
            .filter(|c| !c.is_empty())
            .map(|c| c.as_bytes().to_vec())
            .collect();
        read_payload(
            Chunks(chunks),
            Wait::silence(Duration::from_millis(500)),
            1 << 20,
        )
    }

    #[test]
    fn one_object_split_anywhere() {
        let text =
            r#" {"hook_event_name":"PreCompact","x":"a \"}\" b","n":[1,{"y":"]"}]} trailing"#;
        for cut in 0..text.len() {
            let (a, b) = text.split_at(cut);
            match read(&[a, b]) {
                Payload::Object(map) => {
                    assert_eq!(map["hook_event_name"], "PreCompact");
                    assert_eq!(map["x"], "a \"}\" b");
                }
                other => panic!("cut {cut}: {other:?}"),
            }
        }
    }

    #[test]
    fn does_not_wait_for_eof_after_the_object() {
        let payload = read_payload(
            Open(Some(br#"{"hook_event_name":"SessionStart"}"#.to_vec())),
            Wait::silence(Duration::from_secs(30)),
            1 << 20,
        );
        assert!(matches!(payload, Payload::Object(_)));
    }

    #[test]
    fn silence_without_a_complete_object_gives_up() {
        let payload = read_payload(
            Open(Some(br#"{"hook_event_name":"Sess"#.to_vec())),
            Wait::silence(Duration::from_millis(100)),
            1 << 20,
        );
        assert_eq!(payload, Payload::Silent { bytes: 24 });
        let payload = read_payload(
            Open(None),
            Wait::silence(Duration::from_millis(100)),
            1 << 20,
        );
        assert_eq!(payload, Payload::Silent { bytes: 0 });
    }

    /// A writer that sends a byte every 50 ms is never silent for 100 ms; the
    /// deadline ends the read all the same.
    #[test]
    fn a_trickle_is_cut_off_at_the_deadline() {
        struct Trickle(usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                std::thread::sleep(Duration::from_millis(50));
                self.0 += 1;
                match buf.first_mut() {
                    Some(b) => {
                        *b = if self.0 == 1 { b'{' } else { b' ' };
                        Ok(1)
                    }
                    None => Ok(0),
                }
            }
        }
        let wait = Wait {
            silence: Duration::from_millis(200),
            deadline: Duration::from_millis(600),
        };
        match read_payload(Trickle(0), wait, 1 << 20) {
            Payload::Late { bytes } => assert!((2..20).contains(&bytes), "{bytes}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn empty_garbage_and_non_objects() {
        assert_eq!(read(&[]), Payload::Empty);
        assert_eq!(read(&["  \n\t"]), Payload::Empty);
        assert!(matches!(read(&["\u{feff}{}"]), Payload::Object(_)));
        for bad in ["[1,2]", "\"text\"", "42", "garbage", "\u{0}\u{1}"] {
            assert!(matches!(read(&[bad]), Payload::Invalid(_)), "{bad}");
        }
        match read(&["{\"a\":\n  tru"]) {
            Payload::Invalid(reason) => assert!(reason.starts_with("stdin:2:"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn too_large_is_refused() {
        let big = format!("{{\"a\":\"{}\"}}", "x".repeat(200));
        let payload = read_payload(
            Chunks(vec![big.into_bytes()]),
            Wait::silence(Duration::from_millis(500)),
            100,
        );
        assert_eq!(payload, Payload::TooLarge);
    }
}
