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
           copies of the same results;
- folders: the first folder as in apart, every other folder a
           byte-for-byte copy of it (a baseline folder copied beside
           itself: the same targets at the same run times, each folder a
           config of its own).

--layouts picks the templates by fio layout, a comma-separated list of
(default `studies`):

- studies:      the ICPE'24 studies above (json, one job, percentiles only);
- jsonplus:     single-job json+ runs (every job's latency histogram, `bins`):
                fixtures/fio/linux-libaio/randread-4k.jsonplus.json and
                fixtures/sweep/iodepth-formats/libaio/randread-4k-qd16.jsonplus.json;
- multijob:     several jobs in one file, json+ (fixtures/archive-layouts:
                three jobs; two rwmixread=70 jobs with read and write bins)
                and json (fixtures/fio/linux-libaio/multijob-group.json);
- clientserver: fio --client to two servers, each host's job and the
                `All clients` aggregate (fixtures/archive-layouts, json+,
                with the servers' lines fio prints before the JSON;
                fixtures/fio/linux-clientserver/two-servers.json, json);
- all:          every layout above.

--bw-skew LO:HI (percent, e.g. 0.6:8.8) raises each copy's bandwidth
(every non-zero `bw_bytes` and `bw` of its jobs) by a percentage between
LO and HI, spread evenly over the files, so each file's bandwidth
disagrees slightly with IOPS x block size: one note per file, the case of
a report whose checks must stay short (issue #54).

In apart and overlap modes each copy's json+ histogram is its own too: a
few counts move by one between neighbouring bins (the total, fio's
total_ios, unchanged), so no two files hold the same bins, as in a real
archive where no two runs do.

Usage: benches/make-archive-corpus.py DIR [--files N] [--folder-size K]
       [--mode apart|overlap|copies|folders] [--layouts LIST]
       [--bw-skew LO:HI]
Prints the number of files and MB written.
"""

import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures")
TEMPLATES = os.path.join(FIXTURES, "studies")
LAYOUTS = {
    "jsonplus": [
        "fio/linux-libaio/randread-4k.jsonplus.json",
        "sweep/iodepth-formats/libaio/randread-4k-qd16.jsonplus.json",
    ],
    "multijob": [
        "archive-layouts/multijob-jsonplus.json",
        "archive-layouts/rwmix-jsonplus.json",
        "fio/linux-libaio/multijob-group.json",
    ],
    "clientserver": [
        "archive-layouts/clientserver-jsonplus.json",
        "fio/linux-clientserver/two-servers.json",
    ],
}

TS = re.compile(rb'"timestamp" : \d+')
TS_MS = re.compile(rb'"timestamp_ms" : \d+')
TIME = re.compile(rb'"time" : "[^"]*"')
BINS = re.compile(rb'"bins" : \{([^}]*)\}')
BIN = re.compile(rb'("\d+" : )(\d+)')


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
            out.append((os.path.splitext(name)[0], data, runtime_of(doc)))
    return out


def runtime_of(doc):
    """The longest job runtime (ms) of a fio document, plain or
    client/server."""
    jobs = doc.get("jobs") or doc.get("client_stats") or []
    return max((j.get("job_runtime", 0) for j in jobs), default=0)


def layout_templates(names):
    """The templates of each layout named (see LAYOUTS), one list per
    layout, each read as bytes; a client/server file's JSON may follow
    the lines fio printed for its servers."""
    out = []
    for name in names:
        if name == "studies":
            out.append(templates())
            continue
        group = []
        for rel in LAYOUTS[name]:
            data = open(os.path.join(FIXTURES, rel), "rb").read()
            doc = json.loads(data[data.index(b"{"):])
            stem = os.path.splitext(os.path.basename(rel))[0].replace(".", "-")
            group.append((f"{name}-{stem}", data, runtime_of(doc)))
        out.append(group)
    return out


def own_bins(data, seed):
    """Each json+ histogram of the file with a few counts moved by one
    between neighbouring bins (seeded by the file's number): the total
    stays, the histogram is this file's own."""

    def one(m):
        bins = BIN.findall(m.group(1))
        if len(bins) < 2:
            return m.group(0)
        counts = [int(c) for _, c in bins]
        for k in range(4):
            i = (seed * 7919 + k * 104729) % (len(bins) - 1)
            src, dst = (i, i + 1) if (seed >> k) & 1 else (i + 1, i)
            if counts[src] > 1:
                counts[src] -= 1
                counts[dst] += 1
        it = iter(counts)
        return b'"bins" : {' + BIN.sub(lambda b: b.group(1) + b"%d" % next(it), m.group(1)) + b"}"

    return BINS.sub(one, data)


BW = re.compile(rb'("bw(?:_bytes)?" : )(\d+)')


def skewed(data, pct):
    """Every non-zero `bw_bytes` and `bw` (KiB/s) of the file raised by
    `pct` percent; IOPS, block size and everything else unchanged."""

    def one(m):
        v = int(m.group(2))
        return m.group(1) + b"%d" % round(v * (1 + pct / 100)) if v else m.group(0)

    return BW.sub(one, data)


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
    ap.add_argument("--mode", choices=["apart", "overlap", "copies", "folders"], default="apart")
    ap.add_argument(
        "--layouts",
        default="studies",
        help="comma-separated: studies, jsonplus, multijob, clientserver, all",
    )
    ap.add_argument(
        "--bw-skew",
        metavar="LO:HI",
        help="raise each file's bandwidth by LO..HI percent (spread over the files)",
    )
    a = ap.parse_args()
    skew = None
    if a.bw_skew:
        try:
            lo, hi = (float(x) for x in a.bw_skew.split(":"))
        except ValueError:
            sys.exit(f"--bw-skew {a.bw_skew}: expected LO:HI percent, e.g. 0.6:8.8")
        skew = (lo, hi)
    names = [n.strip() for n in a.layouts.split(",") if n.strip()]
    if names == ["all"]:
        names = ["studies", *LAYOUTS]
    bad = [n for n in names if n != "studies" and n not in LAYOUTS]
    if bad:
        sys.exit(f"--layouts: unknown layout {', '.join(bad)} (studies, {', '.join(LAYOUTS)}, all)")
    groups = layout_templates(names)
    if not all(groups):
        sys.exit(f"no fio JSON templates under {TEMPLATES}")
    tmpl = [t for g in groups for t in g]
    spacing = 10_000 + max(t[2] for t in tmpl)
    base = 1_700_000_000_000
    total = 0
    for i in range(a.files):
        folder = os.path.join(a.dir, f"lab-{i // a.folder_size:02d}")
        if i % a.folder_size == 0:
            os.makedirs(folder, exist_ok=True)
        # The layouts take turns, each going round its own templates.
        k = i % a.folder_size if a.mode == "folders" else i
        group = groups[k % len(groups)]
        name, data, _ = group[(k // len(groups)) % len(group)]
        if a.mode == "folders":
            data = own_bins(stamped(data, base + k * spacing), k)
            name = f"{name}-{k:06d}"
        elif a.mode == "apart":
            data = own_bins(stamped(data, base + i * spacing), i)
        elif a.mode == "overlap":
            data = own_bins(stamped(data, base + (i % a.folder_size)), i)
        if a.mode != "folders":
            name = f"{name}-{i:06d}"
        if skew:
            lo, hi = skew
            data = skewed(data, lo + (hi - lo) * i / max(a.files - 1, 1))
        with open(os.path.join(folder, f"{name}.json"), "wb") as f:
            f.write(data)
        total += len(data)
    print(f"{a.files} files ({a.mode}, {','.join(names)}: {len(tmpl)} templates), {total / 1e6:.1f} MB in {a.dir}")


if __name__ == "__main__":
    main()
