/*
 * Binostr relay calculator: the arithmetic, and nothing else (no DOM).
 *
 * `compute(data, inputs)` answers "for my relay's traffic mix, what does
 * each wire profile cost on the wire and in CPU, against JSON?". `data` is
 * the JSON the page embeds (`binostr-report page`, built in
 * crates/binostr-report/src/render/page/calc.rs):
 *   data.strata = [{subset, share, ...}]  the mix's strata (kind-0, kind-1,
 *       kind-3, kind-7, kind-9735, kind-other; in campaigns without the last
 *       two, one stratum kind-rest = subset all minus kinds 0, 1, 3, 7)
 *   data.data[profile][subset][workload] = {ns: [median, ci_lo, ci_hi],
 *                                           ratio: [paired ratio to json, lo, hi]}
 *   data.data[profile][subset].sizes = {events, framed, zstd_event, ...}
 *       byte totals of sizes.csv; null where not measured
 *   data.compressions = [{id, source: "sizes" | "socket", column, length}]
 *   data.transport.bytes[profile][mode] = relay->client socket bytes per
 *       event of transport.csv (mode none, deflate, deflate-ctx), measured on
 *       the campaign's own stream (its mix, not the reader's)
 *   data.ties[mode] = [[profile, ...], ...]  groups the Claims call tied
 * `inputs` = {shares: {subset: percent}, rate: events received per second,
 *             fanout: copies sent per event, price: $ per 10^9 bytes,
 *             mode: "forward" | "validate" | "store", compression: an id}.
 *
 * Formulas, per profile p (k runs over the strata with w_k > 0, W over the
 * workloads of the mode, data.modes: forward = decode, validate = validate,
 * store = validate + encode):
 *   w_k          = s_k / sum(s)                        every stratum, "other" too
 *   b            = sum_k w_k * framed_k / events_k     bytes per event, framed
 *   c (sizes)    = sum_k w_k * (z_k + L * events_k) / events_k
 *                  z = the compression's sizes.csv column, L = 4 bytes of
 *                  length for per-event zstd, 0 where the length is inside
 *   c (socket)   = transport.csv bytes per event of the mode (shares unused)
 *   wire         = R * (1 + F) * b                     bytes/s, in and out
 *   cost         = wire * 2 592 000 / 1e9 * price      $ per 30 days
 *   bytes saved  = 1 - b / b_json                      exact: sizes are deterministic
 *   cores        = R * sum_k w_k * sum_W ns_kW / 1e9   [lo, hi]: the same sum over
 *                                                      the CI endpoints (conservative)
 *   rho          = sum_kW omega_kW * r_kW              r: paired ratio to json,
 *                  omega_kW = w_k json_ns_kW / sum(w json_ns)
 *   CPU saved    = 1 - rho                             [1 - rho_hi, 1 - rho_lo]
 *   zstd cores   = R * F * sum_k w_k * compress_ns_k / 1e9
 *   verdict      = good if CPU saved's CI is above 0, bad if below, else tie;
 *                  profiles of one tied group of the mode's Claims that would
 *                  get different verdicts all get tie
 * A value whose records are missing is null. scripts/page/calc_reference.py
 * recomputes all of this from summary.csv, sizes.csv and transport.csv,
 * independently.
 */
