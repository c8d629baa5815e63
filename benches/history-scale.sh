#!/usr/bin/env bash
# `nvcmp history show` over a history of 100,000 runs x 50 rows (5 M rows):
# wall time and peak RSS for each output format, and the cost of one more
# `history add` at that size.
#
# The history is written by `benches/history_scale.rs` as 100,000 adds
# leave it (the same merged parts: 24 of 4,096 runs and a tail of smaller
# ones), once each instead of by 100,000 processes: 5 configs x 5
# workloads x 2 queue depths per run, 2 % noise, and a 15 % IOPS drop in
# one series from run 60,000 on. Figures: benches/history-scale.md.
#
# Usage: benches/history-scale.sh [NVCMP] [RUNS]
#   NVCMP  the binary (default: target/release/nvcmp; build it with
#          `cargo build --release` first)
#   RUNS   runs in the history (default 100000)
# Needs: GNU time (/usr/bin/time). HISTORY_DIR=DIR keeps the history there
# (made when missing, reused when present) instead of a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."

nvcmp="${1:-${CARGO_TARGET_DIR:-target}/release/nvcmp}"
runs="${2:-100000}"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-history-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
hist="${HISTORY_DIR:-$work/history}"

if [ ! -d "$hist" ]; then
  # The generator only writes parquet: a test-profile build does it in a
  # few minutes and needs no release build of the dev-dependencies.
  HISTORY_DIR="$hist" RUNS="$runs" cargo test -q --bench history_scale
fi
echo "history: $(ls "$hist" | wc -l) parts, $(du -sh "$hist" | cut -f1)"

measure() {
  local name="$1"; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || {
    cat "$work/err" >&2; exit 1; }
  read -r wall rss < "$work/time"
  printf '%-32s %8s s %8d MB %10s\n' "$name" "$wall" "$((rss / 1024))" \
    "$(du -h "$work/out" | cut -f1)"
}

printf '%-32s %10s %11s %10s\n' "command" "wall" "max RSS" "output"
measure "show (term)" "$nvcmp" history show --history "$hist"
measure "show --format json" "$nvcmp" history show --history "$hist" --format json
measure "show --format json --metric iops" "$nvcmp" history show --history "$hist" --format json --metric iops
measure "show --format html" "$nvcmp" history show --history "$hist" --format html
grep -o "[0-9,]* runs, [0-9]* series, [0-9]* change point[s]*" "$work/out" | head -1

# One more add at this size: the duplicate check reads every run id.
mkdir -p "$work/add/c1"
cp fixtures/check/run1/fio.json "$work/add/c1/"
cp -r "$hist" "$work/copy"
measure "add (run $((runs + 1)))" "$nvcmp" -q history add "$work/add" --history "$work/copy" --run extra
