"""Python interop harness for binostr: checks, timing, torture.

  interop.py check   [--vectors FILE] [--out CSV] [--coverage JSON] [--divergences JSON]
  interop.py timing  [--selection JSONL] [--out CSV] [--quick]
  interop.py torture [--cases DIR] [--out CSV] [--quick]
  interop.py self-test   (the timing's corpus comparison fails on a wrong decode)

The Rust CLI is $BINOSTR_BIN (default `cargo run --release -q --`).
"""

import argparse
import csv
import hashlib
import json
import os
import resource
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

from pycodecs import ROOT, codecs

RESULTS = os.path.join(ROOT, "results", "interop")
LISTS = os.path.join(ROOT, "scripts", "interop")
LANGUAGE = "python"
# The status words, shared with the JS and Go harnesses (coverage.json "statuses").
STATUSES = ("ok", "known-divergence", "fail", "not-supported", "not-covered")
NOT_COVERED = "not in scripts/interop/coverage.json for python: add its library or a not-supported reason"


def binostr(*args, **kw):
    cmd = shlex.split(os.environ.get("BINOSTR_BIN", "cargo run --release -q --"))
    return subprocess.run(cmd + list(args), cwd=ROOT, capture_output=True, **kw)


def frame(records):
    return b"".join(len(r).to_bytes(4, "big") + r for r in records)


def unframe(b):
    out, i = [], 0
    while i < len(b):
        n = int.from_bytes(b[i : i + 4], "big")
        out.append(b[i + 4 : i + 4 + n])
        i += 4 + n
    return out


# --- NIP-01 -----------------------------------------------------------------

