// The bench's floor: a plugin with the same tool names whose tools answer at once, so a figure
// of the real plugin can be read against what the host itself costs for one tool call.
import { tool, type Plugin } from "@opencode-ai/plugin";

const NAMES = ["history_search", "history_sessions", "history_browse_turns", "history_browse_messages", "history_pull_message", "history_pull_part"];

const server: Plugin = async () => ({
  tool: Object.fromEntries(NAMES.map((name) => [name, tool({ description: `${name} (no-op)`, args: {}, execute: async () => "{}" })])),
});

export default { id: "engram-bench-noop", server };
