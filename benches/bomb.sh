#!/usr/bin/env bash
# A decompression bomb beside real results (issue #56): a gzip file of
# ~SIZE_GIB GiB expanded (default 10) made of fio JSON's first lines and
# then 1 MiB gzip members of spaces (JSON's own white space, ~997:1:
# under a 1000:1 rule, past gzip's 700:1), in a folder with RESULTS real
# fio results; then `/usr/bin/time -v nvcmp ingest DIR`: its wall time,
# peak memory, the rows read and the skip line. Also the same for a zstd
# bomb (RLE blocks of spaces, ~32,000:1).
#
# A benchmark, not a test: it prints figures and never fails on them.
#
# Usage: benches/bomb.sh [BIN]
#   BIN  the nvcmp binary; default: the release build of this checkout
#        (built first).
# Env: SIZE_GIB (10), RESULTS (20).
# Needs: python3, /usr/bin/time.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh" bomb
gib="${SIZE_GIB:-10}"
results="${RESULTS:-20}"
bin="${1:-}"
if [ -z "$bin" ]; then
  (cd "$here" && cargo build -q --release --bin nvcmp)
  bin="$target/release/nvcmp"
fi
dir="$work/study"
python3 "$here/benches/make-archive-corpus.py" "$dir" --files "$results" >&2
python3 - "$dir" "$gib" <<'PY'
import gzip, os, sys
d, gib = sys.argv[1], int(sys.argv[2])
head = b'{\n  "fio version" : "fio-3.36",\n  "timestamp" : 1733472000,\n  "jobs" : [\n'
member = gzip.compress(b" " * (1 << 20), compresslevel=9, mtime=0)
with open(os.path.join(d, "bomb.json.gz"), "wb") as f:
    f.write(gzip.compress(head, mtime=0))
    for _ in range(gib << 10):
        f.write(member)
# zstd: a raw block of the head, then RLE blocks of 128 KiB of spaces.
with open(os.path.join(d, "bomb.json.zst"), "wb") as f:
    f.write(bytes([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]))
    f.write((len(head) << 3).to_bytes(3, "little") + head)
    blocks = gib << 13
    rle = ((1 << 1) | ((128 << 10) << 3)).to_bytes(3, "little") + b" "
    f.write(rle * (blocks - 1))
    f.write((1 | (1 << 1) | ((128 << 10) << 3)).to_bytes(3, "little") + b" ")
PY
echo "binary: $bin ($("$bin" --version))"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# Each bomb alone beside the results (one file's bound), then both.
for f in bomb.json.gz bomb.json.zst both; do
  one="$work/$f"
  mkdir -p "$one"
  cp -r "$dir"/lab-* "$one"/
  case "$f" in
    both) cp "$dir"/bomb.json.* "$one"/ ;;
    *) cp "$dir/$f" "$one"/; echo "$f: $(stat -c %s "$dir/$f") bytes on disk, $gib GiB expanded" ;;
  esac
  log="$work/time.log"
  /usr/bin/time -v "$bin" ingest "$one" --format ndjson > "$work/rows" 2> "$log"
  echo "$f: rows read: $(wc -l < "$work/rows") (from $results results);" \
    "wall $(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$log");" \
    "peak memory $(( $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log") / 1024 )) MB"
  grep '^nvcmp: skipped' "$log" | sed 's/^/  /'
done
# The same results alone: the memory any ingest of them takes.
/usr/bin/time -v "$bin" ingest "$work/both" --format ndjson > /dev/null 2> "$log" || true
rm -f "$work/both"/bomb.json.*
/usr/bin/time -v "$bin" ingest "$work/both" --format ndjson > /dev/null 2> "$log"
echo "the results alone: wall $(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$log");" \
  "peak memory $(( $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log") / 1024 )) MB"
