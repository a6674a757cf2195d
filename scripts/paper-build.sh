#!/usr/bin/env bash
# Builds PAPER_DIR/binostr.pdf (default: paper/) with latexmk and pdfLaTeX
# from the committed PAPER_DIR/generated/, reproducibly:
#   SOURCE_DATE_EPOCH = the latest observed.finished of the campaign's runs
#     (results/campaigns/<\CampaignLabel>/run-*/contract.json; results root
#     from $BINOSTR_RESULTS, default PAPER_DIR/../results), or else the last
#     commit touching PAPER_DIR/generated, else $PAPER_FALLBACK_EPOCH (the Nix
#     build passes the flake's lastModified); an explicit $SOURCE_DATE_EPOCH wins.
#   FORCE_SOURCE_DATE=1, TZ=UTC; binostr.tex omits PDF dates and the trailer id.
# Same TeX installation + same inputs => same PDF bytes (scripts/paper-check.sh).
set -euo pipefail
paper=$(cd "${1:-$(dirname "$0")/../paper}" && pwd)
results=${BINOSTR_RESULTS:-$paper/../results}
gen=$paper/generated

if [ ! -f "$gen/macros.tex" ]; then
    echo "paper: $gen/macros.tex is missing." >&2
    echo "paper: run a campaign, then 'just aggregate LABEL', and commit paper/generated/." >&2
    exit 1
fi
missing=()
for f in sizes speed latency kinds compress robustness interop interop-matrix; do
    [ -f "$gen/$f.csv" ] || missing+=("generated/$f.csv")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "paper: missing ${missing[*]} (written by 'just aggregate LABEL')." >&2
    exit 1
fi
command -v latexmk >/dev/null || { echo "paper: latexmk not found; run 'just setup' (Debian) or use 'nix build .#paper'." >&2; exit 1; }

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(python3 - "$gen/macros.tex" "$results" <<'PY'
import datetime, glob, json, os, re, sys
macros, results = sys.argv[1], sys.argv[2]
m = re.search(r"\\(?:re)?newcommand\{?\\CampaignLabel\}?\{([^}]*)\}", open(macros).read())
if not m:
    sys.exit("paper: generated/macros.tex defines no \\CampaignLabel")
finished = []
for path in glob.glob(os.path.join(results, "campaigns", m.group(1), "run-*", "contract.json")):
    if path.split(os.sep)[-2].endswith(".tmp"):
        continue
    stamp = json.load(open(path))["observed"]["finished"]
    finished.append(datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp())
print(int(max(finished)) if finished else "")
PY
)
    if [ -z "$SOURCE_DATE_EPOCH" ]; then
        SOURCE_DATE_EPOCH=$(git -C "$paper" log -1 --format=%ct -- generated 2>/dev/null || true)
    fi
    SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-${PAPER_FALLBACK_EPOCH:-}}
    if [ -z "$SOURCE_DATE_EPOCH" ]; then
        echo "paper: no campaign run records and no commit of generated/; set SOURCE_DATE_EPOCH." >&2
        exit 1
    fi
fi
export SOURCE_DATE_EPOCH FORCE_SOURCE_DATE=1 TZ=UTC LC_ALL=C

cd "$paper"
rm -rf build
latexmk -pdf -outdir=build -interaction=nonstopmode -halt-on-error -file-line-error -quiet binostr.tex >build.log 2>&1 || {
    tail -n 40 build.log >&2
    grep -A3 -m5 -E '^(! |.*:[0-9]+: )' build/binostr.log >&2 || true
    echo "paper: build failed; see $paper/build.log and $paper/build/binostr.log" >&2
    exit 1
}
cp build/binostr.pdf binostr.pdf
echo "paper: $paper/binostr.pdf (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH) sha256 $(sha256sum binostr.pdf | cut -d' ' -f1)"
