// Runs the binostr CLI: $BINOSTR_BIN if set, else `cargo run --release -q --`
// from the repository root.

import { spawnSync } from "node:child_process";
import { ROOT } from "./profiles.mjs";

export function binostr(args, options = {}) {
  const bin = process.env.BINOSTR_BIN;
  const [cmd, argv] = bin ? [bin, args] : ["cargo", ["run", "--release", "-q", "--", ...args]];
  const r = spawnSync(cmd, argv, { cwd: ROOT, maxBuffer: 1 << 30, ...options });
  if (r.error) throw r.error;
  return r;
}

/** Like `binostr`, but throws on a non-zero exit, with its stderr. */
export function binostrOk(args, options = {}) {
  const r = binostr(args, options);
  if (r.status !== 0) throw new Error(`binostr ${args.join(" ")}: exit ${r.status}: ${String(r.stderr).trim()}`);
  return r;
}
