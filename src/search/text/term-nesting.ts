// Which of a query's terms hold another's token: the cold scan searches a term only where its
// inner term occurs.

import type { ParsedQuery } from "./query.ts";

/**
 * For each term, another term whose token lies inside its token (the longest such), or -1; and
 * the terms shortest first. A text without the inner token cannot hold the outer one, so a
 * stemmed word's forms (`limit` → `limits`, `limited`…) are only searched where the stem occurs.
 */
export function termGates(terms: ParsedQuery["terms"]): { gates: number[]; order: number[] } {
  const gates = terms.map((term, t) => {
    let gate = -1;
    for (let g = 0; g < terms.length; g++) {
      const inner = terms[g]!.token;
      if (g === t || inner.length >= term.token.length || !term.token.includes(inner)) continue;
      if (gate < 0 || inner.length > terms[gate]!.token.length) gate = g;
    }
    return gate;
  });
  const order = terms.map((_, t) => t).sort((a, b) => terms[a]!.token.length - terms[b]!.token.length);
  return { gates, order };
}

/** Which terms' tokens hold which (termGates), and per term without a gate the terms holding it. */
export interface TermNesting {
  gates: number[];
  order: number[];
  /** Per term without a gate: the terms holding its token, with the offset of its token in theirs. */
  within: Array<Array<[term: number, offset: number]>>;
}

export function termNesting(terms: ParsedQuery["terms"]): TermNesting {
  const { gates, order } = termGates(terms);
  const within = terms.map((): Array<[number, number]> => []);
  for (let t = 0; t < terms.length; t++) {
    let root = t;
    while (gates[root]! >= 0) root = gates[root]!;
    if (root !== t) within[root]!.push([t, terms[t]!.token.indexOf(terms[root]!.token)]);
  }
  return { gates, order, within };
}
