#!/usr/bin/env bash
# The JS side of the interop test bed: install (npm ci, skipped when the lock is
# already installed), checks, timing, torture. Results go to results/interop/
# (--quick: under $BINOSTR_INTEROP_OUT, else $TMPDIR, never over the committed
# full results).
#   scripts/interop/js/run.sh [--quick]
# BINOSTR_BIN names the binostr binary; unset, `cargo run --release -q --` runs
# from the repository root.
set -euo pipefail
cd "$(dirname "$0")"
quick=()
timeout_ms=10000
out=../../../results/interop
if [[ "${1:-}" == "--quick" ]]; then
  quick=(--quick)
  timeout_ms=3000
  out="${BINOSTR_INTEROP_OUT:-${TMPDIR:-/tmp}/binostr-interop-quick}"
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--quick]" >&2
  exit 2
fi
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ "$(cat node_modules/.binostr-lock.sha256 2>/dev/null)" != "$lock_sum" ]]; then
  npm ci --no-audit --no-fund
  echo "$lock_sum" > node_modules/.binostr-lock.sha256
fi
start=$SECONDS
status=0
mkdir -p "$out"
node checks.mjs --out "$out/checks-js.csv" || status=1
node timing.mjs "${quick[@]}" --out "$out/js.csv"
node torture.mjs --timeout-ms "$timeout_ms" --out "$out/torture-js.csv"
echo "interop-js: $((SECONDS - start)) s after install; checks $([[ $status == 0 ]] && echo passed || echo FAILED)"
exit $status
