#!/usr/bin/env bash
# Runs the cargo-fuzz targets one after another (2 shared cores: never in parallel),
# each for SECONDS (default 60), seeded with fuzz/seeds/<target>, the test fixtures
# and the shared corpus (read in place). Needs a nightly toolchain and cargo-fuzz.
#
#   fuzz/run.sh            # every target, 60 s each
#   fuzz/run.sh 300 jerry  # one target, 5 minutes
#
# Crashes land in fuzz/artifacts/<target>/; each run's libFuzzer log in
# fuzz/artifacts/logs/<target>.log; a summary line per target is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
all=(jerry jerry_fast fast_yaml nexus frontmatter checkpoint context_state precompact yaml_aliases redact
  transcript hook_stdin settings_merge edit_yaml edit_json)
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi
corpus="${RESUME_TUI_CORPUS:-$(cd .. && pwd)/shared/corpus}"
build=(--codegen-units 4)

cargo +nightly fuzz build "${build[@]}"
mkdir -p fuzz/artifacts/logs
summary=()
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  seeds=(tests/fixtures "$corpus")
  [ -d "fuzz/seeds/$target" ] && seeds=("fuzz/seeds/$target" "${seeds[@]}")
  log="fuzz/artifacts/logs/$target.log"
  load="$(cut -d' ' -f1-3 /proc/loadavg)"
  status=ok
  cargo +nightly fuzz run "${build[@]}" "$target" "fuzz/corpus/$target" "${seeds[@]}" -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 >"$log" 2>&1 || status=CRASH
  stat() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}'; }
  summary+=("$(printf '%-15s %-5s %4ss  execs %-10s exec/s %-7s corpus +%-6s peak RSS %s MB  load before %s' \
    "$target" "$status" "$seconds" "$(stat number_of_executed_units)" \
    "$(stat average_exec_per_sec)" "$(stat new_units_added)" "$(stat peak_rss_mb)" "$load")")
  echo "${summary[-1]}"
done
printf '\n%s\n' "${summary[@]}"
