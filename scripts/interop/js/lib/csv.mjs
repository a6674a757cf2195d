// Writes a CSV file (RFC 4180 quoting), creating its directory.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const cell = (v) => (/[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));

/** `rows` are arrays in `columns` order. */
export function writeCsv(path, columns, rows) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, [columns.join(","), ...rows.map((r) => r.map(cell).join(","))].join("\n") + "\n");
}
