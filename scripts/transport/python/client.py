#!/usr/bin/env python3
"""Independent Python client for `binostr relay` (scripts/transport/python).

Reads the relay's NIP-11 document, connects with `websockets` in one
compression mode (none | deflate | deflate-ctx), sends REQs -- some as
fragmented messages -- and compares every answer, ids and order, with an
independent NIP-01 matcher over the events file; recomputes every received
id (sha256 of the canonical JSON) and verifies its BIP-340 signature
(coincurve); checks that EVENT gets a read-only `OK false` and that CLOSE stops
a REQ mid-stream (`--checks close`). A small frame sniffer on the socket
counts frames, fragments and RSV1 bits in both directions independently of
`websockets`. Prints one JSON summary line; exits 1 on any failure.

usage: client.py --url ws://127.0.0.1:PORT --events FILE.jsonl
                 --filters filters.json --mode none|deflate|deflate-ctx
                 [--checks reqs,event | --checks close] [--timeout S]
                 [--expect-max-limit N]
       client.py write-ties IN.jsonl OUT.jsonl   (IN plus events with tied created_at)
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import re
import socket
import sys
import time
import urllib.error
import urllib.request

import coincurve
import websockets
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory

# Spec defaults, used only when NIP-11 is unavailable (that is a failure anyway).
DEFAULT_MAX_LIMIT = 5000
DEFAULT_MAX_MESSAGE = 1 << 20
# NIP-01 machine-readable prefixes of OK / CLOSED messages.
NIP01_PREFIXES = ("duplicate", "pow", "blocked", "rate-limited", "invalid",
                  "restricted", "mute", "error", "auth-required")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
HEX128 = re.compile(r"^[0-9a-f]{128}$")
TAG_FILTER = re.compile(r"^#[A-Za-z]$")


# ---------------------------------------------------------------- NIP-01 ids

def nip01_string(s: str) -> str:
    """A JSON string as NIP-01 serializes it for the id: exactly the seven
    escapes it lists (\\n \\" \\\\ \\r \\t \\b \\f); every other character,
    other C0 controls, U+007F, U+2028/2029 and '/' included, verbatim."""
    named = {"\n": "\\n", '"': '\\"', "\\": "\\\\", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
    return '"' + "".join(named.get(ch, ch) for ch in s) + '"'


def nip01_value(v) -> str:
    if isinstance(v, str):
        return nip01_string(v)
    if isinstance(v, bool) or v is None:
        raise ValueError(f"unexpected JSON value {v!r} in an event")
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ",".join(nip01_value(x) for x in v) + "]"
    raise ValueError(f"unexpected JSON value {v!r} in an event")


def canonical(ev: dict) -> str:
    """NIP-01 serialization [0,pubkey,created_at,kind,tags,content], no
    whitespace, NIP-01's escapes only (see nip01_string)."""
    return nip01_value([0, ev["pubkey"], ev["created_at"], ev["kind"], ev["tags"], ev["content"]])


def json_dumps_canonical(ev: dict) -> str:
    """The usual shortcut, json.dumps(..., separators=(',',':'),
    ensure_ascii=False): the same bytes as NIP-01 except for C0 controls other
    than the seven, which it writes as \\u00XX (as JSON.stringify does); only
    counted, for the summary."""
    return json.dumps([0, ev["pubkey"], ev["created_at"], ev["kind"], ev["tags"], ev["content"]],
                      separators=(",", ":"), ensure_ascii=False)


def check_event(ev) -> str | None:
    """None when ev is a well-formed event whose id recomputes and whose
    BIP-340 signature verifies; else what is wrong."""
    if not isinstance(ev, dict):
        return "not an object"
    for k, t in (("id", str), ("pubkey", str), ("created_at", int), ("kind", int),
                 ("tags", list), ("content", str), ("sig", str)):
        if not isinstance(ev.get(k), t) or isinstance(ev.get(k), bool):
            return f"field {k} missing or not {t.__name__}"
    if not HEX64.match(ev["id"]) or not HEX64.match(ev["pubkey"]) or not HEX128.match(ev["sig"]):
        return "id/pubkey/sig not lowercase hex of the right length"
    if not all(isinstance(t, list) and all(isinstance(x, str) for x in t) for t in ev["tags"]):
        return "tags not an array of string arrays"
    try:
        digest = hashlib.sha256(canonical(ev).encode("utf-8")).hexdigest()
    except UnicodeEncodeError as e:
        return f"not encodable as UTF-8 ({e})"
    if digest != ev["id"]:
        return f"id does not recompute (sha256 gives {digest})"
    try:
        ok = coincurve.PublicKeyXOnly(bytes.fromhex(ev["pubkey"])).verify(
            bytes.fromhex(ev["sig"]), bytes.fromhex(ev["id"]))
    except Exception as e:  # not a point on the curve, ...
        return f"signature check raised {e!r}"
    return None if ok else "BIP-340 signature does not verify"


# ------------------------------------------------------- independent matcher

def matches(f: dict, ev: dict) -> bool:
    for k, v in f.items():
        if k == "ids":
            if ev["id"] not in v:
                return False
        elif k == "authors":
            if ev["pubkey"] not in v:
                return False
        elif k == "kinds":
            if ev["kind"] not in v:
                return False
        elif k == "since":
            if ev["created_at"] < v:
                return False
        elif k == "until":
            if ev["created_at"] > v:
                return False
        elif k == "limit":
            continue
        elif TAG_FILTER.match(k):
            name = k[1]
            if not any(len(t) >= 2 and t[0] == name and t[1] in v for t in ev["tags"]):
                return False
        else:
            raise ValueError(f"filter key {k!r} is not NIP-01")
    return True


class Store:
    def __init__(self, path: str):
        self.events: list[dict] = []
        self.problems: list[str] = []
        seen = set()
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                ev = json.loads(line)
                bad = check_event(ev)
                if bad:
                    self.problems.append(f"{path}:{n}: {bad}")
                    continue
                if ev["id"] in seen:
                    self.problems.append(f"{path}:{n}: duplicate id {ev['id']}")
                    continue
                seen.add(ev["id"])
                self.events.append(ev)
        # Newest first, ties by the lowest id.
        self.ordered = sorted(self.events, key=lambda e: (-e["created_at"], e["id"]))
        self.by_id = {e["id"]: e for e in self.events}
        # Which escaping cases the file exercises, and on how many events
        # json.dumps would give another id than NIP-01.
        self.escape_stats = {"named_escape": 0, "other_control": 0, "quote_or_backslash": 0,
                             "non_ascii": 0, "astral": 0, "json_dumps_differs": 0}
        for e in self.events:
            if json_dumps_canonical(e) != canonical(e):
                self.escape_stats["json_dumps_differs"] += 1
            text = e["content"] + "".join("".join(t) for t in e["tags"])
            if any(c in "\n\r\t\b\f" for c in text):
                self.escape_stats["named_escape"] += 1
            if any(ord(c) < 0x20 and c not in "\n\r\t\b\f" for c in text):
                self.escape_stats["other_control"] += 1
            if '"' in text or "\\" in text:
                self.escape_stats["quote_or_backslash"] += 1
            if any(ord(c) > 0x7F for c in text):
                self.escape_stats["non_ascii"] += 1
            if any(ord(c) > 0xFFFF for c in text):
                self.escape_stats["astral"] += 1

    def expected(self, filters: list[dict], max_limit: int) -> list[str]:
        """Ids a REQ with `filters` must return, in order: per filter the first
        min(limit, max_limit) matches newest-first, then the deduplicated union
        in the same order."""
        chosen: set[str] = set()
        for f in filters:
            fs = {k: (set(v) if isinstance(v, list) else v) for k, v in f.items()}
            lim = f.get("limit")
            if lim is not None:
                lim = min(lim, max_limit)
            n = 0
            for ev in self.ordered:
                if lim is not None and n >= lim:
                    break
                if matches(fs, ev):
                    chosen.add(ev["id"])
                    n += 1
        return [e["id"] for e in self.ordered if e["id"] in chosen]


# ------------------------------------------------------------ frame sniffer

class Sniffer:
    """Parses RFC 6455 frame headers from a byte stream (skipping payloads)
    and counts messages, frames, fragmentation and RSV1 use."""

    def __init__(self):
        self.hdr = bytearray()
        self.skip = 0
        self.in_msg = False
        self.msg_frames = 0
        self.msg_rsv1 = False
        self.s = {"frames": 0, "messages": 0, "fragmented_messages": 0, "max_frames_per_message": 0,
                  "compressed_messages": 0, "compressed_fragmented_messages": 0,
                  "rsv1_on_continuation": 0, "control_frames": 0, "protocol_oddities": 0}

    def feed(self, data: bytes) -> None:
        i, n = 0, len(data)
        while i < n:
            if self.skip:
                k = min(self.skip, n - i)
                self.skip -= k
                i += k
                continue
            self.hdr.append(data[i])
            i += 1
            h = self.hdr
            if len(h) < 2:
                continue
            l7 = h[1] & 0x7F
            need = 2 + (2 if l7 == 126 else 8 if l7 == 127 else 0) + (4 if h[1] & 0x80 else 0)
            if len(h) < need:
                continue
            length = l7 if l7 < 126 else int.from_bytes(h[2:4] if l7 == 126 else h[2:10], "big")
            self.frame(bool(h[0] & 0x80), bool(h[0] & 0x40), h[0] & 0x0F)
            self.hdr = bytearray()
            self.skip = length

    def frame(self, fin: bool, rsv1: bool, op: int) -> None:
        s = self.s
        s["frames"] += 1
        if op >= 8:
            s["control_frames"] += 1
            return
        if op == 0:
            if not self.in_msg:
                s["protocol_oddities"] += 1
            if rsv1:
                s["rsv1_on_continuation"] += 1
            self.msg_frames += 1
        else:
            if self.in_msg:
                s["protocol_oddities"] += 1
            self.in_msg, self.msg_frames, self.msg_rsv1 = True, 1, rsv1
        if fin:
            s["messages"] += 1
            s["max_frames_per_message"] = max(s["max_frames_per_message"], self.msg_frames)
            if self.msg_frames > 1:
                s["fragmented_messages"] += 1
            if self.msg_rsv1:
                s["compressed_messages"] += 1
                if self.msg_frames > 1:
                    s["compressed_fragmented_messages"] += 1
            self.in_msg = False


def merge_stats(into: dict, s: dict) -> None:
    for k, v in s.items():
        into[k] = max(into.get(k, 0), v) if k.startswith("max_") else into.get(k, 0) + v


# --------------------------------------------------------------- the client

class Failure(Exception):
    pass


class Client:
    def __init__(self, args):
        self.args = args
        self.T = args.timeout
        self.rng = random.Random(args.seed)
        self.ws = None
        self.out_sniff = self.in_sniff = None
        self.wire_out: dict = {}
        self.wire_in: dict = {}
        self.s = {"mode": args.mode, "checks": args.checks, "websockets": websockets.__version__,
                  "coincurve": coincurve.__version__, "nip11": None, "negotiated": None,
                  "connections": 0, "reqs": 0, "reqs_matched": 0, "events": 0, "verified": 0,
                  "fragmented_sends": 0, "notices": [], "mismatches": []}

    def fail(self, what: str, **details) -> None:
        self.s["mismatches"].append({"check": what, **details})

    # -- NIP-11
    def nip11(self) -> tuple[int, int]:
        http = re.sub(r"^ws", "http", self.args.url)
        req = urllib.request.Request(http, headers={"Accept": "application/nostr+json"})
        try:
            with urllib.request.urlopen(req, timeout=self.T) as r:
                body, headers = r.read(), r.headers
            doc = json.loads(body)
            lim = doc["limitation"]
            max_limit, max_msg = int(lim["max_limit"]), int(lim["max_message_length"])
        except Exception as e:
            detail = e.read()[:200].decode("utf-8", "replace") if isinstance(e, urllib.error.HTTPError) else ""
            self.fail("nip11", error=f"GET {http} (Accept: application/nostr+json) gave no NIP-11 "
                      f"document with limitation.max_limit and limitation.max_message_length: {e!r} {detail}".strip(),
                      fallback={"max_limit": DEFAULT_MAX_LIMIT, "max_message_length": DEFAULT_MAX_MESSAGE})
            return DEFAULT_MAX_LIMIT, DEFAULT_MAX_MESSAGE
        ext = doc.get("binostr") if isinstance(doc.get("binostr"), dict) else {}
        self.s["nip11"] = {"limitation": lim, "encodings": ext.get("encodings", doc.get("binostr.encodings")),
                           "cors": headers.get("Access-Control-Allow-Origin")}
        if headers.get("Access-Control-Allow-Origin") != "*":
            self.fail("nip11", error="no `Access-Control-Allow-Origin: *` on the NIP-11 response")
        if self.args.expect_max_limit is not None and max_limit != self.args.expect_max_limit:
            self.fail("nip11", error=f"max_limit {max_limit}, relay started with {self.args.expect_max_limit}")
        return max_limit, max_msg

    # -- connection
    async def connect(self) -> None:
        if self.ws is not None:
            await self.drop()
        mode = self.args.mode
        ext = {"none": None,
               "deflate": [ClientPerMessageDeflateFactory(server_no_context_takeover=True,
                                                          client_no_context_takeover=True)],
               "deflate-ctx": [ClientPerMessageDeflateFactory()]}[mode]
        ws = await asyncio.wait_for(
            connect(self.args.url, compression=None, extensions=ext, open_timeout=self.T,
                    close_timeout=min(self.T, 5), ping_interval=None, max_size=1 << 26),
            self.T + 1)
        self.ws = ws
        self.s["connections"] += 1
        hdrs = ws.response.headers.get_all("Sec-WebSocket-Extensions")
        negotiated = ", ".join(hdrs) if hdrs else None
        if self.s["negotiated"] is None:
            self.s["negotiated"] = negotiated or "none"
        problem = check_negotiation(mode, negotiated)
        if problem:
            self.fail("negotiation", error=problem)
        # Sniff the wire both ways (after the handshake).
        self.out_sniff, self.in_sniff = Sniffer(), Sniffer()
        orig_recv, orig_write = ws.protocol.receive_data, ws.transport.write

        def recv_hook(data, _o=orig_recv, _s=self.in_sniff):
            _s.feed(data)
            return _o(data)

        def write_hook(data, _o=orig_write, _s=self.out_sniff):
            _s.feed(data)
            return _o(data)

        ws.protocol.receive_data = recv_hook
        ws.transport.write = write_hook

    async def drop(self) -> None:
        ws, self.ws = self.ws, None
        merge_stats(self.wire_out, self.out_sniff.s)
        merge_stats(self.wire_in, self.in_sniff.s)
        try:
            await asyncio.wait_for(ws.close(), self.T)
        except Exception:
            ws.transport.abort()

    async def send(self, text: str, fragments: list[str] | None = None) -> None:
        if fragments:
            assert "".join(fragments) == text
            self.s["fragmented_sends"] += 1
            await asyncio.wait_for(self.ws.send(fragments), self.T)
        else:
            await asyncio.wait_for(self.ws.send(text), self.T)

    async def next_msg(self, waiting_for: str) -> list:
        try:
            raw = await asyncio.wait_for(self.ws.recv(), self.T)
        except asyncio.TimeoutError:
            raise Failure(f"no message within {self.T}s while waiting for {waiting_for}") from None
        if not isinstance(raw, str):
            raise Failure(f"binary message ({len(raw)} bytes) on a JSON connection")
        try:
            m = json.loads(raw)
        except ValueError:
            raise Failure(f"relay sent non-JSON text: {raw[:120]!r}") from None
        if not isinstance(m, list) or not m or not isinstance(m[0], str):
            raise Failure(f"relay sent a non-NIP-01 message: {raw[:120]!r}")
        if m[0] == "NOTICE":
            self.s["notices"].append(m[1:])
        return m

    def pieces(self, text: str) -> list[str]:
        """3-7 fragments of text, some of them a single character."""
        k = min(self.rng.randint(3, 7), len(text))
        cuts = set()
        if self.rng.random() < 0.5:
            cuts.add(1)
        if self.rng.random() < 0.5:
            cuts.add(len(text) - 1)
        while len(cuts) < k - 1:
            c = self.rng.randint(1, len(text) - 1)
            cuts.add(c)
            if len(cuts) < k - 1 and self.rng.random() < 0.3 and c + 1 < len(text):
                cuts.add(c + 1)  # a one-character piece in the middle
        b = [0] + sorted(cuts)[: k - 1] + [len(text)]
        return [text[b[i]:b[i + 1]] for i in range(len(b) - 1)]

    def verify(self, ev, sub: str) -> None:
        self.s["events"] += 1
        bad = check_event(ev)
        if bad:
            self.fail("event", sub=sub, id=ev.get("id") if isinstance(ev, dict) else None, error=bad)
        else:
            self.s["verified"] += 1
            if ev != self.store.by_id.get(ev["id"], ev):
                self.fail("event", sub=sub, id=ev["id"], error="differs from the stored event")

    # -- one REQ
    async def req(self, sub: str, filters: list[dict], fragmented: bool, label: str) -> None:
        text = json.dumps(["REQ", sub, *filters], separators=(",", ":"))
        if len(text.encode()) > self.max_msg:
            self.fail("req", sub=sub, label=label, error=f"REQ is {len(text)} bytes, over max_message_length")
            return
        want = self.store.expected(filters, self.max_limit)
        self.s["reqs"] += 1
        await self.send(text, self.pieces(text) if fragmented else None)
        got, closed, strays = [], None, []
        while True:
            m = await self.next_msg(f'["EOSE","{sub}"]')
            if m[0] == "EVENT" and len(m) == 3 and m[1] == sub:
                self.verify(m[2], sub)
                got.append(m[2].get("id") if isinstance(m[2], dict) else None)
            elif m[0] == "EOSE" and m[1:] == [sub]:
                break
            elif m[0] == "CLOSED" and len(m) >= 2 and m[1] == sub:
                closed = m[2:]
                break
            elif m[0] != "NOTICE":
                strays.append(json.dumps(m)[:160])
        await self.send(json.dumps(["CLOSE", sub]))
        if closed is not None or strays or got != want:
            self.fail("req", **describe(sub, label, filters, fragmented, want, got, self.store),
                      **({"closed": closed} if closed is not None else {}),
                      **({"strays": strays[:5]} if strays else {}))
        else:
            self.s["reqs_matched"] += 1

    async def run_reqs(self, plan) -> None:
        reconnects = 0
        for sub, filters, fragmented, label in plan:
            if self.ws is None:
                await self.connect()
            try:
                await self.req(sub, filters, fragmented, label)
            except (Failure, ConnectionClosed, asyncio.TimeoutError, OSError) as e:
                self.fail("req", sub=sub, label=label, fragmented=fragmented,
                          error=describe_exc(e, self.ws))
                await self.drop()
                reconnects += 1
                if reconnects > 25:
                    self.fail("req", error="more than 25 reconnects; remaining REQs skipped")
                    return

    async def event_check(self) -> None:
        ev = self.store.events[0]
        self.s["ok"] = None
        try:
            if self.ws is None:
                await self.connect()
            await self.send(json.dumps(["EVENT", ev], separators=(",", ":"), ensure_ascii=False))
            while True:
                m = await self.next_msg('["OK",...]')
                if m[0] == "OK":
                    break
                if m[0] != "NOTICE":
                    raise Failure(f"expected OK, got {json.dumps(m)[:160]}")
        except (Failure, ConnectionClosed, asyncio.TimeoutError, OSError) as e:
            self.fail("event-ok", error=describe_exc(e, self.ws))
            return
        self.s["ok"] = m[1:]
        msg = m[3] if len(m) == 4 and isinstance(m[3], str) else None
        if not (len(m) == 4 and m[1] == ev["id"] and m[2] is False and msg is not None
                and re.match(r"^(%s):" % "|".join(map(re.escape, NIP01_PREFIXES)), msg)):
            self.fail("event-ok", error=f'expected ["OK","{ev["id"]}",false,"<NIP-01 prefix>: ..."]',
                      got=m)

    async def close_check(self, variant: str) -> None:
        """CLOSE of a REQ {} on a fresh connection. `burst`: REQ and CLOSE in
        one TCP segment; `streaming`: CLOSE sent once the first event has
        arrived. Counts the events before the stream stops (must be fewer than
        all); after a later REQ's EOSE no event of the closed sub may come."""
        total = len(self.store.events)
        order = self.store.expected([{}], self.max_limit)
        later = self.store.ordered[0]["id"]
        r = {"store": total, "events_before_stop": 0, "stop_eose": False, "stop_closed": None,
             "after_eose_events": 0}
        self.s.setdefault("close", {})[variant] = r
        fail = lambda error, **kw: self.fail("close", variant=variant, error=error, **kw)
        try:
            await self.connect()
            got = []
            if variant == "burst":
                sock = self.ws.transport.get_extra_info("socket")
                corked = False
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
                    corked = True
                except (AttributeError, OSError):
                    pass
                await self.send(json.dumps(["REQ", "stop", {}]))
                await self.send(json.dumps(["CLOSE", "stop"]))
                if corked:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 0)
                r["one_segment"] = corked
            else:
                await self.send(json.dumps(["REQ", "stop", {}]))
                while not got:
                    m = await self.next_msg('the first ["EVENT","stop",...]')
                    if m[0] == "EVENT" and len(m) == 3 and m[1] == "stop":
                        self.verify(m[2], "stop")
                        got.append(m[2].get("id"))
                    elif m[0] != "NOTICE":
                        raise Failure(f"expected an event, got {json.dumps(m)[:160]}")
                await self.send(json.dumps(["CLOSE", "stop"]))
            await self.send(json.dumps(["REQ", "after", {"ids": [later]}]))
            phase = "after"
            after_got = []
            while True:
                m = await self.next_msg(f'["EOSE","{phase}"]')
                if m[0] == "EVENT" and len(m) == 3 and m[1] == "stop":
                    self.verify(m[2], "stop")
                    if phase == "after":
                        got.append(m[2].get("id"))
                    else:
                        r["after_eose_events"] += 1
                elif m[0] == "EOSE" and m[1:] == ["stop"]:
                    r["stop_eose"] = True
                elif m[0] == "CLOSED" and len(m) >= 2 and m[1] == "stop":
                    r["stop_closed"] = m[2:]
                elif m[0] == "EVENT" and len(m) == 3 and m[1] == phase:
                    self.verify(m[2], phase)
                    after_got.append(m[2].get("id"))
                elif m[0] == "EOSE" and m[1:] == [phase]:
                    if after_got != [later]:
                        fail(f"REQ {phase} {{ids:[{later}]}} returned {after_got}")
                    if phase == "after2":
                        break
                    # A second round trip: nothing more for "stop" may come.
                    phase, after_got = "after2", []
                    await self.send(json.dumps(["REQ", "after2", {"ids": [later]}]))
                elif m[0] != "NOTICE":
                    fail(f"unexpected {json.dumps(m)[:160]}")
            r["events_before_stop"] = len(got)
            if got != order[: len(got)]:
                i = first_divergence(order, got)
                fail("events before the stop are not a prefix of the newest-first order",
                     first_divergence={"index": i, "expected": order[i], "received": got[i]})
            if len(got) >= total or r["stop_eose"]:
                fail(f"CLOSE did not stop the stream: {len(got)} of {total} events"
                     + (", then EOSE" if r["stop_eose"] else ""))
            if r["after_eose_events"]:
                fail(f"{r['after_eose_events']} events for the closed sub after a later REQ's EOSE")
        except (Failure, ConnectionClosed, asyncio.TimeoutError, OSError) as e:
            fail(describe_exc(e, self.ws))
        finally:
            if self.ws is not None:
                await self.drop()

    def plan(self, drawn: list[dict]):
        p = []
        for i, f in enumerate(drawn):
            p.append((f"f{i:02d}", [f], i % 4 == 1, f"drawn filter {i}"))
        idx = list(range(len(drawn)))
        for t in range(10):
            three = self.rng.sample(idx, 3) if len(idx) >= 3 else idx
            p.append((f"t{t}", [drawn[j] for j in three], t % 2 == 0, f"drawn filters {three}"))
        p.append(("all", [{}], False, "{}"))
        p.append(("all-frag", [{}], True, "{}"))
        p.append(("lim5", [{"limit": 5}], False, "{limit:5}"))
        p.append(("lim0", [{"limit": 0}], False, "{limit:0}"))
        p.append(("limbig", [{"limit": self.max_limit + 1}], True, "{limit:max_limit+1}"))
        for big in self.big_filters():
            name, f = big
            p.append((name, [f], False, name))
            p.append((name + "-frag", [f], True, name + " (fragmented)"))
        return p

    def big_filters(self):
        ev = self.store.ordered
        rnd = random.Random(self.args.seed + 1)
        fake = lambda: "%064x" % rnd.getrandbits(256)
        authors = list(dict.fromkeys(e["pubkey"] for e in ev))
        authors = (authors[:36] + [fake() for _ in range(40)])[:40]
        etags = list(dict.fromkeys(t[1] for e in ev for t in e["tags"] if len(t) >= 2 and t[0] == "e"))
        etags = (etags[:22] + [fake() for _ in range(25)])[:25]
        ids = [e["id"] for e in ev[1::max(1, len(ev) // 9)]][:9] + [fake()]
        return [("authors40", {"authors": authors}),
                ("e25", {"#e": etags, "kinds": [1, 6, 7]}),
                ("ids10", {"ids": ids})]

    async def main(self) -> int:
        try:
            self.store = Store(self.args.events)
            for p in self.store.problems[:5]:
                self.fail("store", error=p)
            self.s["store"] = {"events": len(self.store.events), "escaping": self.store.escape_stats}
            self.max_limit, self.max_msg = self.nip11()
            checks = set(self.args.checks.split(","))
            if "reqs" in checks:
                with open(self.args.filters, encoding="utf-8") as fh:
                    fset = json.load(fh)
                drawn = fset["filters"]
                # Sanity of the matcher itself: its unlimited counts against
                # those `binostr filters` computed with the project's reference.
                for i, (f, n) in enumerate(zip(drawn, fset.get("matches", []))):
                    fs = {k: (set(v) if isinstance(v, list) else v) for k, v in f.items()}
                    mine = sum(matches(fs, e) for e in self.store.events)
                    if mine != n:
                        self.fail("matcher", filter=i, error=f"matches {mine} events, filters.json says {n}")
                await self.run_reqs(self.plan(drawn))
            if "event" in checks:
                await self.event_check()
            if "close" in checks:
                await self.close_check("burst")
                await self.close_check("streaming")
        except Exception as e:  # a harness bug or an unreadable input
            self.fail("harness", error=repr(e))
        finally:
            if self.ws is not None:
                await self.drop()
        self.s["wire"] = {"sent": self.wire_out, "received": self.wire_in}
        w = self.wire_out
        if self.s["fragmented_sends"] and w.get("fragmented_messages", 0) < self.s["fragmented_sends"]:
            self.fail("wire", error=f"{self.s['fragmented_sends']} fragmented sends but only "
                      f"{w.get('fragmented_messages', 0)} fragmented messages on the wire")
        if self.args.mode != "none" and self.s["fragmented_sends"] and not w.get("compressed_fragmented_messages"):
            self.fail("wire", error="no compressed fragmented message went out")
        for side, st in (("sent", self.wire_out), ("received", self.wire_in)):
            if st.get("rsv1_on_continuation") or st.get("protocol_oddities"):
                self.fail("wire", error=f"{side}: {st}")
            if self.args.mode == "none" and st.get("compressed_messages"):
                self.fail("wire", error=f"{side}: RSV1 set without permessage-deflate")
        self.s["ok_all"] = not self.s["mismatches"]
        self.s["seconds"] = round(time.monotonic() - self.s.pop("started"), 2)
        if not self.s["notices"]:
            del self.s["notices"]
        print(json.dumps(self.s, ensure_ascii=False), flush=True)
        return 0 if self.s["ok_all"] else 1


# ------------------------------------------------------------------ helpers

def check_negotiation(mode: str, header: str | None) -> str | None:
    if mode == "none":
        return None if header is None else f"offered no extension, relay answered {header!r}"
    if header is None:
        return "offered permessage-deflate, relay answered without Sec-WebSocket-Extensions"
    exts = [x.strip() for x in header.split(",")]
    if len(exts) != 1:
        return f"more than one extension accepted: {header!r}"
    parts = [p.strip() for p in exts[0].split(";")]
    params = {p.split("=")[0].strip() for p in parts[1:]}
    if parts[0] != "permessage-deflate":
        return f"accepted {parts[0]!r}, not permessage-deflate"
    nct = {"server_no_context_takeover", "client_no_context_takeover"}
    if mode == "deflate" and not nct <= params:
        return f"offered no context takeover both ways, relay answered {header!r}"
    if mode == "deflate-ctx" and params & nct:
        return f"offered context takeover both ways, relay answered {header!r}"
    return None


def first_divergence(want: list, got: list) -> int | None:
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return i
    return None if len(want) == len(got) else min(len(want), len(got))


def describe(sub, label, filters, fragmented, want, got, store) -> dict:
    def at(i, ids):
        if i is None or i >= len(ids):
            return None
        e = store.by_id.get(ids[i])
        return {"id": ids[i], "created_at": e["created_at"] if e else None}

    d = {"sub": sub, "label": label, "fragmented": fragmented,
         "filters": json.dumps(filters, separators=(",", ":"))[:600],
         "expected": len(want), "received": len(got)}
    got_set, want_set = set(got), set(want)
    missing = [i for i in want if i not in got_set]
    extra = [i for i in got if i not in want_set]
    if missing:
        d["missing"] = len(missing)
        d["missing_first"] = missing[:3]
    if extra:
        d["unexpected"] = len(extra)
        d["unexpected_first"] = extra[:3]
    if len(set(got)) != len(got):
        d["duplicates"] = len(got) - len(set(got))
    if not missing and not extra and want != got:
        d["order_only"] = True
    i = first_divergence(want, got)
    if i is not None:
        d["first_divergence"] = {"index": i, "expected": at(i, want), "received": at(i, got)}
    return d


def describe_exc(e: BaseException, ws) -> str:
    if isinstance(e, ConnectionClosed):
        rcvd = e.rcvd
        return (f"connection closed: {type(e).__name__}"
                + (f", relay close {rcvd.code} {rcvd.reason!r}" if rcvd else ", no close frame from the relay"))
    if isinstance(e, asyncio.TimeoutError):
        return "timed out"
    return str(e) or repr(e)


def write_ties(events_path: str, out_path: str, per_time: int = 6) -> None:
    """Copies the events file to out_path and appends signed kind-1 events
    that share a created_at with each other and with stored events (the
    newest, the oldest and two in between), so that the tie rule (lowest id
    first) and a `limit` cutting through a tie are exercised. Deterministic:
    a fixed key, zero aux randomness."""
    with open(events_path, encoding="utf-8") as fh:
        lines = [line for line in fh if line.strip()]
    events = [json.loads(line) for line in lines]
    times = sorted({e["created_at"] for e in events}, reverse=True)
    picks = [times[0], times[len(times) // 3], times[2 * len(times) // 3], times[-1]]
    sk = coincurve.PrivateKey(hashlib.sha256(b"binostr transport python ties").digest())
    pubkey = coincurve.PublicKeyXOnly.from_secret(sk.secret).format().hex()
    extra = []
    for t, when in enumerate(picks):
        for k in range(per_time):
            other = events[(t * per_time + k) % len(events)]
            ev = {"pubkey": pubkey, "created_at": when, "kind": 1,
                  "tags": [["t", "ties"], ["e", other["id"]], ["p", other["pubkey"]]],
                  "content": f"tie {t}.{k}: \"quoted\" \\ tab\t newline\n \u00e9 \U0001f600 \x01"}
            ev["id"] = hashlib.sha256(canonical(ev).encode("utf-8")).hexdigest()
            ev["sig"] = sk.sign_schnorr(bytes.fromhex(ev["id"]), bytes(32)).hex()
            assert check_event(ev) is None
            extra.append(json.dumps(ev, ensure_ascii=False, separators=(",", ":")) + "\n")
    with open(out_path, "w", encoding="utf-8") as fh:
        fh.writelines(line if line.endswith("\n") else line + "\n" for line in lines)
        fh.writelines(extra)


def main() -> int:
    if sys.argv[1:2] == ["write-ties"]:
        # client.py write-ties IN OUT: see write_ties.
        write_ties(sys.argv[2], sys.argv[3])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--events", required=True)
    ap.add_argument("--filters", help="filters.json from `binostr filters` (for --checks reqs)")
    ap.add_argument("--mode", choices=["none", "deflate", "deflate-ctx"], required=True)
    ap.add_argument("--checks", default="reqs,event", help="comma list of reqs, event, close")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds for every await")
    ap.add_argument("--seed", type=int, default=1, help="seed of fragment splits and 3-filter REQs")
    ap.add_argument("--expect-max-limit", type=int, help="fail unless NIP-11 reports this max_limit")
    args = ap.parse_args()
    if "reqs" in args.checks.split(",") and not args.filters:
        ap.error("--checks reqs needs --filters")
    started = time.monotonic()
    client = Client(args)
    client.s["url"] = args.url
    client.s["started"] = started
    return asyncio.run(client.main())


if __name__ == "__main__":
    sys.exit(main())
