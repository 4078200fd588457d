#!/usr/bin/env bash
# Whole-process timing of `resume-tui hook <event>` (issue 4, "Done means").
#
# Builds a workspace like the corpus (the Jerry and Nexus samples merged into one
# folder), a 50 MB transcript and a 1 GB one (a 1 GB hole followed by the same
# 50 MB: the tail a hook reads is identical, the file is twenty times larger), then
# times each event against a do-nothing run of the same binary (`resume-tui hook`
# with empty stdin), with benches/spawn_time.c (built with the machine's C
# compiler), else hyperfine, else a python3 loop. Needs python3 (it writes the
# transcripts and the event payloads) and, for the instruction counts, valgrind.
#
#   benches/hook.sh                 # release build, 50 runs per case
#   RUNS=200 BIN=target/release/resume-tui benches/hook.sh
#   INSTRUCTIONS=1 benches/hook.sh  # also instructions per run (valgrind), which
#                                   # other processes on the machine do not change
#
# Prints a markdown table; append it to docs/performance.md by hand or with
# `benches/hook.sh >> docs/performance.md`.
set -euo pipefail

HERE="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${RUNS:-50}"
WORK="${WORK:-${TMPDIR:-/tmp}/resume-tui-hook-bench}"
CORPUS="${RESUME_TUI_CORPUS:-$HERE/../shared/corpus}"
BIN="${BIN:-}"

if [ -z "$BIN" ]; then
    (cd "$HERE" && cargo build --release --quiet)
    BIN="$HERE/target/release/resume-tui"
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"

chmod -R u+w "$WORK/ws" 2> /dev/null || true
rm -rf "$WORK/ws" "$WORK/log"
mkdir -p "$WORK/ws" "$WORK/log" "$WORK/home"
if [ -d "$CORPUS/geekatron+jerry" ]; then
    cp -r "$CORPUS/geekatron+jerry/." "$WORK/ws/"
    cp -r "$CORPUS/DorianSchlede+nexus-template/." "$WORK/ws/"
    chmod -R u+w "$WORK/ws"
    WORKSPACE_KIND="corpus ($(find "$WORK/ws" -name ORCHESTRATION.yaml | wc -l) ORCHESTRATION.yaml, $(find "$WORK/ws" -name 'resume-context.md' -o -name '_resume.md' | wc -l) Nexus manifests)"
else
    cp -r "$HERE/assets/demo/." "$WORK/ws/"
    WORKSPACE_KIND="demo (corpus not found at $CORPUS)"
fi
# Pick a real workflow for the transcript to work in and for PostToolUse to edit.
ORCH="$(find "$WORK/ws/projects" -name ORCHESTRATION.yaml | sort | sed -n 1p)"
PROJ_DIR="$(dirname "$ORCH")"

# --- transcripts ---------------------------------------------------------------
if [ ! -f "$WORK/t50.jsonl" ] || [ "${REGEN:-}" = 1 ]; then
python3 - "$WORK/t50.jsonl" "$PROJ_DIR" <<'PY'
import json, sys, random
out, proj = sys.argv[1], sys.argv[2]
random.seed(7)
target = 50 * 1024 * 1024
lines, size, n = [], 0, 0
def add(rec):
    global size, n
    s = json.dumps(rec, separators=(",", ":"))
    lines.append(s); size += len(s) + 1; n += 1
def env(kind):
    return {"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n-1}", "sessionId": "bench",
            "cwd": proj, "version": "2.1.240", "isSidechain": False,
            "timestamp": "2026-02-17T10:00:00.000Z"}
def usage(tokens):
    return {"input_tokens": 12, "cache_creation_input_tokens": 800,
            "cache_read_input_tokens": tokens - 812, "output_tokens": 300}
while size < target:
    tokens = 20_000 + (size * 150_000) // target
    r = env("user"); r["message"] = {"role": "user", "content": "continue with the next step"}; add(r)
    for i in range(3):
        tool = random.choice(["Read", "Read", "Edit", "Write", "Bash"])
        r = env("assistant"); r["requestId"] = f"req{n}"
        inp = {"file_path": f"{proj}/file{i}.md"} if tool != "Bash" else {"command": "ls"}
        if tool == "Write": inp["content"] = "x" * 2000
        r["message"] = {"id": f"msg{n}", "role": "assistant", "model": "claude-haiku-4-5",
                        "content": [{"type": "text", "text": "Working."},
                                    {"type": "tool_use", "id": f"toolu{n}", "name": tool, "input": inp}],
                        "stop_reason": "tool_use", "usage": usage(tokens)}
        add(r)
        r = env("user"); r["message"] = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu{n-1}", "content": "y" * random.randint(500, 30000)}]}
        add(r)
    r = env("progress"); r["data"] = {"type": "hook_progress"}; add(r)
