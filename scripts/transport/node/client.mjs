// An external client of `binostr relay` (json profile): connects with ws
// (permessage-deflate), sends one REQ, receives until EOSE, verifies every
// event with nostr-tools, and prints one JSON line with the event count, the
// negotiated extension and the bytes read and written at its socket
// (handshake and close included), for run.sh to compare with the relay's.
//
// usage: node client.mjs ws://127.0.0.1:PORT [none|deflate|deflate-ctx] [expected-events]
import WebSocket from 'ws';
import { verifyEvent } from 'nostr-tools/pure';

const [url, mode = 'deflate-ctx', expected] = process.argv.slice(2);
const deflate = {
  none: false,
  deflate: { serverNoContextTakeover: true, clientNoContextTakeover: true },
  'deflate-ctx': {},
}[mode];
if (deflate === undefined) {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}

const fail = (msg) => {
  console.error(`client: ${msg}`);
  process.exit(1);
};

const ws = new WebSocket(url, { perMessageDeflate: deflate });
let socket;
let events = 0;
let invalid = 0;
ws.on('open', () => {
  socket = ws._socket;
  // ws.extensions names the extensions; the agreed parameters are on the
  // extension object (ws 8's PerMessageDeflate.params).
  const ext = ws.extensions;
  const pmd = ws._extensions['permessage-deflate'];
  if (mode === 'none' && ext !== '') fail(`asked for no extension, got \`${ext}\``);
  if (mode !== 'none') {
    if (!pmd) fail(`permessage-deflate not negotiated: \`${ext}\``);
    const p = pmd.params;
    const nct = Boolean(p.server_no_context_takeover && p.client_no_context_takeover);
    const ctx = !p.server_no_context_takeover && !p.client_no_context_takeover;
    if (mode === 'deflate' ? !nct : !ctx) fail(`mode ${mode} but negotiated ${JSON.stringify(p)}`);
  }
  ws.send(JSON.stringify(['REQ', 'node', {}]));
});
ws.on('message', (data, isBinary) => {
  if (isBinary) fail('binary frame on a json relay');
  const msg = JSON.parse(data.toString('utf8'));
  if (msg[0] === 'EVENT' && msg[1] === 'node') {
    events += 1;
    if (!verifyEvent(msg[2])) {
      invalid += 1;
      console.error(`client: event ${msg[2].id} fails verifyEvent`);
    }
  } else if (msg[0] === 'EOSE' && msg[1] === 'node') {
    ws.send(JSON.stringify(['CLOSE', 'node']));
    ws.close(1000);
  } else {
    fail(`unexpected message ${JSON.stringify(msg).slice(0, 200)}`);
  }
});
ws.on('error', (e) => fail(e.message));
ws.on('close', () => {
  const report = {
    events,
    invalid,
    extensions: ws.extensions,
    params: ws._extensions['permessage-deflate']?.params ?? null,
    read: socket.bytesRead,
    written: socket.bytesWritten,
  };
  console.log(JSON.stringify(report));
  if (invalid > 0 || (expected !== undefined && events !== Number(expected))) process.exit(1);
});
