#!/bin/sh
# False alarms of `nvcmp check --history` on REAL runs that did not change,
# and the smallest step it catches, with and without `nvcmp run --repeat`.
#
# 1. Makes RUNS (default 40) no-change runs of one job with nvcmp's own
#    harness: 4k randread, psync, iodepth 1, buffered, RUNTIME (default 2) s,
#    on a 256 MiB file in /dev/shm (TARGET to change it). Each round runs
#    it once ("single") and then with --repeat REPEAT (default 3): both
#    modes see the same stretch of the machine's load.
# 2. For each mode, replays CI: run i is checked against the history of the
#    runs before it (`check --history H --candidate RUN --window 10`), from
#    the 11th run on, and then added (`history add`), as docs/ci.md's jobs
#    do. Exit 1 is a false alarm. With the default 5 % threshold and with
#    --threshold 0.
# 3. Injected steps: at the same points, the candidate is also checked
#    with its numbers scaled as a real slowdown of x would move them (as
#    benches/noise-study.sh does: iops and bandwidth figures by 1 - x, the
#    mean latencies by 1 / (1 - x)). Exit 1 is a catch. The window holds
#    10 runs, so this is 10 runs against 1 candidate run.
# 4. Change points, 10 runs a side: histories of 10 real runs followed by
#    10 runs scaled by x (windows of 20 runs, every 5th run a start);
#    caught when `history show` puts an IOPS change point at the 11th run
#    (steps of 10 % and more only: 21 nvcmp calls per window and step).
#
# Usage: benches/history-real-noise.sh [OUT_DIR]   (needs python3 and a
#        built nvcmp; NVCMP=path/to/nvcmp picks the binary)
# About 40 x (1 + REPEAT) x RUNTIME s of runs, plus ~2 minutes of checks.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d /tmp/nvcmp-history-noise.XXXXXX)}
runs=${RUNS:-40}
runtime=${RUNTIME:-2}
repeat=${REPEAT:-3}
nvcmp=${NVCMP:-$root/target/debug/nvcmp}
target=${TARGET:-/dev/shm/nvcmp-history-real-noise.dat}
[ -x "$nvcmp" ] || { echo "build nvcmp first (cargo build) or set NVCMP" >&2; exit 2; }
[ -e "$target" ] && { echo "$target exists; remove it or set TARGET" >&2; exit 2; }
mkdir -p "$out"
trap 'rm -f "$target"' EXIT
head -c 256M /dev/urandom >"$target"
cut -d' ' -f1-3 /proc/loadavg >"$out/load-start"
start=$(date +%s)

job="--engine psync --buffered --rw randread --bs 4k --iodepth 1 --size 256m --runtime $runtime --target $target --label shm-psync"
i=1
while [ "$i" -le "$runs" ]; do
    id=$(printf 'r%02d' "$i")
    # shellcheck disable=SC2086
    "$nvcmp" -q run $job --out "$out/single/$id"
    # shellcheck disable=SC2086
    "$nvcmp" -q run $job --repeat "$repeat" --out "$out/repeat/$id"
    i=$((i + 1))
done
echo $(($(date +%s) - start)) >"$out/run-seconds"
cut -d' ' -f1-3 /proc/loadavg >"$out/load-end"

PYTHONPATH="$root/benches" python3 - "$out" "$nvcmp" "$repeat" "$runtime" <<'PY'
import glob, json, os, shutil, subprocess, sys, time
from slowdown import slow_down
out, nvcmp, repeat, runtime = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
WINDOW, STEPS = 10, (0.03, 0.05, 0.10, 0.15, 0.20, 0.30, 0.50)
# Change points take 21 nvcmp calls per window and step: fewer steps.
CP_STEPS = (0.10, 0.20, 0.30, 0.50)
t0 = time.time()

def nv(*args):
    p = subprocess.run([nvcmp, *args], capture_output=True, text=True)
    if p.returncode == 2:
        sys.exit(f"nvcmp {' '.join(args)}: {p.stderr}")
    return p

def derived(mode, run, x):
    """The run's files with a slowdown of x; the folder to pass as a run."""
    d = f"{out}/injected/{mode}/{round(x * 100)}/{run}"
    if os.path.isdir(d):
        return d
    for f in glob.glob(f"{out}/{mode}/{run}/shm-psync/*.json"):
        doc = slow_down(json.load(open(f)), x)
        os.makedirs(f"{d}/shm-psync", exist_ok=True)
        json.dump(doc, open(f"{d}/shm-psync/{os.path.basename(f)}", "w"))
    return d

def iops_of(mode, run):
    vals = [sum(j["read"]["iops"] for j in json.load(open(f))["jobs"])
            for f in sorted(glob.glob(f"{out}/{mode}/{run}/shm-psync/*.json"))]
    return vals

def rsd(v):
    m = sum(v) / len(v)
    return (sum((x - m) ** 2 for x in v) / (len(v) - 1)) ** 0.5 / m * 100