# The newest response: 88.6 % of a 200k window.
r = env("assistant"); r["message"] = {"id": "last", "role": "assistant", "model": "claude-haiku-4-5",
    "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn", "usage": usage(177_200)}
add(r)
open(out, "w").write("\n".join(lines) + "\n")
PY
fi
if [ ! -f "$WORK/t1g.jsonl" ] || [ "${REGEN:-}" = 1 ]; then
    rm -f "$WORK/t1g.jsonl"
    truncate -s 1000M "$WORK/t1g.jsonl"
    cat "$WORK/t50.jsonl" >> "$WORK/t1g.jsonl"
fi
# The "low" case: the last 4 MB of the 50 MB transcript, its newest usage lowered
# to 40 % of the window (a prompt that injects nothing).
LOW="$WORK/tlow.jsonl"
python3 - "$WORK/t50.jsonl" "$LOW" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
tail = data[-4 * 1024 * 1024:]
tail = tail[tail.index(b"\n") + 1:]
low = tail.replace(b'"cache_read_input_tokens":176388', b'"cache_read_input_tokens":79388')
# Else the "low" case would measure the critical one.
assert low != tail, "the newest usage record was not found"
open(dst, "wb").write(low)
PY

payload() { # event transcript extra-json
    python3 -c 'import json,sys; d={"session_id":"bench","cwd":sys.argv[2],"hook_event_name":sys.argv[1],"transcript_path":sys.argv[3]}; d.update(json.loads(sys.argv[4])); print(json.dumps(d))' "$1" "$WORK/ws" "$2" "$3"
}
mkdir -p "$WORK/in"
: > "$WORK/in/empty"
# A compaction summary of the usual size (20 KB): SessionStart compares it with
# the checkpoint, item by item.
SUMMARY_JSON="$(python3 -c 'import json; print(json.dumps({"trigger": "auto", "compact_summary": "Summary: " + "kept context. " * 1500}))')"
for T in t50 t1g; do
    payload PreCompact "$WORK/$T.jsonl" '{"trigger":"auto"}' > "$WORK/in/PreCompact-$T"
    payload PostCompact "$WORK/$T.jsonl" "$SUMMARY_JSON" > "$WORK/in/PostCompact-$T"
    payload UserPromptSubmit "$WORK/$T.jsonl" '{"prompt":"next"}' > "$WORK/in/UserPromptSubmit-critical-$T"
    payload SessionStart "$WORK/$T.jsonl" '{"source":"compact"}' > "$WORK/in/SessionStart-compact-$T"
    payload PostToolUse "$WORK/$T.jsonl" "{\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":\"$ORCH\"}}" > "$WORK/in/PostToolUse-$T"
done
payload UserPromptSubmit "$LOW" '{"prompt":"next"}' > "$WORK/in/UserPromptSubmit-low-t50"
# SessionStart(compact) in a session whose checkpoint has no summary recorded (a
# Claude Code without PostCompact): the hook finds the summary in the transcript,
# read backwards from its end (written below, once the checkpoint exists).
COMPACTED="$WORK/tcompacted.jsonl"
payload PreCompact "$WORK/t50.jsonl" '{"trigger":"auto","session_id":"bench-nosummary"}' > "$WORK/in/PreCompact-nosummary"
payload SessionStart "$COMPACTED" '{"source":"compact","session_id":"bench-nosummary"}' > "$WORK/in/SessionStart-compact-nosummary-t50"
# A new session every run (the runner puts the run's number for @RUN@): every
# PreCompact creates a checkpoint, as the first firing of a compaction does; the
# others update the one they made (the same session within 60 s).
payload PreCompact "$WORK/t50.jsonl" '{"trigger":"auto","session_id":"bench-@RUN@"}' > "$WORK/in/PreCompact-new-t50"
# The same first firing in a session whose prompts the hooks have measured, as in
# a session that ran with them from its start: UserPromptSubmit has left the
# session's record (its model), which the first PreCompact then has nothing to add
# to. (In the case above the record is written too: hooks installed mid-session.)
payload PreCompact "$WORK/t50.jsonl" '{"trigger":"auto","session_id":"bench-first-@RUN@"}' > "$WORK/in/PreCompact-first-t50"
# One session, with different custom instructions every run: every run updates
# the session's checkpoint. (The plain PreCompact case repeats one firing exactly,
# as the later firings of one compaction do, and leaves the checkpoint as it is.)
payload PreCompact "$WORK/t50.jsonl" '{"trigger":"manual","session_id":"bench-update","custom_instructions":"keep run @RUN@"}' > "$WORK/in/PreCompact-update-t50"

