/*
 * Binostr relay calculator: the arithmetic, and nothing else (no DOM).
 *
 * `compute(data, inputs)` answers "for my relay's kind mix and traffic,
 * what does each wire profile cost on the wire and in CPU, against JSON?".
 * `data` is the JSON the page embeds (`binostr-report page`, built in
 * crates/binostr-report/src/render/page/calc.rs): per profile and kind subset
 * (kind-0, kind-1, kind-3, kind-7), the campaign's records as summary.csv
 * and sizes.csv print them:
 *   data.data[profile][subset][workload] = {ns: [median, ci_lo, ci_hi],
 *                                           ratio: [paired ratio to json, ci_lo, ci_hi]}
 *   data.data[profile][subset].sizes = {events, raw, framed, zstd_event,
 *                                       zstd_stream, zstd_dict}  (byte totals)
 * `inputs` = {shares: {subset: percent}, rate: events received per second,
 *             fanout: copies sent per event, price: $ per 10^9 bytes,
 *             mode: "forward" | "validate" | "store",
 *             compression: "zstd_stream" | "zstd_event" | "zstd_dict"}.
 *
 * Formulas, per profile p (k runs over the kind subsets, W over the
 * workloads of the mode, data.modes: forward = decode, validate = validate,
 * store = validate + encode):
 *   w_k          = s_k / sum(s)                        shares renormalised
 *   b            = sum_k w_k * framed_k / events_k     bytes per event, framed
 *   c            = sum_k w_k * z_k / events_k          compressed; z = zstd_stream,
 *                                                      or zstd_event / zstd_dict
 *                                                      + 4 bytes of length per event
 *   wire         = R * (1 + F) * b                     bytes/s, in and out
 *   cost         = wire * 2 592 000 / 1e9 * price      $ per 30 days
 *   bytes saved  = 1 - b / b_json                      exact: sizes are deterministic
 *   cores        = R * sum_k w_k * sum_W ns_kW / 1e9   [lo, hi]: the same sum over
 *                                                      the CI endpoints (conservative)
 *   rho          = sum_kW omega_kW * r_kW              r: paired ratio to json,
 *                  omega_kW = w_k json_ns_kW / sum(w json_ns)
 *   CPU saved    = 1 - rho                             [1 - rho_hi, 1 - rho_lo]
 *   zstd cores   = R * F * sum_k w_k * compress_ns_k / 1e9
 * A value whose records are missing is null. scripts/page/calc_reference.py
 * recomputes all of this from summary.csv and sizes.csv, independently.
 */
(function (root) {
  "use strict";

  const SECONDS_PER_MONTH = 30 * 24 * 3600;
  const BYTES_PER_GB = 1e9;
  const FRAME_BYTES = 4;

  /** The kind subsets and their weights w_k; null when the shares sum to 0. */
  function weights(data, shares) {
    const kinds = data.kinds.map((k) => k.subset);
    let total = 0;
    for (const s of kinds) {
      const v = Number(shares[s]);
      if (!(v >= 0) || !Number.isFinite(v)) return null;
      total += v;
    }
    if (!(total > 0)) return null;
    return kinds.map((s) => ({ subset: s, w: Number(shares[s]) / total }));
  }

  /** Bytes per event of one subset: framed, or compressed as `column` says. */
  function perEvent(sizes, column) {
    if (!sizes || !(sizes.events > 0)) return null;
    if (column === "framed" || column === "zstd_stream") {
      return sizes[column] / sizes.events;
    }
    return (sizes[column] + FRAME_BYTES * sizes.events) / sizes.events;
  }

  /** sum_k w_k * f(k); null when any term is null. */
  function mix(ws, f) {
    let sum = 0;
    for (const { subset, w } of ws) {
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

  /** Everything the calculator shows, per profile in data.profiles order. */
  function compute(data, inputs) {
    const ws = weights(data, inputs.shares);
    const mode = data.modes.find((m) => m.id === inputs.mode);
    const workloads = mode ? mode.workloads : null;
    if (!ws || !workloads) return { weights: ws, rows: [] };
    const R = Number(inputs.rate);
    const F = Number(inputs.fanout);
    const price = Number(inputs.price);
    const copies = R * (1 + F);
    const bytes = (p, column) => mix(ws, (s) => perEvent(cell(data, p, s).sizes, column));
    const jsonFramed = bytes(data.baseline, "framed");
    const jsonCompressed = bytes(data.baseline, inputs.compression);
    const rows = data.profiles.map((p) => {
      const b = bytes(p, "framed");
      const c = bytes(p, inputs.compression);
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
    return { weights: ws, rows };
  }

  const api = { compute, weights, SECONDS_PER_MONTH, BYTES_PER_GB, FRAME_BYTES };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.BinostrCalculator = api;
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
