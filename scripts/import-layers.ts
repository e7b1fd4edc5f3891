// Import rules between the project's areas, over importGraph's edges (type-only and dynamic
// imports count). Outside src/search/, the search engine is reached through its public entry
// only, so its inner modules can move without touching tools/, cli/, hooks/ or the composition root.
// Inside it, its folders import one way: text/ below rank/ below scan/ and index/. The pure core
// (history/ and search/) imports nothing of host/: the host's contract (HistorySource) is the core's.

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

/** The pure core's folders: their production files import nothing of HOST_DIR. */
const CORE_DIRS = ["src/history/", "src/search/"];
const HOST_DIR = "src/host/";

/**
 * Each import of a host module by a production file of the core, as `importer → imported`. Tests
 * and testing/ folders are exempt: they read fixtures through the host's in-memory source.
 */
export function coreHostImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const path = posix(file);
    if (!CORE_DIRS.some((dir) => path.startsWith(dir)) || /\.test\.ts$/.test(path) || path.includes("/testing/")) continue;
    for (const target of targets) if (posix(target).startsWith(HOST_DIR)) found.push(`${path} → ${posix(target)}`);
  }
  return found.sort();
}

function posix(path: string): string {
  return path.replaceAll("\\", "/");
}

/**
 * search's inner folders, lowest first: a production file of one imports its own folder or a
 * lower layer's only (scan/ and index/ are two paths to the same scores and share a layer, each
 * apart from the other). Tests, which set one path against another, and testing/ are exempt.
 */
export const SEARCH_LAYERS: ReadonlyArray<readonly string[]> = [["text"], ["rank"], ["scan", "index"]];

/** Each import against SEARCH_LAYERS, as `importer → imported`. */
export function searchLayerBreaks(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(posix(file));
    if (!from || /\.test\.ts$/.test(file)) continue;
    for (const target of targets) {
      const to = layerOf(posix(target));
      if (to && to.folder !== from.folder && to.layer >= from.layer) found.push(`${posix(file)} → ${posix(target)}`);
    }
  }
  return found.sort();
}

function layerOf(path: string): { folder: string; layer: number } | undefined {
  const folder = /^src\/search\/([^/]+)\//.exec(path)?.[1];
  if (folder === undefined) return undefined;
  const layer = SEARCH_LAYERS.findIndex((folders) => folders.includes(folder));
  return layer < 0 ? undefined : { folder, layer };
}
