"""A real slowdown of x written into a fio JSON result, as the noise
benches inject one: IOPS and bandwidth figures (and their per-interval
mean/min/max) times 1 - x, mean latencies divided by 1 - x."""

RATE_KEYS = ("iops", "iops_mean", "iops_min", "iops_max",
             "bw", "bw_bytes", "bw_mean", "bw_min", "bw_max")


def slow_down(doc, x, ddir="read"):
    """Scales every job's `ddir` figures of the fio JSON `doc` in place."""
    for job in doc["jobs"]:
        r = job[ddir]
        for k in RATE_KEYS:
            r[k] = r[k] * (1 - x) if isinstance(r[k], float) else int(r[k] * (1 - x))
        for lat in ("lat_ns", "clat_ns"):
            r[lat]["mean"] /= (1 - x)
    return doc
