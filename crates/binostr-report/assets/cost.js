/*
 * Binostr cost model: the arithmetic, and nothing else (no DOM). It is
 * crates/binostr-report/src/model/cost.rs, term for term and in the same
 * order of operations, so the page and summary/cost.csv agree.
 *
 * `evaluate(model, params)` answers, per role, "keep JSON or switch, and to
 * which binary candidate?". `model` is the JSON the page embeds
 * (`model::cost::export`):
 *   model.params = [{id, unit, default, low, high, source}]
 *   model.roles  = [{id, name, unit: "seconds" | "dollars", candidates: [
 *       {label, profile, mode, deflater, is_json, terms: {link_bytes,
 *        egress_bytes, relay_cpu_ns: {est, lo, hi}, client_cpu_ns: {...}}}]}]
 * `params` = {link_mbit, egress_usd_per_gb, cpu_usd_per_core_hour,
 *             decisive_pct, switch_pct}.
 *
 * Formulas, per candidate (L link bytes, E egress bytes, r and c relay and
 * client CPU ns per event; a CPU term carries its 95 % CI, a byte term is
 * exact), per million events:
 *   seconds = [transfer  L * 8 / (link_mbit * 1e6) * 1e6,
 *              relay CPU r * 1e-3, client CPU c * 1e-3]
 *   dollars = [egress    E * 1e6 / 1e9 * egress_usd_per_gb,
 *              relay CPU r * (1e6 * 1e-9 / 3600 * cpu_usd_per_core_hour)]
 *   total   = the sum of the terms in the role's unit
 *   json, binary = per kind (is_json), the lowest total; ties by label
 *   saving  = sum over terms of (json - binary), a term counting only when
 *             |json - binary| * 100 >= decisive_pct * json's total and the
 *             two terms' CIs do not overlap; pct = saving / json's total * 100
 *   low     = the same sum of each counted term's (json lo - binary hi);
 *             pct_low = low / json's total * 100
 *   switch  = pct_low > switch_pct; the pick is binary when it switches
 *   break-even link   = (L_j - L_b) * 8 / ((r_b + c_b - r_j - c_j) * 1e-9) / 1e6
 *   break-even egress = ((r_b - r_j) * 1e6 * 1e-9 / 3600 * cpu_usd_per_core_hour)
 *                       / ((E_j - E_b) * 1e6 / 1e9)
 *       (medians; null unless positive, i.e. where one wins at every value)
 * scripts/page/cost_reference.py recomputes all of this from
 * results/links/links.csv, independently.
 */
