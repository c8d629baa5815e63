#!/usr/bin/env python3
"""Imports between nvcmp's modules, in every folder of the tree.

Each folder is a scope: its files and sub-folders are the nodes, and a
path one of them names (`crate::...`, `super::...`, `self::...`, in
`use` trees and in code) that leads to a sibling is an arrow between
them. A path to an item of the folder's own `mod.rs` (or of `x.rs` for
the folder `x/`) is not an arrow: that file declares the scope, and its
children name its trait or types as hyperfine's exporters name theirs.
The top level (src/) is a scope like the others. Reports, per scope,

  - arrows up: an import of a module on a higher line of the scope's
    layer order (LAYERS below, for the scopes that declare one;
    neighbours on one line may import each other);
  - circles: cycles among the scope's nodes (each elementary cycle once).

Test code (tests.rs, *_tests.rs, tests/ folders, `mod tests` blocks) is
left out: tests may build their inputs with any module. Comments are left
out, so doc links are not imports.

Usage: benches/imports.py [ROOT=src]   (exit 1 on an arrow up or a circle)
"""
import os
import re
import sys

# docs/architecture.md, "How nvcmp is built": top line first, for the
# top level ("") and the folders whose files import one another in a
# declared order. Every other folder is held to having no circle.
TOP = [
    ["cli"],
    ["publish"],
    ["charts", "export"],
    ["render"],
    ["history"],
    ["check", "run"],
    ["input"],
    ["steady_state"],
    ["compare", "ingest"],
    ["timeseries"],
    ["dataset"],
    ["model", "numbers", "units", "palette", "path_text", "quick_hash", "atomic_file"],
]
# The same, inside src/charts/.
CHARTS = [
    ["mod"],
    ["write"],
    ["kinds"],
    ["load", "groups", "distribution"],
    ["labels", "names", "legend", "notes", "footer"],
    ["figure"],
    ["grouped", "lines", "heatgrid"],
    ["axis"],
    ["frame"],
    ["marks", "text"],
    ["canvas", "font", "hotspot", "place", "scale", "options"],
]


LAYERS = {"": TOP, "charts": CHARTS}


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
    found.extend(re.findall(r"\b(?:crate|super|self)(?:::\w+)+", rest))
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
    up = sorted((a, b, f) for (a, b), f in edges.items() if a in level and b in level and level[b] < level[a])
    circles = cycles(graph)
    print(f"== {title}: {len(edges)} module arrows")
    for a, b, f in up:
        print(f"arrow up: {a} -> {b}  ({', '.join(sorted(f))})")
    for c in circles:
        print("circle: " + " -> ".join(c))
    print(f"{len(up)} arrows up, {len(circles)} circles")
    return len(up), len(circles)


def module_of(rel):
    """The module path of a file relative to the root: `a/b.rs` is
    [a, b], `a/mod.rs` is [a]."""
    parts = rel.removesuffix(".rs").split("/")
    return parts[:-1] if parts[-1] == "mod" else parts


def resolve(path, here):
    """A path as a list of segments from the crate root; None when it does
    not start at `crate`, `super` or `self` (an outside crate, a local
    name)."""
    segs = path.split("::")
    if segs[0] == "crate":
        return segs[1:]
    if segs[0] not in ("super", "self"):
        return None
    if segs[-1] == "self":
        segs = segs[:-1]
    base = list(here)
    while segs and segs[0] in ("super", "self"):
        if segs.pop(0) == "super":
            base = base[:-1]
    return base + segs


def node_of(root, scope, name):
    """`name` as a node of the folder `scope`: itself when it is a file or
    folder there, else "mod" (an item of the file declaring the scope)."""
    d = os.path.join(root, *scope)
    if os.path.isfile(os.path.join(d, name + ".rs")) or os.path.isdir(os.path.join(d, name)):
        return name
    return "mod"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "src"
    edges = {}  # scope -> {(from, to): files}
    for dirpath, _, files in os.walk(root):
        for f in files:
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            if not f.endswith(".rs") or is_test(path) or "/" not in rel and f in ("lib.rs", "main.rs"):
                continue
            here = module_of(rel)
            for p in paths_of(code_of(path)):
                target = resolve(p, here)
                if not target:
                    continue
                k = 0
                while k < min(len(here), len(target)) and here[k] == target[k]:
                    k += 1
                # The same module, or a parent naming its children.
                if k >= len(here) or k >= len(target):
                    continue
                scope = tuple(here[:k])
                to = node_of(root, scope, target[k])
                if to == "mod":
                    continue
                edges.setdefault(scope, {}).setdefault((here[k], to), set()).add(rel)
    ups = circles = 0
    for scope in sorted(edges):
        name = "/".join(scope) or "top level"
        layers = LAYERS.get("/".join(scope))
        for a, b in edges[scope]:
            for m in (a, b):
                if layers is not None and m not in level_of(layers):
                    sys.exit(f"{root}/{'/'.join(scope + (m,))}: module {m} is on no line of LAYERS[{name!r}]")
        up, c = report(name, edges[scope], layers or [])
        ups += up
        circles += c
    print(f"total: {ups} arrows up, {circles} circles in {len(edges)} folders")
    sys.exit(1 if ups + circles else 0)


main()
