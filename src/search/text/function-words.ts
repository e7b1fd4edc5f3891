// English function words: the glue of a question ("why did the build fail in CI"). In a query
// that also has content words they are scored at a low weight and are not words the coverage
// factor counts, so a message is not ranked up for holding "why", "did" and "the" (long messages
// and summaries hold them all), nor down for lacking them. A query of function words only
// ("not in") is searched as typed.
// Their weight is tuning.ts's query.functionWords.

const FUNCTION_WORDS = new Set(
  [
    // articles, determiners, quantifiers
    "a an the this that these those some any each every all both either neither such other another own same",
    // pronouns
    "i me my mine we us our ours you your yours he him his she her hers it its they them their theirs",
    // question words
    "what which who whom whose why how when where whether",
    // auxiliary and modal verbs
    "am is are was were be been being do does did have has had having will would shall should can could may might must",
    // prepositions
    "of in on at to for from by with about into onto over under after before between through during without within upon via against",
    // conjunctions and adverbs of degree
    "and or but nor so if then than as because while though although also too very just only even still yet ever",
  ]
    .join(" ")
    .split(" "),
);

/** Whether a folded query word is an English function word. */
export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word);
}
