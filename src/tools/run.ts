// The shell every tool handler runs in: parse arguments, answer compact JSON, and turn unexpected
// failures into a short message (the host shows the model only the message, never a stack).

import { toJson } from "../history/compact.ts";
import { HistoryError } from "../history/errors.ts";
import { asArgs, type Args } from "./args.ts";
import { isHostRefusal } from "./reach.ts";

export async function runTool(name: string, raw: unknown, handler: (args: Args) => Promise<unknown>): Promise<string> {
  try {
    return toJson(await handler(asArgs(raw)));
  } catch (error) {
    if (error instanceof HistoryError || isHostRefusal(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new HistoryError(`${name} failed unexpectedly (${detail.slice(0, 300)}). Try again, or use another history tool.`);
  }
}
