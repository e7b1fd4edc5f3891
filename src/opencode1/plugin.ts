// OpenCode 1.x: the host calls `server(input)` and takes the returned hooks object. The reader is
// the SDK client with the read-only SQLite fast path in front; tools and hooks are 1.x's own.

import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import { createEngram, engramConfig } from "../tools/engram.ts";
import { createHookSet } from "./hooks.ts";
import { applyHostEvent } from "./events.ts";
import { withFastPath } from "../store/fast-path-reader.ts";
import { hostLog } from "../util/log.ts";
import { WIRING_DEFAULTS } from "../config/schema.ts";
import { createSdkReader, type SessionClient } from "../store/sdk-reader.ts";
import { openSqliteReader } from "../store/store-file.ts";
import { dataDir } from "../store/sqlite.ts";
import { dropSchemaDialect, type ToolDefinitionOutput } from "../tools/definition.ts";
import { defaultOtherProjectsToAsk } from "../tools/reach.ts";

export const EngramPlugin: Plugin = async (input: PluginInput) => {
  const log = hostLog(input.client);
  const config = engramConfig(input.directory, log);
  const sdkReader = createSdkReader(input.client as unknown as SessionClient, WIRING_DEFAULTS.sdkReads);
  const reader = config().store.sqlite_fast_path ? withFastPath(sdkReader, (probe) => openSqliteReader(dataDir(), probe), log) : sdkReader;
  const { source, tools, projection, close } = createEngram({ directory: input.directory, config, reader, log });
  const { hooks: engramHooks, onEvent } = createHookSet({ source, config, directory: input.directory, log });

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
      applyHostEvent(projection, event);
      await onEvent(event);
    },
    // The host calls this when it disposes the instance (shutdown, reload): nothing may outlive it.
    async dispose() {
      await close();
      log("info", "disposed: regex worker ended, search indexes dropped, SQLite handle closed");
    },
  };
  return hooks;
};
