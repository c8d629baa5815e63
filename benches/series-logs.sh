#!/usr/bin/env bash
# fio logs of any size: `nvcmp ingest --series` and `nvcmp analyze --out`
# on real per-I/O logs from fio's null engine, next to a 6-line polars
# script, with wall time and peak memory (/usr/bin/time -v).
#
# Makes (once, kept in OUT) the log set of issue #23: one 4k randread job
# on fio's null engine, per-I/O bw + lat/clat logs (log_avg_msec=0),
# --io_size=24g: 6.3 M I/Os, ~425 MB of logs, 18.9 M lines; and with
# LONG=1 the same job 4x longer (--io_size=96g, ~1.7 GB) for the memory
# check. Then RUNS rounds, alternating the commands within each round,
# and prints each command's median time and peak RSS.
#
# Usage: benches/series-logs.sh [NVCMP] [OUT]
#   NVCMP   the binary (default target/release/nvcmp; `cargo build --release`)
#   OUT     where the logs and outputs go (default /var/tmp/nvcmp-series-logs)
# Environment:
#   BEFORE=PATH   another nvcmp binary, run alternately with NVCMP
#   PYTHON=PATH   a python3 with polars (default: a venv in OUT, made with pip)
#   RUNS=N        rounds (default 3)
#   LONG=1        also the 4x log set (analyze only: peak memory)
# Needs: fio (3.x, null engine), GNU time, python3 (venv, pip) for polars.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
nvcmp="${1:-$here/target/release/nvcmp}"
out="${2:-/var/tmp/nvcmp-series-logs}"
runs="${RUNS:-3}"
mkdir -p "$out"

# make_logs DIR IO_SIZE: fio's null engine in DIR/null, result next to the logs.
make_logs() {
    local dir="$1/null" size="$2"
    [ -s "$dir/result.json" ] && return 0
    mkdir -p "$dir"
    echo "making $size of per-I/O logs in $dir" >&2
    (cd "$dir" && fio --name=null-4k --ioengine=null --rw=randread --bs=4k \
        --size="$size" --io_size="$size" --log_avg_msec=0 \
        --write_bw_log=null-4k --write_lat_log=null-4k \
        --output-format=json --output=result.json >/dev/null)
}
make_logs "$out/logs-1x" 24g
[ "${LONG:-0}" = 1 ] && make_logs "$out/logs-4x" 96g

python="${PYTHON:-}"
if [ -z "$python" ]; then
    python="$out/venv/bin/python"
    if ! "$python" -c 'import polars' 2>/dev/null; then
        python3 -m venv "$out/venv"
        "$out/venv/bin/pip" install -q polars
    fi
fi
# The 6-line polars script: read_csv per log, concat, write_parquet.
cat >"$out/polars_series.py" <<'EOF'
import glob, os, sys, polars as pl
names = ["t_ms", "value", "ddir", "bs", "prio"]
logs = [f for f in glob.glob(sys.argv[1] + "/**/*.log", recursive=True) if os.path.getsize(f)]
frames = [pl.read_csv(f, has_header=False, new_columns=names).with_columns(source=pl.lit(f)) for f in logs]
pl.concat(frames).write_parquet(sys.argv[2])
print(sum(f.height for f in frames), "rows")
EOF

bytes=$(du -cb "$out"/logs-1x/null/*.log | tail -1 | cut -f1)
lines=$(cat "$out"/logs-1x/null/*.log | wc -l)
echo "logs: $(( bytes / 1000000 )) MB, $lines lines ($out/logs-1x)"

# measure NAME CMD...: appends "NAME seconds peak_kib" to $out/times.
measure() {
    local name="$1"
    shift
    /usr/bin/time -v -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" || {
        cat "$out/stderr.txt" >&2
        return 1
    }
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/time.txt")
    echo "$name $(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }') $rss" >>"$out/times"
}

: >"$out/times"
bins=("nvcmp=$nvcmp")
[ -n "${BEFORE:-}" ] && bins+=("before=$BEFORE")
for round in $(seq "$runs"); do
    echo "round $round/$runs" >&2
    for b in "${bins[@]}"; do
        name="${b%%=*}" bin="${b#*=}"
        rm -f "$out/s.parquet"
        measure "$name:ingest--series" "$bin" --quiet ingest "$out/logs-1x" --series "$out/s.parquet"
        measure "polars-script" "$python" "$out/polars_series.py" "$out/logs-1x" "$out/p.parquet"
        rm -rf "$out/report"
        measure "$name:analyze--out" "$bin" --quiet analyze "$out/logs-1x" --out "$out/report"
        if [ "${LONG:-0}" = 1 ]; then
            rm -rf "$out/report4"
            measure "$name:analyze--out(4x)" "$bin" --quiet analyze "$out/logs-4x" --out "$out/report4"
        fi
    done
done

echo
printf '%-28s %10s %14s %6s\n' command "median s" "peak RSS MiB" runs
python3 - "$out/times" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, secs, kib = line.split()
    runs.setdefault(name, []).append((float(secs), int(kib)))
for name, r in sorted(runs.items()):
    t = statistics.median(s for s, _ in r)
    m = statistics.median(k for _, k in r) / 1024
    print(f"{name:<28} {t:10.2f} {m:14.1f} {len(r):6d}")
EOF
