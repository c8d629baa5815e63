#!/usr/bin/env python3
"""The figures of docs/architecture.md's "The code in numbers", measured,
not typed: runs the checkers in benches/ on src/ and writes their
results between the `<!-- figures -->` and `<!-- /figures -->` lines of
docs/architecture.md (`--check` only says whether they are current, exit 1
when not).

Usage: benches/architecture-figures.py [--check]
"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
doc = os.path.join(root, "docs", "architecture.md")


def run(script, *args):
    out = subprocess.run([sys.executable, os.path.join(here, script), *args],
                         cwd=root, capture_output=True, text=True)
    return out.stdout


def figures():
    imports = run("imports.py", "src")
    total = re.search(r"total: (\d+) arrows up, (\d+) circles in (\d+) folders", imports)
    arrows = {m.group(1): int(m.group(2))
              for m in re.finditer(r"^== (.+): (\d+) module arrows", imports, re.M)}
    inside = sum(n for s, n in arrows.items() if s != "top level")
    longf = run("long-functions.py", "80", "src")
    long_lines = re.findall(r"^\s*(\d+) (\S+) (\w+)$", longf, re.M)
    long_count = re.search(r"(\d+) functions? over 80 lines", longf).group(1)
    names = run("type-names.py", "src")
    dup_names = re.search(r"(\d+) names in more than one file", names).group(1)
    modules = sorted({
        f.removesuffix(".rs") for f in os.listdir(os.path.join(root, "src"))
        if f not in ("lib.rs", "main.rs") and (f.endswith(".rs") or os.path.isdir(os.path.join(root, "src", f)))
    })
    longest = ", ".join(
        f"`{os.path.basename(p).removesuffix('.rs')}::{fn}` {n}" for n, p, fn in long_lines)
    rows = [
        ("`python3 benches/imports.py`",
         "imports that go up a layer order (top level, inside `charts`) or close a circle, in every folder",
         f"{total.group(1)} arrows up, {total.group(2)} circles ({arrows.get('top level', 0)} arrows between top-level modules, {inside} inside {int(total.group(3)) - 1} folders)"),
        ("`python3 benches/long-functions.py`", "functions over 80 lines outside tests",
         f"{long_count} ({longest})"),
        ("`python3 benches/type-names.py`", "struct and enum names defined in more than one file",
         f"{dup_names}, each with at most one crate-visible definition"),
        ("`ls src`", "top-level modules", f"{len(modules)}: " + ", ".join(f"`{m}`" for m in modules)),
    ]
    lines = ["| command | what it counts | figure |", "| --- | --- | --- |"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def main():
    text = open(doc, encoding="utf-8").read()
    m = re.search(r"(<!-- figures -->\n)(.*?)(<!-- /figures -->)", text, re.S)
    if not m:
        sys.exit(f"{doc}: no <!-- figures --> ... <!-- /figures --> block")
    new = text[: m.end(1)] + figures() + "\n" + text[m.start(3):]
    if "--check" in sys.argv[1:]:
        if new != text:
            sys.exit(f"{doc}: figures out of date; run benches/architecture-figures.py")
        return
    open(doc, "w", encoding="utf-8").write(new)


main()
