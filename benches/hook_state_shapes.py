#!/usr/bin/env python3
# Whole-process time of each hook event over a workspace whose ORCHESTRATION.yaml is
# a hostile ~1 MB shape (issue 33: "a 1 MB state file of any shape keeps every hook
# under 100 ms"). Prints a markdown table (median and max of RUNS runs per cell).
#
#   python3 benches/hook_state_shapes.py target/x86_64-unknown-linux-gnu/release/resume-tui 10
import json, os, shutil, statistics, subprocess, sys, time
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
shapes["block nesting 100 deep x many"] = head + "".join("  " * 0 + "".join(f"{'  ' * d}k{d}:\n" for d in range(1, 100)) + "  " * 100 + "v: 1\n" for _ in range(1)) + "  many:\n" + "".join(f"    k{i}: {{x: [1, 2, {{y: z}}]}}\n" for i in range(30_000))
events = [("SessionStart", {"source": "startup"}), ("UserPromptSubmit", {"prompt": "go"}), ("PreCompact", {"trigger": "auto"}), ("PostCompact", {"trigger": "auto", "compact_summary": "s"})]
print("| state file (ORCHESTRATION.yaml) | size | " + " | ".join(e for e, _ in events) + " |")
print("|---|---|" + "---|" * len(events))
for name, text in shapes.items():
    shutil.rmtree(W, ignore_errors=True)
    os.makedirs(W + "/.jerry/checkpoints"); os.makedirs(W + "/log")
    open(W + "/ORCHESTRATION.yaml", "w").write(text)
    cells = []
    for ev, extra in events:
        payload = json.dumps({"hook_event_name": ev, "session_id": "s-m", "cwd": W, **extra})
        env = {"PATH": os.environ["PATH"], "HOME": W + "/home", "RESUME_TUI_LOG_DIR": W + "/log", "CLAUDE_PROJECT_DIR": W}
        times = []
        for _ in range(RUNS):
            t = time.perf_counter()
            subprocess.run([BIN, "hook", ev], input=payload.encode(), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append((time.perf_counter() - t) * 1000)
        cells.append(f"{statistics.median(times):.1f} ms (max {max(times):.1f})")
    print(f"| {name} | {len(text)/1e6:.2f} MB | " + " | ".join(cells) + " |")
shutil.rmtree(W, ignore_errors=True)