NIP01_ESCAPES = {"\n": "\\n", '"': '\\"', "\\": "\\\\", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def nip01_string(s):
    return '"' + "".join(NIP01_ESCAPES.get(c, c) for c in s) + '"'


def nip01_id(e):
    """SHA-256 of [0,pubkey,created_at,kind,tags,content], NIP-01 escaping only."""
    tags = ",".join("[" + ",".join(nip01_string(v) for v in t) + "]" for t in e["tags"])
    text = (
        f'[0,"{e["pubkey"]}",{e["created_at"]},{e["kind"]},[{tags}],'
        + nip01_string(e["content"])
        + "]"
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verify(e):
    from coincurve.keys import PublicKeyXOnly

    if nip01_id(e) != e["id"]:
        return "id does not match the NIP-01 serialisation"
    key = PublicKeyXOnly(bytes.fromhex(e["pubkey"]))
    if not key.verify(bytes.fromhex(e["sig"]), bytes.fromhex(e["id"])):
        return "BIP-340 signature does not verify"
    return None


# --- checks -----------------------------------------------------------------


def check(args):
    with open(args.vectors) as f:
        doc = json.load(f)
    vectors = doc["vectors"]
    profiles = {p["id"]: p["deterministic"] for p in doc["profiles"]}
    with open(args.coverage) as f:
        coverage = json.load(f)
    with open(args.divergences) as f:
        pins = json.load(f).get(LANGUAGE, {})
    harness = codecs()
    drift = list_drift(profiles, coverage, pins, harness)
    for d in drift:
        print(f"fail: {d}")
    if drift:
        print(f"{len(drift)} disagreements between the registry, scripts/interop/*.json and this harness")
        return 1
    failures = 0
    bad_sig = [(v["name"], verify(v["event"])) for v in vectors]
    bad_sig = [(n, why) for n, why in bad_sig if why]
    for n, why in bad_sig:
        print(f"vector {n}: {why}")
    failures += len(bad_sig)
    print(f"coincurve: {len(vectors) - len(bad_sig)}/{len(vectors)} vectors: NIP-01 id and BIP-340 signature verify")

    rows = []
    for pid, deterministic in profiles.items():
        mine = [c for c in harness if c.profile == pid]
        for c in mine:
            row = check_codec(c, vectors, deterministic, pins.get(pid, {}).get(c.library, {}))
            failures += row["status"] == "fail"
            rows.append(row)
        if mine:
            continue
        entry = coverage["profiles"].get(pid, {}).get(LANGUAGE)
        status, reason = ("not-supported", entry["reason"]) if entry else ("not-covered", NOT_COVERED)
        if not entry:
            print(f"NOT COVERED: {pid}: {NOT_COVERED}", file=sys.stderr)
        rows.append(dict(profile=pid, library="-", version="-", vectors=0, decode_ok=0,
                         reencode="-", rust_decodes="-", status=status, reason=reason))
    cols = ["profile", "library", "version", "vectors", "decode_ok", "reencode", "rust_decodes", "status", "reason"]
    write_csv(args.out, cols, rows)
    print_table(rows, cols[:-1])
    for r in rows:
        if r["reason"] and r["status"] not in ("not-supported", "not-covered"):
            print(f"{r['profile']}/{r['library']}: {r['reason']}")
    print(f"{sum(r['status'] in ('ok', 'known-divergence') for r in rows)} passed, {failures} failed")
    return 1 if failures else 0


def list_drift(profiles, coverage, pins, harness):
    """Where coverage.json or divergences.json disagrees with the registry (the
    vectors' profiles) or with this harness's codecs."""
    drift = []
    if sorted(coverage.get("statuses", {})) != sorted(STATUSES):
        drift.append(f"coverage.json statuses {sorted(coverage.get('statuses', {}))} are not {sorted(STATUSES)}")
    have = {}
    for c in harness:
        have.setdefault(c.profile, {})[c.library] = c.version()
    for pid in coverage["profiles"]:
        if pid not in profiles:
            drift.append(f"coverage.json: {pid} is not an enabled registry profile (vectors file)")
    for pid in have:
        if pid not in profiles:
            drift.append(f"this harness has a codec for {pid}, which is not an enabled registry profile")
    for pid in profiles:
        entry = coverage["profiles"].get(pid, {}).get(LANGUAGE)
        listed = {}
        if isinstance(entry, list):
            listed = {e["library"]: e["version"] for e in entry}
        elif entry is not None and (entry.get("status") != "not-supported" or not entry.get("reason")):
            drift.append(f"coverage.json: {pid}: {LANGUAGE} must be a list of libraries or not-supported with a reason")
        for lib, version in listed.items():
            if lib not in have.get(pid, {}):
                drift.append(f"coverage.json: {pid}: {lib} has no codec in this harness")
            elif version != "runtime" and version != have[pid][lib]:
                drift.append(f"coverage.json: {pid}: {lib} is pinned at {version}, the harness runs {have[pid][lib]}")
        for lib in have.get(pid, {}):
            if lib not in listed:
                drift.append(f"{pid}: this harness has a codec ({lib}) that coverage.json does not list")
    for pid, libs in pins.items():
        if pid not in profiles:
            drift.append(f"divergences.json: {pid} is not an enabled registry profile")
        for lib in libs:
            if pid in profiles and lib not in have.get(pid, {}):
                drift.append(f"divergences.json: {pid}: {lib} is no codec of this harness")
    return drift


def check_codec(c, vectors, deterministic, pins):
    """One codec over the vectors. A problem is (vector, check, message); it is
    pinned by divergences.json's `vector:NAME` or by its check's key."""
    row = dict(profile=c.profile, library=c.library, version=c.version(), vectors=0,
               decode_ok=0, reencode="", rust_decodes="", status="ok", reason="")
    problems, identical, equal, encoded, expected = [], 0, 0, [], []
    for v in vectors:
        hexed = v["encodings"].get(c.profile)
        if hexed is None:
            continue
        row["vectors"] += 1
        name, want = v["name"], v["event"]
        try:
            got = c.decode(bytes.fromhex(hexed))
        except Exception as e:  # noqa: BLE001 - any library error is a finding
            problems.append((name, "decode", f"{name}: decode: {type(e).__name__}: {e}"))
            continue
        if got != want:
            problems.append((name, "decode", f"{name}: decoded event differs"))
            continue
        row["decode_ok"] += 1
        try:
            mine = c.encode(want)
        except Exception as e:  # noqa: BLE001
            problems.append((name, "encode", f"{name}: encode: {type(e).__name__}: {e}"))
            continue
        if mine == bytes.fromhex(hexed):
            identical += 1
        else:
            try:
                if c.decode(mine) == want:
                    equal += 1
                else:
                    problems.append((name, "reencode", f"{name}: re-encoded bytes decode to another event"))
            except Exception as e:  # noqa: BLE001
                problems.append((name, "reencode", f"{name}: re-encoded bytes do not decode: {e}"))
            if c.canonical and deterministic:
                problems.append((name, "reencode", f"{name}: re-encoded bytes differ"))
        encoded.append(mine)
        expected.append(v["json"])
    n = row["vectors"]
    row["reencode"] = f"{identical}/{n} identical" + (f", {equal} equal event" if equal else "")
    notes = ["no canonical form (module docs): bytes differ, event equal"] if equal and not c.canonical else []
    if encoded:
        with tempfile.NamedTemporaryFile(suffix=".frames", delete=False) as f:
            f.write(frame(encoded))
        try:
            r = binostr("decode", "--profile", c.profile, f.name)
        finally:
            os.unlink(f.name)
        lines = r.stdout.decode("utf-8", "replace").split("\n")
        good = sum(a == b for a, b in zip(lines, expected))
        row["rust_decodes"] = f"{good}/{len(encoded)}"
        if r.returncode != 0 or good != len(encoded):
            stderr = r.stderr.decode("utf-8", "replace").replace(f"{f.name}: ", "").strip()
            problems.append((None, "rust", "rust: " + (stderr or "JSONL differs")))
    if n == 0:
        problems.append((None, None, "no vectors for this profile"))
    unexpected, used = [], []
    for name, what, message in problems:
        key = f"vector:{name}" if f"vector:{name}" in pins else what
        if key not in pins:
            unexpected.append(message)
        elif key not in used:
            used.append(key)
    stale = [k for k in pins if k not in used]
    row["status"] = "fail" if unexpected or stale else "known-divergence" if used else "ok"
    more = [f"(+{len(unexpected) - 3} more)"] if len(unexpected) > 3 else []
    row["reason"] = "; ".join(
        notes
        + unexpected[:3]
        + more
        + [f"pinned divergence no longer happens ({k}); update scripts/interop/divergences.json" for k in stale]
        + [f"{k[len('vector:'):]}: {pins[k]}" if k.startswith("vector:") else pins[k] for k in used]
    )
    return row


# --- timing -----------------------------------------------------------------


def wrong_decode(decode, records, events):
    """Why `decode` does not turn `records` into the corpus `events`, or None:
    a timing of a wrong decoder means nothing (the JS, Go and Kotlin
    harnesses compare likewise before timing)."""
    if len(records) != len(events):
        return f"{len(records)} records for {len(events)} corpus events"
    for i, (rec, want) in enumerate(zip(records, events)):
        try:
            got = decode(rec)
        except Exception as e:  # noqa: BLE001 - any library error is a finding
            return f"record {i}: decode: {type(e).__name__}: {e}"
        if got != want:
            return f"record {i} decodes to another event than the corpus's"
    return None


def self_test(args):
    """wrong_decode on injected faults: each must be caught."""
    events = [{"id": "00" * 32, "pubkey": "11" * 32, "created_at": i, "kind": 1,
               "tags": [["t", "x"]], "content": "é", "sig": "22" * 64} for i in range(3)]
    records = [json.dumps(e).encode() for e in events]

    def dropped_tag(b):
        e = json.loads(b)
        e["tags"] = e["tags"][1:] if e["created_at"] == 2 else e["tags"]
        return e

    def raises(b):
        raise ValueError("bad")

    assert wrong_decode(json.loads, records, events) is None, "a right decode must pass"
    faults = {"a dropped tag": (dropped_tag, records), "a decode error": (raises, records),
              "a missing record": (json.loads, records[:2])}
    for name, (decode, recs) in faults.items():
        why = wrong_decode(decode, recs, events)
        if why is None:
            print(f"self-test: {name} was not caught")
            return 1
        print(f"self-test: {name} caught: {why}")
    return 0


def timing(args):
    reps = 3 if args.quick else args.reps
    rows, streams = [], {}
    with open(args.selection) as f:
        corpus = [json.loads(line) for line in f if line.strip()]
    for c in codecs():
        if c.profile not in streams:
            with tempfile.NamedTemporaryFile(suffix=".frames", delete=False) as f:
                path = f.name
            r = binostr("encode", "--profile", c.profile, "-o", path, args.selection)
            if r.returncode != 0:
                print(f"{c.profile}: binostr encode failed: {r.stderr.decode().strip()}")
                return 1
            with open(path, "rb") as f:
                streams[c.profile] = unframe(f.read())
            os.unlink(path)
        stream = streams[c.profile]
        n = 500 if args.quick else len(stream)
        records = stream[:n]
        # Every timed record against its corpus event; the native objects are
        # what c.decode converts, so this covers both runs.
        why = (f"{len(stream)} records for {len(corpus)} corpus events" if len(stream) != len(corpus)
               else wrong_decode(c.decode, records, corpus[:n]))
        if why:
            print(f"{c.profile} [{c.library}]: {why}: not timed")
            return 1
        runs = [(c.library, c.decode)]
        if hasattr(c, "native"):  # the dag-cbor-benchmark shootout: library objects only
            runs.append((f"{c.library} (native objects)", c.native))
        for library, decode in runs:
            for rec in records[:50]:
                decode(rec)  # warm up
            samples = []
            for _ in range(reps):
                t0 = time.perf_counter_ns()
                for rec in records:
                    decode(rec)
                samples.append((time.perf_counter_ns() - t0) / len(records))
            ns = statistics.median(samples)
            rows.append(dict(language="python", format=c.profile, library=library,
                             version=c.version(), ns_per_event=round(ns), events=len(records)))
            print(f"{c.profile:<15} {library:<34} {ns / 1000:10.2f} us/event ({len(records)} events, median of {reps})", flush=True)
    write_csv(args.out, ["language", "format", "library", "version", "ns_per_event", "events"], rows)
    return 0


# --- torture ----------------------------------------------------------------

OUTCOMES = ["error", "accepted", "recursion", "oom", "crash", "hang"]
ISOLATED = {"length-bomb", "nesting-bomb"}


def torture_child(args):
    """Decodes cases [start, end) of one .frames file, one line per case."""
    resource.setrlimit(resource.RLIMIT_AS, (args.mem_mib << 20, args.mem_mib << 20))
    sys.setrecursionlimit(10_000)
    c = next(c for c in codecs() if c.profile == args.profile and c.library == args.library)
    with open(args.file, "rb") as f:
        cases = unframe(f.read())
    for i in range(args.start, min(args.end, len(cases))):
        try:
            c.decode(cases[i])
            outcome = "accepted"
        except RecursionError:
            outcome = "recursion"
        except MemoryError:
            outcome = "oom"
        except Exception:  # noqa: BLE001 - any exception is a clean error
            outcome = "error"
        print(i, outcome, flush=True)
    return 0


def run_cases(c, path, n, timeout, mem_mib, isolated):
    """Outcome counts; a dead or silent child charges the case it was on."""
    counts = dict.fromkeys(OUTCOMES, 0)
    examples = []
    start = 0
    while start < n:
        end = start + 1 if isolated else n
        p = subprocess.Popen(
            [sys.executable, __file__, "torture-child", "--profile", c.profile, "--library",
             c.library, "--file", path, "--start", str(start), "--end", str(end),
             "--mem-mib", str(mem_mib)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )
        nxt, buf = start, b""
        deadline = time.monotonic() + timeout + 5  # interpreter start-up
        while True:
            ready, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                p.kill()
                p.wait()
                counts["hang"] += 1
                examples.append(f"hang at case {nxt}")
                nxt += 1
                break
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                p.wait()
                if nxt < end:
                    counts["crash"] += 1
                    examples.append(f"case {nxt}: exit {p.returncode}")
                    nxt += 1
                break
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                i, outcome = line.decode().split()
                counts[outcome] += 1
                nxt = int(i) + 1
            deadline = time.monotonic() + timeout
        p.stdout.close()
        start = nxt
    return counts, examples


def torture(args):
    cases_dir = args.cases
    if not os.path.exists(os.path.join(cases_dir, "manifest.json")):
        r = binostr("torture", "generate", "--mutations", "0", cases_dir)
        if r.returncode != 0:
            print(r.stderr.decode())
            return 1
    rows = []
    for c in codecs():
        pdir = os.path.join(cases_dir, c.profile)
        for name in sorted(os.listdir(pdir)):
            if not name.endswith(".frames"):
                continue
            cls = name[: -len(".frames")]
            path = os.path.join(pdir, name)
            with open(path, "rb") as f:
                n = len(unframe(f.read()))
            if args.quick:  # CI: a prefix of every class, few one-process-per-case bombs
                n = min(n, 4 if cls in ISOLATED else 200)
            t0 = time.monotonic()
            counts, examples = run_cases(c, path, n, args.timeout, args.mem_mib, cls in ISOLATED)
            rows.append(dict(library=c.library, version=c.version(), profile=c.profile, case_class=cls,
                             cases=n, **counts, examples="; ".join(examples[:3])))
            print(f"{c.library:<24} {c.profile:<15} {cls:<17} {n:>6} cases "
                  + " ".join(f"{k}={v}" for k, v in counts.items() if v)
                  + f"  ({time.monotonic() - t0:.1f}s)", flush=True)
    write_csv(args.out, ["library", "version", "profile", "case_class", "cases", *OUTCOMES, "examples"], rows)
    bad = [r for r in rows if r["crash"] or r["hang"]]
    print(f"{len(bad)} of {len(rows)} (library, class) rows with a crash or hang (findings, not harness failures)")
    return 0


# --- helpers ----------------------------------------------------------------


def write_csv(path, cols, rows):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {path}")


def print_table(rows, cols):
    widths = [max(len(c), *(len(str(r[c])) for r in rows)) for c in cols]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for r in rows:
        print("  ".join(str(r[c]).ljust(w) for c, w in zip(cols, widths)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--vectors", default=os.path.join(ROOT, "vectors", "interop-v1.json"))
    c.add_argument("--out", default=os.path.join(RESULTS, "checks-python.csv"))
    c.add_argument("--coverage", default=os.path.join(LISTS, "coverage.json"))
    c.add_argument("--divergences", default=os.path.join(LISTS, "divergences.json"))
    t = sub.add_parser("timing")
    t.add_argument("--selection", default=os.path.join(ROOT, "results", "corpus", "default", "selection.jsonl"))
    t.add_argument("--out", default=os.path.join(RESULTS, "python.csv"))
    t.add_argument("--reps", type=int, default=5)
    t.add_argument("--quick", action="store_true")
    x = sub.add_parser("torture")
    x.add_argument("--cases", default=os.path.join(tempfile.gettempdir(), "binostr-interop-torture"))
    x.add_argument("--out", default=os.path.join(RESULTS, "torture-python.csv"))
    x.add_argument("--timeout", type=float, default=10.0)
    x.add_argument("--mem-mib", type=int, default=1024)
    x.add_argument("--quick", action="store_true")
    k = sub.add_parser("torture-child")
    for a in ("--profile", "--library", "--file"):
        k.add_argument(a, required=True)
    k.add_argument("--start", type=int, default=0)
    k.add_argument("--end", type=int, default=1 << 62)
    k.add_argument("--mem-mib", type=int, default=1024)
    sub.add_parser("self-test")
    args = ap.parse_args()
    return {"check": check, "timing": timing, "torture": torture, "torture-child": torture_child,
            "self-test": self_test}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
