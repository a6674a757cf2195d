#!/usr/bin/env python3
"""Verifies a Binostr release offline, with the standard library alone.

    verify.py DIR --pubkey HEX     check DIR/release.event.json and SHA256SUMS
    verify.py --self-test          check the committed manifest events

A release directory holds SHA256SUMS, release.event.json (a NIP-94 kind
1063 event, BIP-340 signed) and NOTES.md; the archives may be absent. The
check: the event's NIP-01 id and BIP-340 signature, the signer is the
pinned key, the `x` and `size` tags pin SHA256SUMS, which lists NOTES.md,
every listed file that is present matches its sum, no unlisted file lies
beside them, and the archives rebuilt from the event's `commit` tag (scripts/release/archives.sh, needs git and that commit) equal
SHA256SUMS byte for byte. Exits 1 on the first refusal, naming it.
"""
import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
HEX64 = re.compile(r"[0-9a-f]{64}")
KIND = 1063
EVENT_FILE = "release.event.json"
SUMS_FILE = "SHA256SUMS"
NOTES_FILE = "NOTES.md"

# secp256k1 (SEC 2) and BIP-340 Schnorr verification.
P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
G = (0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
     0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8)


def point_add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and a[1] != b[1]:
        return None
    if a == b:
        lam = 3 * a[0] * a[0] * pow(2 * a[1], -1, P) % P
    else:
        lam = (b[1] - a[1]) * pow(b[0] - a[0], -1, P) % P
    x = (lam * lam - a[0] - b[0]) % P
    return x, (lam * (a[0] - x) - a[1]) % P


def point_mul(pt, k):
    out = None
    while k:
        if k & 1:
            out = point_add(out, pt)
        pt = point_add(pt, pt)
        k >>= 1
    return out


