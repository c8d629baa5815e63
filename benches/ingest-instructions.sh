#!/usr/bin/env bash
# Ingest counted in instructions, not seconds: `valgrind --tool=callgrind`
# runs `nvcmp --quiet ingest DIR > /dev/null` on one worker thread
# (RAYON_NUM_THREADS=1) over FILES real-shaped fio results
# (`benches/make-archive-corpus.py`, as benches/ingest-speed.sh makes
# them). The count repeats to about 0.01 % from run to run, where wall
# time on a shared or virtual machine swings by 10-50 %: a change to a hot
# path shows here before any timing can see it (benches/ingest-speed.md,
# "Seventh round"). It counts user-space instructions of the whole
# process; the kernel's open and copy of the files are not in it.
#
# A benchmark, not a test: it prints figures and never fails on them.
#
# Usage: benches/ingest-instructions.sh [BIN...]
#   BIN  nvcmp binaries to count (e.g. the one built from main and this
#        one), the first the baseline of the ratios; default: the release
#        build of this checkout (built first).
# Env: FILES (1000).
# Needs: python3, valgrind.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh" ingest-instructions
files="${FILES:-1000}"
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  (cd "$here" && cargo build -q --release --bin nvcmp)
  bins=("$target/release/nvcmp")
fi
command -v valgrind >/dev/null || { echo "valgrind not found: apt-get install valgrind" >&2; exit 1; }

corpus="$work/corpus"
python3 "$here/benches/make-archive-corpus.py" "$corpus" --files "$files"
lines=("one worker thread; user-space instructions of the whole process")
base=""
for bin in "${bins[@]}"; do
  log="$work/callgrind.log"
  RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$bin" --quiet ingest "$corpus" > /dev/null 2> "$log"
  n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log" | tail -1)
  if [ -z "$n" ]; then
    lines+=("$bin: no count (valgrind said: $(tail -1 "$log"))")
    continue
  fi
  base="${base:-$n}"
  lines+=("$(awk -v b="$bin ingest" -v n="$n" -v f="$files" -v base="$base" 'BEGIN {
    printf "%-60s %9.1f M instr. %7.1f k/file %6.3fx the first", b, n / 1e6, n / f / 1e3, n / base }')")
done
printf '%s\n' "${lines[@]}"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  { echo "### ingest instructions (benches/ingest-instructions.sh)"; echo; echo '```'
    printf '%s\n' "${lines[@]}"; echo '```'; } >> "$GITHUB_STEP_SUMMARY"
fi
