// Registers the history tools on OpenCode 2 from the very definitions 1.x gets: the same zod
// shapes (as plain JSON Schema, built as 1.18.33 builds a plugin tool's), the same handlers, the
// same compact JSON. What differs is the envelope: one object per tool carrying its `name`,
// `codemode: false` so the model can call it by name, a result object (`content`: a result holding
// `output` is a defect without an output schema), and errors handed back as content instead of
// thrown (a rejected Promise tool is a defect the model cannot read); the host's own refusal is
// rethrown, as the host expects. Sources: docs/search-notes.md, "OpenCode 2 sources".

import { tool as tools, type ToolContext, type ToolDefinition } from "@opencode-ai/plugin";
import { HistoryError } from "../history/errors.ts";
import { withoutSchemaDialect } from "../tools/definition.ts";
import { isHostRefusal } from "../tools/reach.ts";
import { unexpectedFailure } from "../tools/run.ts";
import type { V2ToolContext } from "./tool-context.ts";
import type { V2Registration } from "./types.ts";

const z = tools.schema;

/** A JSON Schema object as the model gets it. */
type JsonSchemaObject = Record<string, unknown>;

/** The tool result of OpenCode 2 when no output schema is declared. */
interface V2ToolResult {
  readonly content: string;
}

/** The Tool.Info this plugin adds (Promise API). */
export interface V2ToolInfo {
  readonly name: string;
  readonly description: string;
  readonly input: JsonSchemaObject;
  readonly options: { readonly codemode: false };
  readonly execute: (input: unknown, context: V2ToolContext) => Promise<V2ToolResult>;
}

interface V2ToolEditor {
  add(tool: V2ToolInfo): void;
}

/** `ctx.tool` of the OpenCode 2 plugin context, as far as registering goes. */
export interface V2ToolDomain {
  readonly transform: (callback: (editor: V2ToolEditor) => void) => Promise<V2Registration>;
}

/** The JSON Schema of a tool's zod argument shape, as the model sees it on 1.x. */
function inputSchemaOf(args: ToolDefinition["args"]): JsonSchemaObject {
  return withoutSchemaDialect(z.toJSONSchema(z.object(args), { io: "input" }) as JsonSchemaObject);
}

/** The answer text of a 1.x result: our handlers give a string; the object form carries `output`. */
function answerText(result: Awaited<ReturnType<ToolDefinition["execute"]>>): string {
  return typeof result === "string" ? result : result.output;
}

function v2Tool(name: string, definition: ToolDefinition, contextOf: (call: V2ToolContext) => ToolContext): V2ToolInfo {
  return {
    name,
    description: definition.description,
    input: inputSchemaOf(definition.args),
    options: { codemode: false },
    async execute(input, call) {
      try {
        return { content: answerText(await definition.execute(input as never, contextOf(call))) };
      } catch (error) {
        // Ours (a bad argument, an unknown session, a refused read): the model reads the message.
        if (error instanceof HistoryError) return { content: error.message };
        // The host's own refusal (assert): it handles it as it handles its own tools'.
        if (isHostRefusal(error)) throw error;
        return { content: unexpectedFailure(name, error).message };
      }
    },
  };
}

/**
 * Adds each definition under its name in one transform, and resolves to the host's Registration
 * (dispose it to remove the tools). `contextOf` gives each call its 1.x-shaped context.
 */
export function registerHistoryTools(
  domain: V2ToolDomain,
  definitions: Readonly<Record<string, ToolDefinition>>,
  contextOf: (call: V2ToolContext) => ToolContext,
): Promise<V2Registration> {
  // Built once, outside the callback: the host may replay a transform whenever it rebuilds its tools.
  const infos = Object.entries(definitions).map(([name, definition]) => v2Tool(name, definition, contextOf));
  return domain.transform((editor) => {
    for (const info of infos) editor.add(info);
  });
}
