// What a question asks for, read from its own wording. A question that asks how something was run
// or which command or script did it ("how did we run dialyzer", "what command listed …") is a
// command question; one that asks what was changed, edited or fixed ("what did we change in
// a/b.py", "the sed edit that dropped …") is a change question. Either is answered by a tool call
// (a command's input, an edit), more than by prose repeating its words: ranking prefers those
// calls (rank/intent-boost.ts). The words are English verbs and nouns, listed below in their usual
// forms; a query holding none of them has no intent and ranks as any keyword query.

export type IntentKind = "command" | "change";

/** Words that ask for a command run: how it was run, which command did something. */
const COMMAND_WORDS = new Set(
  "run runs ran running rerun reran command commands cmd execute executes executed executing invoke invokes invoked invocation".split(" "),
);

/** Words for something written and then run (a script): either kind of call answers. */
const SCRIPT_WORDS = new Set(["script", "scripts"]);

/** Words that ask for a change made to a file: what was changed, edited, fixed, replaced, removed. */
const CHANGE_WORDS = new Set(
  [
    "change changes changed changing edit edits edited editing modify modifies modified modifying modification",
    "fix fixes fixed fixing patch patches patched patching replace replaces replaced replacing rewrite rewrites rewrote rewritten",
    "update updates updated updating revert reverts reverted reverting remove removes removed removing delete deletes deleted deleting",
    "drop drops dropped dropping insert inserts inserted inserting rename renames renamed renaming",
  ]
    .join(" ")
    .split(" "),
);

const COMMAND: readonly IntentKind[] = ["command"];
const CHANGE: readonly IntentKind[] = ["change"];
const EITHER: readonly IntentKind[] = ["command", "change"];
const NONE: readonly IntentKind[] = [];

/** The intents a folded query word states (none for most words). */
export function intentsOfWord(word: string): readonly IntentKind[] {
  if (COMMAND_WORDS.has(word)) return COMMAND;
  if (CHANGE_WORDS.has(word)) return CHANGE;
  if (SCRIPT_WORDS.has(word)) return EITHER;
  return NONE;
}

/** What a query asks for, and which of its words say so. */
export interface QueryIntent {
  command: boolean;
  change: boolean;
  /** Query words (coverage groups) that state the intent: wording of the question, not content a tool call must hold. */
  groups: number[];
}

/** The intent of a query from the intent words it holds (their intents and groups); undefined for none. */
export function queryIntent(words: ReadonlyArray<{ kinds: readonly IntentKind[]; group: number }>): QueryIntent | undefined {
  if (words.length === 0) return undefined;
  return {
    command: words.some((word) => word.kinds.includes("command")),
    change: words.some((word) => word.kinds.includes("change")),
    groups: words.map((word) => word.group),
  };
}
