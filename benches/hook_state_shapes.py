#!/usr/bin/env python3
# Whole-process time of each hook event over a workspace whose ORCHESTRATION.yaml is
# a hostile ~1 MB shape (issue 33: "a 1 MB state file of any shape keeps every hook
# under 100 ms"). Prints a markdown table (median and max of RUNS runs per cell).
#
#   cargo build --release && python3 benches/hook_state_shapes.py target/release/resume-tui 10
#
# Shapes: those issue 33 names (50k `resumption.agent_summaries` with one duplicate
# key, every key repeated, deep flow sequences, complex keys `? [a, b] : c`) and the
# other ways a file can be large (a long list, a long scalar, anchors and merge keys, an
# alias bomb padded to raise yaml_serde's own repetition limit (refused), comments,
# block and flow nesting, thousands of entries each worth a warning placed after
# half a megabyte, so that locating each warning cannot stop early), and the
# lists the hooks read, filled past the hooks' own budget and up to it.
import json, os, resource, shutil, statistics, subprocess, sys, time
BIN = sys.argv[1]; RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
W = os.path.join(os.environ.get("TMPDIR", "/tmp"), "resume-tui-state-shapes")
head = "workflow:\n  id: wf-m\n  status: ACTIVE\nresumption:\n  recovery_state:\n    next_step: go on\n    updated_at: '2026-01-01T00:00:00Z'\n"
shapes = {}
shapes["50k agent_summaries, 1 duplicate"] = head + "  agent_summaries:\n" + "".join(f"    agent-{i}: done {i}\n" for i in range(50_000)) + "    agent-7: again\n"
shapes["every key twice (25k x 2)"] = head + "  agent_summaries:\n" + "".join(f"    agent-{i % 25000}: done {i}\n" for i in range(50_000))
shapes["50k-item list"] = head + "  files_to_read:\n" + "".join(f"    - path: docs/file-{i}.md\n" for i in range(40_000))
shapes["1 MB scalar"] = head + "  note: \"" + "x" * 1_000_000 + "\"\n"
shapes["deep flow, 200 levels"] = head + "  deep: " + "[" * 200 + "1, " * 330_000 + "]" * 200 + "\n"
shapes["anchors and aliases"] = head + "  base: &b {a: 1, b: 2}\n  uses:\n" + "".join(f"    - *b\n" for i in range(100_000))
shapes["aliases up to the budget (100k x a 4-key map)"] = head + "  base: &b {a: 1, b: 2, c: 3, d: 4}\n  uses:\n" + "".join(f"    - *b\n" for i in range(100_000))
shapes["flat alias bomb (refused), 100k x a 5-key map"] = head + "  base: &b {a: 1, b: 2, c: 3, d: 4, e: 5}\n  uses:\n" + "".join(f"    - *b\n" for i in range(100_000))
shapes["merge keys <<: *b (35k)"] = head + "  base: &b {a: 1, b: 2}\n  uses:\n" + "".join(f"    - <<: *b\n      own: {i}\n" for i in range(35_000))
shapes["alias bomb (refused), padded"] = head + "  pad: [" + ",".join(["1"] * 450_000) + "]\n  a0: &a0 [lol, lol]\n" + "".join(f"  a{l}: &a{l} [" + ", ".join([f"*a{l - 1}"] * 10) + "]\n" for l in range(1, 10))
shapes["block nesting 100 deep x many"] = head + "".join("  " * 0 + "".join(f"{'  ' * d}k{d}:\n" for d in range(1, 100)) + "  " * 100 + "v: 1\n" for _ in range(1)) + "  many:\n" + "".join(f"    k{i}: {{x: [1, 2, {{y: z}}]}}\n" for i in range(30_000))
shapes["comments, 1 MB"] = head + "".join(f"  # comment {i}: [a, {{b: c}}] 'q' \"r\" &x *y\n" for i in range(22_000)) + "  done: 1\n"
shapes["complex keys ? [a, b] : c (40k)"] = head + "  complex:\n" + "".join(f"    ? [a{i}, b]\n    : c\n" for i in range(40_000))
shapes["flow complex keys {[a, b]: c} (40k)"] = head + "  complex:\n" + "".join(f"    - {{[a{i}, b]: c}}\n" for i in range(40_000))
shapes["25k warnings after 0.5 MB"] = "workflow:\n  id: wf-m\n  status: ACTIVE\n" + "".join(f"pad{i}: value {i}\n" for i in range(30_000)) + "resumption:\n  recovery_state:\n    next_step: go on\n  files_to_read:\n" + "".join(f"    - [{i}]\n" for i in range(25_000))
shapes["25k unknown-field entries after 0.5 MB"] = "workflow:\n  id: wf-m\n  status: ACTIVE\n" + "".join(f"pad{i}: value {i}\n" for i in range(30_000)) + "resumption:\n  recovery_state:\n    next_step: go on\n  files_to_read:\n" + "".join(f"    - {{path: f{i}, x{i}: 1}}\n" for i in range(20_000))
# What the hooks read (the fifth pass): aliases and many small entries in the
# lists the normaliser reads, past the hooks' budget (refused by the hooks) and
# within it, and a megabyte of real-looking decisions.
top = "workflow:\n  id: wf-m\n  status: ACTIVE\n"
tail = "resumption:\n  recovery_state:\n    next_step: go on\n"
shapes["100k aliases in files_to_read (past the hooks' budget)"] = head + "  files_to_read:\n    - &b {path: a.md, priority: 1, purpose: x}\n" + "".join("    - *b\n" for i in range(100_000))
shapes["100k aliases in phases (past the hooks' budget)"] = top + "phases:\n  - &p {id: 1, name: a, status: done}\n" + "".join("  - *p\n" for i in range(100_000)) + tail
shapes["80k aliases in agent_summaries (past the hooks' budget)"] = head + "  agent_summaries:\n    a0: &s {agent: x, summary: y, status: done}\n" + "".join(f"    a{i + 1}: *s\n" for i in range(80_000))
shapes["125k files_to_read (past the hooks' budget)"] = head + "  files_to_read:\n" + "".join(f"    - f{i % 10}\n" for i in range(125_000))
shapes["140k phases {} (past the hooks' budget)"] = top + "phases:\n" + "".join("  - {}\n" for i in range(140_000)) + tail
shapes["59k files_to_read (within the hooks' budget)"] = head + "  files_to_read:\n" + "".join(f"    - f{i % 10}\n" for i in range(59_000))
shapes["14.9k phases {} (within the hooks' budget)"] = top + "phases:\n" + "".join("  - {}\n" for i in range(14_900)) + tail
shapes["14.9k quality gates (within the hooks' budget)"] = top + "quality_gates:\n" + "".join(f"  g{i}: {{score: 0.9}}\n" for i in range(14_900)) + tail
def decision(i):
    return (f"    - id: RD-{i:04d}\n      date: '2026-02-{(i % 28) + 1:02d}T10:00:00Z'\n      decision: Use the staged rollout for component {i} because the canary showed no regressions\n"
            f"      rationale: The canary ran for two days with error rates below the threshold; rolling back is cheap\n      affects_phases: [2, 3]\n      applied: true\n      alternatives:\n        - Big-bang release\n        - Feature flag only\n")
