//! The dashboard gives the terminal back as it found it — raw mode off, the
//! alternate screen left, the cursor shown, mouse capture off — when it quits, when
//! its run loop fails, when it panics (the test-only `RESUME_TUI_TEST_FAULT` makes
//! it), and when it cannot start.
//!
//! Each case runs the real binary from a shell in a tmux pane. The shell records
//! `stty -a` before and after it, and the exit code; tmux tells whether the pane is
//! on the alternate screen, shows the cursor and reports the mouse. While the
//! dashboard runs, the same checks see raw mode, the alternate screen and the mouse
//! on, so they can tell the difference.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::{Path, PathBuf};

use tmux::{Tmux, process_ended, quote, wait_until};

/// What tmux says about the pane's terminal.
#[derive(Debug, PartialEq, Eq)]
struct PaneState {
    alternate_screen: bool,
    cursor_shown: bool,
    mouse_reported: bool,
}

const AS_FOUND: PaneState = PaneState {
    alternate_screen: false,
    cursor_shown: true,
    mouse_reported: false,
};

struct Session {
    tmux: Tmux,
    dir: tempfile::TempDir,
}

impl Session {
    /// `resume-tui ARGS` from a shell in a 100×30 pane, with `env` (`NAME=value …`),
    /// over a copy of the demo workspace (`--root` is given unless `args` has one or
    /// `--demo`).
    fn start(env: &str, args: &str) -> Session {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        let root = dir.path().join("workspace");
        resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
        let root_arg = if args.contains("--root") || args.contains("--demo") {
            String::new()
        } else {
            format!("--root {}", quote(&root))
        };
        let file = |name: &str| quote(&dir.path().join(name));
        let command = format!(
            "stty -a > {before}; \
             env -u NO_COLOR -u RUST_LIB_BACKTRACE RUST_BACKTRACE=0 TERM=xterm-256color \
             HOME={home} XDG_CONFIG_HOME={home} RESUME_TUI_CONFIG={config} TMPDIR={tmp} {env} \
             {bin} {root_arg} {args}; \
             echo \"resume-tui exited: $?\"; stty -a > {after}; echo 'stty recorded'; \
             exec sleep 600",
            before = file("stty-before.txt"),
            after = file("stty-after.txt"),
            home = file("home"),
            config = file("no-config.toml"),
            tmp = file("tmp"),
            bin = quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
        );
        Session {
            tmux: Tmux::start_sized(&command, 100, 30),
            dir,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn pane_state(&self) -> PaneState {
        let flags = self.tmux.pane(
            "#{alternate_on} #{cursor_flag} #{mouse_any_flag}#{mouse_button_flag}\
             #{mouse_standard_flag}#{mouse_sgr_flag}#{mouse_utf8_flag}",
        );
        let parts: Vec<&str> = flags.split(' ').collect();
        assert_eq!(parts.len(), 3, "tmux pane flags: {flags:?}");
        PaneState {
            alternate_screen: parts[0] == "1",
            cursor_shown: parts[1] == "1",
            mouse_reported: parts[2].contains('1'),
        }
    }

    /// What is left in the folder given to the dashboard as `TMPDIR`.
    fn temporary_files(&self) -> Vec<String> {
        std::fs::read_dir(self.path("tmp"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    /// `stty -a` of the pane's terminal, read from outside while the dashboard runs.
    fn stty_now(&self) -> String {
        let tty = self.tmux.pane("#{pane_tty}");
        let out = std::process::Command::new("stty")
            .args(["-a", "-F", &tty])
            .output()
            .unwrap();
        assert!(out.status.success(), "stty -F {tty}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits for the dashboard and checks that it has taken the terminal over.
    fn wait_until_up(&self) {
        self.tmux.wait_for_list(11);
        let stty = self.stty_now();
        assert!(
            has(&stty, "-icanon") && has(&stty, "-echo"),
            "raw mode while it runs:\n{stty}"
        );
        assert_eq!(
            self.pane_state(),
            PaneState {
                alternate_screen: true,
                cursor_shown: false,
                mouse_reported: true,
            }
        );
    }

    /// Waits for the shell to record the exit; returns the exit code and the screen.
    fn finish(&self) -> (i32, String) {
        let screen = self.tmux.wait_for_text("stty recorded");
        let code = screen
            .lines()
            .find_map(|l| l.strip_prefix("resume-tui exited: "))
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or_else(|| panic!("no exit line at the start of a line:\n{screen}"));
        (code, screen)
    }

    /// The terminal is as the shell had it before the dashboard.
    fn assert_restored(&self, screen: &str) {
        let before = std::fs::read_to_string(self.path("stty-before.txt")).unwrap();
        let after = std::fs::read_to_string(self.path("stty-after.txt")).unwrap();
        for flag in ["icanon", "echo", "isig", "icrnl", "opost"] {
            assert!(has(&after, flag), "{flag} is back on:\n{after}\n{screen}");
        }
        assert_eq!(after, before, "every terminal mode as before");
        assert_eq!(self.pane_state(), AS_FOUND, "{screen}");
    }
}

/// Whether `stty -a` output lists `flag` exactly (`echo`, not `-echo` or `echoe`).
fn has(stty: &str, flag: &str) -> bool {
    stty.split([' ', ';', '\n']).any(|word| word == flag)
}

/// The lines of `screen` that start with `prefix` at column 0.
fn line_starting<'s>(screen: &'s str, prefix: &str) -> &'s str {
    screen
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with {prefix:?}:\n{screen}"))
}

/// The dashboard with `RESUME_TUI_TEST_FAULT=fault`, struck by a key press: it
/// exits with `code` and gives the terminal back. Returns the screen after.
fn struck(fault: &str, code: i32) -> String {
    let session = Session::start(&format!("RESUME_TUI_TEST_FAULT={fault}"), "");
    session.wait_until_up();
    session.tmux.keys(&["j"]);
    let (exit, screen) = session.finish();
    assert_eq!(exit, code, "{fault}: the exit code:\n{screen}");
    session.assert_restored(&screen);
    assert!(
        !screen.contains("Projects 11"),
        "the dashboard's screen went with the alternate screen:\n{screen}"
    );
    screen
}

/// Readable: each line of the report starts at column 0 (in raw mode a newline does
/// not return the carriage, and the lines run down in a staircase).
fn assert_readable_panic_report(screen: &str, message: &str) {
    line_starting(screen, "The application panicked (crashed).");
    let line = line_starting(screen, "Message:");
    assert!(line.contains(message), "{screen}");
    let location = line_starting(screen, "Location:");
    assert!(location.contains("test_fault.rs"), "{screen}");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_panic_in_the_run_loop_restores_the_terminal_and_prints_a_readable_report() {
    let screen = struck("panic", 101);
    assert_readable_panic_report(&screen, "RESUME_TUI_TEST_FAULT=panic:");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_panic_on_another_thread_ends_the_dashboard_with_the_terminal_restored() {
    // Restoring the terminal and going on would leave the dashboard drawing on a
    // terminal it gave back: it ends, with the report.
    let screen = struck("panic-in-thread", 101);
    assert_readable_panic_report(&screen, "RESUME_TUI_TEST_FAULT=panic-in-thread:");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn an_error_in_the_run_loop_restores_the_terminal_and_says_why() {
    let screen = struck("error", 1);
    let error = line_starting(&screen, "resume-tui: terminal:");
    assert!(error.contains("RESUME_TUI_TEST_FAULT=error"), "{screen}");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn quitting_restores_the_terminal() {
    for keys in [&["q"][..], &["l", "C-c"][..]] {
        let session = Session::start("", "");
        session.wait_until_up();
        session.tmux.keys(keys);
        let (code, screen) = session.finish();
        assert_eq!(code, 0, "{keys:?}:\n{screen}");
        session.assert_restored(&screen);
        assert_eq!(
            screen.lines().find(|l| !l.is_empty()),
            Some("resume-tui exited: 0"),
            "nothing else printed:\n{screen}"
        );
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_startup_error_leaves_the_terminal_as_it_was_and_says_why() {
    let session = Session::start("", "--root /nonexistent/workspace");
    let (code, screen) = session.finish();
    assert_eq!(code, 1, "{screen}");
    session.assert_restored(&screen);
    line_starting(&screen, "resume-tui: /nonexistent/workspace: not a folder");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_fault_trigger_is_inert_unless_asked_for() {
    // Any other value changes nothing: keys work, and quitting is clean.
    let session = Session::start("RESUME_TUI_TEST_FAULT=1", "");
    session.wait_until_up();
    session.tmux.keys(&["j", "q"]);
    let (code, screen) = session.finish();
    assert_eq!(code, 0, "{screen}");
    session.assert_restored(&screen);
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_terminating_signal_restores_the_terminal_and_removes_the_demo_folder() {
    for (signal, number) in [("TERM", 15), ("HUP", 1), ("INT", 2), ("QUIT", 3)] {
        let session = Session::start("", "--demo");
        session.wait_until_up();
        assert_eq!(session.temporary_files().len(), 1, "the demo is unpacked");
        let pid = session.tmux.shell_child();
        let kill = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .unwrap();
        assert!(kill.success(), "kill -{signal} {pid}");
        let (code, screen) = session.finish();
        assert_eq!(
            code,
            128 + number,
            "SIG{signal}: the shell's code:\n{screen}"
        );
        session.assert_restored(&screen);
        assert_eq!(
            session.temporary_files(),
            Vec::<String>::new(),
            "SIG{signal}: the demo folder is removed"
        );
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_hang_up_from_the_terminal_closing_removes_the_demo_folder() {
    // The terminal going away sends SIGHUP more than once (the closing pty and the
    // program that closed it): the first is handled as a quit, the rest wait on it.
    let session = Session::start("", "--demo");
    session.wait_until_up();
    let pid = session.tmux.shell_child();
    session.tmux.kill_server();
    wait_until("the dashboard to end", || process_ended(&pid));
    assert_eq!(
        session.temporary_files(),
        Vec::<String>::new(),
        "the demo folder is removed"
    );
}
