#!/usr/bin/env python3
"""Alternating A/B timings of `nvcmp -q ingest TARGET > /dev/null`.

Each spec is `name|ENV=V,ENV2=V|binary` (`binary` may be `cat`: every
file of TARGET through `find | xargs cat`, or the file itself). Every
command runs once to warm the page cache, then N rounds alternate them;
printed per spec: median wall time (and MB/s, and the ratio to the first
spec), median CPU time (user + sys) and the highest peak RSS, with the
load average before and after. A benchmark, not a test.

Usage: benches/ab-ingest.py N TARGET SPEC...
  e.g. benches/ab-ingest.py 7 corpus "cat||cat" "before||old/nvcmp" "after||new/nvcmp"
"""
import os
import statistics
import subprocess
import sys


def run(spec, target):
    _, envs, binary = spec.split("|")
    env = dict(os.environ)
    for e in filter(None, envs.split(",")):
        k, v = e.split("=", 1)
        env[k] = v
    if binary == "cat":
        if os.path.isdir(target):
            cmd = ["sh", "-c", f"find '{target}' -type f -print0 | xargs -0 cat > /dev/null"]
        else:
            cmd = ["cat", target]
    else:
        cmd = [binary, "-q", "ingest", target]
    p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", *cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=True)
    w, u, s, m = p.stderr.decode().strip().splitlines()[-1].split()
    return float(w), float(u) + float(s), int(m) / 1024


def main():
    n, target, specs = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    res = {s: [] for s in specs}
    load = [open("/proc/loadavg").read().split()[0]]
    for s in specs:
        run(s, target)
    for _ in range(n):
        for s in specs:
            res[s].append(run(s, target))
    load.append(open("/proc/loadavg").read().split()[0])
    if os.path.isdir(target):
        mb = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(target) for f in fs) / 1e6
    else:
        mb = os.path.getsize(target) / 1e6
    first = statistics.median(x[0] for x in res[specs[0]])
    print(f"{target}: {mb:.1f} MB, {n} alternating runs, load average {load[0]} -> {load[1]}")
    for s in specs:
        w = statistics.median(x[0] for x in res[s])
        c = statistics.median(x[1] for x in res[s])
        m = max(x[2] for x in res[s])
        print(f"  {s.split('|')[0]:<12} wall {w:7.3f} s ({mb / w:6.1f} MB/s, {w / first:4.2f}x first)"
              f"  cpu {c:7.3f} s  peak {m:6.0f} MB")


if __name__ == "__main__":
    main()
