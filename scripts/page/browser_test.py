#!/usr/bin/env python3
"""Opens a campaign's results page in headless Chromium, as a new reader would.

Loads results/campaigns/LABEL/site/index.html from file:// with every
network request refused, through chromedriver's W3C WebDriver protocol
(Python's standard library only; Debian's chromium and chromium-driver),
and checks that:
  - the page loads nothing (Content-Security-Policy, no resource entries);
  - its embedded data are the campaign's records (summary.csv, sizes.csv
    with the derived "other kinds" stratum where the campaign has no
    subset for them, transport.csv's socket bytes), its strata and default
    shares are the campaign's traffic mix (campaign.json, or the published
    BigBrotr mix for older campaigns), and its tied groups are those of
    summary.md's Claims;
  - the tables hold every enabled profile of the registry the campaign
    measured (its registry.json, whose enabled profiles must be those of
    run-1/sizes.csv) and every summary row of each workload;
  - sorting by a column changes the order to that column's order;
  - the cost model's embedded data are links.csv's candidates and terms
    (of the profiles summary/scorecard.csv gates in),
    its parameters those summary/cost.csv states; the page's answers per
    role equal summary/cost.csv at the defaults (as that file rounds them)
    and cost_reference.py's recomputation at the defaults, at 3 random
    parameter sets drawn within the ranges (seeded) and at one set where a
    role's pick differs from the defaults';
  - the calculator shows, for the default mix, a changed one (the other
    kinds' share too), every relay mode and every compression the campaign
    measured (permessage-deflate per kind and on the socket, with and
    without context takeover; zstd), the numbers and colours
    calc_reference.py recomputes from the records, and never colours apart
    two profiles the Claims call tied;
then saves a screenshot.

Usage: scripts/page/browser_test.py [--root DIR] [--page HTML] [--screenshot PNG] LABEL
(--page: test that file instead of the committed site/index.html)
"""

from __future__ import annotations

import argparse
import base64
import csv
import json
import math
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import calc_reference as ref  # noqa: E402
import cost_reference as cref  # noqa: E402

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
# Tables whose rows must be exactly the enabled registry profiles.
EVERY_PROFILE = ["t-encode", "t-decode", "t-decode-id", "t-validate", "t-stream", "t-compress",
                 "t-sizes", "calc"]
OUTPUTS = ["bytes_per_event", "wire_bytes_per_second", "compressed_bytes_per_second",
           "cost_per_month", "compressed_cost_per_month", "bytes_saved", "compressed_bytes_saved",
           "cores", "cpu_saved", "zstd_cores"]
SIZE_COLUMNS = ["events", "raw", "framed", "zstd_event", "zstd_stream", "zstd_dict", "deflate_event",
                "deflate_stream"]
REL = 1e-9


def fail(msg: str) -> None:
    raise SystemExit(f"browser-test: FAIL: {msg}")


