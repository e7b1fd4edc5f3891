// The labelled question sets of the real-session eval, by the issue that wrote them: issue 9's
// (the dev sessions, tuned on since), issue 22's (mostly paraphrases, written before search ran
// on them, over the two Claude Code sessions and the drawn swebench sessions) and issue 39's (over
// dev2/'s sessions of many agents and languages, written before search ran on them).

import { ISSUE22_QUESTIONS } from "./questions-issue22.ts";
import { ISSUE39_QUESTIONS } from "./questions-issue39.ts";
import { ISSUE9_QUESTIONS, type RealQuestion } from "./questions.ts";

export const QUESTION_SETS = { issue9: ISSUE9_QUESTIONS, issue22: ISSUE22_QUESTIONS, issue39: ISSUE39_QUESTIONS } as const satisfies Record<
  string,
  readonly RealQuestion[]
>;
export type QuestionSet = keyof typeof QUESTION_SETS;

export const REAL_QUESTIONS: readonly RealQuestion[] = [...ISSUE9_QUESTIONS, ...ISSUE22_QUESTIONS, ...ISSUE39_QUESTIONS];
