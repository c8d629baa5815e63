#!/usr/bin/env bash
# Old readers read nvcmp's parquet files: pyarrow 14.0.2 (pinned in many
# environments; Spark 3.5 ships an Arrow of that age) opens a dataset and a
# whole history directory. Needs python3 with venv and the Python registry.
# Usage: .ci/parquet-compat.sh [path/to/nvcmp]
set -euo pipefail
cd "$(dirname "$0")/.."
nvcmp="${1:-${CARGO_TARGET_DIR:-target}/debug/nvcmp}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# pyarrow 14's wheels were built against numpy 1.x.
"$work/venv/bin/pip" install -q "pyarrow==14.0.2" "numpy<2"
"$nvcmp" -q ingest fixtures/check/run1 -o "$work/dataset.parquet"
"$nvcmp" -q history add fixtures/check/run1 --history "$work/history" --run a
"$nvcmp" -q history add fixtures/check/run2 --history "$work/history" --run b
"$work/venv/bin/python" - "$work" <<'PY'
import sys, pyarrow as pa, pyarrow.dataset as ds, pyarrow.parquet as pq
work = sys.argv[1]
t = pq.read_table(f"{work}/dataset.parquet")
assert t.schema.field("label").type == pa.large_string(), t.schema
h = ds.dataset(f"{work}/history", format="parquet").to_table()
assert sorted(set(h.column("run_id").to_pylist())) == ["a", "b"], h.column("run_id")
print(f"pyarrow {pa.__version__}: dataset {t.num_rows} rows, history {h.num_rows} rows")
PY
