//! Dashboard scale, measured on the built binary (docs/performance.md, "Dashboard
//! scale"): for 1,000 and 10,000 generated projects (`support/generate.rs`, like the
//! corpus), the first frame (rows still loading, `--render-once 120x40
//! --render-first`) and the frame with every file read (`--render-once 120x40`)
//! with their peak RSS, then, in a tmux pane, the dashboard itself: the first
//! screen with projects, the screen with the rows read, its peak RSS
//! once the full pass is in, and the time from one file changing on disk to the
//! screen showing it (a state file replaced as editors and the write path do, a new
//! checkpoint, the hooks' context record).
//!
//! `cargo bench --bench dashboard_scale` (both sizes), or
//! `cargo bench --bench dashboard_scale -- 1000` (one). `RUNS=N` changes the
//! repetitions (default 10); `BIN=PATH` measures another build of the binary. The workspaces are kept in `target/scale-bench-N/` and
//! reused. The change latency needs tmux; without it that part says so and stops.
//!
//! A change's time is from the `rename` (or write) returning to the first
//! `tmux capture-pane` that shows it: capture-pane is polled back to back, and one
//! capture's own time (printed) bounds how late a change can be seen. The start is
//! read every `START_POLL` instead: polled back to back for the whole start, tmux
//! took one of a 2-core machine's CPUs from the dashboard's walk (docs/performance.md,
//! round 8), so the start is seen up to `START_POLL` late rather than slowed.

#[path = "support/generate.rs"]
mod generate;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The binary measured: this build's, or `BIN=PATH` (another build, to compare).
fn bin() -> String {
    std::env::var("BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_resume-tui").to_string())
}
/// The project the change measurements edit (a Jerry workflow of the generated set).
const WATCHED: usize = 500;
const DEADLINE: Duration = Duration::from_secs(60);
/// How often the screen is read while the dashboard starts.
const START_POLL: Duration = Duration::from_millis(10);

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 10_000]
    } else {
        sizes
    };
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(10);
    println!("binary: {}", bin());
    println!("load average: {}", load_average());
    for n in sizes {
        let dir = workspace(n);
        println!("\n== {n} projects ({}) ==", dir.display());
        first_frame(&dir, runs);
        if Command::new("tmux").arg("-V").output().is_err() {
            println!("tmux not found: no live measurements");
            continue;
        }
        live(&dir, n, runs);
    }
    println!("\nload average: {}", load_average());
}

/// `target/scale-bench-N`, generated once (seed 42) and reused.
fn workspace(n: usize) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/scale-bench-{n}"));
    let stamp = dir.join(".generated");
    if !stamp.exists() {
        let _ = std::fs::remove_dir_all(&dir);
        let made = generate::generate(&dir, n, 42).expect("generate the workspace");
        println!("generated: {made}");
        std::fs::write(&stamp, made.to_string()).expect("stamp");
    }
    dir
}

/// `--render-once 120x40 --render-first` (discover, the first frame: rows still
/// loading) and `--render-once 120x40` (discover, the preview pass, the frame
/// with every file read), each then exit. Wall time and peak RSS of each run (the
/// first, a cold start, is counted too).
fn first_frame(dir: &Path, runs: usize) {
    for (label, first) in [
        (
            "first frame, rows loading (--render-once 120x40 --render-first)",
            true,
        ),
        ("frame with every file read (--render-once 120x40)", false),
    ] {
        let mut walls = Vec::new();
        let mut rss = Vec::new();
        for _ in 0..runs {
            let Some((wall, max_rss_kb)) = render_once(dir, first) else {
                break;
            };
            walls.push(wall);
            rss.push(max_rss_kb);
        }
        if walls.is_empty() {
            println!("{label}: not offered by this binary");
            continue;
        }
        println!("{label}, {runs} runs: {}", spread(&walls));
        let (median, min, max) = median_min_max(&rss);
        println!(
            "  peak RSS: {} (median), {}–{}",
            mb(median),
            mb(min),
            mb(max)
        );
    }
}

/// One `--render-once` run: its wall time and peak RSS in KB; `None` when the
/// binary refuses `--render-first` (a build from before it, `BIN=`).
// The child is reaped by `wait4`, which also gives its peak RSS.
#[allow(clippy::zombie_processes)]
fn render_once(dir: &Path, first: bool) -> Option<(Duration, u64)> {
    let started = Instant::now();
    let mut command = Command::new(bin());
    command
        .arg("--root")
        .arg(dir)
        .args(["--render-once", "120x40"]);
    if first {
        command.arg("--render-first");
    }
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run the binary");
    let (status, max_rss_kb) = wait_with_rusage(child.id());
    let wall = started.elapsed();
    if first && status != 0 {
        return None;
    }
    assert!(status == 0, "--render-once failed: status {status}");
    Some((wall, max_rss_kb))
}

