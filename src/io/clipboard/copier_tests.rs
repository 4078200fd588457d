use std::sync::Mutex;

use super::*;

/// A native clipboard that never answers (a stuck X server).
struct Stuck;
impl NativeClipboard for Stuck {
    fn set_text(&self, _: &str) -> Result<bool, String> {
        std::thread::sleep(Duration::from_secs(3600));
        Ok(true)
    }
}

#[derive(Default)]
struct Recording(Mutex<Vec<String>>);
impl NativeClipboard for Recording {
    fn set_text(&self, text: &str) -> Result<bool, String> {
        self.0.lock().unwrap().push(text.to_string());
        Ok(true)
    }
}
impl TmuxBuffer for Recording {
    fn load(&self, text: &str) -> Result<TmuxDelivery, String> {
        self.0.lock().unwrap().push(text.to_string());
        Ok(TmuxDelivery {
            read_back: true,
            set_clipboard: Some("external".into()),
        })
    }
}

/// A tmux with its `set-clipboard` off: the buffer only.
struct BufferOnly;
impl TmuxBuffer for BufferOnly {
    fn load(&self, _: &str) -> Result<TmuxDelivery, String> {
        Ok(TmuxDelivery {
            read_back: true,
            set_clipboard: Some("off".into()),
        })
    }
}

struct Failing;
impl NativeClipboard for Failing {
    fn set_text(&self, _: &str) -> Result<bool, String> {
        Err("no X server".into())
    }
}
impl TmuxBuffer for Failing {
    fn load(&self, _: &str) -> Result<TmuxDelivery, String> {
        Err("no server running".into())
    }
}

fn copier(native: Arc<dyn NativeClipboard>) -> Copier {
    Copier::new(native, Arc::new(Failing), Duration::from_millis(100))
}

#[test]
fn a_native_clipboard_that_never_answers_times_out_and_falls_back_to_osc52() {
    let mut terminal = Vec::new();
    let started = std::time::Instant::now();
    let out = copier(Arc::new(Stuck)).run(
        "hi",
        &Plan::Native {
            fallback: Some(false),
        },
        &mut terminal,
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "did not wait for the stuck call"
    );
    assert_eq!(out.backend_used, "osc52");
    assert!(!out.confirmed);
    assert!(
        out.message.contains("did not answer within 0.1 s"),
        "{}",
        out.message
    );
    assert!(
        out.message.contains("cannot be confirmed"),
        "{}",
        out.message
    );
    assert_eq!(terminal, b"\x1b]52;c;aGk=\x1b\\");
}

#[test]
fn an_explicit_native_request_does_not_fall_back() {
    let mut terminal = Vec::new();
    let out = copier(Arc::new(Stuck)).run("hi", &Plan::Native { fallback: None }, &mut terminal);
    assert_eq!(out.backend_used, "native");
    assert!(!out.confirmed);
    assert!(terminal.is_empty());
}

#[test]
fn a_failing_native_clipboard_falls_back_to_tmux_wrapped_osc52() {
    let mut terminal = Vec::new();
    let out = copier(Arc::new(Failing)).run(
        "hi",
        &Plan::Native {
            fallback: Some(true),
        },
        &mut terminal,
    );
    assert_eq!(out.backend_used, "osc52+tmux");
    assert!(
        out.message
            .starts_with("The system clipboard failed (no X server)"),
        "{}",
        out.message
    );
    assert_eq!(terminal, b"\x1bPtmux;\x1b\x1b]52;c;aGk=\x1b\x1b\\\x1b\\");
}

#[test]
fn a_verified_native_copy_is_confirmed_and_stripped_of_controls() {
    let native = Arc::new(Recording::default());
    let mut terminal = Vec::new();
    let out = copier(native.clone()).run(
        "a\u{1b}[2Jb\n\tc\r",
        &Plan::Native {
            fallback: Some(false),
        },
        &mut terminal,
    );
    assert!(out.confirmed);
    assert_eq!(out.backend_used, "native");
    assert_eq!(native.0.lock().unwrap().as_slice(), ["a[2Jb\n\tc"]);
    assert!(terminal.is_empty());
}

#[test]
fn osc52_is_never_confirmed() {
    let mut terminal = Vec::new();
    let out = copier(Arc::new(Failing)).run("hi", &Plan::Osc52 { tmux: false }, &mut terminal);
    assert!(!out.confirmed);
    assert!(out.sent, "written to the terminal");
    assert!(out.message.contains("cannot be confirmed"));
    assert_eq!(terminal, b"\x1b]52;c;aGk=\x1b\\");
}

#[test]
fn tmux_buffer_success_and_failure_are_reported() {
    let buffer = Arc::new(Recording::default());
    let ok = Copier::new(Arc::new(Failing), buffer.clone(), Duration::from_secs(5));
    let out = ok.run("text", &Plan::Tmux, &mut Vec::new());
    assert!(out.confirmed, "{out:?}");
    assert_eq!(out.backend_used, "tmux+clipboard");
    assert_eq!(
        out.message,
        "In tmux's buffer (read back) and, via tmux, the clipboard."
    );
    assert_eq!(buffer.0.lock().unwrap().as_slice(), ["text"]);
    let only = Copier::new(
        Arc::new(Failing),
        Arc::new(BufferOnly),
        Duration::from_secs(5),
    );
    let out = only.run("text", &Plan::Tmux, &mut Vec::new());
    assert!(out.confirmed, "{out:?}");
    assert_eq!(out.backend_used, "tmux");
    assert_eq!(
        out.message,
        "In tmux's buffer (read back) only: tmux's set-clipboard is off."
    );
    let out = copier(Arc::new(Failing)).run("text", &Plan::Tmux, &mut Vec::new());
    assert!(!out.confirmed);
    assert!(out.message.contains("no server running"));
}

#[test]
fn file_backend_writes_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("prompt.txt");
    let out =
        copier(Arc::new(Failing)).run("x\u{7}y\n", &Plan::File(path.clone()), &mut Vec::new());
    assert!(out.confirmed);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "xy\n");
    let missing = dir.path().join("no/such/dir/p.txt");
    let out = copier(Arc::new(Failing)).run("x", &Plan::File(missing), &mut Vec::new());
    assert!(!out.confirmed);
    assert!(out.message.starts_with("Not copied"));
}

#[test]
fn off_copies_nothing() {
    let mut terminal = Vec::new();
    let out = copier(Arc::new(Failing)).run("x", &Plan::Off, &mut terminal);
    assert_eq!(out.backend_used, "off");
    assert!(!out.confirmed);
    assert!(!out.sent);
    assert!(terminal.is_empty());
}

/// A terminal that refuses writes.
struct Closed;
impl Write for Closed {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("no terminal"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn osc52_to_a_closed_terminal_is_not_sent() {
    let out = copier(Arc::new(Failing)).run("hi", &Plan::Osc52 { tmux: false }, &mut Closed);
    assert!(!out.sent);
    assert_eq!(
        out.message,
        "Could not write OSC 52 to the terminal: no terminal."
    );
}
