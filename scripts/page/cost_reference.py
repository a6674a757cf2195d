#!/usr/bin/env python3
"""Recomputes the results page's cost model from results/links/links.csv.

Independent of the page and of its script: it reads links.csv by column
name (unshaped rows measured without added round trip are the candidates),
the campaign's registry.json (which profiles are JSON text: json and the
nostr-baseline family) and its summary/scorecard.csv (which profiles pass
each role's gates), and applies the model as docs/RESULTS.md and
the page's "How the cost model computes" state it. browser_test.py
compares its answers with the page's and with summary/cost.csv.

Usage: scripts/page/cost_reference.py [--root DIR] LABEL link_mbit=X
       egress_usd_per_gb=X cpu_usd_per_core_hour=X decisive_pct=X switch_pct=X
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

BASELINE = "json"
PARAMS = ["link_mbit", "egress_usd_per_gb", "cpu_usd_per_core_hour", "decisive_pct", "switch_pct"]
# Each role and the unit its answer is decided in.
ROLES = {"relay-to-client": "dollars", "client-to-relay": "seconds"}
# The recommendation's id of each role (scorecard.csv's role column).
SCORECARD_ROLES = {"relay-client": "relay-to-client", "client-relay": "client-to-relay"}
UNITS = ["seconds", "dollars"]


def triple(row: dict, name: str) -> tuple[float, float, float]:
    """A median and its 95 % CI: NAME, NAME_lo, NAME_hi."""
    try:
        return float(row[name]), float(row[name + "_lo"]), float(row[name + "_hi"])
    except (KeyError, ValueError) as e:
        raise SystemExit(f"cost-reference: links.csv: {name} and its CI: {e}") from e


def gated(root: Path, label: str) -> dict[str, set[str]]:
    """Per role, the profiles that pass its gates (summary/scorecard.csv)."""
    path = root / "results/campaigns" / label / "summary/scorecard.csv"
    if not path.is_file():
        raise SystemExit(f"cost-reference: {path} is missing (run: just aggregate {label})")
    out: dict[str, set[str]] = {r: set() for r in ROLES}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            role = SCORECARD_ROLES.get(row["role"])
            if role is not None and row["gated"] == "true":
                out[role].add(row["profile"])
    return out


def candidates(root: Path, label: str) -> dict[str, list[dict]]:
    """Per role, every candidate whose profile passes the role's gates:
    label, is_json and its terms per event."""
    reg = json.loads((root / "results/campaigns" / label / "registry.json").read_text())
    json_text = {p["id"] for p in reg if p.get("family") == "nostr-baseline"} | {BASELINE}
    admitted = gated(root, label)
    out: dict[str, list[dict]] = {r: [] for r in ROLES}
    with (root / "results/links/links.csv").open(newline="") as f:
        for row in csv.DictReader(f):
            if row["rate_mbit"] != "" or float(row["rtt_ms"]) != 0.0 or int(row["events"]) <= 0:
                continue
            label_ = f"{row['profile']} {row['mode']}" + (f" ({row['deflate_impl']})" if row["deflate_impl"] else "")
            base = dict(label=label_, is_json=row["profile"] in json_text)
            s2c = int(row["s2c_bytes"]) / int(row["events"])
            if row["profile"] in admitted["relay-to-client"]:
                out["relay-to-client"].append(dict(base, link=s2c, egress=s2c,
                                                   relay=triple(row, "relay_cpu_ns_per_event"),
                                                   client=triple(row, "client_cpu_ns_per_event")))
            ok = float(row["ok_s2c_bytes"])
            if row["profile"] in admitted["client-to-relay"]:
                out["client-to-relay"].append(dict(base, link=float(row["event_c2s_bytes"]) + ok, egress=ok,
                                                   relay=triple(row, "event_relay_cpu_ns"),
                                                   client=triple(row, "event_client_cpu_ns")))
    return out


def terms(c: dict, unit: str, p: dict) -> list[tuple[float, float, float]]:
    """(value, lo, hi) per million events: bytes are exact, CPU carries its CI."""
    def scaled(x, k):
        return tuple(v * k for v in x)
    if unit == "seconds":
        t = c["link"] * 8.0 / (p["link_mbit"] * 1e6) * 1e6
        return [(t, t, t), scaled(c["relay"], 1e-3), scaled(c["client"], 1e-3)]
    e = c["egress"] * 1e6 / 1e9 * p["egress_usd_per_gb"]
    return [(e, e, e), scaled(c["relay"], 1e6 * 1e-9 / 3600.0 * p["cpu_usd_per_core_hour"])]


def total(c: dict, unit: str, p: dict) -> float:
    return sum(t[0] for t in terms(c, unit, p))


def saving_pct(json_terms, bin_terms, decisive_pct: float) -> tuple[float, float]:
    """The saving in % of JSON's total, and its least value within the
    counted terms' intervals (JSON's low minus the binary's high)."""
    whole = sum(t[0] for t in json_terms)
    saved = low = 0.0
    for (jv, jlo, jhi), (bv, blo, bhi) in zip(json_terms, bin_terms):
        d = jv - bv
        if (jhi < blo or bhi < jlo) and abs(d) * 100.0 >= decisive_pct * whole:
            saved += d
            low += jlo - bhi
    if whole <= 0:
        return 0.0, 0.0
    return saved / whole * 100.0, low / whole * 100.0


