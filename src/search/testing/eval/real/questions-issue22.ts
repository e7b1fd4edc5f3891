// Issue 22's labelled questions: mostly prose paraphrases that share few words with the message
// that answers them, the kind weakest on sessions search was not tuned on. Each was written, with
// its answers, from the session's text alone, before search was run on it, and none was changed
// after its rank was seen. Same format as questions.ts.

import type { RealQuestion } from "./questions.ts";

export const ISSUE22_QUESTIONS: RealQuestion[] = [
];
