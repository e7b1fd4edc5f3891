// Import rules between the project's areas, over importGraph's edges (type-only and dynamic
// imports count). Outside src/search/, the search engine is reached through its public entry
// only, so its inner modules can move without touching tools/, cli/, hooks/ or the composition root.

/** The one search module that files outside src/search/ may import. */
export const SEARCH_ENTRY = "src/search/api.ts";

const SEARCH_DIR = "src/search/";

/** Each import of a search module other than the entry by a file outside src/search/, as `importer → imported`. */
export function deepSearchImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (posix(file).startsWith(SEARCH_DIR)) continue;
    for (const target of targets) {
      const path = posix(target);
      if (path.startsWith(SEARCH_DIR) && path !== SEARCH_ENTRY) found.push(`${posix(file)} → ${path}`);
    }
  }
  return found.sort();
}

function posix(path: string): string {
  return path.replaceAll("\\", "/");
}
