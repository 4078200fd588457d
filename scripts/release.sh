#!/usr/bin/env bash
# Builds resume-tui as users get it and packs it for a release:
#
#   OUT/resume-tui-VERSION-TARGET.tar.gz, holding resume-tui-VERSION-TARGET/ with
#     resume-tui, README.md, CHANGELOG.md, LICENSE-MIT, LICENSE-APACHE,
#     completions/ (bash, zsh, fish, elvish, powershell) and man/resume-tui.1
#   OUT/resume-tui-VERSION-TARGET.tar.gz.sha256 and OUT/SHA256SUMS
#
# On Linux with glibc the binary is linked statically (`+crt-static`), still
# position-independent so that ASLR moves it: Claude Code starts it on every hook
# event, and the dynamic loader was most of a do-nothing run (docs/performance.md,
# "Start-up: one static binary"). The target is named explicitly (--target), so the
# proc-macros, built for the host, are built without the flag.
#
# Usage: scripts/release.sh [--dry-run] [--target TRIPLE] [--out DIR]
#   --target  the target triple [default: the host's]
#   --out     where the archives go [default: dist/]
#   --dry-run everything but the optimised build: the debug profile (the same flags
#             and target), packed and checked into a temporary folder that is then
#             removed. `.ci/run` runs it.
# The archive names are what Cargo.toml's [package.metadata.binstall] expects.
set -euo pipefail
cd "$(dirname "$0")/.."

dry=0
target=""
out="dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1 ;;
    --target) target="$2"; shift ;;
    --out) out="$2"; shift ;;
    *) echo "release.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$target" ] || target="$(rustc -vV | sed -n 's/^host: //p')"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)"
name="resume-tui-$version-$target"

profile=release
if [ "$dry" = 1 ]; then
  profile=dev
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
build_dir="target/$target/$([ "$profile" = dev ] && echo debug || echo release)"

case "$target" in
  *-linux-gnu) export RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static" ;;
esac
cargo build --locked --profile "$profile" --target "$target" --bin resume-tui
bin="$build_dir/resume-tui"

# A static binary names no dynamic loader (PT_INTERP) and is still a shared
# object (ET_DYN: static-pie).
case "$target" in
  *-linux-gnu)
    # readelf comes with binutils, which the linker needs anyway.
    headers="$(LC_ALL=C readelf -lW "$bin")"
    if grep -q 'INTERP' <<< "$headers"; then
      echo "release.sh: $bin is linked dynamically (crt-static not in effect)" >&2
      exit 1
    fi
    elf_type="$(od -An -tu2 -j16 -N2 "$bin" | tr -d ' ')"
    if [ "$elf_type" != 3 ]; then
      echo "release.sh: $bin is not position-independent (ELF type $elf_type, not 3)" >&2
      exit 1
    fi
    ;;
esac

mkdir -p "$out"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"; [ "$dry" = 1 ] && rm -rf "$out"' EXIT
dir="$stage/$name"
mkdir -p "$dir/completions" "$dir/man"
cp "$bin" "$dir/resume-tui"
cp README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE "$dir/"
# The completions and the manual page come from the binary, as README's
# "Install" has users make them; a cross-built binary cannot run here, so the
# host's build writes them (they depend on the source, not the target).
gen="$dir/resume-tui"
if ! "$gen" --version > /dev/null 2>&1; then
  cargo build --locked --profile "$profile" --bin resume-tui
  gen="target/$([ "$profile" = dev ] && echo debug || echo release)/resume-tui"
fi
"$gen" completions bash > "$dir/completions/resume-tui.bash"
"$gen" completions zsh > "$dir/completions/_resume-tui"
"$gen" completions fish > "$dir/completions/resume-tui.fish"
"$gen" completions elvish > "$dir/completions/resume-tui.elv"
"$gen" completions powershell > "$dir/completions/_resume-tui.ps1"
"$gen" man > "$dir/man/resume-tui.1"
"$gen" --version | grep -q "resume-tui $version (" || {
  echo "release.sh: --version does not say $version and its commit: $("$gen" --version)" >&2
  exit 1
}

archive="$name.tar.gz"
tar -C "$stage" -czf "$out/$archive" "$name"
sum() { if command -v sha256sum > /dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
(cd "$out" && sum "$archive" > "$archive.sha256" && cat ./*.tar.gz.sha256 > SHA256SUMS && sum -c SHA256SUMS > /dev/null)

# The archive holds what it should, and the binary in it runs.
check="$stage/check"
mkdir -p "$check"
tar -C "$check" -xzf "$out/$archive"
for file in resume-tui README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE \
  completions/resume-tui.bash man/resume-tui.1; do
  [ -s "$check/$name/$file" ] || { echo "release.sh: $archive lacks $file" >&2; exit 1; }
done
if "$check/$name/resume-tui" --version > /dev/null 2>&1; then
  "$check/$name/resume-tui" --version
fi
if [ "$dry" = 1 ]; then
  echo "release.sh: dry run: $archive ($(wc -c < "$out/$archive") bytes) packed, checked and removed"
else
  echo "release.sh: $out/$archive and $out/SHA256SUMS"
fi