/// The dashboard in a 120×40 tmux pane of a server of its own.
fn live(dir: &Path, n: usize, runs: usize) {
    let tmp = tempfile::Builder::new()
        .prefix("scale")
        .tempdir()
        .expect("tmp");
    let tmux = Tmux {
        socket: tmp.path().join("socket"),
    };
    let command = format!("exec '{}' --root '{}'", bin(), dir.display());
    let started = Instant::now();
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "scale",
        "-x",
        "120",
        "-y",
        "40",
        &command,
    ]);
    let title = format!("Projects {n}");
    let (_, shown) = tmux.until_every(START_POLL, |s| s.contains(&title));
    println!(
        "dashboard, start to the list on screen (screen read every {}): {}",
        ms(START_POLL),
        ms(shown.duration_since(started))
    );
    // The header's counts appear once the files are read (the preview pass).
    let (_, read) = tmux.until_every(START_POLL, |s| {
        s.contains(&title) && s.contains(" Jerry ") && !s.contains("loading…")
    });
    println!(
        "  start to the rows read (header counts on screen): {}",
        ms(read.duration_since(started))
    );
    let pid = tmux.output(&["display-message", "-p", "-t", "scale", "#{pane_pid}"]);
    let pid = pid.trim().to_string();
    wait_idle(&pid);
    println!(
        "  after the full pass: {} of CPU, peak RSS {}",
        ms(Duration::from_millis(cpu_ms(&pid))),
        mb(proc_status_kb(&pid, "VmHWM:"))
    );
    let capture_cost = {
        let t = Instant::now();
        for _ in 0..20 {
            tmux.capture();
        }
        t.elapsed() / 20
    };
    println!("  one capture-pane: {}", ms(capture_cost));

    // Select the project the changes are made to.
    let id = format!("bench-{WATCHED:04}-001");
    tmux.run(&["send-keys", "-t", "scale", "/"]);
    tmux.run(&["send-keys", "-t", "scale", "-l", &id]);
    tmux.run(&["send-keys", "-t", "scale", "Enter"]);
    tmux.until(|s| s.contains(&format!("{id} — ")) && s.contains("Next step"));
    wait_idle(&pid);

    let source = dir.join(format!(
        "projects/PROJ-{WATCHED:04}-bench/orchestration/wf-{WATCHED:04}/ORCHESTRATION.yaml"
    ));
    let original = std::fs::read_to_string(&source).expect("read the state file");
    let next_step = "Revise the phase 3 findings against the QG-3 review, then re-score.";
    assert!(original.contains(next_step), "the generated next step");
    let mut state_file = Vec::new();
    let mut checkpoint = Vec::new();
    let cpu_before = cpu_ms(&pid);
    for k in 0..runs {
        // A state file replaced (write a temporary, rename it over), as the write
        // path and most editors save.
        let marker = format!("Scale marker {k:02} {n}");
        let text = original.replace(next_step, &format!("{marker}: re-score."));
        let tmp_file = source.with_file_name(".ORCHESTRATION.yaml.scale.tmp");
        std::fs::write(&tmp_file, text).expect("write");
        std::fs::rename(&tmp_file, &source).expect("rename");
        let changed = Instant::now();
        let (_, seen) = tmux.until(|s| s.contains(&marker));
        state_file.push(seen.duration_since(changed));
        wait_idle(&pid);
    }
    let cpu_state = cpu_ms(&pid) - cpu_before;
    for k in 0..runs {
        // A compaction: the PreCompact hook writes a new checkpoint.
        let cx = format!("cx-{}", 900 + k);
        let path = dir.join(format!(".jerry/checkpoints/{cx}-checkpoint.json"));
        std::fs::write(&path, checkpoint_json(&cx, &id)).expect("write a checkpoint");
        let changed = Instant::now();
        let (_, seen) = tmux.until(|s| s.contains(&format!("compaction in {id}: {cx}")));
        checkpoint.push(seen.duration_since(changed));
        wait_idle(&pid);
    }
    let cpu_checkpoint = cpu_ms(&pid) - cpu_before - cpu_state;
    println!(
        "  state file replaced → on screen ({runs} runs): {}; dashboard CPU {} a change",
        spread(&state_file),
        ms(Duration::from_millis(cpu_state / runs.max(1) as u64))
    );
    println!(
        "  new checkpoint → on screen ({runs} runs): {}; dashboard CPU {} a change",
        spread(&checkpoint),
        ms(Duration::from_millis(cpu_checkpoint / runs.max(1) as u64))
    );
    // The hooks' context record, rewritten on every prompt: nothing on screen
    // changes for this workspace, so what counts is the work it costs.
    let record = dir.join(".jerry/context-monitor-state.json");
    let before = cpu_ms(&pid);
    for k in 0..runs {
        let text = format!(
            "{{\"session_id\": \"s-scale\", \"context_fill\": 0.{:02}, \"updated_at\": \"2026-02-20T12:00:00Z\"}}\n",
            40 + k
        );
        let tmp_file = record.with_file_name(".context-monitor-state.json.scale.tmp");
        std::fs::write(&tmp_file, text).expect("write");
        std::fs::rename(&tmp_file, &record).expect("rename");
        std::thread::sleep(Duration::from_millis(300));
        wait_idle(&pid);
    }
    println!(
        "  context record rewritten: dashboard CPU {} a write",
        ms(Duration::from_millis(
            (cpu_ms(&pid) - before) / runs.max(1) as u64
        ))
    );
    println!(
        "  peak RSS at the end: {}",
        mb(proc_status_kb(&pid, "VmHWM:"))
    );
    std::fs::write(&source, &original).expect("restore the state file");
    for k in 0..runs {
        let _ = std::fs::remove_file(
            dir.join(format!(".jerry/checkpoints/cx-{}-checkpoint.json", 900 + k)),
        );
    }
    let _ = std::fs::remove_file(&record);
    let _ = tmux.output(&["kill-server"]);
}

