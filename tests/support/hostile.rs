//! Shared by the fault, limit and security tests: running the real binary over a
//! workspace, as an unprivileged user when this process is root, on a tiny tmpfs for
//! disk-full cases, and checking output for characters a terminal must never get.
#![allow(dead_code)]

use std::io::Read;

use crate::needs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

fn finish(out: Output) -> Run {
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn write(root: &Path, rel: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// A file of `size` bytes starting with `head`, the rest a hole (no disk used).
pub fn sparse(root: &Path, rel: &str, head: &str, size: u64) -> PathBuf {
    let path = write(root, rel, head);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(size)
        .unwrap();
    path
}

/// A named pipe at `root/rel`: opening it to read blocks until a writer comes.
pub fn fifo(root: &Path, rel: &str) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
    path
}

/// The `resume-tui` binary, run through `prefix` (a program and its arguments,
/// e.g. `setpriv …`) when there is one.
fn binary_through(prefix: &[String]) -> Command {
    let binary = cargo_bin("resume-tui");
    match prefix.split_first() {
        Some((program, rest)) => {
            let mut cmd = Command::new(program);
            cmd.args(rest).arg(binary);
            cmd
        }
        None => Command::new(binary),
    }
}

/// `resume-tui --root ROOT ARGS…` with a clean environment (no user config, no
/// Claude variables); `prefix` runs it through another program (e.g. `setpriv`).
pub fn cli_command(prefix: &[String], root: &Path, args: &[&str]) -> Command {
    let mut cmd = binary_through(prefix);
    cmd.arg("--root")
        .arg(root)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", root.join(".no-home"))
        .env("RESUME_TUI_CONFIG", root.join(".no-config.toml"))
        .env("RESUME_TUI_LOG_DIR", root.join(".no-home/log"))
        .stdin(Stdio::null());
    cmd
}

pub fn cli(root: &Path, args: &[&str]) -> Run {
    finish(cli_command(&[], root, args).output().unwrap())
}

/// `prompt ID --copy` with a file clipboard under `root`; it must succeed. The run
/// and what was copied.
pub fn copy_prompt(root: &Path, id: &str) -> (Run, String) {
    let clip = root.join("clip.txt");
    let backend = format!("file:{}", clip.display());
    let run = cli(root, &["prompt", id, "--copy", "--clipboard", &backend]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let copied = std::fs::read_to_string(&clip).unwrap();
    (run, copied)
}

pub fn cli_as_nobody(root: &Path, args: &[&str]) -> Run {
    finish(cli_command(&unprivileged(), root, args).output().unwrap())
}

/// Runs the CLI with its address space capped (see [`capped`]); one that blocks
/// fails after [`HANG`] instead of hanging the suite.
pub fn cli_capped(root: &Path, args: &[&str]) -> Run {
    let mut cmd = cli_command(&capped(), root, args);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    finish_or_kill(cmd.spawn().unwrap(), &args.join(" "))
}

/// The program prefix that drops root privileges (uid/gid 65534), or nothing when
/// this process is not root. Permission tests need it: root reads mode-000 files.
pub fn unprivileged() -> Vec<String> {
    if !is_root() {
        return Vec::new();
    }
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("running as root: `setpriv` (util-linux) is needed to run as an unprivileged user");
    ["--reuid=65534", "--regid=65534", "--clear-groups"]
        .into_iter()
        .map(String::from)
        .fold(vec![setpriv.to_string()], |mut v, a| {
            v.push(a);
            v
        })
}

pub use needs::is_root;

/// Lets the unprivileged user (65534) reach and change everything under `dir`.
pub fn hand_to_nobody(dir: &Path) {
    if is_root() {
        let status = Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(dir)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

pub fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

pub fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// A tmpfs of `kib` KiB mounted on a fresh folder, unmounted when dropped. Needs
/// root (CAP_SYS_ADMIN): only for tests marked
/// `#[cfg_attr(not(resume_tui_root), ignore = "needs RESUME_TUI_ROOT=1 (and root)")]`.
pub struct TinyDisk {
    pub dir: tempfile::TempDir,
}

impl TinyDisk {
    pub fn mount(kib: u32) -> TinyDisk {
        needs::root();
        let dir = tempfile::tempdir().unwrap();
        let status = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={kib}k,mode=0755"),
                "tmpfs",
            ])
            .arg(dir.path())
            .status();
        assert!(
            matches!(status, Ok(s) if s.success()),
            "mount -t tmpfs (size {kib} KiB) failed, as root: {status:?}"
        );
        TinyDisk { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills the disk with a file until fewer than `leave` bytes are free.
    pub fn fill(&self, leave: usize) {
        use std::io::Write;
        let mut file = std::fs::File::create(self.path().join(".filler")).unwrap();
        let block = vec![b'x'; 1024];
        while file.write_all(&block).is_ok() {}
        drop(file);
        // Give back what was asked for.
        let filler = self.path().join(".filler");
        let len = std::fs::metadata(&filler).unwrap().len();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&filler)
            .unwrap();
        f.set_len(len.saturating_sub(leave as u64)).unwrap();
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// Characters a terminal, clipboard or injection must never get unescaped.
pub fn unsafe_chars(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
        })
        .collect()
}

pub fn assert_safe(what: &str, text: &str) {
    let found = unsafe_chars(text);
    assert!(found.is_empty(), "{what} holds {found:?}:\n{text}");
}

/// Every file under `dir` (relative paths, sorted), for "nothing left behind" checks.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(dir).unwrap().display().to_string();
            if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                stack.push(path);
            }
            out.push(rel);
        }
    }
    out.sort();
    out
}

