#!/usr/bin/env bash
# Reading gzip'd results against zcat (issue #56): FILES real-shaped fio
# results (`benches/make-archive-corpus.py`, the ICPE'24 studies' and the
# json+, multi-job and client/server layouts) each gzip'd in place
# (`gzip -6`, as `gzip FILE` leaves it: `x.json.gz`), then, alternating,
# each the median of RUNS runs, page cache warm:
#   zcat of every file | cat > /dev/null   (the read and inflate limit),
#   nvcmp ingest DIR > /dev/null           (the gzip'd corpus),
#   nvcmp ingest PLAIN > /dev/null         (the same files uncompressed),
# and the ratio the issue set: ingest of the gzip'd corpus within 1.3x
# of `zcat | cat`. Wall time, peak memory and CPU seconds (user+sys) by
# /usr/bin/time. With hyperfine on PATH it also runs hyperfine over the
# same two commands (its own alternation, warm-up and spread).
#
# A benchmark, not a test: it prints figures and never fails on them.
#
# Usage: benches/compressed-speed.sh [BIN]
#   BIN  the nvcmp binary to time; default: the release build of this
#        checkout (built first).
# Env: FILES (20000), RUNS (5).
# Needs: python3, gzip, /usr/bin/time.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh" compressed-speed
files="${FILES:-20000}"
runs="${RUNS:-5}"
bin="${1:-}"
if [ -z "$bin" ]; then
  (cd "$here" && cargo build -q --release --bin nvcmp)
  bin="$target/release/nvcmp"
fi
plain="$work/plain"
gz="$work/gz"
python3 "$here/benches/make-archive-corpus.py" "$plain" --files "$files" --layouts all >&2
cp -r "$plain" "$gz"
find "$gz" -type f -print0 | xargs -0 -n 500 -P "$(nproc)" gzip -6
find "$gz" -type f -name '*.gz' -print0 | sort -z > "$work/gz.list"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $bin ($("$bin" --version))"
python3 - "$bin" "$runs" "$work" "$plain" "$gz" <<'PY'
import os, statistics, subprocess, sys
bin, runs, work, plain, gz = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]

def size(d):
    return sum(os.path.getsize(os.path.join(r, n)) for r, _, ns in os.walk(d) for n in ns)

def timed(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", *cmd],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    wall, kb, user, sys_ = out.stderr.decode().strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024, float(user) + float(sys_)

zcat = ["sh", "-c", f"xargs -0 zcat < '{work}/gz.list' | cat > /dev/null"]
cases = [("zcat | cat", zcat),
         ("ingest gz", [bin, "--quiet", "ingest", gz]),
         ("ingest plain", [bin, "--quiet", "ingest", plain])]
subprocess.run(zcat, check=True)  # the page cache warm
got = {n: [] for n, _ in cases}
for _ in range(runs):
    for n, cmd in cases:
        got[n].append(timed(cmd))
files = sum(len(ns) for _, _, ns in os.walk(gz))
print(f"corpus: {files} files, {size(plain) / 1e6:.0f} MB plain, {size(gz) / 1e6:.0f} MB gzip'd; median of {runs}, alternating")
for n, _ in cases:
    v = got[n]
    print(f"  {n:<13} {statistics.median(t for t, _, _ in v):7.2f} s"
          f" {max(m for _, m, _ in v):7.0f} MB peak"
          f" {statistics.median(c for _, _, c in v):7.2f} s CPU")
med = {n: statistics.median(t for t, _, _ in v) for n, v in got.items()}
print(f"  ingest gz / zcat | cat   {med['ingest gz'] / med['zcat | cat']:.2f}x (aim: within 1.3x)")
print(f"  ingest gz / ingest plain {med['ingest gz'] / med['ingest plain']:.2f}x")
PY
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 1 --runs "$runs" \
    "sh -c \"xargs -0 zcat < '$work/gz.list' | cat > /dev/null\"" \
    "$bin --quiet ingest $gz"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