(function (root) {
  "use strict";

  const UNITS = ["seconds", "dollars"];

  function exact(name, value) {
    return { name, value, lo: value, hi: value };
  }

  function measured(name, i, k) {
    return { name, value: i.est * k, lo: i.lo * k, hi: i.hi * k };
  }

  /** The terms of `t` in `unit` at `p`. */
  function terms(t, unit, p) {
    if (unit === "seconds") {
      return [
        exact("transfer", ((t.link_bytes * 8.0) / (p.link_mbit * 1e6)) * 1e6),
        measured("relay CPU", t.relay_cpu_ns, 1e-3),
        measured("client CPU", t.client_cpu_ns, 1e-3),
      ];
    }
    return [
      exact("egress", ((t.egress_bytes * 1e6) / 1e9) * p.egress_usd_per_gb),
      measured("relay CPU", t.relay_cpu_ns, ((1e6 * 1e-9) / 3600.0) * p.cpu_usd_per_core_hour),
    ];
  }

  function sum(ts) {
    let s = 0;
    for (const t of ts) s += t.value;
    return s;
  }

  function total(t, unit, p) {
    return sum(terms(t, unit, p));
  }

  /** What `candidate` saves over `baseline`, decisive and resolved terms only. */
  function saving(baseline, candidate, decisivePct) {
    const whole = sum(baseline);
    let low = 0.0;
    const counted = baseline.map((b, i) => {
      const c = candidate[i];
      const d = b.value - c.value;
      const resolved = b.hi < c.lo || c.hi < b.lo;
      const counts = resolved && Math.abs(d) * 100.0 >= decisivePct * whole;
      if (counts) low += b.lo - c.hi;
      return { name: b.name, value: counts ? d : 0.0 };
    });
    const t = sum(counted);
    const pct = (x) => (whole > 0.0 ? (x / whole) * 100.0 : 0.0);
    return { counted, total: t, pct: pct(t), pct_low: pct(low), whole };
  }

  function breakEvenMbit(a, b) {
    const bytes = a.link_bytes - b.link_bytes;
    const cpuNs = b.relay_cpu_ns.est + b.client_cpu_ns.est - (a.relay_cpu_ns.est + a.client_cpu_ns.est);
    const rate = (bytes * 8.0) / (cpuNs * 1e-9) / 1e6;
    return bytes !== 0.0 && cpuNs !== 0.0 && rate > 0.0 ? rate : null;
  }

  function breakEvenEgress(a, b, cpuPrice) {
    const gb = ((a.egress_bytes - b.egress_bytes) * 1e6) / 1e9;
    const cpuUsd = ((((b.relay_cpu_ns.est - a.relay_cpu_ns.est) * 1e6) * 1e-9) / 3600.0) * cpuPrice;
    const price = cpuUsd / gb;
    return gb !== 0.0 && price > 0.0 ? price : null;
  }

  /** The cheapest candidate of a kind in `unit`: lowest total, then label. */
  function cheapest(cands, json, unit, p) {
    let best = null;
    for (const c of cands) {
      if (c.is_json !== json) continue;
      const t = total(c.terms, unit, p);
      if (best === null || t < best.t || (t === best.t && c.label < best.c.label)) best = { t, c };
    }
    return best === null ? null : best.c;
  }

  /** A role's answer decided in `unit`; null without both kinds. */
  function answerIn(role, unit, p) {
    const json = cheapest(role.candidates, true, unit, p);
    const binary = cheapest(role.candidates, false, unit, p);
    if (json === null || binary === null) return null;
    const s = saving(terms(json.terms, unit, p), terms(binary.terms, unit, p), p.decisive_pct);
    const sw = s.pct_low > p.switch_pct;
    return {
      json,
      binary,
      saving: s,
      switch: sw,
      pick: sw ? binary : json,
      break_even_mbit: breakEvenMbit(json.terms, binary.terms),
      break_even_egress: breakEvenEgress(json.terms, binary.terms, p.cpu_usd_per_core_hour),
    };
  }

  /** Every role's answer in its own unit, with both units' totals and the
   *  pick in the other unit; `error` when a parameter is not a number or
   *  the link rate is not above 0. */
  function evaluate(model, params) {
    const p = {};
    for (const q of model.params) {
      const v = Number(params[q.id]);
      if (!Number.isFinite(v)) return { error: q.id + " is not a number", roles: [] };
      p[q.id] = v;
    }
    if (!(p.link_mbit > 0)) return { error: "link_mbit must be above 0", roles: [] };
    const roles = [];
    for (const role of model.roles) {
      const a = answerIn(role, role.unit, p);
      if (a === null) continue;
      const other = answerIn(role, UNITS.find((u) => u !== role.unit), p);
      const both = (c) => ({
        label: c.label,
        seconds: total(c.terms, "seconds", p),
        dollars: total(c.terms, "dollars", p),
      });
      roles.push({
        id: role.id,
        name: role.name,
        unit: role.unit,
        json: both(a.json),
        binary: both(a.binary),
        saving: a.saving,
        switch: a.switch,
        pick: a.pick.label,
        pick_other_unit: other.pick.label,
        break_even_mbit: a.break_even_mbit,
        break_even_egress: a.break_even_egress,
      });
    }
    return { error: null, params: p, roles };
  }

  const api = { evaluate, terms, saving, UNITS };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.BinostrCost = api;
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
