#!/usr/bin/env python3
"""Writes a load-point benchmark corpus for `nvcmp analyze`: 384 fio-3.x
JSON files, one folder per config,

  3 configs  x  4 workloads (randread 4k, randwrite 4k, read 128k, write 128k)
             x  8 iodepths (1 .. 128)  x  4 numjobs (1, 2, 4, 8)

  OUT/<config>/<workload>-qd<Q>-nj<N>.json     e.g. OUT/gen4-io_uring/randread-4k-qd8-nj2.json

Each file is one real fio-3.33 JSON document (a fixture written by
fixtures/make-sweep-fixtures.sh, numjobs with --group_reporting) with its
figures replaced by a saturating model, so the files have fio's shape and
plausible, not measured, numbers:

  IOPS(q) = peak * (1 - exp(-q * iops1 / peak)),  q = iodepth * numjobs
  softly capped by a per-job CPU limit (numjobs * cpu_cap); mean latency by
  Little's law (q / IOPS); the p99 tail grows with the device's utilization.

Deterministic: the noise (+-2 %) is seeded from the file's name.

Usage: benches/make-sweep-corpus.py OUT_DIR [--template FILE]
"""
import argparse
import copy
import json
import math
import pathlib
import random
import sys
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
# fio's JSON layout, shared with the fixture writers.
sys.path.insert(0, str(ROOT / "fixtures"))
from fio_json_text import depth_bucket, emit  # noqa: E402

TEMPLATE = ROOT / "fixtures" / "sweep" / "numjobs" / "libaio" / "randread-4k-qd4-nj2.json"

DEPTHS = [1, 2, 4, 8, 16, 32, 64, 128]
NUMJOBS = [1, 2, 4, 8]
RUNTIME_MS = 30000

# name: (rw, bs bytes, bs text, direction)
WORKLOADS = {
    "randread-4k": ("randread", 4096, "4k", "read"),
    "randwrite-4k": ("randwrite", 4096, "4k", "write"),
    "read-128k": ("read", 131072, "128k", "read"),
    "write-128k": ("write", 131072, "128k", "write"),
}

# Per config and workload: (QD1 latency in us, peak IOPS). 128k peaks come
# from a bandwidth limit (GB/s / 128 KiB).
GB = 1e9
CONFIGS = {
    "gen4-io_uring": ("io_uring", "nvme0n1", 420_000, {
        "randread-4k": (62, 900_000), "randwrite-4k": (14, 380_000),
        "read-128k": (115, 6.8 * GB / 131072), "write-128k": (42, 3.9 * GB / 131072)}),
    "gen4-libaio": ("libaio", "nvme0n1", 330_000, {
        "randread-4k": (66, 820_000), "randwrite-4k": (17, 360_000),
        "read-128k": (119, 6.7 * GB / 131072), "write-128k": (45, 3.8 * GB / 131072)}),
    "gen3-libaio": ("libaio", "nvme1n1", 330_000, {
        "randread-4k": (88, 520_000), "randwrite-4k": (22, 210_000),
        "read-128k": (160, 3.4 * GB / 131072), "write-128k": (60, 2.1 * GB / 131072)}),
}

PCT = [1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0,
       99.0, 99.5, 99.9, 99.95, 99.99]
# Percentile / mean at rest; the tail (above p90) stretches with utilization.
BODY = [0.55, 0.65, 0.72, 0.80, 0.86, 0.91, 0.95, 1.00, 1.06, 1.15, 1.35, 1.55,
        1.9, 2.2, 2.9, 3.3, 4.4]


def model(cfg, wl, qd, nj, rng):
    _, _, cpu_cap, table = CONFIGS[cfg]
    lat1_us, peak = table[wl]
    iops1 = 1e6 / lat1_us
    q = qd * nj
    dev = peak * (1 - math.exp(-q * iops1 / peak))
    cap = cpu_cap * nj * (1 if WORKLOADS[wl][1] == 4096 else 4)  # big blocks: fewer I/Os per CPU
    p = 4
    iops = dev * cap / (dev ** p + cap ** p) ** (1 / p)
    iops *= 1 + rng.uniform(-0.02, 0.02)
    util = min(1.0, iops / peak)
    lat_ns = q / iops * 1e9
    tail = 1 + 1.5 * util ** 4
    pct = {}
    prev = 0
    for p_, f in zip(PCT, BODY):
        mult = f if p_ <= 90 else 1.35 + (f - 1.35) * tail
        v = max(prev + 1, round(lat_ns * mult))
        pct[p_] = v
        prev = v
    return iops, lat_ns, pct, util