def break_even_mbit(j: dict, b: dict) -> float | None:
    bytes_ = j["link"] - b["link"]
    cpu = (b["relay"][0] + b["client"][0]) - (j["relay"][0] + j["client"][0])
    if bytes_ == 0 or cpu == 0:
        return None
    rate = bytes_ * 8.0 / (cpu * 1e-9) / 1e6
    return rate if rate > 0 else None


def break_even_egress(j: dict, b: dict, cpu_price: float) -> float | None:
    gb = (j["egress"] - b["egress"]) * 1e6 / 1e9
    if gb == 0:
        return None
    price = (b["relay"][0] - j["relay"][0]) * 1e6 * 1e-9 / 3600.0 * cpu_price / gb
    return price if price > 0 else None


def decide(cands: list[dict], unit: str, p: dict) -> dict | None:
    """The cheapest of each kind (total, then label), and whether to switch."""
    def cheapest(json_kind: bool):
        pool = [c for c in cands if c["is_json"] == json_kind]
        return min(pool, key=lambda c: (total(c, unit, p), c["label"])) if pool else None
    j, b = cheapest(True), cheapest(False)
    if j is None or b is None:
        return None
    pct, low = saving_pct(terms(j, unit, p), terms(b, unit, p), p["decisive_pct"])
    switch = low > p["switch_pct"]
    return dict(json=j, binary=b, saving_pct=pct, saving_pct_low=low, switch=switch,
                pick=(b if switch else j)["label"])


def answers(cands: dict[str, list[dict]], p: dict) -> dict[str, dict]:
    """Per role: both candidates' costs in both units, the saving, the
    pick in the role's unit and in the other one, the break-evens."""
    out = {}
    for role, unit in ROLES.items():
        a = decide(cands[role], unit, p)
        if a is None:
            continue
        other = decide(cands[role], next(u for u in UNITS if u != unit), p)
        both = {k: dict(label=a[k]["label"], seconds=total(a[k], "seconds", p),
                        dollars=total(a[k], "dollars", p)) for k in ("json", "binary")}
        out[role] = dict(unit=unit, **both, saving_pct=a["saving_pct"],
                         saving_pct_low=a["saving_pct_low"], switch=a["switch"], pick=a["pick"],
                         pick_other_unit=other["pick"],
                         break_even_mbit=break_even_mbit(a["json"], a["binary"]),
                         break_even_egress=break_even_egress(a["json"], a["binary"], p["cpu_usd_per_core_hour"]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", type=Path)
    ap.add_argument("label")
    ap.add_argument("params", nargs="+", help="NAME=VALUE for each of " + ", ".join(PARAMS))
    a = ap.parse_args()
    p = {}
    for kv in a.params:
        k, _, v = kv.partition("=")
        if k not in PARAMS:
            raise SystemExit(f"cost-reference: unknown parameter {k!r} (known: {', '.join(PARAMS)})")
        p[k] = float(v)
    missing = [k for k in PARAMS if k not in p]
    if missing:
        raise SystemExit(f"cost-reference: missing parameters {', '.join(missing)}")
    print(json.dumps(answers(candidates(a.root.resolve(), a.label), p), indent=2))


if __name__ == "__main__":
    main()
