#!/usr/bin/env python3
"""A lab's archive of fio results, made from real fio outputs.

Copies the fio JSON results under fixtures/studies (the ICPE'24 studies:
real fio 3.35 runs on NVMe devices, each naming its targets) round robin
into N files, FOLDER_SIZE files per folder, and rewrites each copy's
`timestamp`, `timestamp_ms` and `time` (the only bytes that change; the
layout stays fio's) so that:

- apart:   each file is its own run, ending 10 s after the one before
           it ended plus the longest run (nothing overlaps);
- overlap: the files of a folder ran side by side, ending 1 ms apart
           (every file overlaps every other of its folder on the same
           targets: the worst case of the fio-instances rule);
- copies:  the templates unchanged, so each folder holds byte-for-byte
           copies of the same results (a copied baseline folder).

Usage: benches/make-archive-corpus.py DIR [--files N] [--folder-size K]
       [--mode apart|overlap|copies]
Prints the number of files and MB written.
"""

import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, "..", "fixtures", "studies")

TS = re.compile(rb'"timestamp" : \d+')
TS_MS = re.compile(rb'"timestamp_ms" : \d+')
TIME = re.compile(rb'"time" : "[^"]*"')


def templates():
    """Every file under fixtures/studies that is one fio JSON document
    with a millisecond timestamp, and its longest job runtime (ms)."""
    out = []
    for root, _, names in sorted(os.walk(TEMPLATES)):
        for name in sorted(names):
            path = os.path.join(root, name)
            data = open(path, "rb").read()
            try:
                doc = json.loads(data)
            except ValueError:
                continue
            if "timestamp_ms" not in doc or not doc.get("jobs"):
                continue
            runtime = max(j.get("job_runtime", 0) for j in doc["jobs"])
            out.append((os.path.splitext(name)[0], data, runtime))
    return out


def stamped(data, end_ms):
    s = end_ms // 1000
    text = time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime(s)).encode()
    data = TS.sub(b'"timestamp" : %d' % s, data, count=1)
    data = TS_MS.sub(b'"timestamp_ms" : %d' % end_ms, data, count=1)
    return TIME.sub(b'"time" : "' + text + b'"', data, count=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--folder-size", type=int, default=25_000)
    ap.add_argument("--mode", choices=["apart", "overlap", "copies"], default="apart")
    a = ap.parse_args()
    tmpl = templates()
    if not tmpl:
        sys.exit(f"no fio JSON templates under {TEMPLATES}")
    spacing = 10_000 + max(t[2] for t in tmpl)
    base = 1_700_000_000_000
    total = 0
    for i in range(a.files):
        folder = os.path.join(a.dir, f"lab-{i // a.folder_size:02d}")
        if i % a.folder_size == 0:
            os.makedirs(folder, exist_ok=True)
        name, data, _ = tmpl[i % len(tmpl)]
        if a.mode == "apart":
            data = stamped(data, base + i * spacing)
        elif a.mode == "overlap":
            data = stamped(data, base + (i % a.folder_size))
        with open(os.path.join(folder, f"{name}-{i:06d}.json"), "wb") as f:
            f.write(data)
        total += len(data)
    print(f"{a.files} files ({a.mode}, {len(tmpl)} templates), {total / 1e6:.1f} MB in {a.dir}")


if __name__ == "__main__":
    main()