export CLAUDE_PROJECT_DIR="$WORK/ws" RESUME_TUI_LOG_DIR="$WORK/log" HOME="$WORK/home"
# One PreCompact first, so that the checkpoint exists (later runs update it, as the
# repeated firings of one compaction do) and SessionStart/PostCompact have one to use.
"$BIN" hook < "$WORK/in/PreCompact-t50" > /dev/null
"$BIN" hook < "$WORK/in/PreCompact-nosummary" > /dev/null
# The transcript as Claude Code leaves it when SessionStart(compact) runs: the
# last 4 MB of the 50 MB one, its last 256 KB written in the minute before the
# checkpoint, then the compaction's boundary and its 20 KB summary.
python3 - "$WORK/t50.jsonl" "$COMPACTED" <<'PY'
import datetime, json, sys
src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()[-4 * 1024 * 1024:]
data = data[data.index(b"\n") + 1:]
now = datetime.datetime.now(datetime.timezone.utc)
stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
recent = data.index(b"\n", len(data) - 256 * 1024) + 1
old = b'"timestamp":"2026-02-17T10:00:00.000Z"'
fresh = ('"timestamp":"' + stamp(now - datetime.timedelta(seconds=30)) + '"').encode()
assert old in data[recent:], "the transcript's records changed their time"
data = data[:recent] + data[recent:].replace(old, fresh)
at = stamp(now + datetime.timedelta(seconds=40))
boundary = {"type": "system", "subtype": "compact_boundary", "uuid": "cb", "parentUuid": None,
            "sessionId": "bench-nosummary", "timestamp": at, "content": "Conversation compacted",
            "compactMetadata": {"trigger": "auto", "preTokens": 176388, "postTokens": 9000}}
summary = {"type": "user", "uuid": "cs", "parentUuid": "cb", "sessionId": "bench-nosummary",
           "timestamp": at, "isCompactSummary": True, "isVisibleInTranscriptOnly": True,
           "message": {"role": "user", "content": [{"type": "text", "text": "Summary: " + "kept context. " * 1500}]}}
with open(dst, "wb") as out:
    out.write(data)
    for record in (boundary, summary):
        out.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")
PY

CASES=(empty PreCompact-new-t50 PreCompact-first-t50 PreCompact-update-t50 PreCompact-t50 PreCompact-t1g PostCompact-t50 PostCompact-t1g
       UserPromptSubmit-low-t50 UserPromptSubmit-critical-t50 UserPromptSubmit-critical-t1g
       SessionStart-compact-t50 SessionStart-compact-t1g SessionStart-compact-nosummary-t50 PostToolUse-t50 PostToolUse-t1g)

# The runner: benches/spawn_time.c, built with the machine's C compiler
# (posix_spawn and wait, alternating with the do-nothing run so that both see the
# same load); else hyperfine from 1.16 (`--input`); else a python3 loop (which
# adds its own spawn overhead to every run).
CC="$(command -v cc || command -v gcc || true)"
if [ -n "$CC" ] && "$CC" -O2 -o "$WORK/spawn_time" "$HERE/benches/spawn_time.c" 2> /dev/null; then
    TOOL="spawn_time.c ($($CC --version | head -1))"
elif command -v hyperfine > /dev/null && hyperfine --help | grep -c -- '--input' > /dev/null; then
    TOOL="$(hyperfine --version) -N --input"
else
    TOOL="python3 subprocess loop"
fi
# The new-session and update cases need one input per run (spawn_time.c and
# python3 only).
NEW_RUNS=$((RUNS + 10))
for c in PreCompact-new-t50 PreCompact-first-t50 PreCompact-update-t50; do
    for i in $(seq 0 "$NEW_RUNS"); do
        sed "s/@RUN@/$i/" "$WORK/in/$c" > "$WORK/in/$c.$i"
    done
