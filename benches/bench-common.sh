# What the bench scripts that time nvcmp share. Sourced with the bench's
# tag, first thing after `set -euo pipefail`:
#
#   . "$(dirname "$0")/bench-common.sh" TAG
#
# it sets
#
#   here    this checkout (the folder above benches/)
#   target  cargo's target folder: $CARGO_TARGET_DIR, else $here/target
#   work    a temporary folder, nvcmp-TAG.XXXXXX under $TMPDIR (else
#           /var/tmp, which holds more than a tmpfs /tmp), removed on exit

here="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$here/target}"
work="$(mktemp -d "${TMPDIR:-/var/tmp}/nvcmp-$1.XXXXXX")"
trap 'rm -rf "$work"' EXIT
