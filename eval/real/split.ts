// Which labelled session is in which half of the real-session eval (issue 22), fixed before any
// rule or constant is chosen on it. Every rule and constant of the ranking is chosen on the tuning
// half; the check half only says whether a choice holds on sessions it was not chosen on, and the
// floors guard the check half alone.
//
// The rule, applied without looking at any score: sessions fall into two groups, the Claude Code
// sessions and the SWE-bench agent runs; within each group, in the order listed below (the dev
// sessions by file name, then the swebench sessions in the order draw.ts drew them), they go
// alternately to tuning and to check, the first to tuning. So each half holds one of the two
// Claude Code sessions and half the SWE-bench runs, and the kinds, written alike for every
// session, fall about evenly. (For the dev sessions this is the split docs/architecture.md's sweep
// used.) A session added later takes its place at the end of its group's order.

export type Half = "tuning" | "check";
export const HALVES: readonly Half[] = ["tuning", "check"];

/** Corpus folder under ../shared/corpus/: each folder is one project of the eval. */
export type CorpusFolder = "dev" | "swebench";

export interface SplitSession {
  /** File name without `.json.gz`: how the questions name the session. */
  name: string;
  folder: CorpusFolder;
  group: "claude-code" | "swebench-run";
  half: Half;
}

export const SPLIT: readonly SplitSession[] = [
  { name: "cc-spotter-8463c716", folder: "dev", group: "claude-code", half: "tuning" },
  { name: "cc-spotter-ae4a77f8", folder: "dev", group: "claude-code", half: "check" },
  { name: "mini-django-15629", folder: "dev", group: "swebench-run", half: "tuning" },
  { name: "mini-matplotlib-24177", folder: "dev", group: "swebench-run", half: "check" },
  { name: "mini-pylint-6528", folder: "dev", group: "swebench-run", half: "tuning" },
  { name: "mini-pytest-6197", folder: "dev", group: "swebench-run", half: "check" },
  { name: "mini-requests-1142", folder: "dev", group: "swebench-run", half: "tuning" },
  { name: "mini-scikit-learn-25102", folder: "dev", group: "swebench-run", half: "check" },
  // draw.ts: drawSwebenchSessions(SWEBENCH_DRAWN), seed 22, in draw order.
  { name: "django__django-11490", folder: "swebench", group: "swebench-run", half: "tuning" },
  { name: "django__django-13158", folder: "swebench", group: "swebench-run", half: "check" },
  { name: "pydata__xarray-7229", folder: "swebench", group: "swebench-run", half: "tuning" },
  { name: "pydata__xarray-6938", folder: "swebench", group: "swebench-run", half: "check" },
  { name: "django__django-15930", folder: "swebench", group: "swebench-run", half: "tuning" },
  { name: "sympy__sympy-18211", folder: "swebench", group: "swebench-run", half: "check" },
];

/** How many swebench sessions were drawn (decided before the draw). */
export const SWEBENCH_DRAWN = 6;

/** The half of a session the split lists; an unlisted session is an error, never a default. */
export function halfOf(session: string): Half {
  const found = SPLIT.find((s) => s.name === session);
  if (!found) throw new Error(`session ${session} is not in the eval's split (split.ts)`);
  return found.half;
}
