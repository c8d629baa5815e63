#!/usr/bin/env bash
# Reading speed of one fio report of many jobs (issue #38, item 4): fio
# normal text and terse output of N jobs each, made by benches/many-jobs.py
# from real fio 3.33 output (one psync randread job, its numbers varied per
# job), read with `nvcmp ingest FILE > /dev/null`; best of RUNS wall times,
# MB/s of the file read.
#
# Usage: benches/many-jobs.sh [BIN...]
#   BIN  nvcmp binaries to time (e.g. one built from main and this one);
#        default: the release build of this checkout.
# Env: JOBS (space-separated job counts, default "10000 140000"), RUNS (3),
#      TIMEOUT (seconds one read may take, 300).
# Needs: python3, a release build (`cargo build --release`).
set -euo pipefail
. "$(dirname "$0")/bench-common.sh" many-jobs
runs="${RUNS:-3}"
timeout_s="${TIMEOUT:-300}"
jobs_list="${JOBS:-10000 140000}"
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$target/release/nvcmp")

echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in $jobs_list; do
    python3 "$here/benches/many-jobs.py" normal "$n" > "$work/normal-$n.txt"
    python3 "$here/benches/many-jobs.py" terse "$n" > "$work/terse-$n.txt"
done
for n in $jobs_list; do
    for fmt in normal terse; do
        f="$work/$fmt-$n.txt"
        mb=$(python3 -c "import os,sys; print(os.path.getsize(sys.argv[1]) / 1e6)" "$f")
        for bin in "${bins[@]}"; do
            best=""
            for _ in $(seq "$runs"); do
                start=$(date +%s.%N)
                if ! timeout "$timeout_s" "$bin" --quiet ingest "$f" > /dev/null 2>&1; then
                    best="timeout"
                    break
                fi
                t=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
                if [ -z "$best" ] || python3 -c "import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))" "$t" "$best"; then
                    best="$t"
                fi
            done
            if [ "$best" = timeout ]; then
                printf '%-7s %7s jobs %7.1f MB  %-40s  > %s s\n' "$fmt" "$n" "$mb" "$bin" "$timeout_s"
            else
                printf '%-7s %7s jobs %7.1f MB  %-40s %8.2f s %8.1f MB/s\n' "$fmt" "$n" "$mb" "$bin" "$best" \
                    "$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "$mb" "$best")"
            fi
        done
    done
done
