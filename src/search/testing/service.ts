// A search service over any source with the default config, optionally patched, for tests and the eval.

import { defaultConfig, type EngramConfig } from "../../config/schema.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistorySource } from "../../host/source.ts";
import { createSearchService, type SearchService } from "../service.ts";

export function testService(source: HistorySource, patch: (config: EngramConfig) => void = () => {}): SearchService {
  const config = defaultConfig();
  patch(config);
  const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
  return createSearchService({ source, config: () => config, visibility: () => visibility });
}
