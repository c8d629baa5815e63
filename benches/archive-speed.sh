#!/usr/bin/env bash
# A lab's whole archive: N fio results made from real fio outputs
# (`benches/make-archive-corpus.py`: the ICPE'24 studies' files, each its
# own run), and the time and peak memory of
#   cat of every file (the read limit),
#   nvcmp ingest DIR > /dev/null,
#   nvcmp analyze DIR --format json > /dev/null,
#   nvcmp analyze DIR --out OUT (reports and charts),
# each the median of RUNS runs, alternating, page cache warm; then the
# ratios the issue set (#42): ingest within 1.2x cat, analyze json under
# 1.5x ingest, analyze --out under 2x ingest, each under 600 MB.
# Then the fio-instances rule's worst case: GROUP files in one folder that
# all ran side by side on the same targets, against as many that ran one
# after another (ingest; the rule must cost no more than 2x). Then copied
# folders (issue #57): a folder of 10,000 results copied beside itself
# (the same targets at the same run times), 10k, 20k and 40k files in
# folders of 10,000, ingested with the rule and with `--instances apart`:
# within 2x of apart, and growing with the files, not faster.
#
# A benchmark, not a test: it prints figures and never fails on them.
#
# Usage: benches/archive-speed.sh [BIN]
#   BIN  the nvcmp binary to time; default: the release build of this
#        checkout (built first).
# Env: FILES (100000), GROUP (25000; 0 skips the instances case), RUNS (3),
#      LAYOUTS (the archive's fio layouts, make-archive-corpus.py --layouts:
#      default all, json+ with bins, multi-job and client/server files
#      beside the studies'), COPIES ("10000 20000 40000"; empty skips the
#      copied folders), KEEP (a folder to keep the corpora in between runs).
# Each line printed gives the wall time (median) and the CPU seconds
# (user+sys, median), which move less when other work shares the machine.
# Needs: python3, /usr/bin/time.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$here/target}"
files="${FILES:-100000}"
group="${GROUP:-25000}"
runs="${RUNS:-3}"
layouts="${LAYOUTS:-all}"
copies="${COPIES-10000 20000 40000}"
bin="${1:-}"
if [ -z "$bin" ]; then
  (cd "$here" && cargo build -q --release --bin nvcmp)
  bin="$target/release/nvcmp"
fi
work="${KEEP:-}"
if [ -z "$work" ]; then
  work="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-archive.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
corpus() { # NAME FILES ARGS...
  local dir="$work/$1" n="$2"; shift 2
  if [ ! -f "$dir.done" ] || [ "$(cat "$dir.done")" != "$n $*" ]; then
    rm -rf "$dir"
    python3 "$here/benches/make-archive-corpus.py" "$dir" --files "$n" "$@" >&2
    echo "$n $*" > "$dir.done"
  fi
  echo "$dir"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $bin ($("$bin" --version))"
archive="$(corpus archive "$files" --layouts "$layouts")"
apart=""; overlap=""
if [ "$group" -gt 0 ]; then
  apart="$(corpus apart "$group" --folder-size "$group")"
  overlap="$(corpus overlap "$group" --folder-size "$group" --mode overlap)"
fi

folders=""
for n in $copies; do
  folders="$folders $(corpus "folders-$n" "$n" --folder-size 10000 --mode folders)"
done

python3 - "$bin" "$runs" "$work" "$archive" "$apart" "$overlap" "$folders" <<'PY'
import os, re, shutil, statistics, subprocess, sys
bin, runs, work, archive, apart, overlap, folders = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]

def files_of(d):
    return sorted(os.path.join(r, n) for r, _, ns in os.walk(d) for n in ns)

