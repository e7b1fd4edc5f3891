// Every ranking rule's switch and every tuning constant of search, in one place, each with why it
// is there and what measured it. DEFAULT_TUNING is frozen: a search service is built with a tuning
// (createSearchService's `tuning`, this by default) and passes it down to every stage that reads
// one, so the ablation (eval/real/ablate.ts) builds a service per patch without editing code. "Ablation" gives
// what a rule adds to the check half, recall@5 / MRR, in issue 22's ablation (docs/search-notes.md,
// at d86aa31). "All 122" is
// issue 9's questions before the tuning / check split of issue 22 (docs/search-notes.md): a
// figure taken there was tuned on every session it was measured on.

export interface SearchTuning {
  readonly bm25: {
    /** Term-frequency saturation. Swept on all 122, halves of the dev sessions: no other value gained on both. */
    readonly k1: number;
    /** Length normalisation (0: none). Swept with k1. Ablation (b = 0): +0.100 / +0.069 session, +0.043 / +0.076 project. */
    readonly b: number;
  };
  readonly coverage: {
    /**
     * A document's score is scaled by the share of the query's words it holds. Ablation: +0 / +0.006 session, −0.011 / +0.011 project.
     * Issue 39's ablation (363 questions) said delete; removing it lowered the check half's MRR (−1.5 session, −3.8 project questions): kept.
     */
    readonly on: boolean;
    /** Factor of a document holding none of the words (all of them: 1). Swept with k1. */
    readonly floor: number;
    /**
     * Coverage counts only the words the collection holds (a typo or a foreign name tells no document from another). Ablation: +0.011 / +0.007 project.
     * Issue 52 (worth about a question): tuning half −0.002 / +0.001 · +0.000 / +0.001; kept because off, the check half loses 2 questions of project recall@5 (0.856 → 0.845).
     */
    readonly foundWordsOnly: boolean;
  };
  /** Target characters of one chunk (a document). 3 and 6 KB ranked no better on all 122. */
  readonly chunkChars: number;
  /**
   * Times a term in a tool call's input counts (1: as the output). 2 ranked all 122 lower, 4 lower on one half.
   * Ablation (1): +0 / +0.011 session, −0.011 / +0.023 project, project prose −0.050: fails issue 22's rule (docs/search-notes.md).
   * Issue 39's ablation (363 questions) said delete; removing it lowered the check half project-wide (recall@5 −1, MRR −0.5 questions; identifier MRR −1.5): kept.
   */
  readonly inputWeight: number;
  readonly spread: {
    /**
     * Share of a message's next parts, and a part's next chunks, in its score (0: best alone). Swept with k1. Ablation: +0.020 / −0.008 session, +0.011 / +0.015 project.
     * Issue 39's ablation (363 questions) said delete; 0 lowered the check half's recall@5 (−2 session, −4 project questions): kept.
     */
    readonly otherShare: number;
    /** How many next parts of a message, and next chunks of a part, count. Not measured. */
    readonly othersCounted: number;
  };
  /**
   * A compaction summary's score against the messages it restates (1: alike). 0.3 and 0.7 ranked all 122 alike. Ablation (1): +0.011 / +0.006 project.
   * Issue 52 (worth about a question): tuning half +0.000 / +0.003 · +0.000 / +0.004; kept because at 1 the check half's project prose MRR falls 1.3 questions' worth (0.572 → 0.557).
   */
  readonly summaryWeight: number;
  /** How many of a message's best chunks the boosts look at (a cost bound). Not measured. */
  readonly boostedChunks: number;
  readonly compounds: {
    /** A path or name of the query held whole boosts a chunk (a share of the boost per compound). Ablation: +0.020 / +0.010 session, +0 / +0.011 project. */
    readonly on: boolean;
    /** Factor of a chunk holding every compound of the query. Not swept. */
    readonly boost: number;
  };
  readonly intent: {
    /**
     * A command or change question raises the call that ran or made it. Ablation: +0.010 / +0.034 session, +0.011 / +0.032 project.
     * Issue 39's ablation (363 questions) said delete; removing it lowered the check half's MRR (−1.1 session, −0.7 project questions; command −2.8, −2.9): kept.
     */
    readonly on: boolean;
    /** Factor of a call whose input holds every content word. Not swept. */
    readonly boost: number;
  };
  /** What a query expands to. A parse is cached per tuning object (text/query.ts). */
  readonly query: {
    readonly stems: {
      /**
       * A natural-language word also matches the other forms of its stem. Ablation: +0.020 / −0.006 session, +0 / +0.021 project.
       * Issue 52: on the check half it lowers overall (−0.005 / −0.008 session, −0.006 / +0.001 project) but off, session prose MRR falls 1.2 questions' worth (0.588 → 0.573); on the tuning half off loses 2 command questions per scope: kept.
       */
      readonly on: boolean;
      /** Weight of another form against the word typed. 0.2–0.5 swept on all 122. */
      readonly weight: number;
      /** Most other forms kept. Not measured. */
      readonly max: number;
    };
    readonly functionWords: {
      /**
       * Function words beside content words are glue, not searched. Ablation (searched as content
       * words): +0.130 / +0.070 session, +0.096 / +0.110 project. Searched at weight 0.1 (to
       * 0c6d728), the check half was 0.006 / 0.007 session and 0.016 / 0.005 project lower than
       * not searched (docs/search-notes.md, "Glue words not searched").
       */
      readonly on: boolean;
    };
    /** Share of an identifier's weight its whole form takes; its parts share the rest. Not measured. */
    readonly wholeShare: number;
    readonly languages: {
      /**
       * A German or Portuguese query (text/language.ts) has its language's function words as glue
       * beside English's. Issue 39's set, tuning half: session 0.853 / 0.680 → 0.867 / 0.686, project
       * 0.845 / 0.622 → 0.859 / 0.628; check half: session 0.830 / 0.634 → 0.841 / 0.633, project
       * 0.839 / 0.626 → 0.851 / 0.624 (a German command question into the top 5; prose MRR −0.011).
       * Its language's stemmer instead of English's, and CJK query runs cut into words, did not pay
       * on the check half (docs/search-notes.md). Issue 52 (worth about a question): off, the tuning
       * half loses 1.1 questions overall per scope and cursor MRR 1.5; the check half 1 question of
       * recall@5 per scope (command, claude-code): kept, chosen on the tuning half.
       */
      readonly on: boolean;
    };
  };
  readonly plainQuestion: {
    /**
     * A question in plain words (no path or name, no command or change intent, no number, minWords
     * content words or more) weighs a tool part's chunks by toolWeight (rank/plain-question.ts).
     * Chosen on the tuning half (0.4 · 3 of 0.8, 0.6, 0.4 × 3, 5; docs/search-notes.md), run once
     * on the check half: session 0.880 / 0.697 → 0.890 / 0.712 (prose 0.786 / 0.531 → 0.810 / 0.593),
     * project 0.840 / 0.718 → 0.851 / 0.739 (prose 0.700 / 0.506 → 0.725 / 0.567); error MRR −0.05
     * and session path MRR −0.057, each under a question's worth.
     */
    readonly on: boolean;
    readonly toolWeight: number;
    readonly minWords: number;
  };
  readonly typos: {
    /**
     * A word found in no session searched is replaced by the nearest indexed term. Ablation: +0 / +0.000 session, +0 / +0.005 project (typo MRR +0.18 / +0.10): fails issue 22's rule.
     * Issue 39's ablation: gains the check half under a question; kept as a user-facing feature (`searched_instead`) that raises the tuning half's typo kind (+0.091 / +0.020 session, +0.100 / +0.022 project) and lowers no check cell by a question.
     */
    readonly on: boolean;
    /** Share of its word's weight a correction keeps. Not swept. */
    readonly weight: number;
  };
  readonly project: {
    /** Project scope scores every session with the document frequencies of all sessions searched. Ablation: +0.032 / +0.039 project. */
    readonly sharedIdf: boolean;
    /**
     * …and weighs a session's documents by the share of the query's words the session holds. Ablation: +0.011 / +0.007 project.
     * Issue 52 (worth about a question): tuning half +0.000 / +0.002 project; kept because off, the check half loses 2 questions of project recall@5 (0.856 → 0.845).
     */
    readonly sessionShare: boolean;
  };
  /** history_sessions with a query (not in the eval: not measured). */
  /**
   * How the rankings of a query and its alternatives (other phrasings of the same need) are fused
   * into one (rank/fusion.ts). Chosen on the tuning half of the real eval with the blind
   * alternatives, by the sweep's rule (eval/real/sweep.ts), over 24 settings (docs/search-notes.md,
   * "Alternatives: several phrasings fused"). Tuning half, session / project MRR: rank fusion
   * k = 60 0.721 / 0.693, k = 10 0.743 / 0.714; score fusion 0.776 / 0.741, this 0.779 / 0.746.
   */
  readonly fusion: {
    /** "rank": reciprocal rank fusion, Σ weight / (k + rank); "score": Σ weight × score / the phrasing's top score. */
    readonly method: "rank" | "score";
    /** Reciprocal rank fusion's k: higher flattens the difference between a first and a tenth place. Best of 1 to 120 at 10. */
    readonly k: number;
    /** The query's weight; each alternative weighs 1. Score fusion, swept 1 to 3: 2 (1: MRR sum −0.008). */
    readonly queryWeight: number;
    /** How deep each phrasing is ranked for the fusion (at least the page's end and one past it). 15, 30, 50, 100 within 0.015 of each other. */
    readonly depth: number;
  };
  readonly sessions: {
    /** Weights of a session's three best messages in its content score. */
    readonly contentWeights: readonly number[];
    /** Content score raised by this share of the title's coverage. */
    readonly titleRaise: number;
    /** Title coverage adds this share of the best content score. */
    readonly titleShare: number;
  };
}

