// A search service over any source with the default config, optionally patched, and a tuning
// (DEFAULT_TUNING unless given), for tests and the eval.

import { defaultConfig, type EngramConfig } from "../../config/schema.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistorySource } from "../../history/source.ts";
import { createInspectableSearchService, type InspectableSearchService } from "../service.ts";
import type { SearchRequest } from "../types.ts";
import { DEFAULT_TUNING, type SearchTuning } from "../tuning.ts";

export function testService(
  source: HistorySource,
  patch: (config: EngramConfig) => void = () => {},
  tuning: SearchTuning = DEFAULT_TUNING,
): InspectableSearchService {
  const config = defaultConfig();
  patch(config);
  const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
  return createInspectableSearchService({ source, config: () => config, visibility: () => visibility, tuning });
}

/**
 * The message ids a query returns in one session, first cold (a fresh service: the scan) and
 * then from the built index, so a test checks both paths agree on what it asserts.
 */
export async function idsOnBothPaths(
  source: HistorySource,
  sessionId: string,
  query: string,
  extra: Partial<SearchRequest> = {},
): Promise<{ cold: string[]; warm: string[] }> {
  const request: SearchRequest = { query, callerSessionId: "ses_other", sessionId, scope: "session", types: ["text", "tool"], ...extra };
  const cold = (await testService(source).search(request)).results.map((r) => r.message.id);
  const service = testService(source);
  await service.buildIndex(sessionId);
  const warm = (await service.search(request)).results.map((r) => r.message.id);
  return { cold, warm };
}
