#!/usr/bin/env bash
# nvcmp's Windows engine (windowsaio, nvcmp.exe under Wine) beside fio
# (Linux, libaio and psync) and nvcmp's Linux engines on the same file and
# the same job: 4k randread at QD8, RUNTIME seconds, REPS times each,
# alternating engines so drift in the machine hits all alike. Prints per
# engine the mean IOPS, mean total latency and CPU-seconds per I/O of the
# whole process (user + system, from /usr/bin/time, Wine's own processes
# not included).
#
# READ THIS FIRST: Wine's figures say nothing about real Windows speed.
# Under Wine every ReadFile is turned into Linux calls by Wine's server and
# threads; what is measured is Wine's overlapped-I/O emulation on this
# kernel, not Windows' I/O stack, drivers or scheduler. The script shows
# that the engine runs, keeps its queue full and reports numbers of the
# right shape; measure on a real Windows Server for figures (docs/guide.md, "The
# harness on a real Windows Server").
#
# Usage: benches/windows-under-wine.sh [REPS] [RUNTIME_S]
#   NVCMP_EXE=nvcmp.exe (default: target/x86_64-pc-windows-gnu/{release,debug}/nvcmp.exe)
#   NVCMP=Linux nvcmp (default: target/{release,debug}/nvcmp)
#   WINEPREFIX=prefix made by .ci/wine/setup (default: target/wine-prefix, made when missing)
#   BENCH_DIR=folder for the 256 MiB file (default: target/bench-wine)
set -euo pipefail
REPS=${1:-3}
RUNTIME=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
pick() { for f in "$@"; do [[ -x $f ]] && { echo "$f"; return; }; done; echo "$1"; }
NVCMP_EXE=${NVCMP_EXE:-$(pick "$ROOT/target/x86_64-pc-windows-gnu/release/nvcmp.exe" "$ROOT/target/x86_64-pc-windows-gnu/debug/nvcmp.exe")}
NVCMP=${NVCMP:-$(pick "$ROOT/target/release/nvcmp" "$ROOT/target/debug/nvcmp")}
export WINEPREFIX=${WINEPREFIX:-$ROOT/target/wine-prefix} WINEDEBUG=-all
BENCH_DIR=${BENCH_DIR:-$ROOT/target/bench-wine}
[[ -f $NVCMP_EXE ]] || { echo "no $NVCMP_EXE (cargo build --target x86_64-pc-windows-gnu)" >&2; exit 2; }
[[ -x $NVCMP ]] || { echo "no $NVCMP (cargo build)" >&2; exit 2; }
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)" >&2; exit 2; }
"$ROOT/.ci/wine/setup" >/dev/null

mkdir -p "$BENCH_DIR"
FILE=$BENCH_DIR/bench.dat
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; wineserver -k 2>/dev/null || true' EXIT
[[ -f $FILE ]] || fio --name=layout --filename="$FILE" --size=256m --rw=write --bs=1m \
    --direct=1 --output=/dev/null
# Wine's server runs for the whole bench, so no run pays its start-up.
wineserver -p 60

# One run: "iops lat_mean_ns cpu_s ios" on stdout.
measure() { # kind engine
    local out=$WORK/r$RANDOM json
    case $1 in
        exe) /usr/bin/time -f "%U %S" -o "$WORK/time" wine "$NVCMP_EXE" run -q --engine "$2" \
                 --target "$FILE" --rw randread --bs 4k --iodepth 8 --runtime "$RUNTIME" \
                 --size 256m --out "$out" --label x --force
             json=$(ls "$out"/x/*.json) ;;
        nvcmp) /usr/bin/time -f "%U %S" -o "$WORK/time" "$NVCMP" run -q --engine "$2" \
                 --target "$FILE" --rw randread --bs 4k --iodepth 8 --runtime "$RUNTIME" \
                 --size 256m --out "$out" --label x --force
             json=$(ls "$out"/x/*.json) ;;
        fio) json=$WORK/fio.json
             /usr/bin/time -f "%U %S" -o "$WORK/time" fio --name=x --filename="$FILE" \
                 --ioengine="$2" --rw=randread --bs=4k --iodepth=8 --direct=1 --size=256m \
                 --runtime="$RUNTIME" --time_based --output-format=json --output="$json" ;;
    esac
    read -r u s <"$WORK/time"
    python3 - "$json" "$u" "$s" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]["read"]
print(j["iops"], j["lat_ns"]["mean"], float(sys.argv[2]) + float(sys.argv[3]), j["total_ios"])
PY
}

cases=("exe windowsaio" "nvcmp io_uring" "nvcmp libaio" "fio libaio" "fio psync")
for ((r = 1; r <= REPS; r++)); do
    for c in "${cases[@]}"; do
        echo "$c $(measure $c)" >>"$WORK/all"
    done
done
echo "4k randread QD8, ${RUNTIME} s x $REPS, 256 MiB file on $(df --output=fstype "$BENCH_DIR" | tail -1), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "nvcmp.exe: $NVCMP_EXE under $(wine --version)"
printf '%-22s %12s %14s %16s\n' engine "mean IOPS" "mean lat (us)" "CPU us per I/O"
for c in "${cases[@]}"; do
    grep "^$c " "$WORK/all" | awk -v name="$c" '
        { iops += $3; lat += $4; cpu += $5; ios += $6; n++ }
        END { printf "%-22s %12.0f %14.1f %16.2f\n", name, iops / n, lat / n / 1000, cpu / ios * 1e6 }'
done
echo "Wine's figures say nothing about real Windows speed (see the top of this script)."
