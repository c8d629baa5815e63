#!/usr/bin/env python3
"""The figures of docs/architecture.md's "The code in numbers", measured,
not typed: runs the checkers in benches/ on src/ and writes their
results between the `<!-- figures -->` and `<!-- /figures -->` lines of
docs/architecture.md; and the layer diagram of docs/architecture.md,
docs/STYLE.md and src/lib.rs (between `<!-- layers -->` and `<!-- /layers -->`), drawn
from the order benches/imports.py enforces, so neither can drift from
it. `--check` only says whether they are current, exit 1 when not.

Usage: benches/architecture-figures.py [--check]
"""
import ast
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


# What each top-level module is for, one line each (the diagram's right
# column). A module missing here is an error: a new module gets a line.
ROLES = {
    "cli": "clap, validated options, exit codes: parses and calls",
    "publish": "every file written: --out DIR, the CI reports of the gates",
    "charts": "PNG/SVG charts (plotters)",
    "export": "CI dashboards' files (Bencher BMF, github-action-benchmark)",
    "render": "every report: terminal, Markdown, HTML, CSV, JSON, CI reports",
    "history": "runs over time: the parquet store, change points, the gate",
    "check": "regression verdicts",
    "run": "the harness: engines, measurement, fio-compatible output",
    "input": "what every command reads, once: results, dataset files, logs",
    "steady_state": "fio's logs joined to their runs, judged by SNIA's rule",
    "compare": "workloads, load points, winners, ties, sweeps, findings",
    "ingest": "fio's and DiskSpd's formats read into rows",
    "timeseries": "fio's logs as series: buckets, folds, files",
    "dataset": "rows <-> polars frames and files",
    "model": "the domain: a row, directions, fio's rw, the OS",
    "numbers": "numbers for people",
    "units": "fio's value grammar: sizes, times, lists",
    "palette": "one colour per config",
    "path_text": "paths as the system writes them",
    "quick_hash": "a fast hash for nvcmp's own maps of texts and keys",
    "atomic_file": "files written whole: a new random temporary, renamed",
}


def layers():
    """The top-level layer order of benches/imports.py, drawn."""
    source = open(os.path.join(here, "imports.py"), encoding="utf-8").read()
    top = next(ast.literal_eval(n.value) for n in ast.parse(source).body
               if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "TOP")
    lines = ["Layers, top (1) to bottom: a module imports only modules of lower",
             "layers or of its own; `benches/imports.py` enforces it. Data flows",
             "up: fio files -> ingest -> dataset -> compare -> render, charts;",
             "run writes fio-compatible files that ingest reads back.", ""]
    width = max(len(m) for line in top for m in line)
    for n, line in enumerate(top, 1):
        for i, m in enumerate(line):
            if m not in ROLES:
                sys.exit(f"benches/architecture-figures.py: no ROLES line for {m}")
            layer = f"{n:>2}" if i == 0 else "  "
            lines.append(f"{layer}  {m:<{width}} {ROLES[m]}")
    return lines


def replace_block(path, text, start, end, body, prefix=""):
    m = re.search(rf"({re.escape(prefix + start)}\n)(.*?)({re.escape(prefix + end)})", text, re.S)
    if not m:
        sys.exit(f"{path}: no {start} ... {end} block")
    return text[: m.end(1)] + body + text[m.start(3):]


def main():
    check = "--check" in sys.argv[1:]
    diagram = layers()
    style = os.path.join(root, "docs", "STYLE.md")
    lib = os.path.join(root, "src", "lib.rs")
    jobs = [
        (doc, "<!-- figures -->", "<!-- /figures -->", figures() + "\n", ""),
        (doc, "<!-- layers -->", "<!-- /layers -->",
         "```text\n" + "\n".join(diagram) + "\n```\n", ""),
        (style, "<!-- layers -->", "<!-- /layers -->",
         "```text\n" + "\n".join(diagram) + "\n```\n", ""),
        (lib, "<!-- layers -->", "<!-- /layers -->",
         "".join(f"//! {l}".rstrip() + "\n" for l in ["```text", *diagram, "```"]), "//! "),
    ]
    stale = []
    for path, start, end, body, prefix in jobs:
        text = open(path, encoding="utf-8").read()
        new = replace_block(path, text, start, end, body, prefix)
        if new != text:
            stale.append(path)
            if not check:
                open(path, "w", encoding="utf-8").write(new)
    if check and stale:
        sys.exit(f"{', '.join(stale)}: out of date; run benches/architecture-figures.py")


main()
