#!/usr/bin/env python3
"""Imports between nvcmp's modules, against the layer order of
docs/architecture.md: every `crate::...` path (in `use` trees and in
code) from a file of one top-level module to another, and inside
`src/charts/` every `super::...` / `crate::charts::...` path from one
chart file to another. Reports

  - arrows up: an import of a module on a higher line of the layer order
    (neighbours on one line may import each other);
  - circles: cycles in the module graph (each elementary cycle once).

Test code (tests.rs, *_tests.rs, tests/ folders, `mod tests` blocks) is
left out: tests may build their inputs with any module. Comments are left
out, so doc links are not imports.

Usage: benches/imports.py [ROOT=src]   (exit 1 when an arrow goes up)
"""
import os
import re
import sys

# docs/architecture.md, "How nvcmp is built": top line first.
LAYERS = [
    ["cli"],
    ["publish"],
    ["charts", "export"],
    ["history"],
    ["render", "check", "run"],
    ["input"],
    ["compare", "ingest"],
    ["timeseries"],
    ["dataset"],
    ["model", "format", "units", "palette"],
]
# The same, inside src/charts/. `mod` (charts/mod.rs: the trait Plot, the
# KINDS list) is named by the kinds and `write` as hyperfine's exporters
# name their trait, so imports of it are not arrows.
CHART_LAYERS = [
    ["mod"],
    ["write"],
    ["bars", "delta", "efficiency", "percentiles", "cdf", "scaling", "saturation", "heatmap", "blocksize"],
    ["history", "timeseries"],
    ["load", "groups", "distribution"],
    ["labels", "names", "legend", "notes", "footer"],
    ["figure"],
    ["grouped", "lines", "heatgrid"],
    ["axis"],
    ["frame"],
    ["marks", "text"],
    ["canvas", "font", "hotspot", "place", "scale", "options"],
]


def level_of(layers):
    return {m: i for i, line in enumerate(layers) for m in line}


def code_of(path):
    """The file's code without comments and string contents, tests cut off."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    m = re.search(r"^\s*(#\[cfg\(test\)\]\s*)?mod tests\s*\{", text, flags=re.M)
    return text[: m.start()] if m else text


def use_paths(tree, prefix=""):
    """Expands a use tree (`a::{b, c::{d}}`) into its full paths."""
    tree = tree.strip()
    m = re.match(r"^([\w:]*?)(::)?\{(.*)\}$", tree, flags=re.S)
    if not m:
        return [prefix + tree]
    head = prefix + m.group(1) + ("::" if m.group(1) else "")
    parts, depth, cur = [], 0, ""
    for ch in m.group(3):
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        if p.strip():
            out.extend(use_paths(p, head))
    return out


def paths_of(code):
    """Every path the code names: expanded use trees and inline paths."""
    found = []
    for u in re.finditer(r"\buse\s+([^;]+);", code):
        found.extend(use_paths(re.sub(r"\s+", "", u.group(1))))
    rest = re.sub(r"\buse\s+[^;]+;", "", code)
    found.extend(re.findall(r"\b(?:crate|super)(?:::\w+)+", rest))
    return found


def is_test(path):
    f = os.path.basename(path)
    return f == "tests.rs" or f.endswith("_tests.rs") or "/tests/" in path


def cycles(graph):
    """Elementary cycles, each once (started from its smallest node)."""
    found = []
    nodes = sorted(graph)

    def walk(start, node, path, seen):
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                found.append(path + [start])
            elif nxt not in seen and nxt > start:
                walk(start, nxt, path + [nxt], seen | {nxt})

    for n in nodes:
        walk(n, n, [n], {n})
    return found


def report(title, edges, layers):
    level = level_of(layers)
    graph = {}
    for (a, b) in edges:
        graph.setdefault(a, set()).add(b)
    up = sorted((a, b, f) for (a, b), f in edges.items() if b != "mod" and level[b] < level[a])
    circles = cycles(graph)
    print(f"== {title}: {len(edges)} module arrows")
    for a, b, f in up:
        print(f"arrow up: {a} -> {b}  ({', '.join(sorted(f))})")
    for c in circles:
        print("circle: " + " -> ".join(c))
    print(f"{len(up)} arrows up, {len(circles)} circles")
    return len(up), len(circles)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "src"
    top = level_of(LAYERS)
    chart_level = level_of(CHART_LAYERS)
    edges, chart_edges = {}, {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            if not f.endswith(".rs") or is_test(path) or "/" not in rel and f in ("lib.rs", "main.rs"):
                continue
            mine = rel.split("/")[0].removesuffix(".rs")
            if mine not in top:
                sys.exit(f"{path}: module {mine} is on no line of LAYERS")
            in_charts = rel.startswith("charts/")
            chart = rel.split("/")[1].removesuffix(".rs") if in_charts else None
            for p in paths_of(code_of(path)):
                segs = p.split("::")
                if segs[0] == "crate" and len(segs) > 1 and segs[1] in top and segs[1] != mine:
                    edges.setdefault((mine, segs[1]), set()).add(rel)
                if not in_charts or chart == "mod":
                    continue
                if segs[0] == "crate" and segs[1:2] == ["charts"]:
                    target = segs[2] if len(segs) > 2 else "mod"
                elif segs[0] == "super" and rel.count("/") == 1:
                    target = segs[1] if len(segs) > 1 else "mod"
                else:
                    continue
                if target not in chart_level:
                    target = "mod"  # an item of charts/mod.rs
                if target != chart:
                    chart_edges.setdefault((chart, target), set()).add(rel)
    up1, c1 = report("top-level modules", edges, LAYERS)
    up2, c2 = report("inside charts", chart_edges, CHART_LAYERS)
    print(f"total: {up1 + up2} arrows up, {c1 + c2} circles")
    sys.exit(1 if up1 + up2 else 0)


main()
