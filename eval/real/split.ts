// Which labelled session is in which half of the real-session eval (issue 22, dev2/ added by issue
// 39), fixed before any rule or constant is chosen on it. Every rule and constant of the ranking is
// chosen on the tuning half; the check half only says whether a choice holds on sessions it was not
// chosen on, and the floors guard the check half alone.
//
// Every session has an agent family: the agent (or harness) that wrote it. The rules, applied
// without looking at any score:
// - dev/ and swebench/ (issue 22): two families, the Claude Code sessions and the SWE-bench agent
//   runs; within each, in the order listed below (the dev sessions by file name, then the swebench
//   sessions in the order draw.ts drew them), they go alternately to tuning and to check, the first
//   to tuning. So each half holds one of the two Claude Code sessions and half the SWE-bench runs,
//   and the kinds, written alike for every session, fall about evenly. (For the dev sessions this
//   is the split the first sweep used: docs/search-notes.md.)
// - dev2/ (issue 39): per family, in file-name order, alternately tuning then check, the first to
//   tuning; a family with one session only goes to check, so the check half spans every family.
//   This was applied before any of its questions was asked, and is not changed after.
// A session added later takes its place at the end of its family's order within its folder.
//
// Projects (project scope: sibling sessions compete): dev/ is one project, the drawn swebench/
// sessions another; in dev2/ a project is a group of sibling sessions (same prefix up to the last
// name part: aider-aider-*, cc-pai-*, cursor-alpamayo-*, gem-audioset-*, oc-darkfactory-*), and
// codex-openprintkit-1101, cursor-bscrag-plan and cursor-llavamap-gt are each a project alone.

export type Half = "tuning" | "check";
export const HALVES: readonly Half[] = ["tuning", "check"];

/** Corpus folder under ../shared/corpus/ a session is read from. */
export type CorpusFolder = "dev" | "swebench" | "dev2";

/** The agent (or harness) that wrote a session. */
export type Family = "claude-code" | "swebench" | "aider" | "codex" | "cursor" | "gemini" | "opencode";
export const FAMILIES: readonly Family[] = ["claude-code", "swebench", "aider", "codex", "cursor", "gemini", "opencode"];

export interface SplitSession {
  /** File name without `.json.gz`: how the questions name the session. */
  name: string;
  folder: CorpusFolder;
  family: Family;
  /** The project the session belongs to: the sessions a project-wide search ranks it among. */
  project: string;
  half: Half;
}

export const SPLIT: readonly SplitSession[] = [
  { name: "cc-spotter-8463c716", folder: "dev", family: "claude-code", project: "dev", half: "tuning" },
  { name: "cc-spotter-ae4a77f8", folder: "dev", family: "claude-code", project: "dev", half: "check" },
  { name: "mini-django-15629", folder: "dev", family: "swebench", project: "dev", half: "tuning" },
  { name: "mini-matplotlib-24177", folder: "dev", family: "swebench", project: "dev", half: "check" },
  { name: "mini-pylint-6528", folder: "dev", family: "swebench", project: "dev", half: "tuning" },
  { name: "mini-pytest-6197", folder: "dev", family: "swebench", project: "dev", half: "check" },
  { name: "mini-requests-1142", folder: "dev", family: "swebench", project: "dev", half: "tuning" },
  { name: "mini-scikit-learn-25102", folder: "dev", family: "swebench", project: "dev", half: "check" },
  // draw.ts: drawSwebenchSessions(SWEBENCH_DRAWN), seed 22, in draw order.
  { name: "django__django-11490", folder: "swebench", family: "swebench", project: "swebench", half: "tuning" },
  { name: "django__django-13158", folder: "swebench", family: "swebench", project: "swebench", half: "check" },
  { name: "pydata__xarray-7229", folder: "swebench", family: "swebench", project: "swebench", half: "tuning" },
  { name: "pydata__xarray-6938", folder: "swebench", family: "swebench", project: "swebench", half: "check" },
  { name: "django__django-15930", folder: "swebench", family: "swebench", project: "swebench", half: "tuning" },
  { name: "sympy__sympy-18211", folder: "swebench", family: "swebench", project: "swebench", half: "check" },
  // dev2/, by file name (issue 39).
  { name: "aider-aider-0806", folder: "dev2", family: "aider", project: "dev2/aider-aider", half: "tuning" },
  { name: "aider-aider-0820", folder: "dev2", family: "aider", project: "dev2/aider-aider", half: "check" },
  { name: "cc-pai-351b5d6c", folder: "dev2", family: "claude-code", project: "dev2/cc-pai", half: "tuning" },
  { name: "cc-pai-5fb80456", folder: "dev2", family: "claude-code", project: "dev2/cc-pai", half: "check" },
  { name: "codex-openprintkit-1101", folder: "dev2", family: "codex", project: "dev2/codex-openprintkit-1101", half: "check" },
  { name: "cursor-alpamayo-rmrepo", folder: "dev2", family: "cursor", project: "dev2/cursor-alpamayo", half: "tuning" },
  { name: "cursor-alpamayo-speed", folder: "dev2", family: "cursor", project: "dev2/cursor-alpamayo", half: "check" },
  { name: "cursor-bscrag-plan", folder: "dev2", family: "cursor", project: "dev2/cursor-bscrag-plan", half: "tuning" },
  { name: "cursor-llavamap-gt", folder: "dev2", family: "cursor", project: "dev2/cursor-llavamap-gt", half: "check" },
  { name: "gem-audioset-cpu", folder: "dev2", family: "gemini", project: "dev2/gem-audioset", half: "tuning" },
  { name: "gem-audioset-duck", folder: "dev2", family: "gemini", project: "dev2/gem-audioset", half: "check" },
  { name: "oc-darkfactory-kindwizard", folder: "dev2", family: "opencode", project: "dev2/oc-darkfactory", half: "tuning" },
  { name: "oc-darkfactory-silentnebula", folder: "dev2", family: "opencode", project: "dev2/oc-darkfactory", half: "check" },
];

/** How many swebench sessions were drawn (decided before the draw). */
export const SWEBENCH_DRAWN = 6;

/** The split's entry of a session; an unlisted session is an error, never a default. */
function splitEntry(session: string): SplitSession {
  const found = SPLIT.find((s) => s.name === session);
  if (!found) throw new Error(`session ${session} is not in the eval's split (split.ts)`);
  return found;
}

/** The half of a session the split lists. */
export const halfOf = (session: string): Half => splitEntry(session).half;
/** The agent family of a session the split lists. */
export const familyOf = (session: string): Family => splitEntry(session).family;
/** The project of a session the split lists. */
export const projectOf = (session: string): string => splitEntry(session).project;