def lift_x(x):
    if x >= P:
        return None
    y_sq = (pow(x, 3, P) + 7) % P
    y = pow(y_sq, (P + 1) // 4, P)
    if pow(y, 2, P) != y_sq:
        return None
    return x, y if y % 2 == 0 else P - y


def tagged_hash(tag, msg):
    t = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(t + t + msg).digest()


def schnorr_verify(msg, pubkey, sig):
    """BIP-340 verification of a 64-byte signature over a 32-byte message."""
    if len(msg) != 32 or len(pubkey) != 32 or len(sig) != 64:
        return False
    pt = lift_x(int.from_bytes(pubkey, "big"))
    r = int.from_bytes(sig[:32], "big")
    s = int.from_bytes(sig[32:], "big")
    if pt is None or r >= P or s >= N:
        return False
    e = int.from_bytes(tagged_hash("BIP0340/challenge", sig[:32] + pubkey + msg), "big") % N
    rr = point_add(point_mul(G, s), point_mul(pt, N - e))
    return rr is not None and rr[1] % 2 == 0 and rr[0] == r


class Refused(Exception):
    pass


def event_id(ev):
    """NIP-01: SHA-256 of [0,pubkey,created_at,kind,tags,content], compact."""
    data = [0, ev["pubkey"], ev["created_at"], ev["kind"], ev["tags"], ev["content"]]
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_event(ev, pinned, what):
    """Structure, id, signature and signer of a kind 1063 event."""
    fields = {"id", "pubkey", "created_at", "kind", "tags", "content", "sig"}
    if not isinstance(ev, dict) or set(ev) != fields:
        raise Refused(f"event: {what} must hold exactly the NIP-01 fields {sorted(fields)}")
    if not (isinstance(ev["tags"], list) and all(
            isinstance(t, list) and all(isinstance(x, str) for x in t) for t in ev["tags"])):
        raise Refused(f"event: {what}: tags must be lists of strings")
    if not (isinstance(ev["created_at"], int) and isinstance(ev["kind"], int)
            and isinstance(ev["content"], str)):
        raise Refused(f"event: {what}: created_at and kind must be integers, content a string")
    if not all(isinstance(ev[k], str) and HEX64.fullmatch(ev[k]) for k in ("id", "pubkey")) or \
            not (isinstance(ev["sig"], str) and re.fullmatch(r"[0-9a-f]{128}", ev["sig"])):
        raise Refused(f"event: {what}: id, pubkey and sig must be lowercase hex")
    if ev["kind"] != KIND:
        raise Refused(f"event: {what}: kind is {ev['kind']}, not {KIND} (NIP-94)")
    if event_id(ev) != ev["id"]:
        raise Refused(f"event: {what}: id is not the NIP-01 hash of the event (the event was changed)")
    if not schnorr_verify(bytes.fromhex(ev["id"]), bytes.fromhex(ev["pubkey"]), bytes.fromhex(ev["sig"])):
        raise Refused(f"signature: {what}: the BIP-340 signature does not verify")
    if ev["pubkey"] != pinned:
        raise Refused(f"key: {what} is signed by {ev['pubkey']}, not the pinned key {pinned}")


def tags_of(ev, what):
    tags = {}
    for t in ev["tags"]:
        if len(t) < 2:
            raise Refused(f"binding: {what}: tag {t} has no value")
        if t[0] in tags:
            raise Refused(f"binding: {what}: tag {t[0]} appears twice")
        tags[t[0]] = t[1]
    return tags


def parse_sums(data, path):
    if not data.endswith(b"\n") or data == b"\n":
        raise Refused(f"sums: {path}: empty or no final newline")
    entries = {}
    for n, line in enumerate(data[:-1].decode("utf-8", "replace").split("\n"), 1):
        m = re.fullmatch(r"([0-9a-f]{64})  ([^/\\*\s][^/\\]*)", line)
        if not m or m[2] in (".", "..", SUMS_FILE, EVENT_FILE) or m[2] in entries:
            raise Refused(f"sums: {path}:{n}: expected `<64 hex>  <file name>`, each name once")
        entries[m[2]] = m[1]
    return entries


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def verify_release(directory, pinned, rebuild=True):
    d = Path(directory)
    try:
        ev = json.loads((d / EVENT_FILE).read_bytes())
        sums_bytes = (d / SUMS_FILE).read_bytes()
    except (OSError, ValueError) as e:
        raise Refused(f"unreadable: {e}") from None
    check_event(ev, pinned, EVENT_FILE)
    tags = tags_of(ev, EVENT_FILE)
    for name in ("x", "m", "size", "version", "commit", "alt"):
        if name not in tags:
            raise Refused(f"binding: {EVENT_FILE} has no `{name}` tag")
    if tags["x"] != hashlib.sha256(sums_bytes).hexdigest() or tags["size"] != str(len(sums_bytes)):
        raise Refused(f"binding: {SUMS_FILE} is not the file the event signed (x/size tags differ)")
    version, commit = tags["version"], tags["commit"]
    if not re.fullmatch(r"v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?", version):
        raise Refused(f"binding: version tag `{version}` is not v<semver>")
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise Refused(f"binding: commit tag `{commit}` is not 40 lowercase hex")
    if re.fullmatch(r"v\d+\.\d+\.\d+.*", d.resolve().name) and d.resolve().name != version:
        raise Refused(f"binding: the directory is named {d.resolve().name}, the event signs release {version}")
    sums = parse_sums(sums_bytes, d / SUMS_FILE)
    present = []
    for name, want in sorted(sums.items()):
        if (d / name).is_file():
            got = sha256_file(d / name)
            if got != want:
                raise Refused(f"modified: {d / name}: sha256 {got}, {SUMS_FILE} says {want}")
            present.append(name)
    archives = [f"binostr-{version}-source.tar.gz", f"binostr-{version}-results.tar.gz"]
    for name in archives + [NOTES_FILE]:
        if name not in sums:
            raise Refused(f"sums: {SUMS_FILE} does not list {name}")
    if NOTES_FILE not in present:
        raise Refused(f"sums: {d / NOTES_FILE} is missing (it is committed beside {SUMS_FILE})")
    unlisted = sorted(p.name for p in d.iterdir()
                      if p.name not in sums and p.name not in (SUMS_FILE, EVENT_FILE))
    if unlisted:
        raise Refused(f"sums: {', '.join(unlisted)} in {d} but not in {SUMS_FILE}")
    log(f"ok: event {ev['id']} by the pinned key pins {SUMS_FILE}; "
        f"{len(present)} of {len(sums)} listed files present and matching")
    if not rebuild:
        return ev
    with tempfile.TemporaryDirectory(prefix="binostr-verify-") as tmp:
        log(f"rebuilding the archives of {version} from commit {commit} ...")
        run = subprocess.run(["bash", str(ROOT / "scripts/release/archives.sh"), commit, version, tmp],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            raise Refused(f"rebuild: archives.sh failed: {run.stderr.strip()}")
        for name in archives:
            got = sha256_file(Path(tmp) / name)
            if got != sums[name]:
                raise Refused(f"rebuild: {name} rebuilt from {commit} has sha256 {got}, "
                              f"{SUMS_FILE} says {sums[name]}")
            if name in present and (Path(tmp) / name).read_bytes() != (d / name).read_bytes():
                raise Refused(f"rebuild: {d / name} differs from the rebuilt archive")
    for name in sorted(set(sums) - set(archives) - set(present)):
        log(f"note: {name} is listed but absent here (a paper: `just paper` at {commit[:12]}, then compare)")
    log(f"ok: release {version} of commit {commit}: the archives rebuilt from git equal {SUMS_FILE}")
    return ev


def log(msg):
    print(msg, file=sys.stderr)


def pinned_from_justfile():
    m = re.search(r'^signing_pubkey := "([0-9a-f]{64})"', (ROOT / "justfile").read_text(), re.M)
    if not m:
        sys.exit("verify: no signing_pubkey in the justfile; pass --pubkey")
    return m[1]


def self_test(pinned):
    events = sorted(ROOT.glob("results/campaigns/*/manifest.event.json"))
    if not events:
        sys.exit("self-test: no committed manifest events under results/campaigns/")
    for path in events:
        ev = json.loads(path.read_bytes())
        check_event(ev, pinned, str(path.relative_to(ROOT)))
        x = tags_of(ev, path.name)["x"]
        manifest = path.parent / "manifest.json"
        if manifest.is_file() and sha256_file(manifest) != x:
            raise Refused(f"binding: {manifest} is not the file its event signed")
        log(f"self-test: ok {path.relative_to(ROOT)}")
    ev = json.loads(events[0].read_bytes())
    cases = {
        "a flipped signature byte": dict(ev, sig=ev["sig"][:10] + ("0" if ev["sig"][10] != "0" else "1") + ev["sig"][11:]),
        "a changed content": dict(ev, content=ev["content"] + "."),
        "a changed tag": dict(ev, tags=[t[:1] + ["0" * 64] if t[0] == "x" else t for t in ev["tags"]]),
        "another kind": dict(ev, kind=1),
    }
    for what, bad in cases.items():
        try:
            check_event(bad, pinned, what)
        except Refused as e:
            log(f"self-test: refused {what}: {e}")
        else:
            sys.exit(f"self-test: FAILED: {what} was accepted")
    try:
        check_event(ev, "0" * 63 + "1", "another pinned key")
    except Refused as e:
        log(f"self-test: refused another pinned key: {e}")
    else:
        sys.exit("self-test: FAILED: another pinned key was accepted")
    # Flipped bytes in (r, s) and in the message must all fail.
    msg, pub, sig = bytes.fromhex(ev["id"]), bytes.fromhex(ev["pubkey"]), bytes.fromhex(ev["sig"])
    for i in (0, 31, 32, 63):
        bad = bytearray(sig)
        bad[i] ^= 1
        if schnorr_verify(msg, pub, bytes(bad)):
            sys.exit(f"self-test: FAILED: signature with byte {i} flipped verified")
    if schnorr_verify(bytes([msg[0] ^ 0x80]) + msg[1:], pub, sig):
        sys.exit("self-test: FAILED: a flipped message byte verified")
    print(f"self-test: {len(events)} committed manifest events verify under {pinned[:16]}...; "
          f"{len(cases) + 6} altered ones are refused")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", help="the release directory (releases/VERSION)")
    ap.add_argument("--pubkey", help="the only acceptable signer, 64 lowercase hex (default with --self-test: the justfile's)")
    ap.add_argument("--self-test", action="store_true", help="verify the committed manifest events and altered copies")
    ap.add_argument("--no-rebuild", action="store_true", help="skip rebuilding the archives from git")
    args = ap.parse_args()
    if args.pubkey is not None and not HEX64.fullmatch(args.pubkey):
        sys.exit(f"verify: --pubkey must be 64 lowercase hex characters, got {args.pubkey!r}")
    try:
        if args.self_test:
            if args.dir:
                sys.exit("verify: --self-test takes no DIR")
            self_test(args.pubkey or pinned_from_justfile())
            return
        if not args.dir or not args.pubkey:
            ap.error("DIR and --pubkey are required (or --self-test)")
        ev = verify_release(args.dir, args.pubkey, rebuild=not args.no_rebuild)
        skipped = " (archives NOT rebuilt: --no-rebuild)" if args.no_rebuild else ""
        print(f"verified: {args.dir}: release {tags_of(ev, EVENT_FILE)['version']} signed by {args.pubkey}{skipped}")
    except Refused as e:
        sys.exit(f"verify: REFUSED: {e}")


if __name__ == "__main__":
    main()