done
CHECKPOINTS="$WORK/ws/.jerry/checkpoints"
RECORDS="$WORK/ws/.jerry/context-window"
# The first-firing case's session records, as UserPromptSubmit writes them (one
# run of it makes the first; the workspace's monitor state it also rewrites is put
# back). They are removed once that case has run.
first_records() {
    local monitor="$WORK/ws/.jerry/context-monitor-state.json" i
    cp -p "$monitor" "$WORK/monitor.saved" 2> /dev/null || rm -f "$WORK/monitor.saved"
    sed 's/"session_id": "bench"/"session_id": "bench-first-0"/' "$WORK/in/UserPromptSubmit-critical-t50" |
        "$BIN" hook > /dev/null
    [ -f "$WORK/monitor.saved" ] && mv "$WORK/monitor.saved" "$monitor"
    [ -f "$RECORDS/bench-first-0.hooks.json" ] || {
        echo "UserPromptSubmit left no session record" >&2
        exit 1
    }
    for i in $(seq 1 "$NEW_RUNS"); do
        sed "s/bench-first-0/bench-first-$i/" "$RECORDS/bench-first-0.hooks.json" > "$RECORDS/bench-first-$i.hooks.json"
    done
}

median_ms() { # case [extra hook args…] -> median milliseconds
    local input="$WORK/in/$1" clean=()
    shift
    case "$TOOL" in
    spawn_time*)
        # The checkpoints and session records the new-session case creates are
        # removed between runs, so that every case sees the same workspace (a
        # record per run made every later write list a longer folder).
        case "$(basename "$input")" in
        PreCompact-new-t50) input="$input.%d" clean=("$CHECKPOINTS:$RECORDS") ;;
        PreCompact-first-t50) input="$input.%d" clean=("$CHECKPOINTS") ;;
        PreCompact-update-t50 | statusline-changed) input="$input.%d" ;;
        esac
        "$WORK/spawn_time" "$RUNS" "$input" "$WORK/in/empty" "${clean[@]}" -- "$BIN" "${SUB:-hook}" "$@"
        ;;
    hyperfine*)
        hyperfine -N --warmup 5 --runs "$RUNS" --style none --input "$input" \
            --export-json "$WORK/run.json" "$BIN ${SUB:-hook} $*" > /dev/null 2>&1
        python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.2f %.2f" % (r["median"]*1000, r["min"]*1000))' "$WORK/run.json"
        ;;
    *)
        # Alternates with the do-nothing run, so that both see the same load;
        # prints the case's median and minimum, then the do-nothing median.
        python3 - "$RUNS" "$input" "$WORK/in/empty" "$BIN" "${SUB:-hook}" "$@" <<'PY'
import os, statistics, subprocess, sys, time
runs, path, empty, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
def timed(args, path):
    with open(path, "rb") as stdin:
        start = time.perf_counter_ns()
        subprocess.run(args, stdin=stdin, stdout=subprocess.DEVNULL)
        return (time.perf_counter_ns() - start) / 1e6
template = open(path, "rb").read()
def input_for(i):
    if b"@RUN@" not in template:
        return path
    with open(path + ".run", "wb") as f:
        f.write(template.replace(b"@RUN@", b"%d-%d" % (time.time_ns(), i)))
    return path + ".run"
# The checkpoints and session records the new-session case creates are removed
# (untimed), so that the other cases see the same workspace: hooks read every
# checkpoint of the folder.
jerry = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".jerry")
folders = [os.path.join(jerry, "checkpoints"), os.path.join(jerry, "context-window")]
before = {f: set(os.listdir(f)) if os.path.isdir(f) else set() for f in folders}
def tidy():
    for folder in folders:
        if "PreCompact-new" in path and os.path.isdir(folder):
            for name in set(os.listdir(folder)) - before[folder]:
                os.remove(os.path.join(folder, name))
times, base = [], []
for i in range(runs + 5):
    t = timed(cmd, input_for(i))
    tidy()
    b = timed(cmd[:2], empty)
    if i >= 5:
        times.append(t)
        base.append(b)
