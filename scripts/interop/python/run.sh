#!/usr/bin/env bash
# The Python interop harness: setup (idempotent), checks, timing, torture.
#   scripts/interop/python/run.sh [--quick]
# Writes results/interop/{checks-python,python,torture-python}.csv (--quick: under $TMPDIR).
# BINOSTR_BIN: the Rust CLI (default: a release build via cargo).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
quick=()
out="$root/results/interop"
if [[ "${1:-}" == "--quick" ]]; then
  # CI mode: fewer events and cases; results go beside, not over, the committed ones.
  quick=(--quick)
  out="${BINOSTR_INTEROP_OUT:-${TMPDIR:-/tmp}/binostr-interop-quick}"
fi
py="$("$here/setup.sh")"
if [[ -z "${BINOSTR_BIN:-}" ]]; then
  (cd "$root" && cargo build --release -q --bin binostr)
  export BINOSTR_BIN="${CARGO_TARGET_DIR:-$root/target}/release/binostr"
fi
selection="${BINOSTR_SELECTION:-$root/results/corpus/default/selection.jsonl}"
if [[ ! -f "$selection" ]]; then
  selection="${TMPDIR:-/tmp}/binostr-interop-corpus/selection.jsonl"
  [[ -f "$selection" ]] || "$BINOSTR_BIN" corpus default -o "$(dirname "$selection")" >/dev/null
fi
cases="${TMPDIR:-/tmp}/binostr-interop-torture"
rm -rf "$cases"
"$BINOSTR_BIN" torture generate --mutations 0 "$cases" >/dev/null
status=0
"$py" "$here/interop.py" self-test || status=1
"$py" "$here/interop.py" check --out "$out/checks-python.csv" || status=1
"$py" "$here/interop.py" timing --selection "$selection" --out "$out/python.csv" "${quick[@]}" || status=1
"$py" "$here/interop.py" torture --cases "$cases" --out "$out/torture-python.csv" "${quick[@]}" || status=1
exit "$status"
