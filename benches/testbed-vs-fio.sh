#!/usr/bin/env bash
# `nvcmp run` on a test bed against fio on the same targets and the same
# job: is the harness what limits a multi-drive machine? Alternates the two
# (nvcmp, fio, nvcmp, fio, ...) so drift of the machine hits both alike, and
# prints per case the median IOPS (all targets summed) and the median
# CPU-microseconds per I/O of each whole process (user + system measured
# from outside with /usr/bin/time, fio's helper threads included).
#
# Cases:
#   null   the null engine on 1, 2, 4 and 8 targets (a thread each, 4k
#          randread QD32): what each tool costs per I/O with no device.
#   loop   three loop devices at once (4k randread QD32 O_DIRECT, libaio,
#          a thread per device): nvcmp's native libaio engine against fio's.
#          Needs root (losetup); skipped with a message otherwise. The
#          devices are detached on exit, whatever happens.
#
# Usage: benches/testbed-vs-fio.sh [REPS] [RUNTIME_S]
#   NVCMP=path/to/nvcmp (default: target/release/nvcmp)
#   BENCH_DIR=folder for the loop devices' backing files (default target/bench)
#   CASES="null loop" (default both)
set -euo pipefail

REPS=${1:-5}
RUNTIME=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NVCMP=${NVCMP:-$ROOT/target/release/nvcmp}
BENCH_DIR=${BENCH_DIR:-$ROOT/target/bench}
CASES=${CASES:-null loop}
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 2; }
[[ -x "$NVCMP" ]] || { echo "no nvcmp binary at $NVCMP (cargo build --release first)" >&2; exit 2; }

WORK=$(mktemp -d)
LOOPS=()
cleanup() {
  for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Prints "iops ios cpu_seconds" of a result file: IOPS and I/Os summed over
# its jobs (one per target), CPU from the time file.
summary() { # result.json time-file
  python3 - "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
iops = sum(j["read"]["iops"] for j in doc["jobs"])
ios = sum(j["read"]["total_ios"] for j in doc["jobs"])
print(iops, ios, u + s)
EOF
}

run_nvcmp() { # engine direct target,target,...
  local out=$WORK/n$RANDOM
  local dflag=--direct; [[ $2 == 0 ]] && dflag=--buffered
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$NVCMP" run -q --engine "$1" --target "$3" \
    --rw randread --bs 4k --iodepth 32 --runtime "$RUNTIME" --size 1g "$dflag" \
    --out "$out" --label x --force
  summary "$(ls "$out"/x/*.json)" "$WORK/time"
  rm -rf "$out"
}

run_fio() { # engine direct target,target,...
  local job=$WORK/job.fio out=$WORK/f$RANDOM.json
  {
    printf '[global]\nioengine=%s\ndirect=%s\nrw=randread\nbs=4k\niodepth=32\n' "$1" "$2"
    printf 'runtime=%s\ntime_based=1\nsize=1g\ngroup_reporting=1\n' "$RUNTIME"
    IFS=, read -ra targets <<< "$3"
    for t in "${targets[@]}"; do printf '[bench]\nfilename=%s\nnew_group\n' "$t"; done
  } > "$job"
  (cd "$WORK" && /usr/bin/time -f "%U %S" -o "$WORK/time" fio --output-format=json \
    --output="$out" "$job")
  summary "$out" "$WORK/time"
  rm -f "$out"
}

bench() { # case engine direct targets
  local runs=$WORK/runs
  : > "$runs"
  for ((i = 0; i < REPS; i++)); do
    echo "nvcmp $(run_nvcmp "$2" "$3" "$4")" >> "$runs"
    echo "fio $(run_fio "$2" "$3" "$4")" >> "$runs"
  done
  python3 - "$1" "$runs" <<'EOF'
import statistics, sys
case, path = sys.argv[1:]
acc = {"nvcmp": [], "fio": []}
for line in open(path):
    who, iops, ios, cpu = line.split()
    acc[who].append((float(iops), 1e6 * float(cpu) / max(float(ios), 1)))
med = lambda who, k: statistics.median(r[k] for r in acc[who])
ni, fi = med("nvcmp", 0), med("fio", 0)
nc, fc = med("nvcmp", 1), med("fio", 1)
print(f"| {case} | {ni:,.0f} | {fi:,.0f} | {ni / fi:.3f} | {nc:.3f} | {fc:.3f} | {nc / fc:.3f} |")
EOF
}

printf '# nvcmp vs %s, %s alternating runs of %s s each, medians\n\n' \
  "$(fio --version)" "$REPS" "$RUNTIME"
printf '| case | nvcmp IOPS | fio IOPS | IOPS ratio | nvcmp CPU-us/IO | fio CPU-us/IO | CPU ratio |\n'
printf '|---|---:|---:|---:|---:|---:|---:|\n'

[[ " $CASES " == *" null "* ]] && for n in 1 2 4 8; do
  targets=$(seq -s, -f "$WORK/t%g" 1 "$n")
  bench "null, $n target$([[ $n == 1 ]] || echo s)" null 0 "$targets"
done

[[ " $CASES " == *" loop "* ]] || exit 0
mkdir -p "$BENCH_DIR"
for i in 1 2 3; do
  f=$BENCH_DIR/loop$i.img
  [[ -f $f ]] || dd if=/dev/urandom of="$f" bs=1M count=256 status=none
  if ! l=$(losetup -f --show "$f" 2>/dev/null); then
    echo "skipped the loop case: cannot make loop devices (root needed)" >&2
    exit 0
  fi
  LOOPS+=("$l")
done
bench "3 loop devices, libaio" libaio 1 "$(IFS=,; echo "${LOOPS[*]}")"