/// A program prefix that runs the binary through `sh` after `setup` (e.g.
/// `ulimit -v 1048576`, `umask 022`).
pub fn shell_prefix(setup: &str) -> Vec<String> {
    let script = format!("{setup} && exec \"$0\" \"$@\"");
    ["sh", "-c", &script]
        .into_iter()
        .map(String::from)
        .collect()
}

/// Runs the binary with its address space capped at 1 GiB.
pub fn capped() -> Vec<String> {
    shell_prefix("ulimit -v 1048576")
}

/// Far beyond any real hook run: only so that a hook that blocks fails its test
/// instead of hanging the suite. Never a measure of speed.
pub const HANG: Duration = Duration::from_secs(120);

/// Waits for `child`, reading both outputs; kills it and fails after [`HANG`].
pub fn finish_or_kill(mut child: Child, what: &str) -> Run {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    let (stdout, stderr) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {HANG:?}, so it blocked; killed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
    }
}

/// Every file under `root` but the `.no-home` folder, with its bytes (folders
/// as empty), for "no byte changed, nothing left behind" checks.
pub fn contents(root: &Path) -> Vec<(String, Vec<u8>)> {
    tree(root)
        .into_iter()
        .filter(|rel| !rel.starts_with(".no-home"))
        .map(|rel| {
            let bytes = std::fs::read(root.join(&rel)).unwrap_or_default();
            (rel, bytes)
        })
        .collect()
}

/// `resume-tui hook ARGS…` for the project folder `root`, logging into `log_dir`,
/// with `stdin`; `prefix` as in [`cli_command`]. Returns the run (hooks exit 0);
/// a run that blocks fails (see [`HANG`]).
pub fn hook(prefix: &[String], root: &Path, log_dir: &Path, args: &[&str], stdin: &str) -> Run {
    use std::io::Write;
    let mut cmd = binary_through(prefix);
    cmd.arg("hook")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", log_dir.join("home"))
        .env("RESUME_TUI_LOG_DIR", log_dir)
        .env("CLAUDE_PROJECT_DIR", root)
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    finish_or_kill(child, &format!("hook {}", args.join(" ")))
}

/// The hook event JSON Claude Code sends.
pub fn event(name: &str, root: &Path, extra: serde_json::Value) -> String {
    let mut value = serde_json::json!({
        "hook_event_name": name,
        "session_id": "sess-fault",
        "cwd": root,
    });
    if let (Some(map), serde_json::Value::Object(extra)) = (value.as_object_mut(), extra) {
        map.extend(extra);
    }
    value.to_string()
}
