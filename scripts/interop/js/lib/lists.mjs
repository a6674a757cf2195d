// scripts/interop/coverage.json and divergences.json, the per-language lists
// shared with the Python and Go harnesses, and where they disagree with the
// registry (the vectors' profiles) or with this harness's codecs.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { ROOT, codecFor } from "./profiles.mjs";

export const LANGUAGE = "js";
export const LISTS = join(ROOT, "scripts", "interop");
/** The status words, shared with the Python and Go harnesses (coverage.json "statuses"). */
export const STATUSES = ["ok", "known-divergence", "fail", "not-supported", "not-covered"];
export const NOT_COVERED = "not in scripts/interop/coverage.json for js: add its library or a not-supported reason";
/** Rows of this harness that are no profile but may carry pins: check -> library. */
export const OWN_CHECKS = { "nip01-verify": "nostr-tools verifyEvent" };

export function loadLists(coveragePath, divergencesPath) {
  const coverage = JSON.parse(readFileSync(coveragePath, "utf8"));
  const pins = JSON.parse(readFileSync(divergencesPath, "utf8"))[LANGUAGE] ?? {};
  return { coverage, pins };
}

/** This language's coverage entry for a profile: a list of {library, version}, {status, reason}, or undefined. */
export const coverageOf = (coverage, profile) => coverage.profiles[profile]?.[LANGUAGE];

/** Every disagreement, as a message; `profiles` are the vectors' profile ids. */
export function listDrift(profiles, { coverage, pins }, codecs) {
  const drift = [];
  const statuses = Object.keys(coverage.statuses ?? {}).sort();
  if (statuses.join() !== [...STATUSES].sort().join()) drift.push(`coverage.json statuses ${statuses} are not ${STATUSES}`);
  for (const p of Object.keys(coverage.profiles)) {
    if (!profiles.includes(p)) drift.push(`coverage.json: ${p} is not an enabled registry profile (vectors file)`);
  }
  for (const c of codecs) {
    if (!profiles.includes(c.id)) drift.push(`this harness has a codec for ${c.id}, which is not an enabled registry profile`);
  }
  for (const p of profiles) {
    const entry = coverageOf(coverage, p);
    const codec = codecFor(p);
    const listed = Array.isArray(entry) ? entry : [];
    if (entry !== undefined && !Array.isArray(entry) && (entry.status !== "not-supported" || !entry.reason)) {
      drift.push(`coverage.json: ${p}: ${LANGUAGE} must be a list of libraries or not-supported with a reason`);
    }
    for (const { library, version } of listed) {
      if (codec?.library !== library) drift.push(`coverage.json: ${p}: ${library} has no codec in this harness`);
      else if (version !== "runtime" && version !== codec.version) {
        drift.push(`coverage.json: ${p}: ${library} is pinned at ${version}, the harness runs ${codec.version}`);
      }
    }
    if (codec && !listed.some((l) => l.library === codec.library)) {
      drift.push(`${p}: this harness has a codec (${codec.library}) that coverage.json does not list`);
    }
  }
  for (const [p, libs] of Object.entries(pins)) {
    const own = OWN_CHECKS[p];
    if (!own && !profiles.includes(p)) {
      drift.push(`divergences.json: ${p} is not an enabled registry profile`);
      continue;
    }
    for (const library of Object.keys(libs)) {
      if (library !== (own ?? codecFor(p)?.library)) drift.push(`divergences.json: ${p}: ${library} is no codec of this harness`);
    }
  }
  return drift;
}
