// A question in plain words (no path or name held whole, no command or change asked for, no
// number, a few content words) asks about what was said: why something happened, how it was
// solved. Its answer is the agent's text; a tool's input or output that repeats the topic's words
// (a test run of the feature's test file, an edit of its files) says nothing about the why. So for
// such a question every chunk of a tool part weighs tuning.ts's plainQuestion.toolWeight
// (docs/search-notes.md, "Why the tuning half's prose questions miss").

import type { ParsedQuery } from "../text/query.ts";

const DIGIT = /\p{N}/u;

/** Whether the query is a question in plain words (see above). */
export function isPlainQuestion(parsed: ParsedQuery): boolean {
  const rule = parsed.tuning.plainQuestion;
  return parsed.compounds.length === 0 && parsed.intent === undefined && parsed.groups >= rule.minWords && !parsed.terms.some((t) => DIGIT.test(t.token));
}

/** The weight of a tool part's chunks for this query: plainQuestion.toolWeight for a plain question, else 1. */
export function toolChunkWeight(parsed: ParsedQuery | undefined): number {
  if (parsed === undefined) return 1;
  const rule = parsed.tuning.plainQuestion;
  return rule.on && isPlainQuestion(parsed) ? rule.toolWeight : 1;
}
