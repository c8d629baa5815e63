#!/usr/bin/env bash
# nvcmp's native harness against fio on the same target, the same job,
# several times, alternating (nvcmp, fio, nvcmp, fio, ...) so drift in the
# machine hits both alike. Prints, per case and engine, the mean IOPS of
# each, the ratio nvcmp/fio (target: >= 1.0), and CPU-seconds per I/O of
# each whole process (user + system, measured from outside with
# /usr/bin/time so both are counted the same way, io_uring workers and
# fio's helper threads included; target: nvcmp <= fio).
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

# One measured run: prints "iops ios cpu_seconds".
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
    '.jobs[0].read | "\(.iops) \(.total_ios) \(($u|tonumber)+($s|tonumber))"' "$f"
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
    '.jobs[0].read | "\(.iops) \(.total_ios) \(($u|tonumber)+($s|tonumber))"' "$f"
  rm -f "$f"
}

printf '# nvcmp (%s build) vs %s, %s runs of %ss each, alternating\n' \
  "$BUILD" "$(fio --version)" "$REPS" "$RUNTIME"
printf '| case | engine | nvcmp IOPS | fio IOPS | IOPS ratio | nvcmp CPU-us/IO | fio CPU-us/IO | CPU ratio |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|\n'

bench() { # case engine target direct iodepth
  local n_iops=0 f_iops=0 n_cpu=0 f_cpu=0 n_ios=0 f_ios=0
  for ((i = 0; i < REPS; i++)); do
    read -r a b c < <(run_nvcmp "$2" "$3" "$4" "$5")
    n_iops=$(echo "$n_iops + $a" | bc -l); n_ios=$(echo "$n_ios + $b" | bc -l); n_cpu=$(echo "$n_cpu + $c" | bc -l)
    read -r a b c < <(run_fio "$2" "$3" "$4" "$5")
    f_iops=$(echo "$f_iops + $a" | bc -l); f_ios=$(echo "$f_ios + $b" | bc -l); f_cpu=$(echo "$f_cpu + $c" | bc -l)
  done
  python3 - "$1" "$2" "$n_iops" "$f_iops" "$n_cpu" "$f_cpu" "$n_ios" "$f_ios" "$REPS" <<'EOF'
import sys
case, eng, ni, fi, nc, fc, nn, fn, reps = sys.argv[1:]
ni, fi, nc, fc, nn, fn, reps = map(float, (ni, fi, nc, fc, nn, fn, reps))
nu, fu = 1e6 * nc / max(nn, 1), 1e6 * fc / max(fn, 1)
print(f"| {case} | {eng} | {ni/reps:,.0f} | {fi/reps:,.0f} | {ni/max(fi,1e-9):.3f} | {nu:.2f} | {fu:.2f} | {nu/max(fu,1e-9):.3f} |")
EOF
}

bench "disk 4k randread QD32 direct" libaio "$DISK_FILE" 1 32
bench "disk 4k randread QD32 direct" io_uring "$DISK_FILE" 1 32
bench "disk 4k randread QD1 direct" psync "$DISK_FILE" 1 1
bench "cpu null engine QD32" null - 0 32
bench "cpu tmpfs 4k randread buffered QD32" libaio "$SHM_FILE" 0 32
bench "cpu tmpfs 4k randread buffered QD32" io_uring "$SHM_FILE" 0 32
bench "cpu tmpfs 4k randread buffered QD1" psync "$SHM_FILE" 0 1
