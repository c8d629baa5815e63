#!/usr/bin/env python3
"""Every crate that the plain build (`cargo run`, `cargo build`) and the
test build (`cargo test`) share is built with the same features, so
`cargo test` after the README's first command compiles only the
dev-dependencies and the test targets.

When a dev-dependency turns on a feature of a crate nvcmp already builds,
that crate and everything above it are compiled a second time for the
tests: on 2026-12-06 regex-automata's `dfa-search` (from assert_cmd's
bstr) and rustix's `fs` (from tempfile) rebuilt regex, all of polars,
clap, comfy-table and nvcmp itself, about 130 s of CPU. The fix is a line
in Cargo.toml's [dependencies] turning the same feature on in the plain
build (see regex-automata there).

Reads `cargo tree` (offline, from Cargo.lock) for this machine's target or
the one given. Exits 1 naming each crate whose feature sets differ.

Usage: python3 benches/same-features.py [TARGET]
"""
import collections
import subprocess
import sys


def features(edges, target):
    out = subprocess.run(
        ["cargo", "tree", "--locked", "--offline", "--target", target,
         "--prefix", "none", "-e", edges, "--format", "{p}|{f}"],
        check=True, capture_output=True, text=True).stdout
    sets = collections.defaultdict(set)
    for line in out.splitlines():
        package, _, feats = line.partition("|")
        package = package.replace(" (proc-macro)", "").strip()
        feats = feats.replace(" (*)", "").strip()
        sets[package].add(feats)
    return sets


def main():
    if len(sys.argv) > 1:
        target = sys.argv[1]
    else:
        host = subprocess.run(["rustc", "-vV"], check=True, capture_output=True, text=True).stdout
        target = next(l.split(": ")[1] for l in host.splitlines() if l.startswith("host: "))
    plain = features("normal,build", target)
    tests = features("normal,build,dev", target)
    differ = [(p, sorted(plain[p]), sorted(tests[p])) for p in sorted(plain) if plain[p] != tests[p]]
    if differ:
        print("same-features: these crates are built again for cargo test:", file=sys.stderr)
        for p, a, b in differ:
            print(f"  {p}: plain {a}, tests {b}", file=sys.stderr)
        sys.exit(1)
    print(f"same-features: the plain and test builds share every crate's features "
          f"({len(plain)} crates, {target})")


main()
