// One default export for both OpenCode generations. 1.x hosts (1.18.33) call `server(input)`; 2.x
// hosts decode `{id, setup}` and call `setup(ctx)`, ignoring the rest. No `tui` key: a 1.x host
// rejects a non-function `tui`. The host calls every other export of a 1.x module as a plugin, so
// there are none.
import type { Plugin } from "@opencode-ai/plugin";
import { EngramPlugin } from "./opencode1/plugin.ts";
import { setupEngram } from "./opencode2/setup.ts";

/**
 * Set once a 1.x host has started the plugin in this process: the 1.x host's embedded 2.x pass,
 * which calls `setup` too, must then register nothing, or every tool would be registered twice.
 */
let startedByOpencode1 = false;

const server: Plugin = (input) => {
  startedByOpencode1 = true;
  return EngramPlugin(input);
};

async function setup(ctx: unknown): Promise<(() => Promise<void>) | undefined> {
  return startedByOpencode1 ? undefined : setupEngram(ctx);
}

export default { id: "opencode-engram", server, setup };
