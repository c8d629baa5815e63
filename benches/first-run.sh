#!/usr/bin/env bash
# What a new user waits for: the README's two commands on a fresh clone
# with an empty cargo home (every crate downloaded from crates.io) and an
# empty target folder, each timed by /usr/bin/time.
#
#   1. cargo run -- analyze fixtures/published/storagereview-2026-04
#   2. cargo test                       (from there: dependencies built)
#
# Usage: benches/first-run.sh [REV]     (default HEAD of this checkout)
#
#   TIMINGS=1   also write cargo's build timings (cargo-timing.html) of
#               step 1 and copy them to $TMPDIR (else /var/tmp)/first-run-timings.html
#   KEEP=1      keep the clone, its target and cargo home (printed)
#   SKIP_TEST=1 time step 1 only
#
# Prints wall, user and system seconds and peak memory of each step, the
# machine's cores and load average before and after. Its figures mean
# something on a quiet machine only (nothing else compiling): the CPU
# seconds (user+sys) move less with load than the wall time. The toolchain
# itself is not downloaded (rustup's, as installed); crates are.
set -euo pipefail

src="$(cd "$(dirname "$0")/.." && pwd)"
rev="${1:-HEAD}"
# The cargo that rustup installed, found before CARGO_HOME moves.
cargo="$(command -v cargo || echo "$HOME/.cargo/bin/cargo")"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-first-run.XXXXXX")"
if [ -z "${KEEP:-}" ]; then
    trap 'rm -rf "$work"' EXIT
else
    echo "kept: $work" >&2
fi

git clone -q --no-local "$src" "$work/nvcmp"
git -C "$work/nvcmp" checkout -q "$(git -C "$src" rev-parse "$rev")"
export CARGO_HOME="$work/cargo-home"
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
export CARGO_TARGET_DIR="$work/nvcmp/target"
unset RUSTFLAGS CARGO_BUILD_JOBS CARGO_INCREMENTAL
mkdir -p "$CARGO_HOME"
cd "$work/nvcmp"

fmt='%e s wall, %U s user, %S s sys, %M KB peak'
echo "first-run: $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

timings=()
[ -n "${TIMINGS:-}" ] && timings=(--timings)
echo "1. cargo run -- analyze fixtures/published/storagereview-2026-04"
/usr/bin/time -f "   $fmt" "$cargo" run -q "${timings[@]}" -- \
    analyze fixtures/published/storagereview-2026-04 >"$work/analyze.out"
grep -q 'Windows' "$work/analyze.out" || {
    echo "first-run: analyze printed no comparison" >&2
    exit 1
}
if [ -n "${TIMINGS:-}" ]; then
    cp "$CARGO_TARGET_DIR"/cargo-timings/cargo-timing.html "${TMPDIR:-/var/tmp}/first-run-timings.html"
    echo "   timings: ${TMPDIR:-/var/tmp}/first-run-timings.html"
fi
ls -l "$CARGO_TARGET_DIR/debug/nvcmp" | awk '{printf "   debug binary %.1f MB\n", $5 / 1e6}'

if [ -z "${SKIP_TEST:-}" ]; then
    echo "2. cargo test"
    /usr/bin/time -o "$work/test.time" -f "   $fmt" "$cargo" test -q >"$work/test.out" 2>&1 || {
        tail -30 "$work/test.out" >&2
        exit 1
    }
    cat "$work/test.time"
    grep -E '^test result:' "$work/test.out" |
        awk '{p += $4; f += $6} END {printf "   %d tests passed, %d failed\n", p, f}'
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
