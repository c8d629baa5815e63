#!/usr/bin/env bash
# Old readers read nvcmp's parquet files: pyarrow 14.0.2 (pinned in many
# environments; Spark 3.5 ships an Arrow of that age) opens a dataset, a
# series dataset and a whole history directory, and DuckDB reads the history with
# `read_parquet('history/*.parquet')`: 17 adds leave runs 1-16 merged into
# one part and run 17 alone, and every run must come back once.
# Needs python3 with venv and the Python registry.
# Usage: .ci/parquet-compat.sh [path/to/nvcmp]
set -euo pipefail
cd "$(dirname "$0")/.."
nvcmp="${1:-${CARGO_TARGET_DIR:-target}/debug/nvcmp}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# pyarrow 14's wheels were built against numpy 1.x.
"$work/venv/bin/pip" install -q "pyarrow==14.0.2" "numpy<2" "duckdb==2.0.1"
"$nvcmp" -q ingest fixtures/check/run1 -o "$work/dataset.parquet"
"$nvcmp" -q ingest fixtures/series --series "$work/series.parquet"
"$nvcmp" -q ingest fixtures/series --series "$work/series.csv"
# One log: its own columns are one value over the row group.
"$nvcmp" -q ingest fixtures/series/compressed --series "$work/one.parquet"
"$nvcmp" -q history add fixtures/check/run1 --history "$work/history" --run a
"$nvcmp" -q history add fixtures/check/run2 --history "$work/history" --run b
"$work/venv/bin/python" - "$work" <<'PY'
import sys, pyarrow as pa, pyarrow.dataset as ds, pyarrow.parquet as pq
work = sys.argv[1]
t = pq.read_table(f"{work}/dataset.parquet")
assert t.schema.field("label").type == pa.large_string(), t.schema
h = ds.dataset(f"{work}/history", format="parquet").to_table()
assert sorted(set(h.column("run_id").to_pylist())) == ["a", "b"], h.column("run_id")
# The series parquet (dictionary strings, issue #23) reads as strings, the
# rows of its csv twin.
import pyarrow.csv as pc
s = pq.read_table(f"{work}/series.parquet")
assert s.schema.field("source").type == pa.large_string(), s.schema
c = pc.read_csv(f"{work}/series.csv")
assert s.num_rows == c.num_rows > 0, (s.num_rows, c.num_rows)
for name in s.column_names:
    got, want = s.column(name).to_pylist(), c.column(name).to_pylist()
    if s.schema.field(name).type == pa.float64():
        assert all(a == b or abs(a - b) <= 1e-9 * abs(b) for a, b in zip(got, want) if b is not None), name
        assert [a is None for a in got] == [b is None for b in want], name
    else:
        # csv cannot tell an empty string from a missing one.
        assert got == [None if b == "" else b for b in want], name
# Columns of one value over a row group are written as their pages by
# nvcmp itself: they read as strings and numbers, and every row group's
# statistics hold its rows.
one = pq.read_table(f"{work}/one.parquet")
assert one.schema.field("source").type == pa.large_string(), one.schema
assert len(set(one.column("source").to_pylist())) == 1 and one.num_rows > 0
for path in ("series.parquet", "one.parquet"):
    f = pq.ParquetFile(f"{work}/{path}")
    for g in range(f.metadata.num_row_groups):
        rows = f.read_row_group(g)
        for i in range(f.metadata.num_columns):
            st = f.metadata.row_group(g).column(i).statistics
            values = rows.column(i).to_pylist()
            present = [v for v in values if v is not None]
            assert st.null_count == len(values) - len(present), (path, g, i)
            if present:
                assert st.has_min_max and (st.min, st.max) == (min(present), max(present)), (path, g, i, st)
