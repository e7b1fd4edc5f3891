// Import rules between the project's folders, over importGraph's edges (type-only and dynamic
// imports count). Production folders sit in layers (FOLDER_LAYERS) and import only down: never a
// folder of their own layer or above, never an entry file. A testing/ folder imports nothing above
// its own folder's layer; tests themselves may reach anywhere. Outside a folder with a public entry
// (ENTRIES), only an entry serving the importer and the folder's test helpers are imported, so the folder's insides can move without touching the rest.

/** Production folders of src/, lowest first; src/*.ts (the entries) sit above them all. */
export const FOLDER_LAYERS: ReadonlyArray<readonly string[]> = [
  ["util", "config"],
  ["history"],
  ["store", "search"],
  ["projection"],
  ["tools", "hooks"],
  ["cli", "opencode1", "opencode2"],
];

/**
 * Folders reached from outside through their entries only; an entry with `for` serves only the
 * folders it names, and the folders it names use no other (search/ shows the tools one face and
 * the projection another).
 */
export const ENTRIES: Readonly<Record<string, ReadonlyArray<{ file: string; for?: readonly string[] }>>> = {
  "src/search/": [{ file: "src/search/api.ts" }, { file: "src/search/projection-contract.ts", for: ["src/projection/"] }],
  "src/projection/": [{ file: "src/projection/index.ts" }],
};

function posix(path: string): string {
  return path.replaceAll("\\", "/");
}

function isTest(path: string): boolean {
  return /\.test\.ts$/.test(path);
}

function isHelper(path: string): boolean {
  return path.includes("/testing/");
}

/** A src/ file's folder and layer; an entry file (src/*.ts) is above every folder. */
function placeOf(path: string): { folder: string; layer: number } | undefined {
  const match = /^src\/(?:([^/]+)\/)?[^/]+$|^src\/([^/]+)\//.exec(path);
  if (!match) return undefined;
  const folder = match[2] ?? match[1];
  if (folder === undefined) return { folder: "", layer: FOLDER_LAYERS.length };
  const layer = FOLDER_LAYERS.findIndex((folders) => folders.includes(folder));
  return layer < 0 ? undefined : { folder, layer };
}

/**
 * Each import that runs sideways or up between src/'s folders, as `importer → imported`: from a
 * production file, to any folder not below its own; from a testing/ helper, to a folder above its
 * own; from either, to anything outside src/.
 */
export function layerBreaks(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const path = posix(file);
    const from = placeOf(path);
    if (!from || isTest(path)) continue;
    const helper = isHelper(path);
    for (const target of targets) {
      // The tools around the source (e2e/, bench/, eval/, scripts/, demo/) sit above all of it.
      if (!posix(target).startsWith("src/")) {
        found.push(`${path} → ${posix(target)}`);
        continue;
      }
      const to = placeOf(posix(target));
      if (!to || to.folder === from.folder) continue;
      const breaks = helper ? to.layer > from.layer : to.layer >= from.layer;
      if (breaks) found.push(`${path} → ${posix(target)}`);
    }
  }
  return found.sort();
}

/**
 * Each import of a module behind an entry (ENTRIES) other than an entry serving the importer or a
 * test helper of the folder (its testing/, the face it shows tests), by a file outside that
 * folder. Tests and test helpers may use any entry.
 */
export function deepImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const path = posix(file);
    const exempt = isTest(path) || isHelper(path);
    for (const target of targets) {
      const imported = posix(target);
      for (const [dir, entries] of Object.entries(ENTRIES)) {
        if (path.startsWith(dir) || !imported.startsWith(dir) || isHelper(imported)) continue;
        const entry = entries.find((one) => one.file === imported);
        const servedOnly = entries.filter((one) => one.for?.some((folder) => path.startsWith(folder)));
        const serves = entry !== undefined && (exempt || (servedOnly.length > 0 ? servedOnly.includes(entry) : entry.for === undefined));
        if (!serves) found.push(`${path} → ${imported}`);
      }
    }
  }
  return found.sort();
}

/**
 * search's insides, lowest first: the libraries (text/, rank/, then scan/ and index/, two paths to
 * the same scores, each apart from the other), then
 * the stages of a search in their order, each a file or folder at search/'s top, then the verbs,
 * the composition and the entries. A production file imports its own folder or a lower layer's
 * only. types.ts and tuning.ts (the contracts and constants every layer reads), tests, which set
 * one path against another, and testing/ are outside the layers.
 */
export const SEARCH_LAYERS: ReadonlyArray<readonly string[]> = [
  ["text"],
  ["rank"],
  ["scan", "index"],
  ["parse.ts"],
  ["scope.ts"],
  ["collect"],
  ["merge.ts"],
  ["answer.ts"],
  ["verbs.ts"],
  ["service.ts"],
  ["api.ts"],
];

/** Each import against SEARCH_LAYERS, as `importer → imported`. */
export function searchLayerBreaks(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = searchLayerOf(posix(file));
    if (!from || isTest(file)) continue;
    for (const target of targets) {
      const to = searchLayerOf(posix(target));
      if (to && to.folder !== from.folder && to.layer >= from.layer) found.push(`${posix(file)} → ${posix(target)}`);
    }
  }
  return found.sort();
}

function searchLayerOf(path: string): { folder: string; layer: number } | undefined {
  const folder = /^src\/search\/([^/]+)\/|^src\/search\/([^/]+\.ts)$/
    .exec(path)
    ?.slice(1)
    .find((name) => name !== undefined);
  if (folder === undefined) return undefined;
  const layer = SEARCH_LAYERS.findIndex((folders) => folders.includes(folder));
  return layer < 0 ? undefined : { folder, layer };
}
