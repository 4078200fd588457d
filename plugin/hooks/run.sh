#!/bin/sh
# The plugin's hook: `resume-tui hook EVENT` when the binary is on PATH. Without
# it, one line on how to install it (at session start only, as a message to the
# user) and exit 0: a missing binary never fails Claude Code.
if command -v resume-tui >/dev/null 2>&1; then
  exec resume-tui hook "$1"
fi
if [ "$1" = SessionStart ]; then
  echo '{"systemMessage":"resume-tui plugin: the resume-tui binary is not on PATH; install it (cargo install --locked resume-tui, or a release archive) and start a new session"}'
fi
exit 0
