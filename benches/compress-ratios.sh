#!/usr/bin/env bash
# How far real fio output compresses, against the bombs nvcmp refuses
# (issue #56; src/ingest/compressed.rs, DEFLATE_RATIO and LONG_RATIO):
# each input below through gzip -9, zstd -19, xz -9 and bzip2 -9, its
# ratio (expanded bytes per compressed byte) printed.
#   corpus.tar   FILES real-shaped results (make-archive-corpus.py
#                --layouts all: json, json+, multi-job, client/server),
#                each its own run;
#   copies.tar   the same templates copied unchanged (a folder of copies);
#   perio.log    a per-I/O latency log (fio's `time, value, dir, bs,
#                offset, prio` lines, 50 I/Os per ms, latencies within
#                100 ns: a null engine's);
#   const.log    an averaged bandwidth log of a rate-limited job (one
#                value every second);
#   hist.log     a busy job's histogram log (1,216 bins, 3-40 non-zero);
#   idle.log     an idle job's histogram log (1,216 zero bins a line):
#                the most compressible output fio writes;
#   bomb         fio JSON's first lines, then 256 MiB of spaces.
# A benchmark, not a test: it prints figures and never fails on them.
#
# Usage: benches/compress-ratios.sh
# Env: FILES (3000).
# Needs: python3, gzip, zstd, xz, bzip2.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh" compress-ratios
files="${FILES:-3000}"
cd "$work"
python3 "$here/benches/make-archive-corpus.py" corpus --files "$files" --layouts all >&2
python3 "$here/benches/make-archive-corpus.py" copies --files "$files" --layouts all --mode copies >&2
tar cf corpus.tar corpus
tar cf copies.tar copies
python3 - <<'PY'
import random
r = random.Random(1)
with open("perio.log", "w") as f:
    for i in range(3000000):
        f.write(f"{i // 50}, {r.randint(20000, 20100)}, 0, 4096, {r.randrange(0, 1 << 30, 4096)}, 0\n")
with open("const.log", "w") as f:
    for i in range(1, 2000001):
        f.write(f"{i * 1000}, 102400, 0, 4096, 0\n")
for name, busy in (("hist.log", True), ("idle.log", False)):
    with open(name, "w") as f:
        for i in range(1, 10001):
            b = [0] * 1216
            for _ in range(r.randint(3, 40) if busy else 0):
                b[r.randint(300, 700)] += r.randint(1, 500)
            f.write(f"{i * 1000}, 0, 4096, " + ", ".join(map(str, b)) + "\n")
with open("bomb", "wb") as f:
    f.write(b'{\n  "fio version" : "fio-3.36",\n  "jobs" : [\n')
    f.write(b" " * (256 << 20))
PY
printf '%-12s %9s' input MB
for c in "gzip -9" "zstd -19" "xz -9" "bzip2 -9"; do printf ' %10s' "$c"; done
echo
for f in corpus.tar copies.tar perio.log const.log hist.log idle.log bomb; do
  a=$(stat -c %s "$f")
  printf '%-12s %9.1f' "$f" "$(echo "$a / 1000000" | bc -l)"
  for c in "gzip -9" "zstd -19 -T0" "xz -9 -T0" "bzip2 -9"; do
    b=$($c -c "$f" | wc -c)
    printf ' %9d:1' $((a / b))
  done
  echo
done
