#!/usr/bin/env bash
# The results page's checks, as CI runs them: the committed page equals the
# one the code builds from the committed records, and it works in headless
# Chromium (scripts/page/browser_test.py).
#   scripts/page/check.sh [--install] [--built] [--screenshot PNG] LABEL
# --install: apt-get install chromium and chromium-driver when missing (root).
# --built: test the page the code builds, without requiring the committed one
#   to equal it (a branch whose page is rebuilt at merge).
set -euo pipefail
cd "$(dirname "$0")/../.."
install=0
built=0
shot=()
while [[ $# -gt 1 ]]; do
  case "$1" in
    --install) install=1; shift ;;
    --built) built=1; shift ;;
    --screenshot) shot=(--screenshot "$2"); shift 2 ;;
    *) echo "usage: $0 [--install] [--built] [--screenshot PNG] LABEL" >&2; exit 2 ;;
  esac
done
label="${1:?usage: $0 [--install] [--built] [--screenshot PNG] LABEL}"
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
  if [[ $install == 1 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
  else
    echo "page-check: chromium and chromedriver are missing (apt-get install chromium chromium-driver, or --install)" >&2
    exit 1
  fi
fi
start=$SECONDS
committed="results/campaigns/$label/site/index.html"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if [[ $built == 1 ]]; then
  cargo run -p binostr-report --locked --quiet -- page "$label" --out "$out" >/dev/null
  echo "page-check: testing the page the code builds ($(wc -c <"$out/index.html") bytes), not $committed"
  python3 scripts/page/browser_test.py --page "$out/index.html" "${shot[@]}" "$label"
  echo "page-check: $((SECONDS - start)) s"
  exit 0
fi
test -f "$committed" || { echo "page-check: $committed is missing: run just page $label" >&2; exit 1; }
cargo run -p binostr-report --locked --quiet -- page "$label" --out "$out" >/dev/null
if ! cmp -s "$out/index.html" "$committed"; then
  echo "page-check: $committed differs from the page the code builds from the records; run just page $label (then re-sign the campaign)" >&2
  exit 1
fi
echo "page-check: $committed is what the code builds ($(wc -c <"$committed") bytes)"
python3 scripts/page/browser_test.py "${shot[@]}" "$label"
echo "page-check: $((SECONDS - start)) s"
