#!/usr/bin/env bash
# Digests of everything `nvcmp analyze` makes from the published fixture
# (report.md, report.html, the JSON, every chart), one line per file: run
# it before and after a refactoring that must not change behaviour and
# diff the two lists.
#
# Usage: benches/published-digest.sh [NVCMP_BINARY] > digests.txt
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/target/debug/nvcmp}"
out="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-digest.XXXXXX")"
trap 'rm -rf "$out"' EXIT
fixture="$here/fixtures/published/storagereview-2026-04"
"$bin" --quiet analyze "$fixture" --out "$out/r" >/dev/null
"$bin" --quiet analyze "$fixture" --format json > "$out/r/analyze.json"
"$bin" --quiet analyze "$fixture" --format md > "$out/r/analyze.md"
cd "$out/r"
# The parquet file embeds the writer's version; its rows are in the csv.
find . -type f ! -name dataset.parquet | sort | xargs sha256sum
