#!/usr/bin/env bash
# nvcmp's native harness against fio on the same target, the same job,
# several times, alternating (nvcmp, fio, nvcmp, fio, ...) so drift in the
# machine hits both alike. Prints, per case and engine, the mean IOPS of
# each, the ratio nvcmp/fio (target: >= 1.0), and CPU-seconds per I/O of
# each whole process (user + system, measured from outside with
# /usr/bin/time so both are counted the same way, io_uring workers and
# fio's helper threads included; target: nvcmp <= fio).
#
# Also prints each one's mean total latency (fio `lat`) and p99 completion
# latency as ratios nvcmp/fio (target: within a few percent).
#
# Cases:
#   disk  4k randread QD32 O_DIRECT on a file on the disk (libaio, io_uring;
#         psync at QD1 since it is synchronous)
#   cpu   CPU-bound: null engine against fio's null ioengine, and buffered
#         4k randread of a file in /dev/shm (tmpfs) per engine
#
# Usage: benches/harness-vs-fio.sh [REPS] [RUNTIME_S]
#   NVCMP=path/to/nvcmp (default: target/release/nvcmp, else target/debug/nvcmp)
#   BENCH_DIR=dir on the disk to test (default: ./target/bench)
#   SIZE=file size (default 1g)
set -euo pipefail

REPS=${1:-3}
RUNTIME=${2:-5}
SIZE=${SIZE:-1g}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "${NVCMP:-}" ]]; then
  if [[ -x "$ROOT/target/release/nvcmp" ]]; then NVCMP=$ROOT/target/release/nvcmp
  else NVCMP=$ROOT/target/debug/nvcmp; fi
fi
BUILD=$([[ "$NVCMP" == */release/* ]] && echo release || echo debug)
BENCH_DIR=${BENCH_DIR:-$ROOT/target/bench}
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 2; }
[[ -x "$NVCMP" ]] || { echo "no nvcmp binary at $NVCMP (cargo build first)" >&2; exit 2; }

mkdir -p "$BENCH_DIR"
DISK_FILE=$BENCH_DIR/bench.dat
SHM_FILE=/dev/shm/nvcmp-bench.dat
WORK=$(mktemp -d)
trap 'rm -rf "$WORK" "$SHM_FILE"' EXIT

# Lay both files out once with fio (nvcmp only reads them: they are
# existing files it did not create, which it reads but never writes).
[[ -f "$DISK_FILE" ]] || fio --name=layout --filename="$DISK_FILE" --size="$SIZE" \
  --rw=write --bs=1m --direct=1 --output=/dev/null
fio --name=layout --filename="$SHM_FILE" --size="$SIZE" --rw=write --bs=1m \
  --output=/dev/null

# One measured run: prints "iops ios cpu_seconds lat_mean_ns clat_p99_ns".
run_nvcmp() { # engine target direct iodepth
  local out=$WORK/n$RANDOM
  local dflag=--direct; [[ $3 == 0 ]] && dflag=--buffered
  local tgt=(); [[ $2 != - ]] && tgt=(--target "$2")
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$NVCMP" run -q --engine "$1" "${tgt[@]}" \
    --rw randread --bs 4k --iodepth "$4" --runtime "$RUNTIME" --size "$SIZE" "$dflag" \
    --out "$out" --label x --force
  local f; f=$(ls "$out"/x/*.json)
  read -r u s < "$WORK/time"
  jq -r --arg u "$u" --arg s "$s" \
    '.jobs[0].read | "\(.iops) \(.total_ios) \(($u|tonumber)+($s|tonumber)) \(.lat_ns.mean) \(.clat_ns.percentile["99.000000"] // 0)"' "$f"
  rm -rf "$out"
}

run_fio() { # engine target direct iodepth
  local f=$WORK/f$RANDOM.json
  local tgt=(--filename="$2"); [[ $2 == - ]] && tgt=()
  /usr/bin/time -f "%U %S" -o "$WORK/time" fio --name=bench --ioengine="$1" "${tgt[@]}" \
    --rw=randread --bs=4k --iodepth="$4" --runtime="$RUNTIME" --time_based --size="$SIZE" \
    --direct="$3" --output-format=json --output="$f"
  read -r u s < "$WORK/time"
  jq -r --arg u "$u" --arg s "$s" \
    '.jobs[0].read | "\(.iops) \(.total_ios) \(($u|tonumber)+($s|tonumber)) \(.lat_ns.mean) \(.clat_ns.percentile["99.000000"] // 0)"' "$f"
  rm -f "$f"
}

printf '# nvcmp (%s build) vs %s, %s runs of %ss each, alternating\n' \
  "$BUILD" "$(fio --version)" "$REPS" "$RUNTIME"
printf '| case | engine | nvcmp IOPS | fio IOPS | IOPS ratio | nvcmp CPU-us/IO | fio CPU-us/IO | CPU ratio | lat ratio | p99 ratio |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'

bench() { # case engine target direct iodepth
  local runs=$WORK/runs
  : > "$runs"
  for ((i = 0; i < REPS; i++)); do
    echo "nvcmp $(run_nvcmp "$2" "$3" "$4" "$5")" >> "$runs"
    echo "fio $(run_fio "$2" "$3" "$4" "$5")" >> "$runs"
  done
  python3 - "$1" "$2" "$runs" <<'EOF'
import sys
case, eng, path = sys.argv[1:]
acc = {"nvcmp": [], "fio": []}
for line in open(path):
    who, *vals = line.split()
    acc[who].append([float(v) for v in vals])
def mean(who, k):
    xs = [r[k] for r in acc[who]]
    return sum(xs) / max(len(xs), 1)
def per_io(who):
    ios = sum(r[1] for r in acc[who])
    return 1e6 * sum(r[2] for r in acc[who]) / max(ios, 1)
ratio = lambda a, b: a / b if b else float("nan")
ni, fi = mean("nvcmp", 0), mean("fio", 0)
nu, fu = per_io("nvcmp"), per_io("fio")
print(f"| {case} | {eng} | {ni:,.0f} | {fi:,.0f} | {ratio(ni, fi):.3f} | {nu:.2f} | {fu:.2f} | "
      f"{ratio(nu, fu):.3f} | {ratio(mean('nvcmp', 3), mean('fio', 3)):.3f} | "
      f"{ratio(mean('nvcmp', 4), mean('fio', 4)):.3f} |")
EOF
}

bench "disk 4k randread QD32 direct" libaio "$DISK_FILE" 1 32
bench "disk 4k randread QD32 direct" io_uring "$DISK_FILE" 1 32
bench "disk 4k randread QD1 direct" psync "$DISK_FILE" 1 1
bench "cpu null engine QD32" null - 0 32
bench "cpu tmpfs 4k randread buffered QD32" libaio "$SHM_FILE" 0 32
bench "cpu tmpfs 4k randread buffered QD32" io_uring "$SHM_FILE" 0 32
bench "cpu tmpfs 4k randread buffered QD1" psync "$SHM_FILE" 0 1
