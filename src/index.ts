// The package exports only the plugin: the host calls every exported function as a plugin.
import { EngramPlugin } from "./plugin.ts";

export default { id: "opencode-engram", server: EngramPlugin };
