#!/usr/bin/env python3
"""Functions (and methods) longer than N lines outside tests, for the
code-shape measure in docs/architecture.md and CI. Counts from the `fn`
line to its closing brace at the same indentation.

Tests are left out by what marks them, not by where reading stops: an
item under `#[cfg(test)]` (an inline `mod tests { ... }` block or a
function) or `#[test]` is skipped whole and reading goes on after it, so
code after a `mod tests;` declaration or a test block is still read.
Files that are test modules by the project's layout (`tests.rs`,
`*_tests.rs`, a `tests/` folder under src, each declared under
`#[cfg(test)]`) are left out whole.

Usage: benches/long-functions.py [--check] [N=80] [ROOT=src]
  --check  exit 1 when any function is over N lines (CI).
"""
import os
import re
import sys

args = [a for a in sys.argv[1:] if a != "--check"]
check = "--check" in sys.argv[1:]
limit = int(args[0]) if args else 80
root = args[1] if len(args) > 1 else "src"
fn_re = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"\w+\"\s+)?fn\s+(\w+)")
test_attr = re.compile(r"^\s*#\[(cfg\(test\)|test)\]")


def block_end(lines, i):
    """Index of the line closing the item that opens at line i: the first
    later line that is the opening line's indentation and a lone `}`; an
    item without a body (`mod tests;`, a declaration) ends where it starts."""
    indent = re.match(r"^(\s*)", lines[i]).group(1)
    j = i
    # The item's head may run over several lines up to `{` or `;`.
    while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
        j += 1
    if j >= len(lines) or lines[j].rstrip().endswith(";") and "{" not in lines[j]:
        return j
    if lines[j].rstrip().endswith("}") and lines[j].count("{") == lines[j].count("}"):
        return j
    j += 1
    while j < len(lines) and not (lines[j].startswith(indent + "}") and lines[j].rstrip() in (indent + "}", indent + "};")):
        j += 1
    return j


found = []
for dirpath, _, files in os.walk(root):
    if "/tests" in dirpath or dirpath.endswith("tests"):
        continue
    for f in files:
        if not f.endswith(".rs") or f == "tests.rs" or f.endswith("_tests.rs"):
            continue
        path = os.path.join(dirpath, f)
        lines = open(path, encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            if test_attr.match(line):
                # Skip the attributes and the item they mark, whole.
                j = i + 1
                while j < len(lines) and re.match(r"^\s*(#\[|///|//)", lines[j]):
                    j += 1
                if j < len(lines):
                    i = block_end(lines, j)
                i += 1
                continue
            m = fn_re.match(line)
            if m and not line.rstrip().endswith(";"):
                j = block_end(lines, i)
                n = j - i + 1
                if n > limit:
                    found.append((n, path, m.group(8)))
                # Go on inside: a long method's body is counted once, but
                # items nested in it (rare) are not looked at again.
                i = j
            i += 1
for n, path, name in sorted(found, reverse=True):
    print(f"{n:4} {path} {name}")
print(f"{len(found)} functions over {limit} lines")
sys.exit(1 if check and found else 0)