class WebDriver:
    """The few W3C WebDriver commands the test needs."""

    def __init__(self, port: int):
        self.base = f"http://127.0.0.1:{port}"
        self.sid = None

    def call(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            fail(f"WebDriver {method} {path}: {e.code} {e.read()[:500]!r}")

    def session(self, binary: str, args: list[str]):
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": binary, "args": args}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def s(self, path: str) -> str:
        return f"/session/{self.sid}{path}"

    def js(self, script: str, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": script, "args": list(args)})

    def find(self, css: str) -> str:
        return self.call("POST", self.s("/element"), {"using": "css selector", "value": css})[ELEMENT]

    def click(self, css: str) -> None:
        self.call("POST", self.s(f"/element/{self.find(css)}/click"), {})

    def type(self, css: str, text: str) -> None:
        e = self.find(css)
        self.call("POST", self.s(f"/element/{e}/clear"), {})
        self.call("POST", self.s(f"/element/{e}/value"), {"text": text})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return math.isclose(a, b, rel_tol=REL, abs_tol=1e-12)


def check_static(html: str, rec: ref.Records) -> dict:
    if 'http-equiv="Content-Security-Policy"' not in html or "default-src 'none'" not in html:
        fail("no Content-Security-Policy forbidding network requests")
    for pat in (r'\bsrc="(?!data:)', r"url\((?!data:)", r"@import", r'<link\b'):
        m = re.search(pat, html)
        if m:
            fail(f"the page references an external resource near byte {m.start()}: {html[m.start():m.start() + 80]!r}")
    m = re.search(r'<script type="application/json" id="binostr-data">(.*?)</script>', html, re.S)
    if not m:
        fail("no embedded data (script#binostr-data)")
    data = json.loads(m.group(1))
    # Every number the calculator uses is a record.
    checked = 0
    for p, subsets in data["data"].items():
        for s, cell in subsets.items():
            for wl, v in cell.items():
                if wl == "sizes":
                    want = rec.sizes[(p, s)]
                    for col in SIZE_COLUMNS:
                        key = col if col == "events" else col + "_bytes"
                        if v[col] != want.get(key):
                            fail(f"embedded {p} {s} sizes {col} {v[col]} != sizes.csv {want.get(key)}")
                else:
                    if tuple(v["ns"]) != rec.ns(wl, p, s):
                        fail(f"embedded {p} {s} {wl} ns {v['ns']} != summary.csv {rec.ns(wl, p, s)}")
                    if "ratio" in v and tuple(v["ratio"]) != rec.ratio(wl, p, s):
                        fail(f"embedded {p} {s} {wl} ratio {v['ratio']} != summary.csv")
                checked += 1
    for p in rec.profiles:
        if any(k in rec.sizes for k in [(p, s) for s, _ in rec.strata]) and p not in data["data"]:
            fail(f"{p} has sizes but no embedded data")
        for s, _ in rec.strata:
            if (p, s) in rec.sizes and "sizes" not in data["data"][p].get(s, {}):
                fail(f"embedded {p} {s}: no sizes, sizes.csv has them")
    socket = data["transport"]["bytes"]
    for (p, mode), v in rec.socket.items():
        if p in data["profiles"] and socket[p][mode] != v:
            fail(f"embedded socket bytes {p} {mode} {socket[p][mode]} != transport.csv {v}")
        checked += 1
    got = [(k["subset"], k["share"]) for k in data["strata"]]
    if got != rec.strata:
        fail(f"strata and default shares {got} are not the campaign's mix {rec.strata}")
    mix = "campaign.json" if rec.mix_stated else "the published BigBrotr mix (campaign.json predates it)"
    for mode, workloads in ref.MODES.items():
        want = sorted(sorted(g) for wl in workloads for g in rec.ties.get(wl, []))
        if sorted(sorted(g) for g in data["ties"][mode]) != want:
            fail(f"tied groups of {mode}: page {data['ties'][mode]}, summary.md {want}")
    print(f"browser-test: static: CSP present, no external reference, {checked} embedded records "
          f"equal summary.csv/sizes.csv/transport.csv, strata and shares = {mix} {rec.strata}, "
          f"tied groups = summary.md's Claims")
    return data


def enabled_profiles(root: Path, label: str) -> list[str]:
    """The enabled profiles of the campaign's registry.json, less those its
    campaign.json measured apart (each with its run-1/apart-ID/), checked
    against the profiles its first run measured."""
    camp = root / "results/campaigns" / label
    reg = json.loads((camp / "registry.json").read_text())
    corpus = json.loads((camp / "campaign.json").read_text()).get("corpus", {})
    apart = [a["profile"] for a in corpus.get("apart", [])]
    for p in apart:
        if not (camp / f"run-1/apart-{p}/sizes.csv").exists():
            fail(f"{camp}: {p} is measured apart but run-1/apart-{p}/sizes.csv is missing")
    enabled = [p["id"] for p in reg if p["enabled"] and p["id"] not in apart]
    with open(camp / "run-1/sizes.csv", newline="") as f:
        measured = {row["profile"] for row in csv.DictReader(f)}
    if set(enabled) != measured:
        fail(f"{camp}/registry.json enables {sorted(enabled)}, run-1/sizes.csv measured {sorted(measured)}")
    return enabled


def calc_values(d: WebDriver) -> dict[str, dict]:
    rows = d.js("""return Array.from(document.querySelectorAll('#calc tbody tr')).map(tr => {
        const v = Array.from(tr.cells).slice(1).map(td => td.dataset.value === '' ? null :
            (td.dataset.lo !== undefined ? [Number(td.dataset.value), Number(td.dataset.lo), Number(td.dataset.hi)]
                                          : Number(td.dataset.value)));
        const cpu = tr.cells[9];
        const verdict = ['good', 'bad', 'tie'].find(c => cpu.classList.contains(c)) || null;
        return [tr.dataset.profile, v, verdict]; });""")
    out = {}
    for p, v, verdict in rows:
        out[p] = dict(zip(OUTPUTS, v))
        out[p]["cpu_verdict"] = verdict
    return out


def set_compression(d: WebDriver, value: str) -> None:
    d.js("const s = document.getElementById('compression'); s.value = arguments[0]; "
         "s.dispatchEvent(new Event('change', {bubbles: true}));", value)
    if d.js("return document.getElementById('compression').value") != value:
        fail(f"the compression {value} cannot be chosen")


def check_ties(page: dict, rec: ref.Records, mode: str, what: str) -> int:
    """No two profiles the Claims call tied carry different colours."""
    n = 0
    for wl in ref.MODES[mode]:
        for g in rec.ties.get(wl, []):
            colours = {page[p]["cpu_verdict"] for p in g if p in page and page[p]["cpu_verdict"]}
            if len(colours) > 1:
                fail(f"{what}: {g}, tied for {wl} in the Claims, are coloured {colours}")
            n += 1
    return n


def compare(page: dict, want: dict, what: str) -> int:
    n = 0
    for p, cols in want.items():
        for k in OUTPUTS:
            w = cols[k]
            if k in ("wire_bytes_per_second", "compressed_bytes_per_second"):
                w = None if w is None else w / 1e6
            if not close(page[p][k], w):
                fail(f"{what}: {p} {k} shows {page[p][k]}, recomputed {w}")
            n += 1
        if page[p]["cpu_verdict"] != cols["cpu_verdict"]:
            fail(f"{what}: {p} CPU saved is coloured {page[p]['cpu_verdict']}, recomputed {cols['cpu_verdict']}")
    return n


COST_SEED = 45
# The page's cost table, after the role's header: which answer each cell holds.
COST_CELLS = ["unit", "verdict", "json", "json_seconds", "json_dollars", "binary", "binary_seconds",
              "binary_dollars", "saving_pct", "pick_other_unit", "break_even_mbit", "break_even_egress"]


def cost_static(html: str, cands: dict) -> dict | None:
    """The embedded model: the parameters, and links.csv's candidates of
    the gated profiles with their terms exactly; None when the page has no cost section."""
    m = re.search(r'<script type="application/json" id="binostr-cost">(.*?)</script>', html, re.S)
    if not m:
        return None
    model = json.loads(m.group(1))
    if [q["id"] for q in model["params"]] != cref.PARAMS:
        fail(f"cost parameters {[q['id'] for q in model['params']]} are not {cref.PARAMS}")
    for q in model["params"]:
        if not q["low"] <= q["default"] <= q["high"] or not q["source"]:
            fail(f"cost parameter {q['id']}: default {q['default']} outside [{q['low']}, {q['high']}] or no source")
    roles = {r["id"]: r for r in model["roles"]}
    for role, unit in cref.ROLES.items():
        if roles[role]["unit"] != unit:
            fail(f"cost: {role} is decided in {roles[role]['unit']}, the model says {unit}")
        got = {c["label"]: c for c in roles[role]["candidates"]}
        if sorted(got) != sorted(c["label"] for c in cands[role]):
            fail(f"cost: {role} candidates {sorted(got)} are not links.csv's {sorted(c['label'] for c in cands[role])}")
        for c in cands[role]:
            e = got[c["label"]]
            t = e["terms"]
            want = (c["link"], c["egress"], c["relay"], c["client"], c["is_json"])
            tr = lambda i: (i["est"], i["lo"], i["hi"])  # noqa: E731
            if (t["link_bytes"], t["egress_bytes"], tr(t["relay_cpu_ns"]), tr(t["client_cpu_ns"]),
                    e["is_json"]) != want:
                fail(f"cost: {role} {c['label']} embedded {t} {e['is_json']}, links.csv gives {want}")
    return model


def cost_page(d: WebDriver) -> dict:
    rows = d.js("""return Array.from(document.querySelectorAll('#cost-table tbody tr')).map(tr =>
        [tr.dataset.role, Array.from(tr.cells).slice(1).map(td => td.dataset.value)]);""")
    out = {}
    for role, cells in rows:
        if len(cells) != len(COST_CELLS):
            fail(f"cost table: {role} has {len(cells)} answer cells, want {len(COST_CELLS)}")
        v = dict(zip(COST_CELLS, cells))
        for k in COST_CELLS:
            if k in ("json_seconds", "json_dollars", "binary_seconds", "binary_dollars", "saving_pct",
                     "break_even_mbit", "break_even_egress"):
                v[k] = None if v[k] == "" else float(v[k])
        v["switch"] = v["verdict"] == "switch"
        v["pick"] = v["binary"] if v["switch"] else v["json"]
        out[role] = v
    return out


def set_cost(d: WebDriver, p: dict) -> dict:
    for k, v in p.items():
        d.type(f"#cost-{k}", repr(float(v)))
    return cost_page(d)


def cost_compare(page: dict, want: dict, what: str) -> int:
    n = 0
    if sorted(page) != sorted(want):
        fail(f"cost, {what}: the page answers for {sorted(page)}, the recomputation for {sorted(want)}")
    for role, w in want.items():
        g = page[role]
        pairs = [("unit", g["unit"], w["unit"]), ("json", g["json"], w["json"]["label"]),
                 ("binary", g["binary"], w["binary"]["label"]), ("switch", g["switch"], w["switch"]),
                 ("pick", g["pick"], w["pick"]), ("pick_other_unit", g["pick_other_unit"], w["pick_other_unit"])]
        for k in ("json", "binary"):
            for u in cref.UNITS:
                pairs.append((f"{k}_{u}", g[f"{k}_{u}"], w[k][u]))
        for k in ("saving_pct", "break_even_mbit", "break_even_egress"):
            pairs.append((k, g[k], w[k]))
        for k, got, exp in pairs:
            same = close(got, exp) if isinstance(exp, float) or exp is None else got == exp
            if not same:
                fail(f"cost, {what}: {role} {k} shows {got!r}, recomputed {exp!r}")
            n += 1
    return n


def cost_csv_compare(page: dict, path: Path, defaults: dict) -> int:
    """The page at the defaults against summary/cost.csv, rounded as it is."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        fail(f"{path} has no rows, the page has a cost section")
    n = 0
    for r in rows:
        for k in ("link_mbit", "egress_usd_per_gb", "cpu_usd_per_core_hour", "switch_pct"):
            if float(r[k]) != defaults[k]:
                fail(f"{path}: {r['role']} {k} {r[k]}, the page's default {defaults[k]}")
        g = page.get(r["role"])
        if g is None:
            fail(f"the page has no cost answer for {r['role']} ({path} has)")
        def fixed(x, dec):
            """As the report writes a number: fixed decimals, no negative zero."""
            if x is None:
                return ""
            t = f"{x:.{dec}f}"
            return t[1:] if t.startswith("-") and set(t[1:]) <= set("0.") else t
        pairs = [("unit", g["unit"], r["unit"]), ("json_candidate", g["json"], r["json_candidate"]),
                 ("json_s_per_million", fixed(g["json_seconds"], 3), r["json_s_per_million"]),
                 ("json_usd_per_million", fixed(g["json_dollars"], 6), r["json_usd_per_million"]),
                 ("binary_candidate", g["binary"], r["binary_candidate"]),
                 ("binary_s_per_million", fixed(g["binary_seconds"], 3), r["binary_s_per_million"]),
                 ("binary_usd_per_million", fixed(g["binary_dollars"], 6), r["binary_usd_per_million"]),
                 ("saving_pct", fixed(g["saving_pct"], 2), r["saving_pct"]),
                 ("switch", "yes" if g["switch"] else "no", r["switch"]), ("pick", g["pick"], r["pick"]),
                 ("pick_other_unit", g["pick_other_unit"], r["pick_other_unit"]),
                 ("break_even_mbit", fixed(g["break_even_mbit"], 1), r["break_even_mbit"]),
                 ("break_even_egress_usd_per_gb", fixed(g["break_even_egress"], 6),
                  r["break_even_egress_usd_per_gb"])]
        for k, got, want in pairs:
            if got != want:
                fail(f"cost at the defaults: {r['role']} {k} shows {got!r}, {path.name} has {want!r}")
            n += 1
    return n


def check_cost(d: WebDriver, model: dict, cands: dict, csv_path: Path) -> None:
    defaults = {q["id"]: q["default"] for q in model["params"]}
    page = cost_page(d)
    n = cost_csv_compare(page, csv_path, defaults)
    n += cost_compare(page, cref.answers(cands, defaults), "defaults")
    rng = random.Random(COST_SEED)
    draws = [{q["id"]: rng.uniform(q["low"], q["high"]) for q in model["params"]} for _ in range(3)]
    for i, p in enumerate(draws):
        n += cost_compare(set_cost(d, p), cref.answers(cands, p), f"random set {i + 1} {p}")
    # A set where a role's pick is not the defaults': the range's corners first.
    base = cref.answers(cands, defaults)
    # The switch's low bound, which the page does not show, against cost.csv.
    with csv_path.open(newline="") as f:
        for r in csv.DictReader(f):
            low = f"{base[r['role']]['saving_pct_low']:.2f}"
            if r["saving_pct_low"] != low:
                fail(f"cost at the defaults: {r['role']} saving_pct_low {r['saving_pct_low']}, recomputed {low}")
            n += 1
    corners = [dict(defaults, **{q["id"]: q[end]}) for q in model["params"] for end in ("low", "high")]
    more = [{q["id"]: rng.uniform(q["low"], q["high"]) for q in model["params"]} for _ in range(200)]
    flip = next((p for p in corners + more
                 if any(a["pick"] != base[r]["pick"] for r, a in cref.answers(cands, p).items())), None)
    if flip is None:
        fail("cost: no parameter set within the ranges changes a pick; the flip is not exercised")
    now = cref.answers(cands, flip)
    n += cost_compare(set_cost(d, flip), now, f"flip {flip}")
    flipped = [f"{r} {base[r]['pick']} -> {a['pick']}" for r, a in now.items() if a["pick"] != base[r]["pick"]]
    d.click("#cost-reset")
    n += cost_csv_compare(cost_page(d), csv_path, defaults)
    # The CI rule: cost.js on the page's model with every CPU interval
    # widened to overlap counts no CPU term, as the recomputation does.
    # At the first parameter set (the defaults, the corners, the draws)
    # where a CPU term counts, so that widening changes a saving.
    wide = {r: [dict(c, relay=(c["relay"][0], 0.0, 1e15), client=(c["client"][0], 0.0, 1e15)) for c in cs]
            for r, cs in cands.items()}
    def widening_matters(p: dict) -> bool:
        narrow, widened = cref.answers(cands, p), cref.answers(wide, p)
        return any(not close(widened[r]["saving_pct"], narrow[r]["saving_pct"]) for r in widened)
    ci_set = next((p for p in [defaults] + corners + more if widening_matters(p)), None)
    if ci_set is None:
        fail("cost: overlapping CPU intervals change no saving at any set tried; the CI rule is not exercised")
    want = cref.answers(wide, ci_set)
    got = d.js("""const m = JSON.parse(document.getElementById('binostr-cost').textContent);
        for (const r of m.roles) for (const c of r.candidates)
            for (const k of ['relay_cpu_ns', 'client_cpu_ns']) { c.terms[k].lo = 0; c.terms[k].hi = 1e15; }
        return BinostrCost.evaluate(m, arguments[0]).roles.map(r => [r.id, r.saving.pct, r.switch]);""", ci_set)
    for role, pct, switch in got:
        if not close(pct, want[role]["saving_pct"]) or switch != want[role]["switch"]:
            fail(f"cost, CPU intervals overlapping at {ci_set}: {role} saves {pct} % (switch {switch}), "
                 f"recomputed {want[role]['saving_pct']} % (switch {want[role]['switch']})")
        n += 2
    print(f"browser-test: cost model: {n} answers equal summary/cost.csv at the defaults (twice, the second "
          f"after the reset) and cost_reference.py at the defaults, 3 random sets (seed {COST_SEED}) and "
          f"a flip ({'; '.join(flipped)}), and with every CPU interval overlapping (at {ci_set}); defaults: " +
          "; ".join(f"{r} {a['pick']} ({a['saving_pct']:.2f} % saved)" for r, a in base.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", type=Path)
    ap.add_argument("--screenshot", type=Path, help="where to save a PNG of the page's top")
    ap.add_argument("--page", type=Path, help="the page to test (default: the committed one)")
    ap.add_argument("--chromium", default="/usr/lib/chromium/chromium"
                    if Path("/usr/lib/chromium/chromium").exists() else shutil.which("chromium"))
    ap.add_argument("--chromedriver", default=shutil.which("chromedriver"))
    ap.add_argument("label")
    a = ap.parse_args()
    start = time.monotonic()
    root = a.root.resolve()
    page = (a.page.resolve() if a.page else root / "results/campaigns" / a.label / "site/index.html")
    if not page.exists():
        fail(f"{page} is missing: run `just page {a.label}`")
    if not a.chromium or not a.chromedriver:
        fail("chromium and chromedriver are needed (Debian: apt-get install chromium chromium-driver)")
    rec = ref.Records(root, a.label)
    html = page.read_text()
    data = check_static(html, rec)
    cost_cands = cref.candidates(root, a.label)
    cost_model = cost_static(html, cost_cands)
    enabled = enabled_profiles(root, a.label)

    port = free_port()
    profile_dir = tempfile.mkdtemp(prefix="binostr-chromium-")
    driver = subprocess.Popen([a.chromedriver, f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        d = WebDriver(port)
        for _ in range(100):
            try:
                if d.call("GET", "/status").get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError, AttributeError):
                pass
            time.sleep(0.1)
        d.session(a.chromium, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            f"--user-data-dir={profile_dir}", "--window-size=1400,1900",
            # No network: a dead proxy for every scheme and no name resolution.
            "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--no-first-run",
        ])
        d.call("POST", d.s("/url"), {"url": page.as_uri()})
        for _ in range(100):
            if d.js("return document.body.dataset.ready") == "yes":
                break
            time.sleep(0.1)
        else:
            fail("the page's script never finished (body[data-ready])")
        resources = d.js("return performance.getEntriesByType('resource').map(e => e.name)")
        external = [r for r in resources if not r.startswith("data:")]
        if external:
            fail(f"the page loaded {external}")

        # Tables hold every enabled profile, and every summary row of their workload.
        for table in EVERY_PROFILE:
            got = d.js(f"return Array.from(new Set(Array.from(document.querySelectorAll('#{table} tbody tr')).map(r => r.dataset.profile)))")
            if sorted(got) != sorted(enabled):
                fail(f"table {table} holds {sorted(got)}, enabled profiles are {sorted(enabled)}")
        with (root / "results/campaigns" / a.label / "summary/summary.csv").open(newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["host"] == rec.host and r["profile"] != "reference"]
        workloads = sorted({r["workload"] for r in rows})
        for wl in workloads:
            want = sorted((r["profile"], r["subset"], r["threads"]) for r in rows if r["workload"] == wl)
            tid = "t-" + wl.replace("+", "-")
            got = d.js(f"""return Array.from(document.querySelectorAll('#{tid} tbody tr')).map(r =>
                [r.dataset.profile, r.dataset.subset]);""")
            if len(got) != len(want) or sorted(map(tuple, got)) != sorted((p, s) for p, s, _ in want):
                fail(f"table {tid}: {len(got)} rows, summary.csv has {len(want)}")
        print(f"browser-test: tables: {len(EVERY_PROFILE)} tables hold the {len(enabled)} enabled profiles; "
              f"{len(workloads)} workload tables hold every summary row")

        # Sorting by ns/event orders the visible rows by summary.csv's median_ns.
        visible = "return Array.from(document.querySelectorAll('#t-decode tbody tr')).filter(r => !r.hidden).map(r => r.dataset.profile)"
        before = d.js(visible)
        col = d.js("return Array.from(document.querySelectorAll('#t-decode thead th')).findIndex(th => th.textContent.startsWith('ns/event'))")
        d.click(f"#t-decode thead th:nth-child({col + 1}) button")
        after = d.js(visible)
        ns = {r["profile"]: float(r["median_ns"]) for r in rows if r["workload"] == "decode" and r["subset"] == "all"}
        if after == before or after != sorted(after, key=lambda p: ns[p]):
            fail(f"sorting decode by ns/event gave {after} (before {before})")
        d.click(f"#t-decode thead th:nth-child({col + 1}) button")
        if d.js(visible) != sorted(after, key=lambda p: -ns[p]):
            fail("a second click did not sort descending")
        print(f"browser-test: sorting: decode by ns/event ascending ({after[0]} first), then descending")

        # The calculator: the default mix, then changed ones, every mode and compression.
        defaults = data["defaults"]
        shares = rec.shares()
        base = dict(rate=defaults["events_per_second"], fanout=defaults["fanout"],
                    price=defaults["price_per_gb"])
        want = ref.compute(rec, shares, mode=defaults["mode"], compression=defaults["compression"], **base)
        default_page = calc_values(d)
        n = compare(default_page, want, "default mix")
        ties = check_ties(default_page, rec, defaults["mode"], "default mix")
        strata = [s for s, _ in rec.strata]
        mix = {k: float(10 * (i + 1)) for i, k in enumerate(strata)}
        for k, v in mix.items():
            d.type(f"#share-{k}", str(v))
        changed = calc_values(d)
        if changed == default_page and len(strata) > 1:
            fail("changing the mix changed nothing")
        n += compare(changed, ref.compute(rec, mix, mode=defaults["mode"],
                                          compression=defaults["compression"], **base), "changed mix")
        # The other kinds' share at 0 (at 5 where it is the only stratum).
        other = strata[-1]
        low = 0.0 if len(strata) > 1 else 5.0
        d.type(f"#share-{other}", str(low))
        mix[other] = low
        n += compare(calc_values(d), ref.compute(rec, mix, mode=defaults["mode"],
                                                 compression=defaults["compression"], **base),
                     f"{other} at {low}")
        d.type("#rate", "2000")
        d.type("#fanout", "3")
        base.update(rate=2000, fanout=3)
        available = [c["id"] for c in data["compressions"] if c["available"]]
        disabled = d.js("return Array.from(document.querySelectorAll('#compression option'))"
                        ".filter(o => o.disabled).map(o => o.value)")
        if sorted(disabled) != sorted(c["id"] for c in data["compressions"] if not c["available"]):
            fail(f"disabled compressions {disabled} are not those the campaign did not measure")
        for shares_now, label in ((mix, f"{other} at {low}"), (dict(mix, **{other: 25.0}), f"{other} at 25")):
            d.type(f"#share-{other}", str(shares_now[other]))
            for mode in ref.MODES:
                d.click(f"input[name=mode][value={mode}]")
                for comp in available:
                    set_compression(d, comp)
                    page_now = calc_values(d)
                    n += compare(page_now, ref.compute(rec, shares_now, mode=mode, compression=comp, **base),
                                 f"{label}, {mode}, {comp}")
                ties += check_ties(page_now, rec, mode, f"{label}, {mode}")
        # The tie rule where colours would differ: calculator.js on the page's
        # data with two profiles of different colours called tied for validate.
        shares_now = dict(mix, **{other: low})
        plain = ref.compute(rec, shares_now, mode="validate", compression=available[0], **base)
        raw = {p: None if r["cpu_saved"] is None else
               "good" if r["cpu_saved"][1] > 0 else "bad" if r["cpu_saved"][2] < 0 else "tie"
               for p, r in plain.items()}
        colours = sorted({v for v in raw.values() if v})
        if len(colours) < 2:
            print(f"browser-test: tie rule: not exercised, every profile's CPU saved is {colours}")
        else:
            pair = [next(p for p, v in raw.items() if v == c) for c in colours[:2]]
            rec.ties = dict(rec.ties, validate=rec.ties.get("validate", []) + [pair])
            got = dict(d.js("""const data = JSON.parse(document.getElementById('binostr-data').textContent);
                data.ties.validate = data.ties.validate.concat([arguments[0]]);
                return BinostrCalculator.compute(data, arguments[1]).rows.map(r => [r.profile, r.cpu_verdict]);""",
                            pair, dict(shares=shares_now, mode="validate", compression=available[0], **base)))
            want_tied = ref.compute(rec, shares_now, mode="validate", compression=available[0], **base)
            if any(got[p] != want_tied[p]["cpu_verdict"] for p in want_tied) or got[pair[0]] != "tie" \
                    or got[pair[1]] != "tie":
                fail(f"tie rule: {pair} called tied give {[got[p] for p in pair]}")
            rec.ties = ref.claims_ties(root / "results/campaigns" / a.label / "summary/summary.md")
            print(f"browser-test: tie rule: {pair[0]} ({colours[0]}) and {pair[1]} ({colours[1]}), "
                  "called tied, both grey")
        json_cores = want["json"]["cores"]
        print(f"browser-test: calculator: {n} values and colours equal the recomputation (rel. {REL}) "
              f"over {len(available)} compressions {available} and {len(ref.MODES)} modes; not measured: "
              f"{sorted(disabled)}; {ties} tied groups never coloured apart; default mix: json "
              f"{want['json']['wire_bytes_per_second'] / 1e6:.3f} MB/s, "
              f"{'not measured' if json_cores is None else f'{json_cores[0]:.4f}'} cores")

        if cost_model is None:
            if any(cost_cands.values()):
                fail("links.csv has candidates, the page has no cost section")
            print("browser-test: cost model: no links rows, no section")
        else:
            check_cost(d, cost_model, cost_cands, root / "results/campaigns" / a.label / "summary/cost.csv")

        if a.screenshot:
            d.click("#reset-mix")
            d.type("#rate", str(defaults["events_per_second"]))
            d.type("#fanout", str(defaults["fanout"]))
            d.click("input[name=mode][value=validate]")
            set_compression(d, defaults["compression"])
            d.js("window.scrollTo(0, 0); document.activeElement.blur();")
            if compare(calc_values(d), want, "restored defaults") == 0:
                fail("no calculator values")
            png = base64.b64decode(d.call("GET", d.s("/screenshot")))
            a.screenshot.parent.mkdir(parents=True, exist_ok=True)
            a.screenshot.write_bytes(png)
            print(f"browser-test: screenshot {a.screenshot} ({len(png)} bytes)")
        d.call("DELETE", d.s(""))
    finally:
        driver.terminate()
        driver.wait(timeout=10)
        shutil.rmtree(profile_dir, ignore_errors=True)
    print(f"browser-test: passed in {time.monotonic() - start:.1f} s ({page.stat().st_size} bytes, "
          f"{os.path.relpath(page, root)})")


if __name__ == "__main__":
    main()