def timed(cmd):
    """Wall seconds, peak RSS (MB) and CPU seconds (user+sys) of one run,
    by /usr/bin/time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", *cmd],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    wall, kb, user, sys_ = out.stderr.decode().strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024, float(user) + float(sys_)

def medians(cases):
    """Each case's median wall time, peak RSS and median CPU seconds,
    the cases alternating."""
    got = {name: [] for name, _ in cases}
    for _ in range(runs):
        for name, cmd in cases:
            got[name].append(timed(cmd))
    return {n: (statistics.median(t for t, _, _ in v), max(m for _, m, _ in v),
                statistics.median(c for _, _, c in v)) for n, v in got.items()}

def cat_cmd(d):
    # One cat over every file (the list is written once, outside the timing).
    lst = os.path.join(work, os.path.basename(d) + ".list")
    with open(lst, "w") as f:
        f.write("\0".join(files_of(d)))
    return ["sh", "-c", f"xargs -0 cat < '{lst}' > /dev/null"]

summary = []
def say(line):
    print(line)
    summary.append(line)

n = len(files_of(archive))
mb = sum(os.path.getsize(p) for p in files_of(archive)) / 1e6
out = os.path.join(work, "out")
def analyze_out():
    shutil.rmtree(out, ignore_errors=True)
    return [bin, "--quiet", "analyze", archive, "--out", out]
# Warm the page cache once.
subprocess.run(cat_cmd(archive), check=True)
cases = [
    ("cat", cat_cmd(archive)),
    ("ingest", [bin, "--quiet", "ingest", archive]),
    ("analyze json", [bin, "--quiet", "analyze", archive, "--format", "json"]),
]
m = medians(cases)
# analyze --out writes a folder: run alone, after the others.
m["analyze --out"] = medians([("analyze --out", analyze_out())])["analyze --out"]
say(f"archive: {n} files, {mb:.0f} MB, median of {runs}")
for name in ["cat", "ingest", "analyze json", "analyze --out"]:
    t, rss, cpu = m[name]
    say(f"  {name:<14} {t:7.2f} s {rss:7.0f} MB peak {cpu:7.2f} s CPU")
ing = m["ingest"][0]
say(f"  ingest / cat          {ing / m['cat'][0]:.2f}x (aim: within 1.2x)")
say(f"  analyze json / ingest {m['analyze json'][0] / ing:.2f}x (aim: under 1.5x)")
say(f"  analyze --out / ingest {m['analyze --out'][0] / ing:.2f}x (aim: under 2x)")
say(f"  peak memory           {max(v[1] for v in m.values()):.0f} MB (aim: each under 600 MB)")
if apart:
    k = len(files_of(apart))
    g = medians([("apart", [bin, "--quiet", "ingest", apart]),
                 ("overlap", [bin, "--quiet", "ingest", overlap])])
    say(f"instances rule: {k} files in one folder, median of {runs}")
    say(f"  one after another {g['apart'][0]:7.2f} s {g['apart'][1]:7.0f} MB peak")
    say(f"  all side by side  {g['overlap'][0]:7.2f} s {g['overlap'][1]:7.0f} MB peak")
    say(f"  side by side / apart {g['overlap'][0] / g['apart'][0]:.2f}x (aim: at most 2x)")
if folders.split():
    say(f"copied folders (folders of 10,000 alike), ingest, median of {runs}")
    for d in folders.split():
        k = len(files_of(d))
        g = medians([("auto", [bin, "--quiet", "ingest", d]),
                     ("apart", [bin, "--quiet", "ingest", d, "--instances", "apart"])])
        say(f"  {k:6d} files: rule {g['auto'][0]:6.2f} s ({g['auto'][2]:.2f} s CPU), "
            f"apart {g['apart'][0]:6.2f} s ({g['apart'][2]:.2f} s CPU): "
            f"{g['auto'][0] / g['apart'][0]:.2f}x wall, {g['auto'][2] / g['apart'][2]:.2f}x CPU (aim: within 2x)")
step = os.environ.get("GITHUB_STEP_SUMMARY")
if step:
    with open(step, "a") as f:
        f.write("### archive benchmark (benches/archive-speed.sh)\n\n```\n" + "\n".join(summary) + "\n```\n")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