def gate(mode, runs):
    """Replays CI over the runs: check, then add. Alarms and catches."""
    hist = f"{out}/{mode}.history"
    shutil.rmtree(hist, ignore_errors=True)
    alarms = {"5": 0, "0": 0}
    caught = {(x, t): 0 for x in STEPS for t in ("5", "0")}
    trials = 0
    for i, run in enumerate(runs):
        if i >= WINDOW:
            trials += 1
            for t in ("5", "0"):
                base = ["check", "--history", hist, "--window", str(WINDOW), "--threshold", t, "--candidate"]
                alarms[t] += nv(*base, f"{out}/{mode}/{run}").returncode == 1
                for x in STEPS:
                    caught[(x, t)] += nv(*base, derived(mode, run, x)).returncode == 1
        nv("history", "add", f"{out}/{mode}/{run}", "--history", hist, "--run", run)
    return trials, alarms, caught

def change_points(mode, runs):
    """Per step: windows of 10 + 10 runs, and how many put an IOPS change
    point at the 11th run (x = 0: any change point at all)."""
    starts = list(range(0, len(runs) - 2 * WINDOW + 1, 5))
    found = {}
    for x in (0.0,) + CP_STEPS:
        hits = 0
        for s in starts:
            hist = f"{out}/cp/{mode}/{s}-{round(x * 100)}"
            shutil.rmtree(hist, ignore_errors=True)
            for k, run in enumerate(runs[s:s + 2 * WINDOW]):
                path = f"{out}/{mode}/{run}" if k < WINDOW or x == 0 else derived(mode, run, x)
                nv("history", "add", path, "--history", hist, "--run", run)
            doc = json.loads(nv("history", "show", "--history", hist, "--format", "json", "--metric", "iops").stdout)
            cps = [c["run"] for s_ in doc["series"] for c in s_["change_points"]]
            hits += bool(cps) if x == 0 else runs[s + WINDOW] in cps
            shutil.rmtree(hist)
        found[x] = (hits, len(starts))
    return found

def smallest(rates, floor=95.0):
    hit = [x for x in sorted(rates) if rates[x] >= floor]
    return f"{hit[0] * 100:.0f} %" if hit else f"> {max(rates) * 100:.0f} %"

load = [open(f"{out}/load-{w}").read().strip() for w in ("start", "end")]
lines = [f"Runs: {os.path.basename(out)}; {len(os.listdir(f'{out}/single'))} rounds in "
         f"{open(f'{out}/run-seconds').read().strip()} s; load average (1, 5, 15 min) "
         f"{load[0]} at the start, {load[1]} at the end, on {os.cpu_count()} CPUs.", ""]
modes = [("single", "one run per check", 1), ("repeat", f"--repeat {repeat} (mean of {repeat})", repeat)]
for mode, name, k in modes:
    runs = sorted(os.listdir(f"{out}/{mode}"))
    per_run = [iops_of(mode, r) for r in runs]
    means = [sum(v) / len(v) for v in per_run]
    within = [rsd(v) for v in per_run if len(v) > 1]
    trials, alarms, caught = gate(mode, runs)
    cps = change_points(mode, runs)
    lines += [f"## {name}", "",
              f"IOPS per run: mean {sum(means) / len(means):,.0f}, min {min(means):,.0f}, max {max(means):,.0f}, "
              f"run-to-run relative stddev {rsd(means):.1f} %"
              + (f"; within a run's {k} repetitions {min(within):.1f}-{max(within):.1f} % "
                 f"(median {sorted(within)[len(within) // 2]:.1f} %)" if within else "") + ".", "",
              f"| step | check --history, 5 % threshold ({trials} checks) | --threshold 0 | change point, 10 + 10 runs |",
              "| ---: | ---: | ---: | ---: |"]
    pct = lambda n, d: f"{n}/{d} = {n / d * 100:.1f} %"
    lines.append(f"| none (false alarms) | {pct(alarms['5'], trials)} | {pct(alarms['0'], trials)} | {pct(*cps[0.0])} |")
    for x in STEPS:
        cp = pct(*cps[x]) if x in cps else "-"
        lines.append(f"| {x * 100:.0f} % | {pct(caught[(x, '5')], trials)} | {pct(caught[(x, '0')], trials)} | {cp} |")
    rate = lambda t: {x: caught[(x, t)] / trials * 100 for x in STEPS}
    cp_rate = {x: cps[x][0] / cps[x][1] * 100 for x in CP_STEPS}
    lines += ["", f"Smallest step caught in 95 % or more: gate {smallest(rate('5'))} (5 % threshold), "
              f"{smallest(rate('0'))} (threshold 0); change point {smallest(cp_rate)}.", ""]
lines.append(f"Checks and histories took {time.time() - t0:.0f} s.")
text = "\n".join(lines) + "\n"
open(f"{out}/summary.md", "w").write(text)
print(text)
print(f"(runs, histories and derived candidates in {out})")
PY
