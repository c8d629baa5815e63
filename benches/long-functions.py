#!/usr/bin/env python3
"""Functions (and methods) longer than N lines outside tests, for the
code-shape measure in docs/architecture.md. Counts from the `fn` line to
its closing brace at the same indentation; skips tests.rs, *_tests.rs,
tests/ folders and `mod tests` blocks.

Usage: benches/long-functions.py [N=80] [ROOT=src]
"""
import os
import re
import sys

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
root = sys.argv[2] if len(sys.argv) > 2 else "src"
fn_re = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")
found = []
for dirpath, _, files in os.walk(root):
    if "/tests" in dirpath or dirpath.endswith("tests"):
        continue
    for f in files:
        if not f.endswith(".rs") or f == "tests.rs" or f.endswith("_tests.rs"):
            continue
        path = os.path.join(dirpath, f)
        lines = open(path, encoding="utf-8").read().split("\n")
        in_tests = None
        i = 0
        while i < len(lines):
            line = lines[i]
            if re.match(r"^\s*mod tests\b", line):
                break
            m = fn_re.match(line)
            if m and not line.rstrip().endswith(";"):
                indent = m.group(1)
                j = i + 1
                while j < len(lines) and not (lines[j].startswith(indent + "}") and len(lines[j].rstrip()) == len(indent) + 1):
                    j += 1
                n = j - i + 1
                if n > limit:
                    found.append((n, path, m.group(7)))
                i = j
            i += 1
for n, path, name in sorted(found, reverse=True):
    print(f"{n:4} {path} {name}")
print(f"{len(found)} functions over {limit} lines")
