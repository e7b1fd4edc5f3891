// Whether a question asks what the person said: "what did the user object to …", "which option did
// the user pick", "according to the user". Its answer is the person's own message, often a line
// ("don't use --no-git in those tests"), which loses on length and word count to the agent's long
// texts about the same topic. Read from the question's wording alone: the word `user` beside a verb
// of saying or deciding (English, the forms listed), or `according to the user`. A question about
// a user of the program (`the user's language`, `user id`) holds no such verb and is not one.

/** Verbs of saying, asking, deciding or correcting, in their usual forms. */
const SAYING = new Set(
  [
    "say says said tell tells told ask asks asked want wants wanted request requests requested",
    "object objects objected reject rejects rejected refuse refuses refused complain complains complained",
    "pick picks picked choose chooses chose chosen decide decides decided prefer prefers preferred",
    "agree agrees agreed approve approves approved accept accepts accepted confirm confirms confirmed",
    "clarify clarifies clarified correct corrects corrected insist insists insisted suggest suggests suggested",
    "answer answers answered reply replies replied mean means meant write writes wrote",
  ]
    .join(" ")
    .split(" "),
);

/** Whether a folded word of a user question states what it asks (`user`, a verb of saying), not what the answer holds. */
export function isRoleWord(word: string): boolean {
  return word === "user" || word === "users" || SAYING.has(word);
}

/** From the query's folded words in order: whether it asks what the user said or decided (above). */
export function asksForUser(words: readonly string[]): boolean {
  const at = words.indexOf("user");
  if (at < 0) return false;
  if (at >= 2 && words[at - 2] === "according" && words[at - 1] === "to") return true;
  if (at >= 3 && words[at - 3] === "according" && words[at - 2] === "to") return true;
  return words.some((word) => SAYING.has(word));
}