export const DEFAULT_TUNING: SearchTuning = deepFrozen({
  bm25: { k1: 1.2, b: 0.75 },
  coverage: { on: true, floor: 0.4, foundWordsOnly: true },
  chunkChars: 4096,
  inputWeight: 3,
  spread: { otherShare: 0.25, othersCounted: 4 },
  summaryWeight: 0.5,
  boostedChunks: 10,
  compounds: { on: true, boost: 1.6 },
  intent: { on: true, boost: 2 },
  query: {
    stems: { on: true, weight: 0.3, max: 8 },
    functionWords: { on: true },
    wholeShare: 0.5,
    languages: { on: true },
  },
  plainQuestion: { on: true, toolWeight: 0.4, minWords: 3 },
  typos: { on: true, weight: 0.5 },
  project: { sharedIdf: true, sessionShare: true },
  sessions: { contentWeights: [1, 0.3, 0.15], titleRaise: 0.5, titleShare: 0.25 },
  fusion: { method: "score", k: 60, queryWeight: 2, depth: 15 },
});

/** `value` with every object in it frozen: no search can change the tuning another reads. */
function deepFrozen<T extends object>(value: T): T {
  for (const field of Object.values(value)) if (field !== null && typeof field === "object") deepFrozen(field);
  return Object.freeze(value);
}
