#!/usr/bin/env bash
# Ingest throughput on one corpus, in one run: the bare serde_json `Value`
# parse (1 thread and all cores) and `nvcmp::ingest::ingest` (the library)
# from `ingest_bench`, a Python `json.load` loop, and `nvcmp ingest DIR >
# /dev/null` (ndjson) for each binary given. Best of N wall times; MB/s and
# files/s.
#
# The corpus is ingest_bench's: 10,000 variants of a real fio JSON file
# (default fixtures/fio/linux-libaio/randread-4k.json) with every number's
# digits varied; the same seed makes the same files on every run.
#
# Usage: benches/ingest-speed.sh [BIN...]
#   BIN  nvcmp binaries to time on the corpus (e.g. the one built from
#        main and this one); default: the release build of this checkout.
# Env: FILES (10000), TEMPLATE, RUNS (best of, 5).
# Builds the bench in release first (`cargo bench --bench ingest_bench`).
# Needs: python3.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$here/target}"
files="${FILES:-10000}"
runs="${RUNS:-5}"
template="${TEMPLATE:-$here/fixtures/fio/linux-libaio/randread-4k.json}"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-ingest-speed.XXXXXX")"
trap 'rm -rf "$work"' EXIT
corpus="$work/corpus"
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$target/release/nvcmp")

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$here" && cargo bench -q --bench ingest_bench -- --files "$files" \
    --template "$template" --keep "$corpus")

python3 - "$corpus" "$runs" "${bins[@]}" <<'PY'
import glob, json, os, subprocess, sys, time
corpus, runs, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
paths = sorted(glob.glob(os.path.join(corpus, "**", "*.json"), recursive=True))
mb = sum(os.path.getsize(p) for p in paths) / 1e6

def best(f):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)

def report(name, s):
    print(f"{name:<40} {s:8.3f} s {mb / s:9.1f} MB/s {len(paths) / s:9.0f} files/s")

def python_loop():
    for p in paths:
        with open(p, "rb") as f:
            json.load(f)

report("python json.load loop (1 thread)", best(python_loop))
for b in bins:
    def cli():
        subprocess.run([b, "--quiet", "ingest", corpus], stdout=subprocess.DEVNULL, check=True)
    report(f"{b} ingest > /dev/null", best(cli))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
