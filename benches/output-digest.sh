#!/usr/bin/env bash
# Digests of every report nvcmp writes, over the fixtures: analyze in each
# table format (and --out, charts included) on every fixture folder, check
# in each report format (terminal, JSON, Markdown, JUnit) on the check
# fixtures and the sweeps, history show in each format, check --history
# on a history built from the check fixtures and history verify of it,
# and ingest's outputs (each text format, the dashboards', -o, --series).
# One line per file: run it before and after a refactoring that must not
# change output and diff the two lists. benches/published-digest.sh is the
# published fixture alone.
#
# Usage: benches/output-digest.sh [NVCMP_BINARY] > digests.txt
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/target/debug/nvcmp}"
out="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-output-digest.XXXXXX")"
trap 'rm -rf "$out"' EXIT
cd "$here"
n=0
# Output and exit code of one command, saved under a name of its own.
save() {
  local name="$1"; shift
  "$bin" --quiet --color never "$@" > "$out/$name" 2>/dev/null
  echo "exit $?" >> "$out/$name"
}
for dir in fixtures/published/storagereview-2026-04 fixtures/fio/* fixtures/sweep/* \
           fixtures/diskspd/* fixtures/testbed fixtures/validity fixtures/steady \
           fixtures/snia fixtures/blocksize fixtures/saturation fixtures/wild; do
  n=$((n + 1))
  for f in term md html csv sweep-csv json; do
    save "analyze-$n-$f" analyze "$dir" --format "$f"
  done
  "$bin" --quiet analyze "$dir" --out "$out/out-$n" >/dev/null 2>&1
  rm -f "$out/out-$n/dataset.parquet"
done
for cand in run2 regressed missing truncated; do
  for b in fixtures/check/run1 fixtures/sweep/iodepth; do
    c=fixtures/check/$cand
    [ "$b" = fixtures/sweep/iodepth ] && c=fixtures/sweep/grid
    tag="$(basename "$b")-$cand"
    save "check-$tag-term" check --baseline "$b" --candidate "$c" \
      --junit "$out/check-$tag.junit.xml" --markdown "$out/check-$tag.md"
    save "check-$tag-json" check --baseline "$b" --candidate "$c" --format json
  done
done
h="$out/hist"
i=0
for run in run1 run2 run1 run2 run1 run2 run1 run2 regressed regressed regressed regressed; do
  i=$((i + 1))
  "$bin" --quiet history add "fixtures/check/$run" --history "$h" --run "r$i" \
    --commit "c$i" --time "2026-12-01T08:$((10 + i)):00Z" >/dev/null 2>&1
done
for f in term md json html; do
  save "history-show-$f" history show --history "$h" --format "$f" --min-segment 2
done
"$bin" --quiet history show --history "$h" --out "$out/history-out" >/dev/null 2>&1
save "check-history-term" check --history "$h" --candidate fixtures/check/run1 \
  --junit "$out/check-history.junit.xml" --markdown "$out/check-history.md"
save "check-history-json" check --history "$h" --candidate fixtures/check/regressed --format json
# verify names the history, a temporary folder: named HISTORY here.
"$bin" --color never history verify --history "$h" 2>&1 | sed "s#$h#HISTORY#g" > "$out/history-verify"
echo "exit ${PIPESTATUS[0]}" >> "$out/history-verify"
rm -rf "$h"
# ingest: the dataset in each text format (parquet, as in analyze --out,
# is left out), the dashboards' files, -o FILE and the series.
for f in csv json ndjson bmf gab gab-smaller; do
  save "ingest-$f" ingest fixtures --format "$f"
done
save "ingest-o" ingest fixtures/fio -o "$out/ingest-o.csv"
for f in csv ndjson; do
  save "ingest-series-$f" ingest fixtures/series --series "$out/ingest-series.$f"
done
cd "$out"
find . -type f | sort | xargs sha256sum
