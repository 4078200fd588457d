//! The real binary in a real terminal: a tmux server of its own per test, a pane of
//! a given size, keys sent by name, the screen captured, and the pane's state
//! (alternate screen, cursor, mouse modes, its tty) read back from tmux.
//!
//! Waits poll with a generous deadline; running out of time is a failure that
//! prints the screen, not a timing assertion.
//!
//! The server's socket and the pane's `TMPDIR` are in a temporary folder of the
//! test's own, so dropping a `Tmux` (also when the test fails) kills the server and
//! removes everything it and the program in the pane left.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::needs;

pub const DEADLINE: Duration = Duration::from_secs(10);

pub struct Tmux {
    socket: PathBuf,
    session: String,
    /// Holds the socket and the pane's `TMPDIR`; removed after the server is killed.
    dir: tempfile::TempDir,
}

impl Tmux {
    /// Runs `command` (a shell command line) in a new 120×40 pane.
    pub fn start(command: &str) -> Tmux {
        Tmux::start_sized(command, 120, 40)
    }

    pub fn start_sized(command: &str, width: u16, height: u16) -> Tmux {
        needs::tmux();
        let dir = tempfile::Builder::new().prefix("tmux").tempdir().unwrap();
        let pane_tmp = dir.path().join("tmp");
        std::fs::create_dir(&pane_tmp).unwrap();
        // The pane may run as uid 65534 (see `hostile::unprivileged`).
        let mode = |m| std::os::unix::fs::PermissionsExt::from_mode(m);
        std::fs::set_permissions(dir.path(), mode(0o755)).unwrap();
        std::fs::set_permissions(&pane_tmp, mode(0o1777)).unwrap();
        let tmux = Tmux {
            socket: dir.path().join("socket"),
            session: "e2e".to_string(),
            dir,
        };
        let (w, h) = (width.to_string(), height.to_string());
        let status = tmux
            .cmd(&[
                "new-session",
                "-d",
                "-s",
                &tmux.session,
                "-x",
                &w,
                "-y",
                &h,
                command,
            ])
            // The server, started by this command, gives its environment to the pane.
            .env("TMPDIR", &pane_tmp)
            .status()
            .unwrap_or_else(|e| panic!("tmux new-session: {e}"));
        assert!(status.success(), "tmux new-session failed");
        tmux
    }

    /// The server's socket (for a client attached from elsewhere).
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S")
            .arg(&self.socket)
            .args(["-f", "/dev/null"])
            .args(args);
        cmd
    }

    pub fn capture(&self) -> String {
        let out = self
            .cmd(&["capture-pane", "-p", "-t", &self.session])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen with its colours and attributes as SGR escapes (`capture-pane -e`).
    pub fn capture_escapes(&self) -> String {
        let out = self
            .cmd(&["capture-pane", "-p", "-e", "-t", &self.session])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A tmux format expanded for the pane (`#{alternate_on}`, `#{pane_tty}`, …).
    pub fn pane(&self, format: &str) -> String {
        let out = self
            .cmd(&["display-message", "-p", "-t", &self.session, format])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The process the pane's shell runs in the foreground (its one child).
    pub fn shell_child(&self) -> String {
        let shell = self.pane("#{pane_pid}");
        let children =
            std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).unwrap();
        let pids: Vec<&str> = children.split_whitespace().collect();
        assert_eq!(pids.len(), 1, "one child of the pane's shell: {children:?}");
        pids[0].to_string()
    }

    /// Sends keys by tmux name (`j`, `Enter`, `Escape`, `Space`, `C-c`).
    pub fn keys(&self, keys: &[&str]) {
        for key in keys {
            let status = self
                .cmd(&["send-keys", "-t", &self.session, key])
                .status()
                .unwrap();
            assert!(status.success(), "send-keys {key}");
        }
    }

    /// Types text literally.
    pub fn text(&self, text: &str) {
        let status = self
            .cmd(&["send-keys", "-t", &self.session, "-l", text])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Pastes `text` as a terminal does: between bracketed-paste marks when the
    /// program asked for them (tmux `paste-buffer -p`), else as typed keys.
    pub fn paste(&self, text: &str) {
        let set = self
            .cmd(&["set-buffer", "-b", "e2e-paste", "--", text])
            .status()
            .unwrap();
        assert!(set.success(), "set-buffer");
        let paste = self
            .cmd(&["paste-buffer", "-p", "-b", "e2e-paste", "-t", &self.session])
            .status()
            .unwrap();
        assert!(paste.success(), "paste-buffer");
    }

    /// The screen once `done` holds for it and it stayed the same across two
    /// captures: a program writes a frame in pieces, and one capture can fall
    /// between them (the title of the new frame above the rows of the old).
    pub fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        let mut previous = String::new();
        loop {
            let screen = self.capture();
            if done(&screen) && screen == previous {
                return screen;
            }
            previous = screen.clone();
            if start.elapsed() > DEADLINE {
                panic!("waited {DEADLINE:?} for {what}; the screen was:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_for_text(&self, text: &str) -> String {
        self.wait_for(&format!("{text:?} on screen"), |s| s.contains(text))
    }

    /// The dashboard's list of `projects`, read: its first frame says the same
    /// count with `loading…` while the files are still being read, and project
    /// actions wait until then.
    pub fn wait_for_list(&self, projects: usize) -> String {
        let count = format!("Projects {projects} ");
        self.wait_for(&format!("the list of {projects} projects, read"), |s| {
            s.contains(&count) && !s.contains("loading…")
        })
    }

    /// What a tmux command on this test's server prints (`show-buffer`, …).
    pub fn output(&self, args: &[&str]) -> String {
        let out = self.cmd(args).output().unwrap();
        assert!(out.status.success(), "tmux {args:?} failed");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn running(&self) -> bool {
        self.cmd(&["has-session", "-t", &self.session])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Tmux {
    /// Ends the tmux server: every pane's terminal hangs up.
    pub fn kill_server(&self) {
        let _ = self.cmd(&["kill-server"]).stderr(Stdio::null()).status();
    }
}

/// Whether process `pid` has ended (gone, or a zombie no one reaped yet).
pub fn process_ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => true,
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]).stderr(Stdio::null()).status();
        // Then `dir` goes: the socket and whatever the pane left in its TMPDIR.
    }
}

pub fn wait_until(what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < DEADLINE, "waited {DEADLINE:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `path` quoted for a POSIX shell.
pub fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

/// A fresh copy of the demo workspace in `tmp/workspace`, as a canonical path.
pub fn demo_workspace(tmp: &Path) -> PathBuf {
    let root = tmp.join("workspace");
    resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
    std::fs::canonicalize(&root).unwrap()
}

/// The dashboard on `root` in colour, its config under `tmp`.
pub fn dashboard(tmp: &Path, root: &Path) -> String {
    dashboard_with(tmp, root, "", "")
}

/// The dashboard on `root` in colour, its config under `tmp`, with `env`
/// (`NAME=value …`) before it and `args` after it.
pub fn dashboard_with(tmp: &Path, root: &Path, env: &str, args: &str) -> String {
    format!(
        "env -u NO_COLOR XDG_CONFIG_HOME={} TERM=xterm-256color {env} {} --root {} {args}",
        quote(&tmp.join("xdg")),
        quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
        quote(root)
    )
}
