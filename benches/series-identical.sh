#!/usr/bin/env bash
# Proves a change to the log reader or the series writer left the series
# dataset alone: `nvcmp ingest DIR --series FILE` of every log fixture
# folder (fixtures/series/*, fixtures/snia/*) as parquet, csv and ndjson,
# with two binaries, compared byte for byte; then `analyze DIR --out` of
# the same folders: the JSON (steady-state verdicts) and every
# timeseries_* chart. Prints one line per file (same / DIFFERENT) and
# exits 1 when any differs.
#
# Against a binary from before issue #23, compressed/, fz/ and the whole
# series/ differ on purpose: .log.fz logs used to give no rows. Parquet
# files whose bytes differ are compared as tables (needs Python's polars:
# PYTHON=/path/to/python): "same rows" is the same table in other bytes.
#
# Usage: benches/series-identical.sh BEFORE_NVCMP [AFTER_NVCMP]
#   AFTER defaults to target/debug/nvcmp.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh" series-same
before="$1"
after="${2:-$here/target/debug/nvcmp}"
status=0
# same_rows A B: two parquet files hold the same table (schema, rows, order,
# nulls), read with polars' Python package (PYTHON, default python3).
same_rows() {
    "${PYTHON:-python3}" - "$1" "$2" <<'PY' 2>/dev/null
import sys, polars as pl
a, b = pl.read_parquet(sys.argv[1]), pl.read_parquet(sys.argv[2])
sys.exit(0 if a.schema == b.schema and a.equals(b, null_equal=True) else 1)
PY
}
for dir in "$here"/fixtures/series/*/ "$here"/fixtures/snia/*/ "$here"/fixtures/series/; do
    name="$(basename "$dir")"
    for ext in parquet csv ndjson; do
        "$before" --quiet ingest "$dir" --series "$work/before.$ext" 2>/dev/null
        "$after" --quiet ingest "$dir" --series "$work/after.$ext" 2>/dev/null
        if cmp -s "$work/before.$ext" "$work/after.$ext"; then
            echo "same       $name.$ext"
        elif [ "$ext" = parquet ] && same_rows "$work/before.$ext" "$work/after.$ext"; then
            # Since issue #23 the series parquet is written row group by row
            # group with dictionary pages: other bytes, the same table.
            echo "same rows  $name.$ext"
        else
            echo "DIFFERENT  $name.$ext"
            status=1
        fi
    done
done
for dir in "$here"/fixtures/snia/ "$here"/fixtures/series/*/; do
    name="$(basename "$dir")"
    for side in before after; do
        bin="$before"
        [ "$side" = after ] && bin="$after"
        rm -rf "${work:?}/$side"
        # A folder of logs without results has nothing to analyze (exit 2).
        "$bin" --quiet analyze "$dir" --out "$work/$side" --format json >"$work/$side.json" 2>/dev/null || true
    done
    for rel in .json $(cd "$work/before" 2>/dev/null && find . -name 'timeseries_*' | sort | sed 's|^\.||'); do
        if cmp -s "$work/before$rel" "$work/after$rel"; then
            echo "same       analyze $name$rel"
        else
            echo "DIFFERENT  analyze $name$rel"
            status=1
        fi
    done
done
exit $status
