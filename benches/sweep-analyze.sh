#!/bin/sh
# Times `nvcmp analyze` on a load-point corpus: 384 fio JSON files (3 configs
# x 4 workloads x iodepth 1..128 x numjobs 1,2,4,8) written by
# benches/make-sweep-corpus.py from a real fixture and a saturating model.
#
# 1. Builds nvcmp in release (`cargo build --release`; a clean release build
#    of polars takes many minutes on a 2-core machine), unless NVCMP names
#    a binary already built.
# 2. Writes the corpus into a temporary folder (or CORPUS, kept).
# 3. Times `nvcmp analyze CORPUS --out OUT` with hyperfine when it is
#    installed (RUNS runs, default 5, after one warm-up), else once with
#    /usr/bin/time (or the shell's `time`).
#
# Extra arguments go to `nvcmp analyze`, e.g. `--no-charts`.
#
# Usage: benches/sweep-analyze.sh [ANALYZE_ARGS ...]
#        NVCMP=target/release/nvcmp CORPUS=/tmp/corpus RUNS=10 benches/sweep-analyze.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ -z "${NVCMP:-}" ]; then
    export CARGO_BUILD_BUILD_DIR="${CARGO_BUILD_BUILD_DIR:-/work/.cache/build}"
    cargo build --release --bin nvcmp
    nvcmp=$root/target/release/nvcmp
else
    nvcmp=$NVCMP
fi
[ -x "$nvcmp" ] || { echo "no nvcmp binary at $nvcmp" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvcmp-sweep-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
corpus=${CORPUS:-$tmp/corpus}
out=$tmp/out
python3 "$root/benches/make-sweep-corpus.py" "$corpus"
echo "corpus: $(find "$corpus" -name '*.json' | wc -l) files, $(du -sh "$corpus" | cut -f1)" >&2

if command -v hyperfine >/dev/null 2>&1; then
    # Each run writes into a fresh OUT, as a user's first run does.
    hyperfine --warmup 1 --runs "${RUNS:-5}" --prepare "rm -rf '$out'" \
        --command-name "nvcmp analyze ($(basename "$corpus"))" \
        "'$nvcmp' analyze '$corpus' --out '$out' $* >/dev/null"
elif [ -x /usr/bin/time ]; then
    rm -rf "$out"
    /usr/bin/time -v "$nvcmp" analyze "$corpus" --out "$out" "$@" >/dev/null
else
    rm -rf "$out"
    time "$nvcmp" analyze "$corpus" --out "$out" "$@" >/dev/null
fi
ls "$out" >&2