fn checkpoint_json(cx: &str, workflow: &str) -> String {
    format!(
        "{{\"schema_version\": \"1.0.0\", \"event_type\": \"compaction\", \"event_id\": \"{cx}\", \
         \"timestamp\": \"2026-02-20T12:30:00Z\", \"trigger\": {{\"type\": \"auto\"}}, \
         \"context_state\": {{\"estimated_fill_before_compaction\": 0.9}}, \
         \"orchestration_state\": {{\"workflow_id\": \"{workflow}\", \"current_phase\": 3}}, \
         \"metadata\": {{\"written_by\": \"bench\", \"acknowledged\": false}}}}\n"
    )
}

struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S")
            .arg(&self.socket)
            .args(["-f", "/dev/null"])
            .args(args);
        cmd
    }

    fn run(&self, args: &[&str]) {
        let status = self.command(args).status().expect("tmux");
        assert!(status.success(), "tmux {args:?} failed");
    }

    fn output(&self, args: &[&str]) -> String {
        let out = self.command(args).output().expect("tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn capture(&self) -> String {
        self.output(&["capture-pane", "-p", "-t", "scale"])
    }

    /// Captures back to back until `done`; the screen and when it was captured.
    fn until(&self, done: impl Fn(&str) -> bool) -> (String, Instant) {
        self.until_every(Duration::ZERO, done)
    }

    /// Captures every `every` (back to back for zero) until `done`; the screen
    /// and when it was captured.
    fn until_every(&self, every: Duration, done: impl Fn(&str) -> bool) -> (String, Instant) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let asked = Instant::now();
            let screen = self.capture();
            let at = Instant::now();
            if done(&screen) {
                return (screen, at);
            }
            assert!(at < deadline, "timed out; the screen:\n{screen}");
            std::thread::sleep(every.saturating_sub(asked.elapsed()));
        }
    }
}

/// Waits until the process has used no CPU for 300 ms (a load or reload is over).
fn wait_idle(pid: &str) {
    let deadline = Instant::now() + DEADLINE;
    let mut last = cpu_ms(pid);
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = cpu_ms(pid);
        if now == last || Instant::now() > deadline {
            return;
        }
        last = now;
    }
}

/// User + system CPU time of `pid`, in milliseconds (from /proc/PID/stat).
fn cpu_ms(pid: &str) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command's closing parenthesis; utime and stime are 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    ticks * 1000 / hz
}

fn proc_status_kb(pid: &str, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Waits for child `pid`; its exit status and peak RSS in KB.
fn wait_with_rusage(pid: u32) -> (i32, u64) {
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    assert!(got == pid as libc::pid_t, "wait4");
    (status, usage.ru_maxrss.max(0) as u64)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn spread(times: &[Duration]) -> String {
    let (median, min, max) = median_min_max(times);
    format!("median {}, min {}, max {}", ms(median), ms(min), ms(max))
}

/// Of a list that is not empty.
fn median_min_max<T: Ord + Copy>(values: &[T]) -> (T, T, T) {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    (
        sorted[sorted.len() / 2],
        sorted[0],
        sorted[sorted.len() - 1],
    )
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn mb(kb: u64) -> String {
    format!("{:.0} MB", kb as f64 / 1024.0)
}
