// The host's own tools as the scripted model calls them: 1.x names them bash/task and takes
// `filePath`; OpenCode 2 names them shell/subagent and takes `path`.
import type { MockToolCall } from "./mock-llm.ts";

type Generation = 1 | 2;

/** The name a generation stores for each built-in tool the tests call. */
export function builtinName(generation: Generation, tool: "bash" | "task" | "read" | "write" | "edit"): string {
  if (generation === 1) return tool;
  return { bash: "shell", task: "subagent", read: "read", write: "write", edit: "edit" }[tool];
}

export function shellCall(generation: Generation, command: string, description: string): MockToolCall {
  return generation === 1 ? { name: "bash", args: { command, description } } : { name: "shell", args: { command } };
}

export function subagentCall(generation: Generation, description: string, prompt: string): MockToolCall {
  return generation === 1
    ? { name: "task", args: { description, prompt, subagent_type: "general" } }
    : { name: "subagent", args: { agent: "general", description, prompt } };
}

const pathKey = (generation: Generation) => (generation === 1 ? "filePath" : "path");

export function readCall(generation: Generation, file: string): MockToolCall {
  return { name: "read", args: { [pathKey(generation)]: file } };
}

export function writeCall(generation: Generation, file: string, content: string): MockToolCall {
  return { name: "write", args: { [pathKey(generation)]: file, content } };
}

export function editCall(generation: Generation, file: string, oldString: string, newString: string): MockToolCall {
  return { name: "edit", args: { [pathKey(generation)]: file, oldString, newString } };
}
