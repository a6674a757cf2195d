// One torture case file against one JS decoder, from case START on.
// Protocol on stdout, one line each, written synchronously before and after
// every case so that the parent knows which case a crash or hang hit:
//   B <i>            about to decode case i
//   R <i> a          accepted (decoded to an event)
//   R <i> e <kind>   threw (kind: the error's constructor name, or "stack" for
//                    a caught stack overflow, or "non-error" for a thrown non-Error)
//   D                all cases done
//
//   node torture-child.mjs PROFILE FRAMES START

import { readFileSync, writeSync } from "node:fs";
import { codecFor } from "./lib/profiles.mjs";
import { unframe } from "./lib/event.mjs";

const [profile, file, start] = process.argv.slice(2);
const codec = codecFor(profile);
const cases = unframe(readFileSync(file));
const out = (s) => writeSync(1, `${s}\n`);

for (let i = Number(start); i < cases.length; i++) {
  out(`B ${i}`);
  let verdict;
  try {
    // A copy, so that no decoder can read past its case into the next one.
    codec.decode(new Uint8Array(cases[i]));
    verdict = "a";
  } catch (e) {
    if (!(e instanceof Error)) verdict = "e non-error";
    else if (e instanceof RangeError && /call stack/.test(e.message)) verdict = "e stack";
    else verdict = `e ${e.constructor?.name ?? "Error"}`;
  }
  out(`R ${i} ${verdict}`);
}
out("D");
