#!/usr/bin/env bash
# Regenerates crates/binostr-report/assets/page-sans.ttf, the font embedded in
# the results page: DejaVu Sans (assets/DejaVuSans.ttf, the plots' font)
# subset to the characters the page prints, so the page stays small and
# renders the same offline everywhere. Needs fonttools (PyPI), pinned here:
#   python3 -m venv /tmp/fontvenv && /tmp/fontvenv/bin/pip install fonttools==4.68.0
#   PYFTSUBSET=/tmp/fontvenv/bin/pyftsubset scripts/page/subset-font.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
assets=crates/binostr-report/assets
# ASCII, Latin-1, then: – — ‘ ’ “ ” … • · × ± − ≤ ≥ ≈ → ← ↑ ↓ ▲ ▼ Σ Δ µ ω ✓ ✗ ⚠
"${PYFTSUBSET:-pyftsubset}" "$assets/DejaVuSans.ttf" \
  --unicodes="U+0020-007E,U+00A0-00FF,U+2013,U+2014,U+2018,U+2019,U+201C,U+201D,U+2026,U+2022,U+00B7,U+00D7,U+00B1,U+2212,U+2264,U+2265,U+2248,U+2192,U+2190,U+2191,U+2193,U+25B2,U+25BC,U+03A3,U+0394,U+00B5,U+03C9,U+2713,U+2717,U+26A0" \
  --layout-features='kern,liga' --no-hinting --desubroutinize \
  --name-IDs='*' --drop-tables+=FFTM \
  --output-file="$assets/page-sans.ttf"
sha256sum "$assets/page-sans.ttf"
