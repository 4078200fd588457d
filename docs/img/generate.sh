#!/bin/sh
# Regenerates docs/img/dashboard.png and docs/img/dashboard.txt, the README's
# picture of the dashboard: the real binary on the demo workspace at 120x40 in
# tmux, captured with its colours and drawn with ImageMagick.
#   needs: tmux, python3, ImageMagick (apt-get install imagemagick), the DejaVu fonts
#   run:   cargo build && docs/img/generate.sh        (from the repository root)
# tests/readme.rs fails when the dashboard no longer draws dashboard.txt; run
# this script then, and commit both files.
set -eu
bin=${RESUME_TUI_BIN:-target/debug/resume-tui}
out=docs/img
scratch=$(mktemp -d)
session=resume-tui-readme-$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$scratch"' EXIT
# The demo's temporary folder has a random name: shown as XXXXXX, as the test does.
mask='s/resume-tui-demo-[A-Za-z0-9]\{6\}/resume-tui-demo-XXXXXX/'
settings="env -u NO_COLOR LANG=C.UTF-8 TERM=xterm-256color RESUME_TUI_CONFIG=/nonexistent/config.toml"

tmux new-session -d -s "$session" -x 120 -y 40 "$settings $bin --demo"
tries=0
until tmux capture-pane -p -t "$session" | grep -q 'projects in '; do
    tries=$((tries + 1))
    [ "$tries" -lt 100 ] || { echo "the dashboard did not draw" >&2; exit 1; }
    sleep 0.1
done
tmux capture-pane -p -t "$session" | sed "$mask" > "$scratch/plain.txt"
tmux capture-pane -e -p -t "$session" | sed "$mask" > "$scratch/colours.ansi"
tmux send-keys -t "$session" q

# The test draws the same frame with --render-once: the two must agree.
$settings "$bin" --demo --render-once 120x40 | sed "$mask" > "$scratch/once.txt"
if ! diff -u "$scratch/once.txt" "$scratch/plain.txt"; then
    echo "tmux and --render-once drew different frames" >&2
    exit 1
fi
python3 "$out/ansi_to_png.py" "$scratch/colours.ansi" "$out/dashboard.png"
cp "$scratch/plain.txt" "$out/dashboard.txt"
echo "wrote $out/dashboard.png and $out/dashboard.txt"
