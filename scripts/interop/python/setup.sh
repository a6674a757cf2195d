#!/usr/bin/env bash
# Creates (idempotently) the harness venv from requirements.txt (exact pins,
# hashes required) and generates the protobuf module from schemas/event.proto
# with the pinned grpcio-tools protoc. Prints the venv's python path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cache="${BINOSTR_INTEROP_CACHE:-$HOME/.cache/binostr-interop}"
venv="$cache/python-venv"
gen="$cache/python-gen"
stamp="$(cat "$here/requirements.txt" "$root/schemas/event.proto" | sha256sum | cut -c1-16)"
if [[ "$(cat "$venv/.binostr-stamp" 2>/dev/null)" != "$stamp" ]]; then
  rm -rf "$venv" "$gen"
  if ! python3 -m venv "$venv" >&2; then
    # Debian ships venv/ensurepip separately.
    rm -rf "$venv"
    command -v apt-get >/dev/null || { echo "python3 -m venv failed and apt-get is unavailable" >&2; exit 1; }
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
    python3 -m venv "$venv" >&2
  fi
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
    --require-hashes -r "$here/requirements.txt" >&2
  mkdir -p "$gen"
  "$venv/bin/python" -m grpc_tools.protoc -I "$root/schemas" --python_out="$gen" \
    "$root/schemas/event.proto" >&2
  echo "$stamp" > "$venv/.binostr-stamp"
fi
echo "$venv/bin/python"
