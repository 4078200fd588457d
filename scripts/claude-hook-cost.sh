#!/usr/bin/env bash
# What a hook costs Claude Code itself (docs/performance.md, "What a hook costs
# Claude Code"): N runs of `claude -p hi` against a local stand-in API (python3,
# answers every /v1/messages at once), alternating three settings: no hooks, two
# `/bin/true` hooks (SessionStart and UserPromptSubmit), resume-tui's hooks
# (`hooks install --project` in a copy of the demo workspace). Prints the median and
# the spread of each, in ms.
#   scripts/claude-hook-cost.sh CLAUDE RESUME_TUI [N]
set -euo pipefail
claude="$1"; bin="$2"; n="${3:-15}"
work="$(mktemp -d)"; trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/tmp" "$work/home/bin" "$work/none" "$work/true" "$work/ours"
ln -s "$claude" "$work/home/bin/claude"
echo '{"hasCompletedOnboarding":true}' > "$work/home/.claude.json"
cat > "$work/api.py" <<'PY'
import json, sys
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers()
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        u = {"input_tokens": 1000, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if "count_tokens" in self.path:
            out = json.dumps({"input_tokens": 1000}).encode(); kind = "application/json"
        elif body.get("stream"):
            ev = [("message_start", {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": body.get("model"), "content": [], "stop_reason": None, "stop_sequence": None, "usage": u}}),
                  ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                  ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
                  ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                  ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 5}}),
                  ("message_stop", {"type": "message_stop"})]
            out = "".join(f"event: {e}\ndata: {json.dumps(d)}\n\n" for e, d in ev).encode(); kind = "text/event-stream"
        else:
            out = json.dumps({"id": "m", "type": "message", "role": "assistant", "model": body.get("model"), "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn", "stop_sequence": None, "usage": u}).encode(); kind = "application/json"
        self.send_response(200); self.send_header("Content-Type", kind); self.send_header("Content-Length", str(len(out))); self.send_header("Connection", "close"); self.end_headers(); self.wfile.write(out)
s = ThreadingHTTPServer(("127.0.0.1", 0), H); print(s.server_address[1], flush=True); s.serve_forever()
PY
python3 "$work/api.py" > "$work/port" & server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
port="$(cat "$work/port")"
mkdir -p "$work/true/.claude" "$work/ours"
cat > "$work/true/.claude/settings.json" <<'JSON'
{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "/bin/true"}]}],
           "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "/bin/true"}]}]}}
JSON
# The demo workspace, unpacked by the binary itself (`--demo` makes the same one).
cp -r "$(dirname "$0")/../assets/demo/." "$work/ours/"
run() { env -i HOME="$work/home" TMPDIR="$work/tmp" PATH="$work/home/bin:/usr/local/bin:/usr/bin:/bin" "$@"; }
(cd "$work/ours" && run "$bin" hooks install --project >/dev/null)
for mode in none true ours; do :> "$work/$mode.ms"; done
for i in $(seq "$n"); do
  for mode in none true ours; do
    start=$(date +%s%N)
    (cd "$work/$mode" && run ANTHROPIC_BASE_URL="http://127.0.0.1:$port" ANTHROPIC_API_KEY=dummy \
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 "$claude" -p hi --model claude-sonnet-4-5 </dev/null >/dev/null 2>&1)
    echo $(( ($(date +%s%N) - start) / 1000000 )) >> "$work/$mode.ms"
  done
done
echo "claude $("$claude" --version) · $n runs each · $(nproc) cores · $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for mode in none true ours; do
  sort -n "$work/$mode.ms" | awk -v m="$mode" '{a[NR]=$1} END {printf "%-5s median %5d ms  min %5d  max %5d\n", m, a[int((NR+1)/2)], a[1], a[NR]}'
done