shapes["2,500 real-looking decisions"] = head + "  decision_log:\n" + "".join(decision(i) for i in range(2_500))
events = [("SessionStart", {"source": "startup"}), ("SessionStart", {"source": "compact"}), ("SessionStart", {"source": "resume"}), ("UserPromptSubmit", {"prompt": "go"}), ("PreCompact", {"trigger": "auto"}), ("PostCompact", {"trigger": "auto", "compact_summary": "s"}), ("PostToolUse", {"tool_name": "Edit", "tool_input": {"file_path": "ORCHESTRATION.yaml"}})]
def label(ev, extra):
    return ev + (f"({extra['source']})" if "source" in extra else "")
ONLY = os.environ.get("SHAPES")  # a substring: run only the shapes whose name holds it
print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.2f}, median of {RUNS} runs: wall ms (CPU ms, user + system), ** at or over 100 ms wall\n")
print("| state file (ORCHESTRATION.yaml) | size | " + " | ".join(label(e, x) for e, x in events) + " |")
print("|---|---|" + "---|" * len(events))
for name, text in shapes.items():
    if ONLY and ONLY not in name:
        continue
    shutil.rmtree(W, ignore_errors=True)
    os.makedirs(W + "/.jerry/checkpoints"); os.makedirs(W + "/log")
    open(W + "/ORCHESTRATION.yaml", "w").write(text)
    cells = []
    for ev, extra in events:
        extra = {k: (dict(v, file_path=os.path.join(W, v["file_path"])) if k == "tool_input" else v) for k, v in extra.items()}
        payload = json.dumps({"hook_event_name": ev, "session_id": "s-m", "cwd": W, **extra})
        env = {"PATH": os.environ["PATH"], "HOME": W + "/home", "RESUME_TUI_LOG_DIR": W + "/log", "CLAUDE_PROJECT_DIR": W}
        times, cpu = [], []
        for _ in range(RUNS):
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([BIN, "hook", ev], input=payload.encode(), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append((time.perf_counter() - t) * 1000)
            now = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime) * 1000)
        wall = statistics.median(times)
        cells.append(f"{wall:.0f} ({statistics.median(cpu):.0f})" + (" **" if wall >= 100 else ""))
    print(f"| {name} | {len(text)/1e6:.2f} MB | " + " | ".join(cells) + " |")
shutil.rmtree(W, ignore_errors=True)
print(f"\nload average after: {os.getloadavg()[0]:.2f}")
