#!/usr/bin/env bash
# Installs the Claude Code versions the real-client suite runs (tests/real_client.rs),
# the way a user does: `npm install @anthropic-ai/claude-code@VERSION`, one prefix per
# version under PREFIX (default: a new temporary folder). Prints, on its last line,
# the value for RESUME_TUI_CLAUDE: the `claude` of each version, separated by `:`.
#
#   2.1.332  the newest the registry offers (a native binary from the optional package
#            @anthropic-ai/claude-code-linux-x64; npm warns that it wants node >= 22,
#            the binary does not need node at all)
#   2.1.76   the oldest resume-tui supports: the first with PostCompact (a JS cli.js,
#            node >= 18)
#
# Non-interactive (CI=true, no stdin); works as root. Needs npm and the registry.
set -euo pipefail
versions=(2.1.332 2.1.76)
prefix="${1:-$(mktemp -d "${TMPDIR:-/tmp}/claude-code.XXXXXX")}"
export CI=true npm_config_yes=true npm_config_update_notifier=false npm_config_fund=false \
  npm_config_audit=false npm_config_loglevel=error
paths=()
for v in "${versions[@]}"; do
  dir="$prefix/$v"
  claude="$dir/node_modules/.bin/claude"
  if [ ! -x "$claude" ]; then
    mkdir -p "$dir"
    # --unsafe-perm: as root, npm would otherwise run the postinstall as nobody.
    npm install --prefix "$dir" --no-save --unsafe-perm "@anthropic-ai/claude-code@$v" </dev/null >&2
  fi
  got="$("$claude" --version </dev/null)"
  case "$got" in
    "$v "*) ;;
    *) echo "claude-code-install: $claude says '$got', not $v" >&2; exit 1 ;;
  esac
  paths+=("$claude")
done
(IFS=:; echo "${paths[*]}")
