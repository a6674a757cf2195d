#!/usr/bin/env bash
# Load-and-fault test of `binostr relay` (loadtest.py, loopback only, bounded):
# json, notepack and cbor-packed x compression none and deflate, then a table
# of the figures in OUT/README.md. Exit 1 if any run fails an assert.
#
# usage: run.sh [--smoke] [--out DIR]
#   --smoke  small and short (CI): ~1 min a run
#   --out    output directory (default: results/transport/load, or a new
#            temporary directory with --smoke)
#   BINOSTR_BIN: the binary; default `cargo build --release --locked --bin binostr`
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
smoke=()
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --smoke) smoke=(--smoke); shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: run.sh [--smoke] [--out DIR]" >&2; exit 2 ;;
  esac
done
if [[ -z "$out" ]]; then
  if [[ ${#smoke[@]} -gt 0 ]]; then out="$(mktemp -d -t binostr-load-smoke.XXXXXX)"; else out="$root/results/transport/load"; fi
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

if [[ -n "${BINOSTR_BIN:-}" ]]; then
  bin="$BINOSTR_BIN"
else
  (cd "$root" && cargo build --release --locked --bin binostr)
  bin="${CARGO_TARGET_DIR:-$root/target}/release/binostr"
fi

status=0
start=$SECONDS
for profile in json notepack cbor-packed; do
  for compression in none deflate; do
    python3 "$here/loadtest.py" --bin "$bin" --profile "$profile" --compression "$compression" \
      --out "$out" "${smoke[@]}" || status=1
  done
done
python3 "$here/table.py" "$out" > "$out/README.md"
echo "$((SECONDS - start)) s; figures in $out/README.md"
exit "$status"
