// Phrase evidence a chunk's terms alone do not show: the whole query as written, or a path or
// name of the query (a compound: `django/db/models/fields/related.py`, `pytest_collect_file`)
// held whole rather than as words scattered over the chunk. Checked on the leading candidates
// only (rank.ts), on their text, so the scan and the index rank alike.

import { fold } from "../text/normalize.ts";
import { isWordChar } from "../text/tokenize.ts";
import { hasPhrase, type ParsedQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";

/** True when `text[at]` would continue a compound: a letter, digit or underscore. */
function continues(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false;
  return text.charCodeAt(at) === 0x5f || isWordChar(text, at);
}

/** Where `text` (folded: `folded`) holds the compound whole from `from` on (not inside a longer word or name), or -1. */
export function findCompound(text: string, folded: string, compound: string, from = 0): number {
  for (let at = folded.indexOf(compound, from); at >= 0; at = folded.indexOf(compound, at + 1)) {
    if (!continues(text, at - 1) && !continues(text, at + compound.length)) return at;
  }
  return -1;
}

/** Whether `text` (folded: `folded`) holds the compound whole. */
export function holdsCompound(text: string, folded: string, compound: string): boolean {
  return findCompound(text, folded, compound) >= 0;
}

/**
 * How much the chunk's score is raised: the phrase boost (tuning.ts) for the whole query phrase,
 * else a share of it per compound of the query the chunk holds whole; 1 for none.
 */
export function phraseBoost(parsed: ParsedQuery, text: string): number {
  const { on, compounds: compoundsOn, boost } = TUNING.phrase;
  if (on && hasPhrase(parsed, text)) return boost;
  const compounds = parsed.compounds;
  if (compounds.length === 0 || !compoundsOn) return 1;
  const folded = fold(text);
  let held = 0;
  for (const compound of compounds) if (holdsCompound(text, folded, compound.text)) held++;
  return 1 + ((boost - 1) * held) / compounds.length;
}

/** The most phraseBoost can give a chunk for this query. */
export function phraseBoostMost(parsed: ParsedQuery): number {
  const { on, compounds, boost } = TUNING.phrase;
  return (on && parsed.phrase !== undefined) || (compounds && parsed.compounds.length > 0) ? boost : 1;
}
