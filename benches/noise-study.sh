#!/bin/sh
# Noise study of `nvcmp check`: how often do the defaults cry wolf on the
# ordinary spread between runs of the same job, and which injected
# regressions do they catch?
#
# 1. Runs the same fio job RUNS times (default 10): 4k randread, psync,
#    3 s, on a 256 MiB file in /dev/shm (TARGET to change it).
# 2. Checks every run against every other (RUNS x (RUNS-1) ordered pairs)
#    with the defaults: any exit 1 is a false alarm.
# 3. For each pair and each injected slowdown of 3, 5, 10 and 20 %, checks
#    the baseline run against a candidate DERIVED from the other run: its
#    iops and bandwidth figures (iops, iops_mean/min/max, bw, bw_bytes,
#    bw_mean/min/max) scaled by (1 - x) and its mean latencies (lat_ns,
#    clat_ns) by 1 / (1 - x), as a real slowdown at a fixed queue depth
#    would move them. Exit 1 is a catch.
#
# 4. The same with REPEAT (default 3) runs a side: DRAWS (default 40) seeded
#    random draws of disjoint baseline and candidate sets from the runs;
#    the spread then comes from the runs themselves.
#
# FIO_ARGS adds fio options (e.g. "--ioengine=libaio --direct=1 --iodepth=16"
# with TARGET=/var/tmp/file for the disk instead of memory).
#
# WRAP prefixes the fio command, e.g. WRAP="nice -n -19" to shield fio
# from other load on a shared machine.
#
# Usage: benches/noise-study.sh [OUT_DIR]   (needs fio, python3, a built nvcmp;
#        NVCMP=path/to/nvcmp to pick the binary)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d /tmp/nvcmp-noise.XXXXXX)}
runs=${RUNS:-10}
nvcmp=${NVCMP:-$root/target/debug/nvcmp}
target=${TARGET:-/dev/shm/nvcmp-noise-study}
[ -x "$nvcmp" ] || { echo "build nvcmp first (cargo build) or set NVCMP" >&2; exit 2; }
mkdir -p "$out/runs"

i=1
while [ "$i" -le "$runs" ]; do
    d=$(printf '%s/runs/r%02d' "$out" "$i")
    mkdir -p "$d"
    ${WRAP:-} fio --name=randread --rw=randread --bs=4k --ioengine=psync --size=256m \
        --filename="$target" --runtime=3 --time_based --output-format=json \
        ${FIO_ARGS:-} --output="$d/fio.json" >/dev/null
    i=$((i + 1))
done
rm -f "$target"

PYTHONPATH="$root/benches" python3 - "$out" "$nvcmp" <<'PY'
import json, os, subprocess, sys
from slowdown import slow_down
out, nvcmp = sys.argv[1], sys.argv[2]
runs = sorted(os.listdir(f"{out}/runs"))
docs = {r: json.load(open(f"{out}/runs/{r}/fio.json")) for r in runs}

def check(base, cand_dir):
    bases = base if isinstance(base, list) else [f"{out}/runs/{base}"]
    cands = cand_dir if isinstance(cand_dir, list) else [cand_dir]
    p = subprocess.run([nvcmp, "check", "--format", "json", "--baseline", *bases,
                        "--candidate", *cands], capture_output=True, text=True)
    if p.returncode == 2:
        sys.exit(f"unusable input: {p.stderr}")
    return p.returncode, json.loads(p.stdout)

def derived(run, x):
    doc = slow_down(json.loads(json.dumps(docs[run])), x)
    d = f"{out}/injected/{int(x*100)}/{run}"
    os.makedirs(d, exist_ok=True)
    json.dump(doc, open(f"{d}/fio.json", "w"))
    return d

iops = [docs[r]["jobs"][0]["read"]["iops"] for r in runs]
mean = sum(iops) / len(iops)
sd = (sum((v - mean) ** 2 for v in iops) / (len(iops) - 1)) ** 0.5
samples = [docs[r]["jobs"][0]["read"]["iops_samples"] for r in runs]
extra = " ".join(x for x in (os.environ.get("FIO_ARGS", ""), os.environ.get("WRAP", "")) if x)
lines = [f"# nvcmp check noise study ({len(runs)} runs of 4k randread, 3 s, psync {extra})".replace(" )", ")"), "",
         f"IOPS across runs: mean {mean:,.0f}, stddev {sd:,.0f} ({sd/mean*100:.1f} %), "
         f"min {min(iops):,.0f}, max {max(iops):,.0f}; fio samples per run: {min(samples)}-{max(samples)}; "
         f"load average at the end {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", ""]

pairs = [(a, b) for a in runs for b in runs if a != b]
alarms, bare = 0, 0
for a, b in pairs:
    code, doc = check(a, f"{out}/runs/{b}")
    alarms += code == 1
    # What a bare 5 % rule (no rounding, no significance) would have said.
    bare += any(f["change_pct"] is not None and
                ((f["better"] == "higher" and f["change_pct"] < -5) or
                 (f["better"] == "lower" and f["change_pct"] > 5)) for f in doc["findings"])
lines += [f"| same job, defaults | pairs | alarms | rate |", "| --- | ---: | ---: | ---: |",
          f"| nvcmp check | {len(pairs)} | {alarms} | {alarms/len(pairs)*100:.1f} % |",
          f"| bare 5 % threshold | {len(pairs)} | {bare} | {bare/len(pairs)*100:.1f} % |", ""]

lines += ["| injected slowdown | pairs | caught | rate | by t-test | by threshold only |",
          "| ---: | ---: | ---: | ---: | ---: | ---: |"]
for x in (0.03, 0.05, 0.10, 0.20):
    caught = sig = thr = 0
    cands = {b: derived(b, x) for b in runs}
    for a, b in pairs:
        code, doc = check(a, cands[b])
        if code == 1:
            caught += 1
            rules = {f["rule"] for f in doc["findings"] if f["fails"]}
            sig += "significant" in rules
            thr += "significant" not in rules
    lines.append(f"| {x*100:.0f} % | {len(pairs)} | {caught} | {caught/len(pairs)*100:.1f} % | {sig} | {thr} |")
import random
k = int(os.environ.get("REPEAT", "3"))
draws = int(os.environ.get("DRAWS", "40"))
rng = random.Random(5)
sets = []
for _ in range(draws):
    pick = rng.sample(runs, 2 * k)
    sets.append((pick[:k], pick[k:]))
lines += ["", f"With {k} runs a side ({draws} random disjoint draws; spread from the runs):", "",
          "| injected slowdown | draws | exit 1 | rate |", "| ---: | ---: | ---: | ---: |"]
for x in (0.0, 0.03, 0.05, 0.10, 0.20):
    hits = 0
    for a, b in sets:
        cands = [f"{out}/runs/{r}" if x == 0 else derived(r, x) for r in b]
        code, _ = check([f"{out}/runs/{r}" for r in a], cands)
        hits += code == 1
    name = "none (false alarms)" if x == 0 else f"{x*100:.0f} %"
    lines.append(f"| {name} | {draws} | {hits} | {hits/draws*100:.1f} % |")
text = "\n".join(lines) + "\n"
open(f"{out}/summary.md", "w").write(text)
print(text)
print(f"(runs and derived candidates in {out})")
PY
