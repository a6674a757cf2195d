#!/usr/bin/env bash
# Every committed generated file, regenerated from schemas/ with the pinned
# tools (installed when missing; needs root for apt-get and the package
# registries), must equal what is committed:
#   crates/binostr-generated/ and NSON's print table  scripts/check-codegen-drift.sh
#   scripts/interop/go/gen/                            scripts/interop/go/regen.sh --check
#   scripts/interop/js/gen/                            scripts/interop/js/regen.sh --check
#   scripts/interop/kotlin/src/main/java/binostr/      scripts/interop/kotlin/regen.sh --check
# Stops at the first drift.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -n "${BINOSTR_NIX_SHELL:-}" ]]; then
    echo "regen-check: refused in the Nix dev shell: nixpkgs' protoc, capnp and thrift are not the pinned" >&2
    echo "  generators, which install with apt-get, pip and cargo; run it outside (docs/NIX.md)" >&2
    exit 2
fi

bash scripts/check-codegen-drift.sh
bash scripts/interop/go/regen.sh --check
bash scripts/interop/js/regen.sh --check
bash scripts/interop/kotlin/regen.sh --check
echo "regen-check: no drift"
