#!/usr/bin/env bash
# Regenerates the committed Java code of src/main/java/binostr/EventOuterClass.java
# from schemas/event.proto with protoc 4.36.2, the protoc that Maven Central
# ships beside protobuf-java 4.36.2 (com.google.protobuf:protoc, fetched by Maven).
#   scripts/interop/kotlin/regen.sh [--check]   (--check: fail if the generated code drifts)
# FlatBuffers, Thrift and Avro have no generated code here: codec_*.kt read
# and write them through the libraries' generic APIs (README.md says why).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
schemas="$here/../../../schemas"
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
(cd "$here" && nice -n 10 mvn -B -q dependency:copy \
  -Dartifact=com.google.protobuf:protoc:4.36.2:exe:linux-x86_64 -DoutputDirectory="$tools")
protoc="$tools/protoc-4.36.2-linux-x86_64.exe"
chmod +x "$protoc"
rm -f "$here/src/main/java/binostr/EventOuterClass.java"
"$protoc" -I "$schemas" --java_out="$here/src/main/java" "$schemas/event.proto"
if [[ "${1:-}" == "--check" ]]; then
  git -C "$here" diff --exit-code -- src/main/java/binostr
  untracked=$(git -C "$here" ls-files --others --exclude-standard src/main/java/binostr)
  [[ -z "$untracked" ]] || { echo "untracked generated files: $untracked" >&2; exit 1; }
  echo "kotlin codegen: no drift"
fi
