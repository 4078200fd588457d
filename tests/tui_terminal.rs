//! What a terminal does to the dashboard, through the real binary in tmux from an
//! interactive bash (job control on): a paste is text, never keys; Ctrl-Z and
//! `kill -TSTP` suspend it with the terminal given back, and `fg` sets it up again
//! and redraws it whole.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tmux::{Tmux, quote};

struct Shell {
    tmux: Tmux,
    dir: tempfile::TempDir,
}

impl Shell {
    /// An interactive bash in a 100×30 pane, beside a copy of the demo workspace.
    fn start() -> Shell {
        let dir = tempfile::tempdir().unwrap();
        resume_tui::io::demo::unpack_into(
            &dir.path().join("workspace"),
            resume_tui::io::clock::now(),
        )
        .unwrap();
        let command = format!(
            "env -u NO_COLOR PS1='$ ' HISTFILE= HOME={home} bash --norc --noprofile -i",
            home = quote(&dir.path().join("home")),
        );
        let shell = Shell {
            tmux: Tmux::start_sized(&command, 100, 30),
            dir,
        };
        shell.tmux.wait_for_text("$");
        shell
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn type_line(&self, line: &str) {
        self.tmux.text(line);
        self.tmux.keys(&["Enter"]);
    }

    /// Runs a command line and waits for the file it ends by writing.
    fn run_until_file(&self, line: &str, file: &str) {
        let _ = std::fs::remove_file(self.path(file));
        self.type_line(&format!("{line}; echo done > {}", quote(&self.path(file))));
        tmux::wait_until(&format!("{line} to finish"), || self.path(file).exists());
    }

    /// `stty -a` as the shell sees it. Typed only once bash holds the terminal
    /// again: a dashboard still ending (its screen already cleared) would read
    /// part of the line as keys.
    fn stty(&self, file: &str) -> String {
        tmux::wait_until("bash to hold the terminal", || {
            self.tmux.pane("#{pane_current_command}") == "bash"
        });
        self.run_until_file(&format!("stty -a > {}", quote(&self.path(file))), "ran");
        std::fs::read_to_string(self.path(file)).unwrap()
    }

    /// Starts the dashboard on the workspace copy and waits for its first screen.
    fn open_dashboard(&self) {
        self.tmux.keys(&["C-l"]);
        self.type_line(&format!(
            "TERM=xterm-256color XDG_CONFIG_HOME={home} RESUME_TUI_CONFIG={home}/none.toml \
             {bin} --root {root}",
            home = quote(&self.path("home")),
            bin = quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
            root = quote(&self.path("workspace")),
        ));
        self.tmux.wait_for_list(11);
    }

    /// `#{alternate_on}` and whether the mouse is reported.
    fn alternate_and_mouse(&self) -> (bool, bool) {
        let flags = self
            .tmux
            .pane("#{alternate_on} #{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}");
        let (alt, mouse) = flags.split_once(' ').unwrap();
        (alt == "1", mouse.contains('1'))
    }

    fn raw_now(&self) -> bool {
        let tty = self.tmux.pane("#{pane_tty}");
        let out = std::process::Command::new("stty")
            .args(["-a", "-F", &tty])
            .output()
            .unwrap();
        let stty = String::from_utf8_lossy(&out.stdout).into_owned();
        let has = |flag: &str| stty.split([' ', ';', '\n']).any(|w| w == flag);
        has("-icanon") && has("-echo")
    }
}

/// Every file under `root` with its bytes.
fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, &mut out);
    out
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_paste_is_text_for_the_filter_and_never_keys() {
    let shell = Shell::start();
    let before = files(&shell.path("workspace"));
    shell.open_dashboard();
    // On the Compaction tab, `a`/`A` acknowledge, `s` sorts, digits switch tabs, `q` quits.
    shell.tmux.keys(&["3"]);
    shell.tmux.wait_for_text("trigger");
    shell.tmux.paste("A merge note: see cx-002, then 2 and q\n");
    let screen = shell.tmux.wait_for_text("paste ignored");
    assert!(screen.contains("trigger"), "still on Compaction:\n{screen}");
    assert!(
        screen.contains("▸ ⚑1  ● payouts-v2"),
        "the same order and selection:\n{screen}"
    );
    assert!(screen.contains("⚑1"), "nothing acknowledged:\n{screen}");
    // In the filter a paste is the filter's text.
    shell.tmux.keys(&["/"]);
    shell.tmux.paste("audit");
    let screen = shell.tmux.wait_for_text("Projects 1/11");
    assert!(screen.contains("/audit"), "{screen}");
    // Enter keeps the filter; `q` clears it, then quits.
    shell.tmux.keys(&["Enter", "q", "q"]);
    shell
        .tmux
        .wait_for("the dashboard to end", |s| !s.contains("Projects"));
    assert!(
        files(&shell.path("workspace")) == before,
        "every file's bytes as they were"
    );
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn ctrl_z_and_sigtstp_suspend_with_the_terminal_given_back_and_fg_redraws() {
    let shell = Shell::start();
    let cooked = shell.stty("stty-before.txt");
    shell.open_dashboard();
    for (how, suspend) in [
        (
            "Ctrl-Z",
            &(|s: &Shell| s.tmux.keys(&["C-z"])) as &dyn Fn(&Shell),
        ),
        ("kill -TSTP", &|s: &Shell| {
            let status = std::process::Command::new("kill")
                .args(["-TSTP", &s.tmux.shell_child()])
                .status()
                .unwrap();
            assert!(status.success());
        }),
    ] {
        assert!(shell.raw_now(), "{how}: raw mode while it runs");
        suspend(&shell);
        let screen = shell.tmux.wait_for_text("Stopped");
        assert_eq!(
            shell.alternate_and_mouse(),
            (false, false),
            "{how}:\n{screen}"
        );
        assert_eq!(
            shell.tmux.pane("#{cursor_flag}"),
            "1",
            "{how}: cursor shown"
        );
        assert_eq!(
            shell.stty("stty-suspended.txt"),
            cooked,
            "{how}: modes as before"
        );
        shell.tmux.keys(&["C-l"]);
        shell.type_line("fg");
        // Redrawn whole, with keys read at once (no Enter needed).
        // (A frame is written in pieces: wait for its first and last lines.)
        let screen = shell.tmux.wait_for("the whole screen", |s| {
            s.contains("Projects 11") && s.contains("j down")
        });
        assert!(
            screen.contains("payouts-v2"),
            "{how}: the whole screen:\n{screen}"
        );
        assert_eq!(shell.alternate_and_mouse(), (true, true), "{how}");
        assert!(shell.raw_now(), "{how}: raw mode again");
        shell.tmux.keys(&["2"]);
        shell.tmux.wait_for_text("iteration");
        shell.tmux.keys(&["1"]);
        shell.tmux.wait_for_text("Next step");
    }
    shell.tmux.keys(&["q"]);
    shell
        .tmux
        .wait_for("the dashboard to end", |s| !s.contains("Projects"));
    assert_eq!(shell.stty("stty-after.txt"), cooked, "modes as before");
}

/// The dashboard alone in a 100×30 pane with `env` (`NAME=value …`) on a copy of
/// the demo; the pane's shell prints its exit code after it.
fn dashboard_with(env: &str) -> (Tmux, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("workspace");
    resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
    let home = dir.path().join("home");
    let command = format!(
        "env -u NO_COLOR -u COLORTERM -u STY -u LC_ALL -u LC_CTYPE LANG=C.UTF-8 \
         HOME={home} XDG_CONFIG_HOME={home} RESUME_TUI_CONFIG={config} {env} \
         {bin} --root {root}; echo \"exited: $?\"; exec sleep 600",
        home = quote(&home),
        config = quote(&home.join("none.toml")),
        bin = quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
        root = quote(&root),
    );
    (Tmux::start_sized(&command, 100, 30), dir)
}

/// Which kinds of colour the screen's escapes set: [24-bit, 256-palette from 16
/// up, the 16 named colours]. tmux writes a named colour as `38;5;N` with N < 16.
fn colour_kinds(escapes: &str) -> [bool; 3] {
    let truecolor = escapes.contains("38;2;") || escapes.contains("48;2;");
    let mut indexed = false;
    let mut basic = false;
    for part in escapes.split("8;5;").skip(1) {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        match digits.parse::<u16>() {
            Ok(n) if n >= 16 => indexed = true,
            Ok(_) => basic = true,
            Err(_) => {}
        }
    }
    let sgr_basic = (30..38)
        .chain(40..48)
        .chain(90..98)
        .chain(100..108)
        .any(|n| escapes.contains(&format!("[{n}m")) || escapes.contains(&format!(";{n}m")));
    [truecolor, indexed, basic || sgr_basic]
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn term_colorterm_and_lang_decide_the_colours_glyphs_and_modes() {
    // (environment, [24-bit, 256, 16 colours sent], ASCII only, alternate screen and mouse)
    let cases = [
        (
            "TERM=xterm-256color COLORTERM=truecolor",
            [true, false, true],
            false,
            true,
        ),
        ("TERM=xterm-256color", [false, true, true], false, true),
        (
            "TERM=screen STY=1.pts-0.host COLORTERM=truecolor",
            [false, false, true],
            false,
            true,
        ),
        ("TERM=linux", [false, false, true], true, true),
        (
            "TERM=xterm-256color LANG=C",
            [false, true, true],
            true,
            true,
        ),
        (
            "TERM=xterm-256color LANG=de_DE.ISO-8859-1",
            [false, true, true],
            true,
            true,
        ),
        ("TERM=vt100", [false, false, false], true, false),
    ];
    for (env, colours, ascii, modes) in cases {
        let (tmux, _dir) = dashboard_with(env);
        let screen = tmux.wait_for_list(11);
        let escapes = tmux.capture_escapes();
        assert_eq!(
            colour_kinds(&escapes),
            colours,
            "{env}: colours sent:\n{escapes}"
        );
        assert_eq!(screen.is_ascii(), ascii, "{env}: ASCII only:\n{screen}");
        if !ascii {
            assert!(
                screen.contains('⚑') && screen.contains('┌'),
                "{env}:\n{screen}"
            );
        }
        let flags = tmux
            .pane("#{alternate_on} #{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}");
        let expected = if modes { "1 " } else { "0 000" };
        assert!(
            flags.starts_with(expected) && (modes == flags.contains('1')),
            "{env}: alternate screen and mouse: {flags}"
        );
        tmux.keys(&["q"]);
        let after = tmux.wait_for_text("exited: 0");
        assert!(
            !after.contains("Projects 11"),
            "{env}: the screen is left clean:\n{after}"
        );
    }
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn term_dumb_is_refused_with_a_reason() {
    let (tmux, _dir) = dashboard_with("TERM=dumb");
    let screen = tmux.wait_for_text("exited: 1");
    assert!(
        screen.contains(
            "resume-tui: TERM=dumb: the dashboard needs a terminal that can move the cursor"
        ),
        "{screen}"
    );
    assert!(!colour_kinds(&tmux.capture_escapes()).contains(&true));
    assert_eq!(tmux.pane("#{alternate_on}"), "0");
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn a_burst_of_keys_is_followed_to_its_last_key() {
    // 3,000 keys reach the terminal at once, far past one 1 KiB read: the screen
    // must follow them to the last one (`3`, the Compaction tab) with no key after.
    let (tmux, _dir) = dashboard_with("TERM=xterm-256color");
    tmux.wait_for_list(11);
    let burst = format!("{}3", "jk".repeat(1500));
    tmux.text(&burst);
    let screen = tmux.wait_for_text("trigger");
    assert!(
        screen.contains("▸ ⚑1  ● payouts"),
        "back on the first row:\n{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for_text("exited: 0");
}
