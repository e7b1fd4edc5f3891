// JSON with comments and trailing commas, as OpenCode's own config files allow, read with
// jsonc-parser so a syntax error names its line and column in the user's file.

import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";

/** Parses `text`; throws a SyntaxError naming the first problem's line and column (1-based). */
export function parseJsonc(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const errors: ParseError[] = [];
  const value: unknown = parse(body, errors, { allowTrailingComma: true, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    const { line, column } = position(body, first.offset);
    throw new SyntaxError(`${words(printParseErrorCode(first.error))} at line ${line}, column ${column}`);
  }
  return value;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

/** "CommaExpected" → "comma expected". */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
