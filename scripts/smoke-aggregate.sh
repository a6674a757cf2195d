#!/usr/bin/env bash
# Writer meets reader: `binostr-report aggregate` over a campaign that
# `binostr campaign` just wrote (default: the smoke campaign of .ci/run,
# results/campaigns/local-smoke). The campaign and the side records the
# report reads are copied into a scratch root, so nothing committed
# (summary/, paper/generated/) is rewritten. Fails on any reader error.
#
#   bash scripts/smoke-aggregate.sh [LABEL]
set -euo pipefail

label=${1:-local-smoke}
cd "$(dirname "$0")/.."
src=results/campaigns/$label
if [ ! -f "$src/campaign.json" ]; then
  echo "smoke-aggregate: $src/campaign.json is missing: run \`binostr campaign --label $label\` first" >&2
  exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/results/campaigns"
# Only complete runs and the label's records; not its own summary or site.
cp -r "$src" "$scratch/results/campaigns/$label"
rm -rf "$scratch/results/campaigns/$label/summary" "$scratch/results/campaigns/$label/site"
for side in robustness interop evolution maintenance speed fuzz links; do
  if [ -d "results/$side" ]; then
    cp -r "results/$side" "$scratch/results/$side"
  fi
done

cargo run -p binostr-report --locked --quiet -- aggregate "$label" --root "$scratch" >"$scratch/written.txt"
summary=$scratch/results/campaigns/$label/summary
for f in summary.csv summary.json summary.md ratios.csv; do
  if [ ! -s "$summary/$f" ]; then
    echo "smoke-aggregate: $label: aggregate wrote no $f" >&2
    exit 1
  fi
done
echo "smoke-aggregate: $label: $(wc -l <"$scratch/written.txt") files written under a scratch root; the reader read every record"
