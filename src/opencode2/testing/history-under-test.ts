// The six history tools over a small in-memory history, for the OpenCode 2 tests: the caller's
// session and a second one in the project /p, and one in another project, /q. Test-only.

import type { ToolDefinition } from "@opencode-ai/plugin";
import { defaultConfig, type EngramConfig } from "../../config/schema.ts";
import { textMessage, toolPart } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import { createSearchService } from "../../search/api.ts";
import { ViewCache } from "../../history/view-cache.ts";
import type { ToolDeps } from "../../tools/deps.ts";
import { createHistoryTools } from "../../tools/engram.ts";
import { MemorySource } from "../../store/testing/memory-source.ts";

export const PROJECT = "/p";
export const OTHER_PROJECT = "/q";
export const CALLER = "ses_caller";
export const SIBLING = "ses_sibling";
export const ELSEWHERE = "ses_elsewhere";

const T0 = Date.UTC(2026, 0, 1);

export interface HistoryUnderTest {
  source: MemorySource;
  config: EngramConfig;
  definitions: Record<string, ToolDefinition>;
  /** The sibling session's first message and its tool part, for pull calls. */
  siblingMessageId: string;
  siblingPartId: string;
}

export function historyUnderTest(): HistoryUnderTest {
  const source = new MemorySource();
  const own = [textMessage(CALLER, "user", "Fix the pelican retries.", T0), textMessage(CALLER, "assistant", "Done with the retries.", T0 + 1)];
  const tool = toolPart("bash", { command: "npm test" }, "pelican tests pass");
  const sibling = [
    textMessage(SIBLING, "user", "Why do pelican timeouts happen?", T0 + 2),
    textMessage(SIBLING, "assistant", "The timeout is 5 s.", T0 + 3, [tool]),
  ];
  const elsewhere = [textMessage(ELSEWHERE, "user", "Pelican notes of another project.", T0 + 4)];
  source.add({ id: CALLER, title: "caller", directory: PROJECT, created: T0, updated: T0 + 1 }, own);
  source.add({ id: SIBLING, title: "sibling", directory: `${PROJECT}/sub`, created: T0 + 2, updated: T0 + 3 }, sibling);
  source.add({ id: ELSEWHERE, title: "elsewhere", directory: OTHER_PROJECT, created: T0 + 4, updated: T0 + 4 }, elsewhere);
  const config = defaultConfig();
  const visibility = toolVisibility([], []);
  const views = new ViewCache();
  const deps: ToolDeps = { config: () => config, visibility: () => visibility, source, views, directory: PROJECT };
  const search = createSearchService({ source, config: () => config, visibility: () => visibility, views });
  return { source, config, definitions: createHistoryTools(deps, search), siblingMessageId: sibling[1]!.id, siblingPartId: tool.id };
}
