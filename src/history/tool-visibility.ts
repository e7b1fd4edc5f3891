// Decides which tools' inputs and outputs the model may see in pulls and search.
// Selectors: exact name, `*` glob, `!selector` denies, `!` alone denies everything so far.
// The last selector that matches a tool decides; user selectors follow the built-in ones.

/** Inputs are short and say what was done: shown for every tool. */
const BUILTIN_INPUT_SELECTORS: readonly string[] = ["*"];
/** `read` output is file content the agent can read again from disk; it would flood search. */
const BUILTIN_OUTPUT_SELECTORS: readonly string[] = ["*", "!read"];

export type ToolMatcher = (tool: string) => boolean;

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

export function compileSelectors(selectors: readonly string[]): ToolMatcher {
  const rules = selectors.map((raw) => {
    const selector = raw.trim();
    const deny = selector.startsWith("!");
    const pattern = deny ? selector.slice(1).trim() : selector;
    if (deny && pattern === "") return { deny, test: (_: string) => true };
    const regex = pattern.includes("*") ? globToRegExp(pattern) : undefined;
    return { deny, test: (tool: string) => (regex ? regex.test(tool) : tool === pattern) };
  });
  const cache = new Map<string, boolean>();
  return (tool) => {
    let verdict = cache.get(tool);
    if (verdict === undefined) {
      verdict = false;
      for (const rule of rules) if (rule.test(tool)) verdict = !rule.deny;
      cache.set(tool, verdict);
    }
    return verdict;
  };
}

export interface ToolVisibility {
  input: ToolMatcher;
  output: ToolMatcher;
}

export function toolVisibility(userInput: readonly string[], userOutput: readonly string[]): ToolVisibility {
  return {
    input: compileSelectors([...BUILTIN_INPUT_SELECTORS, ...userInput]),
    output: compileSelectors([...BUILTIN_OUTPUT_SELECTORS, ...userOutput]),
  };
}
