#!/usr/bin/env bash
# `nvcmp history show` over one 20,000-run history (50 rows a run, as
# `benches/history_scale.rs` writes it: the parts 20,000 adds leave) kept
# in a local folder and in a bucket of a local S3-compatible server
# (moto_server on loopback), one run each: wall time and peak RSS
# (/usr/bin/time -v). Issue #43 asks the bucket for at most 2x the folder.
#
# Usage: benches/history-s3.sh [NVCMP] [RUNS]
#   NVCMP  the binary (default: target/release/nvcmp)
#   RUNS   runs in the history (default 20000)
# Needs: GNU time, moto_server (NVCMP_MOTO_SERVER, else on PATH) and the
# boto3 it brings (the python beside it uploads the parts).
set -euo pipefail
cd "$(dirname "$0")/.."
nvcmp="${1:-${CARGO_TARGET_DIR:-target}/release/nvcmp}"
runs="${2:-20000}"
moto="${NVCMP_MOTO_SERVER:-$(command -v moto_server)}"
python="$(dirname "$moto")/python"
[ -x "$python" ] || python=python3
work="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-history-s3.XXXXXX")"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$moto" -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto_pid=$!
trap 'kill "$moto_pid" 2>/dev/null; rm -rf "$work"' EXIT
hist="${HISTORY_DIR:-$work/history}"
if [ ! -d "$hist" ]; then
  HISTORY_DIR="$hist" RUNS="$runs" cargo test -q --bench history_scale
fi
echo "history: $(ls "$hist" | grep -c '^part-') parts, $(du -sh "$hist" | cut -f1)"
# The parts into the bucket as an add writes them: each CRC-32 in the
# object's metadata (from the folder's checksum file names).
"$python" - "$port" "$hist" <<'PY'
import os, sys, time, boto3
port, hist = sys.argv[1], sys.argv[2]
s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", aws_access_key_id="testing",
                  aws_secret_access_key="testing", region_name="us-east-1")
for _ in range(100):
    try:
        s3.create_bucket(Bucket="bench"); break
    except Exception:
        time.sleep(0.2)
names = os.listdir(hist)
for n in sorted(names):
    if not n.startswith("part-"):
        continue
    crc = [s.rsplit("-", 1)[1] for s in names if s.startswith(f".{n}.crc32-")]
    with open(os.path.join(hist, n), "rb") as f:
        s3.put_object(Bucket="bench", Key=f"h/{n}", Body=f.read(),
                      Metadata={"nvcmp-crc32": crc[0]} if crc else {})
PY
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID=testing \
  AWS_SECRET_ACCESS_KEY=testing AWS_REGION=us-east-1

measure() {
  local name="$1"; shift
  /usr/bin/time -v -o "$work/time" "$@" > "$work/out" 2> "$work/err" || {
    cat "$work/err" >&2; exit 1; }
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
  printf '%-40s %10s %8d MB %s\n' "$name" "$wall" "$((rss / 1024))" "$(md5sum < "$work/out" | cut -c1-8)"
}
printf '%-40s %10s %11s %s\n' "command" "wall" "max RSS" "output md5"
measure "show, folder" "$nvcmp" history show --history "$hist"
measure "show, s3:// (moto on loopback)" "$nvcmp" history show --history s3://bench/h
measure "show --format json, folder" "$nvcmp" history show --history "$hist" --format json
measure "show --format json, s3://" "$nvcmp" history show --history s3://bench/h --format json
