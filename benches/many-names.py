#!/usr/bin/env python3
"""One fio JSON report of N jobs with distinct names (issue #55, item 10).

Usage: many-names.py N [FIXTURE] > FILE

Each job is the job of FIXTURE (default: the real fio 3.33 run
fixtures/fio/linux-libaio/randread-4k.json), renamed `exp-<word>` (a
word of four letters, `aaaa`, `baaa`...: names that differ in a word,
not a number, which nvcmp would read as a repeat mark) with its own
groupid, and its read IOPS, bandwidth and mean latency varied with i so
no two jobs are alike. 128,904 jobs make 484 MB, the size of the
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
    iops, bw, mean = read["iops"], read["bw"], read["clat_ns"]["mean"]
    for i in range(n):
        scale = 1 + (i * 7919 % 1000) / 2000
        job["jobname"] = f"exp-{word(i)}"
        job["groupid"] = i
        read["iops"] = iops * scale
        read["bw"] = int(bw * scale)
        read["bw_bytes"] = int(bw * scale) * 1024
        read["clat_ns"]["mean"] = mean / scale
        body = json.dumps(job, indent=0, separators=(",", " : "))
        out.write(body + (",\n" if i + 1 < n else "\n"))
    out.write("  ],\n  \"disk_util\" : " + json.dumps(doc.get("disk_util", [])) + "\n}\n")


if __name__ == "__main__":
    main()