(function (root) {
  "use strict";

  const SECONDS_PER_MONTH = 30 * 24 * 3600;
  const BYTES_PER_GB = 1e9;
  const FRAME_BYTES = 4;

  /** The strata and their weights w_k; null when a share is invalid or all are 0. */
  function weights(data, shares) {
    let total = 0;
    for (const k of data.strata) {
      const v = Number(shares[k.subset]);
      if (!(v >= 0) || !Number.isFinite(v)) return null;
      total += v;
    }
    if (!(total > 0)) return null;
    return data.strata.map((k) => ({ subset: k.subset, w: Number(shares[k.subset]) / total }));
  }

  /** Bytes per event of one stratum in a sizes.csv column, or null. */
  function perEvent(sizes, column, length) {
    if (!sizes || !(sizes.events > 0)) return null;
    const v = sizes[column];
    if (v === null || v === undefined) return null;
    return (v + (length ? FRAME_BYTES * sizes.events : 0)) / sizes.events;
  }

  /** sum_k w_k * f(k) over the strata with w_k > 0; null when a term is null. */
  function mix(ws, f) {
    let sum = 0;
    for (const { subset, w } of ws) {
      if (w === 0) continue;
      const v = f(subset);
      if (v === null || v === undefined || !Number.isFinite(v)) return null;
      sum += w * v;
    }
    return sum;
  }

  function cell(data, p, subset) {
    return (data.data[p] || {})[subset] || {};
  }

  /** [median, lo, hi] of sum_k w_k sum_W ns, or null. */
  function nsTriple(data, p, ws, workloads) {
    const out = [];
    for (let i = 0; i < 3; i++) {
      out.push(
        mix(ws, (s) => {
          let t = 0;
          for (const wl of workloads) {
            const x = cell(data, p, s)[wl];
            if (!x || !x.ns) return null;
            t += x.ns[i];
          }
          return t;
        }),
      );
    }
    return out.includes(null) ? null : out;
  }

  /** [rho, lo, hi]: paired ratios weighted by json's share of the mix's time. */
  function rhoTriple(data, p, ws, workloads) {
    const base = data.baseline;
    let total = 0;
    const terms = [];
    for (const { subset, w } of ws) {
      if (w === 0) continue;
      for (const wl of workloads) {
        const j = cell(data, base, subset)[wl];
        const x = cell(data, p, subset)[wl];
        if (!j || !j.ns || !x || !x.ratio) return null;
        const omega = w * j.ns[0];
        total += omega;
        terms.push([omega, x.ratio]);
      }
    }
    if (!(total > 0)) return null;
    const out = [0, 0, 0];
    for (const [omega, r] of terms) {
      for (let i = 0; i < 3; i++) out[i] += (omega / total) * r[i];
    }
    return out;
  }

  /** Compressed bytes per event of p: composed from the strata, or the socket's. */
  function compressed(data, p, ws, comp) {
    if (comp.source === "socket") {
      const b = ((data.transport || {}).bytes || {})[p];
      const v = b ? b[comp.column] : null;
      return v === null || v === undefined ? null : v;
    }
    return mix(ws, (s) => perEvent(cell(data, p, s).sizes, comp.column, comp.length));
  }

  /** good / bad / tie from CPU saved's CI; tied groups never split. */
  function verdicts(data, mode, rows) {
    const v = new Map();
    for (const r of rows) {
      const c = r.cpu_saved;
      v.set(r.profile, c === null ? null : c[1] > 0 ? "good" : c[2] < 0 ? "bad" : "tie");
    }
    const groups = (data.ties || {})[mode] || [];
    let changed = true;
    while (changed) {
      changed = false;
      for (const g of groups) {
        const seen = new Set(g.map((p) => v.get(p)).filter((x) => x !== null && x !== undefined));
        if (seen.size > 1) {
          for (const p of g) {
            if (v.get(p) !== null && v.get(p) !== undefined && v.get(p) !== "tie") {
              v.set(p, "tie");
              changed = true;
            }
          }
        }
      }
    }
    return v;
  }

  /** Everything the calculator shows, per profile in data.profiles order. */
  function compute(data, inputs) {
    const ws = weights(data, inputs.shares);
    const mode = data.modes.find((m) => m.id === inputs.mode);
    const workloads = mode ? mode.workloads : null;
    const comp = data.compressions.find((c) => c.id === inputs.compression);
    if (!ws || !workloads || !comp) return { weights: ws, rows: [] };
    const R = Number(inputs.rate);
    const F = Number(inputs.fanout);
    const price = Number(inputs.price);
    const copies = R * (1 + F);
    const framed = (p) => mix(ws, (s) => perEvent(cell(data, p, s).sizes, "framed", false));
    const jsonFramed = framed(data.baseline);
    const jsonCompressed = compressed(data, data.baseline, ws, comp);
    const rows = data.profiles.map((p) => {
      const b = framed(p);
      const c = compressed(data, p, ws, comp);
      const wire = b === null ? null : copies * b;
      const wireZ = c === null ? null : copies * c;
      const ns = nsTriple(data, p, ws, workloads);
      const rho = rhoTriple(data, p, ws, workloads);
      const zns = nsTriple(data, p, ws, ["compress"]);
      return {
        profile: p,
        bytes_per_event: b,
        compressed_bytes_per_event: c,
        wire_bytes_per_second: wire,
        compressed_bytes_per_second: wireZ,
        cost_per_month: wire === null ? null : ((wire * SECONDS_PER_MONTH) / BYTES_PER_GB) * price,
        compressed_cost_per_month:
          wireZ === null ? null : ((wireZ * SECONDS_PER_MONTH) / BYTES_PER_GB) * price,
        bytes_saved: b === null || !jsonFramed ? null : 1 - b / jsonFramed,
        compressed_bytes_saved: c === null || !jsonCompressed ? null : 1 - c / jsonCompressed,
        cores: ns === null ? null : ns.map((t) => (R * t) / 1e9),
        cpu_saved: rho === null ? null : [1 - rho[0], 1 - rho[2], 1 - rho[1]],
        zstd_cores: zns === null ? null : (R * F * zns[0]) / 1e9,
      };
    });
    const v = verdicts(data, inputs.mode, rows);
    for (const r of rows) r.cpu_verdict = v.get(r.profile);
    return { weights: ws, rows };
  }

  const api = { compute, weights, SECONDS_PER_MONTH, BYTES_PER_GB, FRAME_BYTES };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.BinostrCalculator = api;
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
