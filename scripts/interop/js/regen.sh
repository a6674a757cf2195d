#!/usr/bin/env bash
# Regenerates the committed generated code in gen/ from schemas/ (not needed to run).
#   scripts/interop/js/regen.sh [--check]   (--check: fail if gen/ drifts)
#   gen/event_types.cjs  thrift --gen js:node,es6 (Debian thrift-compiler 0.17.0)
#   gen/event.js         capnp-es -ojs (capnp-es 0.0.16 over Debian capnproto 0.9.2;
#                        its compiler needs typescript, installed here without saving)
# flatbuffers and flexbuffers need no generated code: lib/profiles.mjs reads and
# builds them with the library's ByteBuffer/Builder API.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
thrift --gen js:node,es6 -out "$tmp" ../../../schemas/event.thrift
mv "$tmp/event_types.js" gen/event_types.cjs
npm ci --silent
npm install --no-save --silent typescript@5.9.3
cp ../../../schemas/event.capnp gen/event.capnp
npx capnp-es gen/event.capnp -ojs
rm gen/event.capnp
npm ci --silent
# run.sh's marker: node_modules holds exactly the lock again.
sha256sum package-lock.json | cut -d' ' -f1 > node_modules/.binostr-lock.sha256
if [[ "${1:-}" == "--check" ]]; then
  git diff --exit-code -- gen
  untracked=$(git ls-files --others --exclude-standard gen)
  [[ -z "$untracked" ]] || { echo "untracked generated files: $untracked" >&2; exit 1; }
  echo "js codegen: no drift"
fi
