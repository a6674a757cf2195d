#!/usr/bin/env bash
# Regenerates the committed Go code in gen/ from schemas/.
#   scripts/interop/go/regen.sh [--check]   (--check: fail if gen/ drifts)
# Pinned tools, installed when missing (needs root for apt-get):
# protoc 3.21.12 (Debian protobuf-compiler), protoc-gen-go v1.36.12,
# thrift 0.17.0 (Debian thrift-compiler). FlatBuffers has no generated Go:
# flatc 25.12.19 refuses `--go` for event.fbs (fixed-size arrays), so
# codec_flatbuffers.go reads and builds the tables by hand.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
schemas="$here/../../../schemas"
pkg=github.com/binostr/binostr/scripts/interop/go/gen
if ! command -v protoc >/dev/null || ! command -v thrift >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq protobuf-compiler thrift-compiler
fi
gobin=$(mktemp -d)
trap 'rm -rf "$gobin"' EXIT
(cd "$here" && GOBIN="$gobin" go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12)

rm -rf "$here/gen/pb" "$here/gen/thrift"
mkdir -p "$here/gen/pb" "$here/gen/thrift"
PATH="$gobin:$PATH" protoc -I "$schemas" --go_out="$here/gen/pb" --go_opt=paths=source_relative \
  --go_opt=Mevent.proto=$pkg/pb "$schemas/event.proto"
thrift --gen go:package_prefix=$pkg/thrift/ -out "$here/gen/thrift" "$schemas/event.thrift"
gofmt -w "$here/gen"
if [[ "${1:-}" == "--check" ]]; then
  git -C "$here" diff --exit-code -- gen
  untracked=$(git -C "$here" ls-files --others --exclude-standard gen)
  [[ -z "$untracked" ]] || { echo "untracked generated files: $untracked" >&2; exit 1; }
  echo "go codegen: no drift"
fi
