// One default export for both OpenCode generations. 1.x hosts (1.18.33) call `server(input)`; 2.x
// hosts decode `{id, setup}` and call `setup(ctx)`, ignoring the rest. No `tui` key: a 1.x host
// rejects a non-function `tui`. The host calls every other export of a 1.x module as a plugin, so
// there are none.
import { EngramPlugin } from "./plugin.ts";
import { setupEngram } from "./setup.ts";

export default { id: "opencode-engram", server: EngramPlugin, setup: setupEngram };
