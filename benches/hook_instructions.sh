#!/usr/bin/env bash
# Instructions per hook event (valgrind --tool=callgrind), which the machine's load
# does not change: the figure to drive speed work by on a shared machine.
#
# Uses the workspace, transcripts and payloads benches/hook.sh leaves in $WORK (run
# it first, e.g. `RUNS=3 benches/hook.sh`, with the same WORK), and adds the
# SessionStart sources and the PreCompact firings that script does not time.
#
#   benches/hook_instructions.sh                                       # real runs
#   benches/hook_instructions.sh --dry-run                             # decide only
#
# Each case is one run of the hook's own process (valgrind also counts the forked
# fsync child, which has the larger pid); checkpoints a case adds are removed after
# it, so that every case sees the same workspace.
set -euo pipefail

HERE="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${WORK:-${TMPDIR:-/tmp}/resume-tui-hook-bench}"
BIN="${BIN:-$HERE/target/release/resume-tui}"
[ -f "$WORK/in/PreCompact-t50" ] || {
    echo "no bench workspace in $WORK: run benches/hook.sh first" >&2
    exit 1
}
command -v valgrind > /dev/null || {
    echo "valgrind not found" >&2
    exit 1
}
export CLAUDE_PROJECT_DIR="$WORK/ws" RESUME_TUI_LOG_DIR="$WORK/log" HOME="$WORK/home"
CHECKPOINTS="$WORK/ws/.jerry/checkpoints"
KEPT="$(ls "$CHECKPOINTS")"
tidy() {
    local f
    for f in $(ls "$CHECKPOINTS"); do
        grep -qxF "$f" <<< "$KEPT" || rm -f "$CHECKPOINTS/$f"
    done
}
payload() { # event transcript extra-json
    python3 -c 'import json,sys; d={"session_id":"bench","cwd":sys.argv[2],"hook_event_name":sys.argv[1],"transcript_path":sys.argv[3]}; d.update(json.loads(sys.argv[4])); print(json.dumps(d))' "$1" "$WORK/ws" "$2" "$3"
}
IN="$WORK/in-instructions"
mkdir -p "$IN"
payload SessionStart "$WORK/t50.jsonl" '{"source":"startup","session_id":"bench-new"}' > "$IN/SessionStart-startup"
cp "$WORK/in/SessionStart-compact-t50" "$IN/SessionStart-compact"
cp "$WORK/in/SessionStart-compact-nosummary-t50" "$IN/SessionStart-compact-nosummary"
payload SessionStart "$WORK/t50.jsonl" '{"source":"resume"}' > "$IN/SessionStart-resume"
sed 's/@RUN@/i1/' "$WORK/in/PreCompact-new-t50" > "$IN/PreCompact-new"
sed 's/@RUN@/i3/' "$WORK/in/PreCompact-first-t50" > "$IN/PreCompact-first"
sed 's/"session_id": "bench"/"session_id": "bench-first-i3"/' "$WORK/in/UserPromptSubmit-critical-t50" > "$IN/PreCompact-first-prompt"
sed 's/@RUN@/i0/' "$WORK/in/PreCompact-update-t50" > "$IN/PreCompact-update-first"
sed 's/@RUN@/i2/' "$WORK/in/PreCompact-update-t50" > "$IN/PreCompact-update"
cp "$WORK/in/PreCompact-t50" "$IN/PreCompact-repeat"
cp "$WORK/in/PostCompact-t50" "$IN/PostCompact"
cp "$WORK/in/UserPromptSubmit-low-t50" "$IN/UserPromptSubmit-normal"
cp "$WORK/in/UserPromptSubmit-critical-t50" "$IN/UserPromptSubmit-critical"
cp "$WORK/in/PostToolUse-t50" "$IN/PostToolUse"
cp "$WORK/in/statusline" "$IN/statusline"
: > "$IN/empty"

count() { # subcommand input [args…] -> instructions of the hook's own process
    local sub="$1" input="$2"
    shift 2
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" "$sub" "$@" < "$input" 2>&1 > /dev/null \
        | sed -n 's/^==\([0-9]*\)==.*Collected : \([0-9]*\).*/\1 \2/p' | sort -n | head -1 | cut -d' ' -f2
}

echo "| case | instructions |"
echo "|---|---:|"
echo "| do-nothing (\`hook\`, empty stdin) | $(count hook "$IN/empty") |"
MONITOR="$WORK/ws/.jerry/context-monitor-state.json"
for c in SessionStart-startup SessionStart-compact SessionStart-compact-nosummary SessionStart-resume PreCompact-new \
    PreCompact-first PreCompact-update PreCompact-repeat PostCompact UserPromptSubmit-normal \
    UserPromptSubmit-critical PostToolUse; do
    # The update case rewrites a checkpoint its session wrote a moment before.
    [ "$c" = PreCompact-update ] && "$BIN" hook < "$IN/PreCompact-update-first" > /dev/null
    # The first firing in a session whose prompts were measured: its record exists
    # (the monitor state that prompt rewrites is put back).
    if [ "$c" = PreCompact-first ]; then
        cp -p "$MONITOR" "$WORK/monitor.saved"
        "$BIN" hook < "$IN/PreCompact-first-prompt" > /dev/null
        mv "$WORK/monitor.saved" "$MONITOR"
    fi
    echo "| $c | $(count hook "$IN/$c" "$@") |"
    tidy
done
rm -f "$WORK/ws/.jerry/context-window/bench-first-i3.hooks.json"
echo "| statusline | $(count statusline "$IN/statusline") |"