print("%.2f %.2f %.2f" % (statistics.median(times), min(times), statistics.median(base)))
PY
        ;;
    esac
}

ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
read -r BASE BASE_MIN _ <<< "$(median_ms empty)"
echo
echo "### Hook wall time, $(date -u +%Y-%m-%d) ($TOOL, $RUNS runs)"
echo
echo "Workspace: $WORKSPACE_KIND. Transcripts: 50 MB ($(du -h "$WORK/t50.jsonl" | cut -f1)) and 1 GB apparent size ($(du -h --apparent-size "$WORK/t1g.jsonl" | cut -f1); a hole plus the same 50 MB). Machine: $(nproc) CPUs, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')."
echo "Command: \`benches/hook.sh\` (RUNS=$RUNS). A run is timed until the hook exits, as Claude Code waits for it; \"with the fsync process\" is until the detached process that fsyncs the hook's writes has ended too (spawn_time.c on Linux only). \"decide\" is the same run with \`--dry-run\`: everything but the writes and the log line. Times in ms, median (min); the ratio is of medians to the do-nothing median (with spawn_time.c and the python3 runner, the do-nothing runs alternate with the case's, so that both see the same load)."
echo
echo "| case | whole run | ratio | decide (--dry-run) | ratio | with the fsync process |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| do-nothing (\`resume-tui hook\`, empty stdin) | $BASE ($BASE_MIN) | 1.00 | | | |"
# What a case leaves in the checkpoints folder (the update case's checkpoint) is
# removed after it, so that every case sees the same workspace: UserPromptSubmit
# and SessionStart read every checkpoint.
KEPT="$(ls "$CHECKPOINTS")"
tidy_checkpoints() {
    local f
    for f in $(ls "$CHECKPOINTS"); do
        grep -qxF "$f" <<< "$KEPT" || rm -f "$CHECKPOINTS/$f"
    done
}
for c in "${CASES[@]:1}"; do
    # Only spawn_time.c and the python3 runner give each run its own session, and
    # only spawn_time.c the run's number that the first-firing case's records name.
    case "$TOOL" in spawn_time* | python3*) ;; *) case "$c" in PreCompact-new-t50 | PreCompact-update-t50) continue ;; esac ;; esac
    case "$TOOL" in spawn_time*) ;; *) [ "$c" = PreCompact-first-t50 ] && continue ;; esac
    [ "$c" = PreCompact-first-t50 ] && first_records
    read -r m m_min m_base m_all <<< "$(median_ms "$c")"
    read -r d d_min d_base _ <<< "$(median_ms "$c" --dry-run)"
    echo "| $c | $m ($m_min) | $(ratio "$m" "${m_base:-$BASE}") | $d ($d_min) | $(ratio "$d" "${d_base:-$BASE}") | ${m_all:-} |"
    tidy_checkpoints
    [ "$c" = PreCompact-first-t50 ] && rm -f "$RECORDS"/bench-first-*.hooks.json
done
# The status line (`resume-tui statusline`, issue 15): Claude Code's status JSON
# with its own figures, in the workspace (it records them and reads the checkpoints).
python3 -c 'import json,sys; w,t=sys.argv[1],sys.argv[2]; print(json.dumps({"session_id":"bench-statusline","transcript_path":t,"cwd":w,"model":{"id":"claude-sonnet-4-5"},"workspace":{"current_dir":w,"project_dir":w},"context_window":{"context_window_size":200000,"used_percentage":85.2}}))' \
    "$WORK/ws" "$WORK/t50.jsonl" > "$WORK/in/statusline"
read -r m m_min m_base _ <<< "$(SUB=statusline median_ms statusline)"
echo "| statusline (\`resume-tui statusline\`) | $m ($m_min) | $(ratio "$m" "${m_base:-$BASE}") | | | |"
# Claude Code's figures change after every response, and the status line then
# rewrites its record: a new used_percentage every run (spawn_time.c only).
case "$TOOL" in spawn_time*)
    for i in $(seq 0 "$NEW_RUNS"); do
        sed "s/\"used_percentage\": 85.2/\"used_percentage\": 40.$i/" "$WORK/in/statusline" > "$WORK/in/statusline-changed.$i"
    done
    : > "$WORK/in/statusline-changed"
    read -r m m_min m_base _ <<< "$(SUB=statusline median_ms statusline-changed)"
    echo "| statusline, figures changed (record rewritten) | $m ($m_min) | $(ratio "$m" "${m_base:-$BASE}") | | | |"
    ;;
esac

if [ "${INSTRUCTIONS:-}" = 1 ] && command -v valgrind > /dev/null; then
    echo
    echo "Instructions per run (\`valgrind --tool=callgrind\`, one run each, same workspace):"
    echo
    echo "| case | instructions | ratio |"
    echo "|---|---:|---:|"
    count() { # case -> instructions of one run of the hook's own process (valgrind
        # also counts the forked fsync child, which has the larger pid)
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" hook < "$WORK/in/$1" 2>&1 > /dev/null \
            | sed -n 's/^==\([0-9]*\)==.*Collected : \([0-9]*\).*/\1 \2/p' | sort -n | head -1 | cut -d' ' -f2
        tidy_checkpoints
    }
    BASE_I="$(count empty)"
    echo "| do-nothing | $BASE_I | 1.00 |"
    for c in "${CASES[@]:1}"; do
        [ "$c" = PreCompact-first-t50 ] && continue # benches/hook_instructions.sh counts it
        n="$(count "$c")"
        echo "| $c | $n | $(ratio "$n" "$BASE_I") |"
    done
fi
