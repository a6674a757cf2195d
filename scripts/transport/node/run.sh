#!/usr/bin/env bash
# Interop of `binostr relay` with an external client (Node's ws +
# nostr-tools): for each compression mode, start the relay on a free port,
# run client.mjs (REQ until EOSE, verifyEvent on every event), and compare
# the client's socket byte counts with the relay's line for that
# connection. Exit 1 on any mismatch or failed verification.
#
# usage: run.sh [--generated N]   (BINOSTR_BIN: the binary; default cargo run --release)
set -euo pipefail
cd "$(dirname "$0")"
generated=200
if [[ "${1:-}" == "--generated" ]]; then generated="$2"; fi

npm ci --no-audit --no-fund --silent

if [[ -n "${BINOSTR_BIN:-}" ]]; then
  bin=("$BINOSTR_BIN")
else
  (cd ../../.. && cargo build --release --locked --bin binostr)
  bin=("${CARGO_TARGET_DIR:-../../../target}/release/binostr")
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

work="$(mktemp -d)"
relay_pid=""
cleanup() { if [[ -n "$relay_pid" ]]; then kill "$relay_pid" 2>/dev/null || true; fi; rm -rf "$work"; }
trap cleanup EXIT

status=0
for mode in none deflate deflate-ctx; do
  port="$(free_port)"
  "${bin[@]}" relay --listen "127.0.0.1:$port" --profiles json --generated "$generated" \
    >"$work/relay-$mode.jsonl" 2>"$work/relay-$mode.err" &
  relay_pid=$!
  for _ in $(seq 100); do
    grep -q "relay:" "$work/relay-$mode.err" 2>/dev/null && break
    sleep 0.1
  done
  client="$(node client.mjs "ws://127.0.0.1:$port" "$mode" "$generated")" || {
    echo "$mode: client failed: $client"; status=1; }
  for _ in $(seq 100); do
    [[ -s "$work/relay-$mode.jsonl" ]] && break
    sleep 0.1
  done
  kill "$relay_pid"; wait "$relay_pid" 2>/dev/null || true; relay_pid=""
  relay="$(head -1 "$work/relay-$mode.jsonl")"
  python3 - "$mode" "$client" "$relay" <<'PY' || status=1
import json, sys
mode = sys.argv[1]
try:
    client, relay = json.loads(sys.argv[2]), json.loads(sys.argv[3])
except ValueError:
    print(f"{mode}: no report (client `{sys.argv[2]}`, relay `{sys.argv[3]}`)")
    sys.exit(1)
want = {"none": "none", "deflate": "deflate", "deflate-ctx": "deflate-ctx"}[mode]
problems = []
if relay.get("error"): problems.append(f"relay error: {relay['error']}")
elif relay.get("end") != "client-closed": problems.append(f"connection ended {relay.get('end')}, not by the client's close")
else:
    if relay["compression"] != want: problems.append(f"relay negotiated {relay['compression']}")
    if relay["total"]["written"] != client["read"]: problems.append(f"relay wrote {relay['total']['written']}, client read {client['read']}")
    if relay["total"]["read"] != client["written"]: problems.append(f"relay read {relay['total']['read']}, client wrote {client['written']}")
    if relay["events"] != client["events"]: problems.append(f"relay sent {relay['events']} events, client got {client['events']}")
if client["invalid"]: problems.append(f"{client['invalid']} events fail verifyEvent")
print(f"{mode}: {client['events']} events verified; relay->client {client['read']} bytes, client->relay {client['written']} bytes; agreed {json.dumps(client['params'])}"
      + ("" if not problems else "; MISMATCH: " + "; ".join(problems)))
sys.exit(1 if problems else 0)
PY
done
exit "$status"
