#!/usr/bin/env python3
"""One fio JSON report of N jobs with distinct names (issue #55, item 10).

Usage: many-names.py N [FIXTURE] > FILE

Each job is the job of FIXTURE (default: the real fio 3.33 run
fixtures/fio/linux-libaio/randread-4k.json), renamed `exp-<word>` (a
word of four letters, `aaaa`, `baaa`...: names that differ in a word,
not a number, which nvcmp would read as a repeat mark) with its own
groupid, and its read I/O bytes, IOPS, bandwidth and mean latencies
scaled together with i (up to 1.5x) so no two jobs are alike and each
agrees with itself. 128,904 jobs make 484 MB, the size of the
hostile campaign's file. Deterministic: the same N gives the same bytes.
"""
import json
import os
import sys


def word(i):
    w = ""
    for _ in range(4):
        w += chr(ord("a") + i % 26)
        i //= 26
    return w


def main():
    n = int(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    fixture = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        here, "..", "fixtures", "fio", "linux-libaio", "randread-4k.json")
    with open(fixture) as f:
        doc = json.load(f)
    job = doc["jobs"][0]
    head = {k: v for k, v in doc.items() if k not in ("jobs", "disk_util")}
    out = sys.stdout
    text = json.dumps(head, indent=2)
    out.write(text[:-2] + ',\n  "jobs" : [\n')
    read = job["read"]
    base = dict(read)
    lat = {k: dict(base[k]) for k in ("lat_ns", "clat_ns")}
    for i in range(n):
        # Throughput scaled, latency divided alike: every figure agrees
        # with the others (bandwidth = I/O bytes / runtime, IOPS x latency
        # = the I/Os in flight), as fio's own would.
        scale = 1 + (i * 7919 % 1000) / 2000
        job["jobname"] = f"exp-{word(i)}"
        job["groupid"] = i
        for k in ("io_bytes", "io_kbytes", "bw_bytes", "bw", "total_ios", "bw_min", "bw_max",
                  "iops_min", "iops_max"):
            read[k] = int(base[k] * scale)
        for k in ("iops", "bw_mean", "iops_mean"):
            read[k] = base[k] * scale
        for k in ("lat_ns", "clat_ns"):
            read[k]["mean"] = lat[k]["mean"] / scale
        body = json.dumps(job, indent=0, separators=(",", " : "))
        out.write(body + (",\n" if i + 1 < n else "\n"))
    out.write("  ],\n  \"disk_util\" : " + json.dumps(doc.get("disk_util", [])) + "\n}\n")


if __name__ == "__main__":
    main()
