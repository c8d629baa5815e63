#!/usr/bin/env bash
# How fast `nvcmp ingest --series` reads fio's per-I/O logs, next to the
# floor of reading the same bytes (`wc -l`, a Python line split).
#
# Makes a synthetic per-I/O clat log in fio 3.33's format with log_offset=1
# (`time, latency_ns, ddir, bs, offset, prio`): by default 60 s at 100k IOPS,
# 6 M lines, ~190 MB. Then times each reader with /usr/bin/time (wall time,
# peak RSS) and prints MB/s and rows/s.
#
# Usage: benches/series-ingest.sh [NVCMP] [LINES]
#   NVCMP  the binary (default: target/release/nvcmp; build it with
#          `cargo build --release` first; a debug build works, slowly)
#   LINES  lines of log (default 6000000)
# Needs: python3, GNU time (/usr/bin/time).
set -euo pipefail

nvcmp="${1:-${CARGO_TARGET_DIR:-target}/release/nvcmp}"
lines="${2:-6000000}"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-series-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run"
log="$work/run/randread-4k_clat.1.log"

# Synthetic but in fio's shape: 100 completions per ms, log-normal-ish
# latencies around 80 us, random 4 KiB-aligned offsets in a 64 GiB file.
python3 - "$log" "$lines" <<'EOF'
import random, sys
path, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(42)
with open(path, "w", buffering=1 << 20) as f:
    chunk = []
    for i in range(n):
        lat = int(rnd.lognormvariate(11.3, 0.35))
        off = rnd.randrange(1 << 24) * 4096
        chunk.append(f"{i // 100}, {lat}, 0, 4096, {off}, 0\n")
        if len(chunk) == 100_000:
            f.write("".join(chunk))
            chunk.clear()
    f.write("".join(chunk))
EOF
bytes=$(stat -c %s "$log")
echo "log: $lines lines, $bytes bytes ($log)"

# measure NAME CMD...: wall seconds and peak RSS of one run.
measure() {
    local name="$1"
    shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || {
        cat "$work/stderr" >&2
        return 1
    }
    read -r secs rss <"$work/time"
    python3 - "$name" "$secs" "$rss" "$bytes" "$lines" <<'EOF'
import sys
name, secs, rss, size, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
secs = max(secs, 0.01)
print(f"{name:<34} {secs:7.2f} s  {size / secs / 1e6:8.1f} MB/s  {n / secs / 1e6:6.2f} M rows/s  peak {rss / 1024:7.1f} MiB")
EOF
}

echo
measure "wc -l" wc -l "$log"
measure "python3 line split" python3 -c '
import sys
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        n += len(line.split(b","))
' "$log"
for ext in csv parquet ndjson; do
    measure "nvcmp ingest --series .$ext" "$nvcmp" -q ingest "$work/run" --series "$work/series.$ext"
done
echo
echo "nvcmp: $("$nvcmp" --version)"
