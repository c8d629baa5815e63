#!/bin/sh
# Times rendering every chart of the published comparison (and of real fio
# json+ runs), in total and per chart. Debug build by default, because a
# release build of polars takes ~18 minutes on a 2-core machine; pass
# `--release` first for release figures. Other arguments go to the bench:
#   benches/charts.sh [--release] [COMPARISON.json ...] [png|svg] [WxH] [--keep DIR]
set -eu
cd "$(dirname "$0")/.."
profile="--profile=dev"
if [ "${1:-}" = "--release" ]; then profile="--profile=release"; shift; fi
export CARGO_BUILD_BUILD_DIR="${CARGO_BUILD_BUILD_DIR:-/work/.cache/build}"
exec cargo bench -q $profile --bench charts -- "$@"