print(f"pyarrow {pa.__version__}: dataset {t.num_rows} rows, history {h.num_rows} rows, series {s.num_rows} rows")
PY
# A merged part and a lone one side by side.
rows_per_run=$("$nvcmp" -q ingest fixtures/check/run1 --format ndjson | wc -l)
for i in $(seq 1 17); do
  "$nvcmp" -q history add fixtures/check/run1 --history "$work/merged" --run "r$i" --commit "c$i"
done
ls "$work/merged"
"$work/venv/bin/python" - "$work/merged" "$rows_per_run" <<'PY'
import sys, duckdb, pyarrow as pa, pyarrow.dataset as ds
hist, per_run = sys.argv[1], int(sys.argv[2])
expected = [f"r{i}" for i in range(1, 18)]
db = duckdb.connect()
sql = lambda q: db.execute(q.replace("HISTORY", f"read_parquet('{hist}/*.parquet')")).fetchall()
[(rows, runs)] = sql("SELECT count(*), count(DISTINCT run_id) FROM HISTORY")
assert (rows, runs) == (17 * per_run, 17), (rows, runs)
ids = [r[0] for r in sql("SELECT run_id FROM HISTORY GROUP BY run_id, run_seq ORDER BY run_seq")]
assert ids == expected, ids
commit = sql("SELECT DISTINCT run_commit FROM HISTORY WHERE run_id = 'r5'")
assert commit == [("c5",)], commit
h = ds.dataset(hist, format="parquet").to_table()
assert h.num_rows == 17 * per_run and sorted(set(h.column("run_id").to_pylist()), key=lambda r: int(r[1:])) == expected
print(f"duckdb {duckdb.__version__} and pyarrow {pa.__version__}: merged history, {rows} rows of {runs} runs")
PY

# The same history in a bucket (issue #43): 17 adds to s3:// on a local
# S3-compatible server (moto), read back whole by pyarrow's S3FileSystem,
# every run once. moto_server: NVCMP_MOTO_SERVER (CI's), else on PATH,
# else installed into this venv.
moto="${NVCMP_MOTO_SERVER:-$(command -v moto_server || true)}"
if [ -z "$moto" ]; then
  "$work/venv/bin/pip" install -q "moto[server]==5.2.1"
  moto="$work/venv/bin/moto_server"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$moto" -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto_pid=$!
trap 'kill "$moto_pid" 2>/dev/null; rm -rf "$work"' EXIT
# Waits for the server, then makes the bucket (a plain PUT: moto takes it unsigned).
python3 - "$port" <<'PY'
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(300):
    try:
        urllib.request.urlopen(url + "/"); break
    except OSError:
        time.sleep(0.2)
urllib.request.urlopen(urllib.request.Request(url + "/compat", method="PUT"))
PY
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID=testing \
  AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1
for i in $(seq 1 17); do
  "$nvcmp" -q history add fixtures/check/run1 --history s3://compat/team/history --run "r$i" --commit "c$i"
done
"$work/venv/bin/python" - "$port" "$rows_per_run" <<'PY'
import sys, pyarrow as pa, pyarrow.dataset as ds, pyarrow.fs as pafs
port, per_run = sys.argv[1], int(sys.argv[2])
s3 = pafs.S3FileSystem(endpoint_override=f"127.0.0.1:{port}", scheme="http",
                       access_key="testing", secret_key="testing", region="us-east-1")
names = sorted(f.base_name for f in s3.get_file_info(pafs.FileSelector("compat/team/history")))
assert names == ["part-00000001-00000016.parquet", "part-00000017.parquet"], names
h = ds.dataset("compat/team/history", filesystem=s3, format="parquet").to_table()
ids = h.column("run_id").to_pylist()
expected = [f"r{i}" for i in range(1, 18)]
assert h.num_rows == 17 * per_run and sorted(set(ids), key=lambda r: int(r[1:])) == expected, (h.num_rows, set(ids))
print(f"pyarrow {pa.__version__} S3FileSystem: history in a bucket, {h.num_rows} rows of {len(set(ids))} runs")
PY
