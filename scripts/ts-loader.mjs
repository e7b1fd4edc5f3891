// The one loader of the project's TypeScript tools (eval, test:corpus, bench, demo) on Node 20:
// .ts modules are transpiled (types stripped) with the project's own TypeScript on load. Bun runs
// .ts natively and does not need it.
import { readFile } from "node:fs/promises";
import { register } from "node:module";
import ts from "typescript";

if (!globalThis.__engramTsLoader) {
  globalThis.__engramTsLoader = true;
  register(import.meta.url);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const source = await readFile(new URL(url), "utf8");
  const out = ts.transpileModule(source, {
    fileName: url,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, isolatedModules: true },
  });
  return { format: "module", source: out.outputText, shortCircuit: true };
}
