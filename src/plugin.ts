// Wires the plugin: config, the host source, the tools and the hooks.

import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import { globalConfigDir, watchedConfig } from "./config/load.ts";
import { toolVisibility, type ToolVisibility } from "./history/tool-visibility.ts";
import { createHookSet } from "./hooks/index.ts";
import { CachedHistorySource } from "./host/cached-source.ts";
import { applyHostEvent } from "./host/events.ts";
import { withFastPath } from "./host/fast-path-reader.ts";
import { hostLog } from "./host/log.ts";
import { dataDir, openSqliteReader } from "./host/sqlite-reader.ts";
import { createSdkReader, type SessionClient } from "./host/sdk-reader.ts";
import { createBrowseMessagesTool } from "./tools/browse-messages.ts";
import { createBrowseTurnsTool } from "./tools/browse-turns.ts";
import { dropSchemaDialect, type ToolDefinitionOutput } from "./tools/definition.ts";
import type { ToolDeps } from "./tools/deps.ts";
import { createPullMessageTool } from "./tools/pull-message.ts";
import { createPullPartTool } from "./tools/pull-part.ts";
import { createHistorySearchTool } from "./tools/search.ts";
import { defaultOtherProjectsToAsk } from "./tools/reach.ts";
import { createHistorySessionsTool } from "./tools/sessions.ts";
import { pauseIfDue } from "./search/scheduler.ts";
import { createSearchService } from "./search/service.ts";
import { ViewCache } from "./search/view-cache.ts";

export const EngramPlugin: Plugin = async (input: PluginInput) => {
  const log = hostLog(input.client);
  const config = watchedConfig([globalConfigDir(), input.directory], (message) => log("warn", message));
  let visibilityFor: { input: readonly string[]; output: readonly string[]; compiled: ToolVisibility } | undefined;
  const visibility = () => {
    const current = config();
    if (visibilityFor?.input !== current.show_tool_input || visibilityFor.output !== current.show_tool_output) {
      visibilityFor = {
        input: current.show_tool_input,
        output: current.show_tool_output,
        compiled: toolVisibility(current.show_tool_input, current.show_tool_output),
      };
    }
    return visibilityFor.compiled;
  };

  const sdkReader = createSdkReader(input.client as unknown as SessionClient, { pageSize: 500, timeoutMs: 60_000 });
  const reader = config().store.sqlite_fast_path
    ? withFastPath(sdkReader, (probe) => openSqliteReader(dataDir(), probe), log)
    : sdkReader;
  const source = new CachedHistorySource(reader, {
    checkSize: 20,
    maxSingleReads: 50,
    maxBytes: config().store.cache_bytes,
    pause: pauseIfDue,
  });
  const views = new ViewCache();
  const deps: ToolDeps = { config, visibility, source, views, directory: input.directory };
  const search = createSearchService({ source, config, visibility, views });

  const { hooks: engramHooks, onEvent } = createHookSet({ source, config, directory: input.directory, log });

  const tools = {
    history_browse_turns: createBrowseTurnsTool(deps),
    history_browse_messages: createBrowseMessagesTool(deps),
    history_pull_message: createPullMessageTool(deps),
    history_pull_part: createPullPartTool(deps),
    history_search: createHistorySearchTool(deps, search),
    history_sessions: createHistorySessionsTool(deps, search),
  };

  const hooks: Hooks = {
    ...engramHooks,
    tool: tools,
    // Runs before the host builds its agents' permission rules: other projects ask by default.
    async config(hostConfig) {
      defaultOtherProjectsToAsk(hostConfig as { permission?: unknown });
    },
    async "tool.definition"({ toolID }, output) {
      if (Object.hasOwn(tools, toolID)) dropSchemaDialect(output as ToolDefinitionOutput);
    },
    async event({ event }) {
      applyHostEvent(source, event);
      await onEvent(event);
    },
    // The host calls this when it disposes the instance (shutdown, reload): nothing may outlive it.
    async dispose() {
      search.close();
      await reader.close?.();
      log("info", "disposed: regex worker ended, search indexes dropped, SQLite handle closed");
    },
  };
  return hooks;
};
