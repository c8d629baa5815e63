#!/usr/bin/env python3
"""One fio report of N jobs, to time reading it (benches/many-jobs.sh).

Usage: many-jobs.py normal|terse N > FILE

The job block is real fio 3.33 output (`fio --append-terse`, one psync
randread job of 4k on a file in /tmp, run the way the wrapper of
fixtures/script-logs/ runs fio: fixtures/README.md, "script-logs"); job
i is named `job<i>` and its I/O count, runtime and latencies are varied
with i, so no two jobs are alike. Each job reports alone (no group_reporting): the shape whose
reading was quadratic, one scan of every job per job. Deterministic: the
same N gives the same bytes.
"""
import sys

HEADER = ("{name}: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, "
          "(T) 4096B-4096B, ioengine=psync, iodepth=1\n")

BLOCK = """{name}: (groupid=0, jobs=1): err= 0: pid={pid}: Sat Dec  5 08:28:04 2026
  read: IOPS={iops_k:.1f}k, BW={bw_mib:.1f}MiB/s ({bw_mb:.1f}MB/s)({io_mib:.1f}MiB/{rt}msec)
    clat (usec): min=35, max=20350, avg={clat:.2f}, stdev=266.86
     lat (usec): min=35, max=20350, avg={lat:.2f}, stdev=266.87
    clat percentiles (usec):
     |  1.00th=[   45],  5.00th=[   47], 10.00th=[   49], 20.00th=[   52],
     | 30.00th=[   56], 40.00th=[   60], 50.00th=[   63], 60.00th=[   65],
     | 70.00th=[   70], 80.00th=[   77], 90.00th=[  104], 95.00th=[  135],
     | 99.00th=[  273], 99.50th=[  392], 99.90th=[ 4047], 99.95th=[ 4113],
     | 99.99th=[ 6980]
   bw (  KiB/s): min=43472, max=43472, per=0.01%, avg=43472.00, stdev= 0.00, samples=1
   iops        : min=10868, max=10868, avg=10868.00, stdev= 0.00, samples=1
  lat (usec)   : 50=13.98%, 100=75.39%, 250=9.56%, 500=0.66%, 750=0.08%
  lat (usec)   : 1000=0.03%
  lat (msec)   : 2=0.06%, 4=0.12%, 10=0.13%, 50=0.01%
  cpu          : usr=0.30%, sys=35.50%, ctx=11967, majf=0, minf=11
  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%
     issued rwts: total={ios},0,0,0 short=0,0,0,0 dropped=0,0,0,0
     latency   : target=0, window=0, percentile=100.00%, depth=1
"""

TERSE = ("3;fio-3.33;{name};0;0;{io_kib};{bw_kib};{iops};{rt};0;0;0.000000;0.000000;35;20350;"
         "{clat:.6f};266.861994;1.000000%=44;5.000000%=46;10.000000%=48;20.000000%=51;"
         "30.000000%=55;40.000000%=59;50.000000%=62;60.000000%=64;70.000000%=69;80.000000%=76;"
         "90.000000%=103;95.000000%=134;99.000000%=272;99.500000%=391;99.900000%=4046;"
         "99.950000%=4112;99.990000%=6979;0%=0;0%=0;0%=0;35;20350;{lat:.6f};266.865361;"
         "43472;43472;0.010000%;43472.000000;0.000000;0;0;0;0;0;0;0.000000;0.000000;0;0;"
         "0.000000;0.000000;1.000000%=0;5.000000%=0;10.000000%=0;20.000000%=0;30.000000%=0;"
         "40.000000%=0;50.000000%=0;60.000000%=0;70.000000%=0;80.000000%=0;90.000000%=0;"
         "95.000000%=0;99.000000%=0;99.500000%=0;99.900000%=0;99.950000%=0;99.990000%=0;"
         "0%=0;0%=0;0%=0;0;0;0.000000;0.000000;0;0;0.000000%;0.000000;0.000000;0.300000%;"
         "35.500000%;11967;0;11;100.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.00%;0.00%;0.00%;"
         "0.00%;13.98%;75.39%;9.56%;0.66%;0.08%;0.03%;0.06%;0.12%;0.13%;0.00%;0.01%;0.00%;"
         "0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;vda;11889;17;0;51;794;271;1066;70.07%\n")


def job(i):
    ios = 11000 + (i * 7919) % 2000
    rt = 1000 + i % 7
    iops = ios * 1000 // rt
    io = ios * 4096
    bw = io * 1000 // rt
    clat = 80 + (i % 97) / 10
    return dict(name=f"job{i}", pid=1000 + i, ios=ios, rt=rt, iops=iops,
                iops_k=iops / 1000, bw_mib=bw / 2**20, bw_mb=bw / 1e6,
                io_mib=io / 2**20, io_kib=io // 1024, bw_kib=bw // 1024,
                clat=clat, lat=clat + 0.06)


def main():
    fmt, n = sys.argv[1], int(sys.argv[2])
    out = sys.stdout
    if fmt == "terse":
        for i in range(n):
            out.write(TERSE.format(**job(i)))
        return
    for i in range(n):
        out.write(HEADER.format(name=f"job{i}"))
    out.write(f"fio-3.33\nStarting {n} processes\n\n")
    for i in range(n):
        out.write(BLOCK.format(**job(i)))
    out.write("\nRun status group 0 (all jobs):\n"
              "   READ: bw=46.8MiB/s (49.1MB/s), 46.8MiB/s-46.8MiB/s (49.1MB/s-49.1MB/s), "
              "io=46.9MiB (49.1MB), run=1001-1001msec\n")


if __name__ == "__main__":
    main()
