// A "why" question asks for a cause, and is answered where the session explained one: "it failed
// because …", "the real problem is that …", "that explains why …". The asker's words are rarely the
// answer's (the question says "refuse", the session "ignored"), so such a message may rank below
// one restating the question or the task. Among the leading candidates (rank.ts), a text or
// reasoning chunk that states a cause next to the query's content words is raised by the share of
// those words standing around it. Tool calls and outputs are left alone: a failed run restates the
// symptom, not its cause. Read from the chunk's text only, so the scan and the index rank alike.

import type { ScoredDoc } from "../scored.ts";
import type { ParsedQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";
import { contentShare } from "./intent.ts";

/**
 * English wording that states a cause or an explanation. Not "this means" or "that means": in
 * agents' reasoning they draw an inference from what was just seen ("This means the hook is not
 * called"), a step of the search for the cause, not the cause (14 of 15 sampled in sessions
 * outside the eval).
 */
const EXPLANATION =
  /\b(?:because|due to|caused by|the cause|root cause|the reason|reason is|reason why|that[’']s why|which is why|this is why|explains?|the (?:real |actual |underlying |main )?(?:issue|problem|bug|culprit) (?:is|was|here is))\b/gi;

/**
 * How much a chunk's score is raised for a "why" question: for a text or reasoning chunk,
 * 1 + (boost - 1) × the largest share of the query's content words within the proximity window
 * of an explanation (both: tuning.ts); 1 otherwise (not a why question, a tool call, no explanation).
 */
export function causeBoost(parsed: ParsedQuery, doc: ScoredDoc, text: string): number {
  const { on, boost } = TUNING.cause;
  if (!on || !parsed.asksWhy || doc.type === "tool") return 1;
  const window = TUNING.proximity.window;
  let best = 0;
  for (const match of text.matchAll(EXPLANATION)) {
    const at = match.index;
    const share = contentShare(parsed, text.slice(Math.max(0, at - window), at + match[0].length + window));
    if (share > best) best = share;
    if (best === 1) break;
  }
  return 1 + (boost - 1) * best;
}

/** The most causeBoost can give a chunk for this query. */
export function causeBoostMost(parsed: ParsedQuery): number {
  const { on, boost } = TUNING.cause;
  return on && parsed.asksWhy ? boost : 1;
}
