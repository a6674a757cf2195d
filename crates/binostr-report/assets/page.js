/*
 * The results page's behaviour: sortable tables, subset filters, the
 * relay calculator's form and the cost model's. The arithmetic is
 * calculator.js's and cost.js's (loaded first, as BinostrCalculator and
 * BinostrCost); this file only reads inputs and writes cells.
 */
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("binostr-data").textContent);

  // Sorting: each <td> carries data-sort; empty values sort last either way.
  function sortTable(table, col, dir) {
    const th = table.tHead.rows[0].cells[col];
    const numeric = th.dataset.type === "num";
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    rows.forEach((r, i) => {
      if (r.dataset.order === undefined) r.dataset.order = String(i);
    });
    const key = (r) => (r.cells[col] ? r.cells[col].dataset.sort || "" : "");
    rows.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === "" || y === "") {
        if (x === y) return Number(a.dataset.order) - Number(b.dataset.order);
        return x === "" ? 1 : -1;
      }
      let c = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      if (c === 0) c = Number(a.dataset.order) - Number(b.dataset.order);
      return dir === "ascending" ? c : -c;
    });
    rows.forEach((r) => body.appendChild(r));
    Array.from(table.tHead.rows[0].cells).forEach((c, i) => {
      if (i === col) c.setAttribute("aria-sort", dir);
      else c.removeAttribute("aria-sort");
    });
    table.dataset.sortCol = String(col);
    table.dataset.sortDir = dir;
  }

  function resort(table) {
    if (table.dataset.sortCol !== undefined) {
      sortTable(table, Number(table.dataset.sortCol), table.dataset.sortDir);
    }
  }

  document.querySelectorAll("table.sortable").forEach((table) => {
    Array.from(table.tHead.rows[0].cells).forEach((th, col) => {
      const button = th.querySelector("button");
      if (!button) return;
      button.addEventListener("click", () => {
        const dir =
          table.dataset.sortCol === String(col) && table.dataset.sortDir === "ascending"
            ? "descending"
            : "ascending";
        sortTable(table, col, dir);
      });
    });
  });

  // Subset filters.
  document.querySelectorAll("select[data-filter-for]").forEach((select) => {
    const table = document.getElementById(select.dataset.filterFor);
    const apply = () => {
      Array.from(table.tBodies[0].rows).forEach((r) => {
        r.hidden = r.dataset.subset !== select.value;
      });
    };
    select.addEventListener("change", apply);
    apply();
  });

  // The cost model's form; its arithmetic is cost.js's (BinostrCost).
  const costData = document.getElementById("binostr-cost");
  const costTable = document.getElementById("cost-table");
  if (costData && costTable && typeof BinostrCost !== "undefined") {
    const model = JSON.parse(costData.textContent);
    const field = (q) => document.getElementById("cost-" + q.id);
    const num = (x, d) => (x === null ? "none" : x.toFixed(d));
    const costCell = (tr, value, text, cls) => {
      const td = tr.insertCell();
      td.dataset.value = value === null ? "" : String(value);
      if (cls) td.className = cls;
      td.textContent = text;
    };
    const renderCost = () => {
      const params = {};
      model.params.forEach((q) => {
        params[q.id] = field(q).value.trim() === "" ? NaN : Number(field(q).value);
      });
      const out = BinostrCost.evaluate(model, params);
      const byRole = new Map(out.roles.map((r) => [r.id, r]));
      Array.from(costTable.tBodies[0].rows).forEach((tr) => {
        while (tr.cells.length > 1) tr.deleteCell(1);
        const r = byRole.get(tr.dataset.role);
        if (!r) return;
        costCell(tr, r.unit, r.unit);
        costCell(tr, r.switch ? "switch" : "keep", r.switch ? "switch to " + r.binary.label : "keep JSON",
                 r.switch ? "good" : "");
        [r.json, r.binary].forEach((k) => {
          costCell(tr, k.label, k.label);
          costCell(tr, k.seconds, num(k.seconds, 1), "n");
          costCell(tr, k.dollars, num(k.dollars, 4), "n");
        });
        costCell(tr, r.saving.pct, num(r.saving.pct, 1) + "\u00a0%", "n");
        costCell(tr, r.pick_other_unit, r.pick_other_unit);
        costCell(tr, r.break_even_mbit, num(r.break_even_mbit, 1) + (r.break_even_mbit === null ? "" : " Mbit/s"), "n");
        costCell(tr, r.break_even_egress, num(r.break_even_egress, 6) + (r.break_even_egress === null ? "" : " $/GB"), "n");
      });
      const summary = document.getElementById("cost-summary");
      summary.textContent = out.error
        ? "Cannot compute: " + out.error + "."
        : out.roles
            .map((r) => r.name + ": " + (r.switch ? "switch to " + r.binary.label : "keep JSON (" + r.json.label + ")") +
              ", saving " + r.saving.pct.toFixed(1) + "\u00a0% of JSON's " + r.unit + " (at least " +
              r.saving.pct_low.toFixed(1) + "\u00a0% within the intervals) against a threshold of " +
              out.params.switch_pct + "\u00a0%.")
            .join(" ");
    };
    document.getElementById("cost-form").addEventListener("input", renderCost);
    document.getElementById("cost-form").addEventListener("change", renderCost);
    document.getElementById("cost-reset").addEventListener("click", () => {
      model.params.forEach((q) => {
        field(q).value = String(q.default);
      });
      renderCost();
    });
    renderCost();
  }

  // The calculator's form.
  const form = document.getElementById("calc-form");
  const calcTable = document.getElementById("calc");
  if (!form || !calcTable || typeof BinostrCalculator === "undefined") return;

  function inputs() {
    const shares = {};
    data.strata.forEach((k) => {
      shares[k.subset] = Number(document.getElementById("share-" + k.subset).value);
    });
    const mode = form.querySelector("input[name=mode]:checked");
    return {
      shares,
      rate: Number(document.getElementById("rate").value),
      fanout: Number(document.getElementById("fanout").value),
      price: Number(document.getElementById("price").value),
      mode: mode ? mode.value : data.defaults.mode,
      compression: document.getElementById("compression").value,
    };
  }

  function sig(x) {
    const a = Math.abs(x);
    if (a >= 1000) return x.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
    if (a >= 100) return x.toFixed(1);
    if (a >= 10) return x.toFixed(2);
    if (a >= 1) return x.toFixed(3);
    return x.toPrecision(3);
  }
  const pct = (x) => (x * 100).toFixed(1) + "\u00a0%";
  const money = (x) => "$" + (Math.abs(x) >= 1000 ? sig(x) : x.toFixed(2));

  function put(td, value, text, extra) {
    td.textContent = "";
    if (value === null) {
      td.dataset.sort = "";
      td.dataset.value = "";
      td.innerHTML = '<span class="na">\u2013</span>';
      return;
    }
    const v = Array.isArray(value) ? value[0] : value;
    td.dataset.sort = String(v);
    td.dataset.value = String(v);
    if (Array.isArray(value)) {
      td.dataset.lo = String(value[1]);
      td.dataset.hi = String(value[2]);
    }
    td.className = "n" + (extra ? " " + extra : "");
    td.append(text);
  }

  function withCi(t, f, unit) {
    if (t === null) return "";
    const ci = document.createElement("span");
    ci.className = "ci block";
    ci.textContent = "[" + f(t[1]) + ", " + f(t[2]) + "]";
    const frag = document.createDocumentFragment();
    frag.append(f(t[0]) + (unit || ""), ci);
    return frag;
  }

  function render() {
    const inp = inputs();
    const out = BinostrCalculator.compute(data, inp);
    const byProfile = new Map(out.rows.map((r) => [r.profile, r]));
    Array.from(calcTable.tBodies[0].rows).forEach((tr) => {
      const r = byProfile.get(tr.dataset.profile);
      while (tr.cells.length > 1) tr.deleteCell(1);
      const cells = [];
      for (let i = 0; i < 10; i++) cells.push(tr.insertCell());
      if (!r) return;
      const mb = (x) => (x === null ? null : x / 1e6);
      const saved = (x) => (x === null ? "" : pct(x).replace("-", "\u2212"));
      put(cells[0], r.bytes_per_event, r.bytes_per_event === null ? "" : sig(r.bytes_per_event));
      put(cells[1], mb(r.wire_bytes_per_second), r.wire_bytes_per_second === null ? "" : sig(mb(r.wire_bytes_per_second)));
      put(cells[2], mb(r.compressed_bytes_per_second), r.compressed_bytes_per_second === null ? "" : sig(mb(r.compressed_bytes_per_second)));
      put(cells[3], r.cost_per_month, r.cost_per_month === null ? "" : money(r.cost_per_month));
      put(cells[4], r.compressed_cost_per_month, r.compressed_cost_per_month === null ? "" : money(r.compressed_cost_per_month));
      put(cells[5], r.bytes_saved, saved(r.bytes_saved), r.bytes_saved > 0 ? "good" : r.bytes_saved < 0 ? "bad" : "");
      put(cells[6], r.compressed_bytes_saved, saved(r.compressed_bytes_saved), r.compressed_bytes_saved > 0 ? "good" : r.compressed_bytes_saved < 0 ? "bad" : "");
      put(cells[7], r.cores, withCi(r.cores, sig));
      const cpu = r.cpu_saved;
      put(cells[8], cpu, withCi(cpu, (x) => (x * 100).toFixed(1), "\u00a0%"), r.cpu_verdict || "");
      put(cells[9], r.zstd_cores, r.zstd_cores === null ? "" : sig(r.zstd_cores));
      tr.classList.toggle("baseline", r.profile === data.baseline);
    });
    resort(calcTable);
    const summary = document.getElementById("calc-summary");
    if (!out.weights) {
      summary.textContent = "Set at least one share above 0.";
      return;
    }
    const json = byProfile.get(data.baseline);
    const total = data.strata.reduce((t, k) => t + inp.shares[k.subset], 0);
    const mixText = out.weights
      .map((w) => data.strata.find((k) => k.subset === w.subset).label + " " + (w.w * 100).toFixed(1) + "\u00a0%")
      .join(", ");
    const gaps = data.strata
      .filter((k) => k.gap && out.weights.find((w) => w.subset === k.subset).w > 0)
      .map((k) => k.gap);
    const comp = data.compressions.find((c) => c.id === inp.compression);
    summary.textContent =
      "Mix used: " + mixText +
      (Math.abs(total - 100) > 1e-9 ? " (your shares sum to " + sig(total) + "\u00a0%, scaled to 100\u00a0%)" : "") +
      ". " + gaps.join(" ") + (gaps.length ? " " : "") +
      (comp && comp.source === "socket" ? data.transport.note + " " : "") +
      (json && json.compressed_bytes_per_event === null
        ? "Compressed figures are empty: this campaign did not measure that compression for every stratum with a share above 0. "
        : "") +
      (json && json.cores === null
        ? "CPU figures are empty: this campaign has no times for every stratum with a share above 0. "
        : "") +
      (json && json.cores
        ? "json: " + sig(json.wire_bytes_per_second / 1e6) + " MB/s on the wire, " +
          sig(json.cores[0]) + " cores for " + inp.mode + ". "
        : "") +
      "CPU saved is green where its whole 95 % CI is above 0, red where it is below 0, " +
      "and grey for profiles the Claims call tied with one of another colour.";
  }

  form.addEventListener("input", render);
  form.addEventListener("change", render);
  document.getElementById("reset-mix").addEventListener("click", () => {
    data.strata.forEach((k) => {
      document.getElementById("share-" + k.subset).value = String(k.share);
    });
    render();
  });
  render();
  document.body.dataset.ready = "yes";
})();
