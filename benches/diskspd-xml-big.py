#!/usr/bin/env python3
"""A large DiskSpd `-Rxml` result with `-D` buckets, for measuring the XML
reader's peak memory (benches/diskspd-xml.md, issue #38).

It is made from the real DiskSpd 2.2 result in fixtures/ (one thread, one
target, ten 1 s buckets): the run's timespan-wide <Iops> and each thread's
target get SECONDS buckets of one second, and the thread is repeated
THREADS times. The defaults (64 threads, 9,500 s) make ~215 MB, the size
of the result that peaked at 1.1-1.5 GB.

Usage: benches/diskspd-xml-big.py OUT.xml [THREADS=64] [SECONDS=9500]
"""
import re
import sys

FIXTURE = "fixtures/diskspd/windows-writer-tests/v2.2-xml.xml"


def buckets(indent, seconds, i):
    """SECONDS bucket lines as DiskSpd writes them, rates varying a little."""
    out = []
    for s in range(1, seconds + 1):
        r = 1000 + (s * 7 + i * 13) % 97
        w = (s * 3 + i) % 11
        out.append(
            f'{indent}<Bucket SampleMillisecond="{s * 1000}" Read="{r}" Write="{w}" '
            f'Total="{r + w}" ReadMinLatencyMilliseconds="0.051" '
            f'ReadMaxLatencyMilliseconds="1.942" ReadAvgLatencyMilliseconds="0.118" '
            f'ReadLatencyStdDev="0.031" WriteMinLatencyMilliseconds="0.062" '
            f'WriteMaxLatencyMilliseconds="2.113" WriteAvgLatencyMilliseconds="0.131" '
            f'WriteLatencyStdDev="0.040"/>\n'
        )
    return "".join(out)


def main():
    out = sys.argv[1]
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 9500
    text = open(FIXTURE, encoding="utf-8").read()
    # The results timespan: its <Iops> buckets, then its one <Thread>.
    span_at = text.index("  <TimeSpan>", text.index("</Profile>"))
    head, span = text[:span_at], text[span_at:]
    bucket_line = re.compile(r"^( *)<Bucket SampleMillisecond=[^\n]*\n", re.M)
    thread_at = span.index("    <Thread>")
    thread_end = span.index("    </Thread>\n") + len("    </Thread>\n")
    before, thread, after = span[:thread_at], span[thread_at:thread_end], span[thread_end:]

    def fill(block, i):
        first = bucket_line.search(block)
        rest = bucket_line.sub("", block)
        at = first.start()
        return rest[:at] + buckets(first.group(1), seconds, i) + rest[at:]

    with open(out, "w", encoding="utf-8") as f:
        f.write(head)
        f.write(fill(before, 0))
        for i in range(threads):
            t = re.sub(r"<Id>0</Id>", f"<Id>{i}</Id>", thread, count=1)
            f.write(fill(t, i))
        f.write(after)


if __name__ == "__main__":
    main()