def fill(tmpl, cfg, wl, qd, nj, ts):
    engine, device, _, _ = CONFIGS[cfg]
    rw, bs, bs_txt, ddir = WORKLOADS[wl]
    name = f"{wl}-qd{qd}-nj{nj}"
    rng = random.Random(zlib.crc32(f"{cfg}/{name}".encode()))
    iops, lat_ns, pct, util = model(cfg, wl, qd, nj, rng)

    doc = copy.deepcopy(tmpl)
    job = doc["jobs"][0]
    zero = copy.deepcopy(job["write"] if job["read"]["io_bytes"] else job["read"])
    src = job["read"] if job["read"]["io_bytes"] else job["write"]
    for d in ("read", "write", "trim"):
        job[d] = copy.deepcopy(zero)
    d = job[ddir] = copy.deepcopy(src)

    secs = RUNTIME_MS / 1000
    total = int(iops * secs)
    io_bytes = total * bs
    slat = 1100.0 if engine == "io_uring" else 2300.0
    d.update({
        "io_bytes": io_bytes, "io_kbytes": io_bytes >> 10,
        "bw_bytes": int(io_bytes * 1000 // RUNTIME_MS), "bw": int(io_bytes * 1000 // RUNTIME_MS) >> 10,
        "iops": total * 1000 / RUNTIME_MS, "runtime": RUNTIME_MS, "total_ios": total,
        "short_ios": 0, "drop_ios": 0,
    })
    d["slat_ns"] = {"min": int(slat * 0.6), "max": int(slat * 50), "mean": slat,
                    "stddev": slat * 0.6, "N": total}
    cmin, cmax = round(lat_ns * 0.4), round(pct[99.99] * 1.6)
    d["clat_ns"] = {"min": cmin, "max": cmax, "mean": lat_ns - slat,
                    "stddev": lat_ns * (0.3 + 0.5 * util), "N": total,
                    "percentile": {"%f" % p: v for p, v in pct.items()}}
    d["lat_ns"] = {"min": cmin + int(slat * 0.6), "max": cmax + int(slat * 3), "mean": lat_ns,
                   "stddev": lat_ns * (0.3 + 0.5 * util), "N": total}
    bw = d["bw"]
    samples = int(secs) * nj
    d.update({"bw_min": int(bw * 0.9 / nj), "bw_max": int(bw * 1.1 / nj), "bw_agg": 100.0,
              "bw_mean": bw / nj, "bw_dev": bw * 0.03 / nj, "bw_samples": samples,
              "iops_min": int(iops * 0.9 / nj), "iops_max": int(iops * 1.1 / nj),
              "iops_mean": iops / nj, "iops_stddev": iops * 0.03 / nj, "iops_samples": samples})
    # With group_reporting, fio sums bw/iops per job into the group: the
    # per-sample figures are per job, as in the template.

    job["jobname"] = name
    opts = {"name": name, "ioengine": engine, "rw": rw, "bs": bs_txt, "iodepth": str(qd),
            "size": "100%", "runtime": str(int(secs)), "direct": "1",
            "filename": f"/dev/{device}", "numjobs": str(nj)}
    job["job options"] = opts
    job["elapsed"] = int(secs) + 1
    job["eta"] = 0
    job["job_runtime"] = RUNTIME_MS * nj
    cpu = min(100.0, iops * (1.4e-6 if engine == "io_uring" else 1.9e-6) * 100 / nj)
    job["usr_cpu"] = round(cpu * 0.15, 6)
    job["sys_cpu"] = round(cpu * 0.8, 6)
    job["ctx"] = total // 4
    levels = {k: 0.0 for k in job["iodepth_level"]}
    levels[depth_bucket(qd)] = 100.0
    job["iodepth_level"] = levels
    job["latency_depth"] = qd

    # latency buckets from the percentiles (piecewise-linear CDF).
    cdf = [(cmin, 0.0)] + [(v, p) for p, v in pct.items()] + [(cmax, 100.0)]

    def below(x):
        if x <= cdf[0][0]:
            return 0.0
        for (x0, p0), (x1, p1) in zip(cdf, cdf[1:]):
            if x <= x1:
                return p0 + (p1 - p0) * (x - x0) / (x1 - x0)
        return 100.0

    prev = 0.0
    for unit, scale in (("latency_ns", 1), ("latency_us", 1000), ("latency_ms", 1_000_000)):
        for k in job[unit]:
            if k.startswith(">="):
                job[unit][k] = round(100.0 - prev, 6)
                continue
            c = below(int(k) * scale)
            job[unit][k] = round(c - prev, 6)
            prev = c

    doc["timestamp"] = ts
    doc["timestamp_ms"] = ts * 1000
    doc.pop("global options", None)
    for du in doc.get("disk_util", []):
        du["name"] = device
        du["read_ios"] = total if ddir == "read" else 0
        du["write_ios"] = total if ddir == "write" else 0
        du["read_merges"] = du["write_merges"] = 0
        ticks = int(total * lat_ns / 1e6)
        du["read_ticks"] = ticks if ddir == "read" else 0
        du["write_ticks"] = ticks if ddir == "write" else 0
        du["in_queue"] = ticks
        du["util"] = round(min(99.9, 40 + 60 * util), 6)
    doc["disk_util"] = doc.get("disk_util", [])[:1]
    return name, doc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--template", type=pathlib.Path, default=TEMPLATE)
    a = ap.parse_args()
    text = a.template.read_text()
    tmpl = json.loads(text[text.index("{"):])       # a sync engine's note may come first
    if len(tmpl["jobs"]) != 1:
        raise SystemExit(f"{a.template}: want a one-job fio JSON file (numjobs with group_reporting)")

    n = 0
    ts = 1796500000
    for cfg in CONFIGS:
        d = a.out / cfg
        d.mkdir(parents=True, exist_ok=True)
        for wl in WORKLOADS:
            for qd in DEPTHS:
                for nj in NUMJOBS:
                    name, doc = fill(tmpl, cfg, wl, qd, nj, ts)
                    (d / f"{name}.json").write_text(emit(doc) + "\n")
                    ts += 32
                    n += 1
    print(f"{n} files in {a.out} ({len(CONFIGS)} configs)")


if __name__ == "__main__":
    main()
