// A question that asks for a command run or a change made (text/query-intent.ts) is answered by the tool
// call that ran or made it: a chunk holding such a call's input is raised by the share of the
// query's content words (its words other than those stating the intent) the input holds. For a
// command question, a call that runs a command (not one that only writes a file from a heredoc);
// for a change question, a call that edits or writes a file, or a shell command that does
// (`sed -i`, a heredoc or `>` into a file, `git checkout`), not a read-only view (`cat`, `grep`,
// `sed -n`). Checked on the leading candidates only (rank.ts), on their text, so the scan and the
// index rank alike.

import { inputString } from "../../history/tool-text.ts";
import type { HistoryPart, ToolPart } from "../../history/types.ts";
import type { ScoredDoc } from "../types.ts";
import { fold } from "../text/normalize.ts";
import { countTerm, type ParsedQuery } from "../text/query.ts";
import { holdsCompound } from "./compound.ts";

/** Input arguments that carry a shell command (bash, Bash, exec_command …). */
const COMMAND_KEYS = ["command", "cmd"];
/** Input arguments that carry new file content or an edit (edit, multiedit, write, apply_patch, str_replace …). */
const EDIT_KEYS = [
  "oldString",
  "newString",
  "old_string",
  "new_string",
  "old_str",
  "new_str",
  "content",
  "file_text",
  "edits",
  "patch",
  "patchText",
  "patch_text",
  "diff",
];

/**
 * Shell commands that change files: in-place edits, writes through a redirection or tee, patches,
 * reverts, moves and deletions. A redirection to a descriptor (`2>&1`) or /dev/null writes nothing.
 */
const EDITING_COMMAND =
  /\b(?:sed|perl|ruby)\s+(?:-\w+\s+)*-[a-zA-Z]*i|(?:^|[^\d&>-])>>?\s*(?![&>\s]|\/dev\/null)\S|\btee\s+(?!\/dev\/null)|\b(?:patch|apply_patch)\b|\bgit\s+(?:apply|checkout|restore|revert|rm|mv)\b|(?:^|[;&|]\s*|\n)\s*(?:mv|cp|rm|truncate)\s/;

/** A quoted argument on one line. */
const QUOTED = /'[^'\n]*'|"(?:[^"\\\n]|\\.)*"/g;

/**
 * A command that only writes a file from a heredoc (`cat <<'EOF' > a.py … EOF`) runs nothing: it
 * is a write, which answers a change question, not a command question (a script it writes holds
 * every word of the command it will run, and outranked the run itself).
 */
const HEREDOC_WRITE_ONLY = /^\s*cat\s+(?:>\s*\S+\s+)?<<-?\s*(['"]?)(\w+)\1(?:\s*>\s*\S+)?[ \t]*\n[\s\S]*\n\s*\2\s*$/;

function hasArg(input: unknown, keys: readonly string[]): boolean {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return false;
  const record = input as Record<string, unknown>;
  return keys.some((key) => record[key] !== undefined && record[key] !== null && record[key] !== "");
}

/** The shell command a tool call ran, if it ran one. */
function commandOf(part: ToolPart): string | undefined {
  return inputString(part.input, ...COMMAND_KEYS);
}

/** Whether a tool call changed files: an edit or write tool, or a shell command that edits. */
export function editsFiles(part: ToolPart): boolean {
  if (hasArg(part.input, EDIT_KEYS)) return true;
  const command = commandOf(part);
  // Quoted text is an argument, not shell syntax (`python -c 'print(a > b)'`, `grep "x > 0"`).
  return command !== undefined && EDITING_COMMAND.test(command.replace(QUOTED, "''"));
}

/** Whether the call is what the query's intent asks for. */
export function answersIntent(parsed: ParsedQuery, part: ToolPart): boolean {
  const intent = parsed.intent;
  if (!intent) return false;
  const command = commandOf(part);
  if (intent.command && command !== undefined && !HEREDOC_WRITE_ONLY.test(command)) return true;
  return intent.change && editsFiles(part);
}

/**
 * Share of the query's content words (not function words, not the words stating the intent) that
 * `input` holds: a word by any of its terms, a path or name only whole. 0 when there are none.
 */
export function contentShare(parsed: ParsedQuery, input: string): number {
  const intentGroups = parsed.intent?.groups ?? [];
  const content = parsed.groups - intentGroups.length;
  if (content <= 0) return 0;
  const folded = fold(input);
  const compoundGroups = new Set(parsed.compounds.map((compound) => compound.group));
  const held = new Set<number>();
  for (const compound of parsed.compounds) {
    if (!intentGroups.includes(compound.group) && holdsCompound(input, folded, compound.text)) held.add(compound.group);
  }
  for (const term of parsed.terms) {
    const group = term.group;
    if (held.has(group) || compoundGroups.has(group) || intentGroups.includes(group)) continue;
    if (folded.includes(term.token) && countTerm(input, folded, term) > 0) held.add(group);
  }
  return held.size / content;
}

function toolPart(doc: ScoredDoc): ToolPart | undefined {
  const part: HistoryPart | undefined = doc.message.parts.find((p) => p.id === doc.partId);
  return part?.kind === "tool" ? part : undefined;
}

/** The intent boost for a chunk whose answering call's input holds `share` of the content words: written once, its bound is its value at share 1. */
function raised(parsed: ParsedQuery, share: number): number {
  const { on, boost } = parsed.tuning.intent;
  return on && parsed.intent ? 1 + (boost - 1) * share : 1;
}

/**
 * How much a chunk's score is raised for the query's intent: for a chunk holding the input of a
 * call that answers it, 1 + (boost - 1) × the share of content words its input holds (the boost:
 * tuning.ts); 1 otherwise (no intent, not a tool call, input not in this chunk, or a call of
 * another kind).
 */
export function intentBoost(parsed: ParsedQuery, doc: ScoredDoc, text: string): number {
  if (intentBound(parsed, doc) === 1) return 1;
  const part = toolPart(doc);
  if (!part || !answersIntent(parsed, part)) return 1;
  return raised(parsed, contentShare(parsed, text.slice(0, doc.input)));
}

/**
 * The most intentBoost can give `doc` before its text is read: none but to a chunk holding a
 * call's input; the most it gives any chunk when `doc` is not known.
 */
export function intentBound(parsed: ParsedQuery, doc?: Pick<ScoredDoc, "type" | "input">): number {
  return !doc || (doc.type === "tool" && doc.input) ? raised(parsed, 1) : 1;
}
