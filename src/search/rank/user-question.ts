// A question asking what the user said or decided (text/role.ts) is answered by the person's own
// message, often one line, which the agent's long texts on the same topic outscore: for such a
// question every chunk of a message the person did not write (the agent's, the host's) weighs
// tuning.ts's userQuestion.otherWeight. A weight that only lowers, like the tool weight of
// plain-question.ts, so the index's depth check and the projection's bounds hold as they are.

import type { HistoryMessage } from "../../history/types.ts";
import type { ParsedQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";

/** Whether the person wrote the message (not the agent, not the host on their behalf). */
function personWrote(message: HistoryMessage): boolean {
  return message.role === "user" && !message.hostWritten && !message.compactionContinue;
}

/** The weight of a message's chunks for this query: userQuestion.otherWeight for another's message in a user question, else 1. */
export function userChunkWeight(parsed: ParsedQuery | undefined, message: HistoryMessage): number {
  const rule = TUNING.query.userQuestion;
  return rule.on && parsed?.user === true && !personWrote(message) ? rule.otherWeight : 1;
}
