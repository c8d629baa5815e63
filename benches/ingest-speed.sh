#!/usr/bin/env bash
# Ingest against the read limit, on one corpus, in one run: `cat` of every
# file, then `nvcmp --quiet ingest DIR > /dev/null` (ndjson) for each
# binary given: median wall time of RUNS alternating runs (page cache
# warm), the nvcmp/cat ratio and peak memory (/usr/bin/time).
#
# The corpus: FILES real-shaped fio results from
# `benches/make-archive-corpus.py` (the ICPE'24 studies' fio 3.35 files,
# each its own run, ending 10 s after the one before).
#
# With LIB=1 it also runs the library bench first (`cargo bench --bench
# ingest_bench`: the bare serde_json `Value` parse on 1 thread and on all
# cores, and `nvcmp::ingest::ingest`) and a Python `json.load` loop, on
# ingest_bench's corpus (10,000 variants of TEMPLATE with every number's
# digits varied). `cargo bench` builds the dev-dependencies in release:
# about 20 minutes the first time.
#
# A benchmark, not a test: it prints figures and never fails on them.
#
# Usage: benches/ingest-speed.sh [BIN...]
#   BIN  nvcmp binaries to time on the corpus (e.g. the one built from
#        main and this one); default: the release build of this checkout
#        (built first).
# Env: FILES (10000), RUNS (median of, 5), LIB, TEMPLATE (LIB=1 only).
# Needs: python3, /usr/bin/time.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh" ingest-speed
files="${FILES:-10000}"
runs="${RUNS:-5}"
template="${TEMPLATE:-$here/fixtures/fio/linux-libaio/randread-4k.json}"
corpus="$work/corpus"
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  (cd "$here" && cargo build -q --release --bin nvcmp)
  bins=("$target/release/nvcmp")
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${LIB:-}" ]; then
  (cd "$here" && cargo bench -q --bench ingest_bench -- --files "$files" \
      --template "$template" --keep "$work/varied")
  python3 - "$work/varied" "$runs" <<'PY'
import glob, json, os, sys, time
corpus, runs = sys.argv[1], int(sys.argv[2])
paths = sorted(glob.glob(os.path.join(corpus, "**", "*.json"), recursive=True))
mb = sum(os.path.getsize(p) for p in paths) / 1e6
times = []
for _ in range(runs):
    t = time.perf_counter()
    for p in paths:
        with open(p, "rb") as f:
            json.load(f)
    times.append(time.perf_counter() - t)
s = min(times)
print(f"{'python json.load loop (1 thread)':<40} {s:8.3f} s {mb / s:9.1f} MB/s {len(paths) / s:9.0f} files/s")
PY
fi

python3 "$here/benches/make-archive-corpus.py" "$corpus" --files "$files"
python3 - "$corpus" "$runs" "${bins[@]}" <<'PY'
import os, statistics, subprocess, sys
corpus, runs, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
paths = sorted(os.path.join(r, n) for r, _, ns in os.walk(corpus) for n in ns)
mb = sum(os.path.getsize(p) for p in paths) / 1e6
lst = corpus + ".list"
with open(lst, "w") as f:
    f.write("\0".join(paths))

def timed(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M", *cmd],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    wall, kb = out.stderr.decode().strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024

cases = [("cat", ["sh", "-c", f"xargs -0 cat < '{lst}' > /dev/null"])]
cases += [(b, [b, "--quiet", "ingest", corpus]) for b in bins]
timed(cases[0][1])  # page cache warm
got = {n: [] for n, _ in cases}
for _ in range(runs):
    for n, cmd in cases:
        got[n].append(timed(cmd))
# /usr/bin/time counts in hundredths: a small corpus reads in "0.00".
cat = max(statistics.median(t for t, _ in got["cat"]), 0.01)
lines = [f"corpus: {len(paths)} files, {mb:.1f} MB; median of {runs} alternating runs"]
for n, _ in cases:
    t = max(statistics.median(x for x, _ in got[n]), 0.01)
    rss = max(m for _, m in got[n])
    what = "cat (every file)" if n == "cat" else f"{n} ingest > /dev/null"
    lines.append(f"{what:<60} {t:7.3f} s {mb / t:7.1f} MB/s {rss:6.0f} MB peak {t / cat:5.2f}x cat")
print("\n".join(lines))
step = os.environ.get("GITHUB_STEP_SUMMARY")
if step:
    with open(step, "a") as f:
        f.write("### ingest speed (benches/ingest-speed.sh)\n\n```\n" + "\n".join(lines) + "\n```\n")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
