#!/usr/bin/env bash
# Builds the Kotlin interop harness (issue 16): resolves the dependencies
# pinned in pom.xml from Maven Central into ~/.m2 (once; later runs work
# offline, `mvn -o`), compiles, and writes target/classpath.txt.
#   scripts/interop/kotlin/setup.sh [--offline]
# Needs Java 17+ and Maven 3.8+ (Debian: openjdk-17-jdk-headless maven;
# installed with apt-get when missing and running as root).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
offline=()
[[ "${1:-}" == "--offline" ]] && offline=(-o)
if ! command -v mvn >/dev/null || ! command -v javac >/dev/null; then
  if [[ $(id -u) == 0 ]]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless maven
  else
    echo "setup: needs java 17+ and maven (apt-get install openjdk-17-jdk-headless maven)" >&2
    exit 1
  fi
fi
cd "$here"
sum=$(cat pom.xml $(find src -type f | sort) | sha256sum | cut -d' ' -f1)
if [[ "$(cat target/.binostr-build.sha256 2>/dev/null)" != "$sum" || ! -f target/classpath.txt ]]; then
  nice -n 10 mvn -B -q "${offline[@]}" compile
  echo "$sum" > target/.binostr-build.sha256
fi
