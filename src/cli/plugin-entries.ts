// Which OpenCode config files list this plugin, under which key and in what form, and whether the
// host that reads them will load it. The forms differ by generation (docs/opencode-v2-host.md of the
// shared notes, first section, seen on the real 2.1.2; opencode-host.md §4 for 1.x):
// - OpenCode 2 reads `plugins` and the old `plugin`. It loads a directory from `<dir>/server`, then
//   `<dir>/index`; a package name or a `file:` npm spec (a packed tarball) is installed as a
//   package; every other file path is dropped ("configured plugin path must be a directory").
// - OpenCode 1.x reads `plugin`. A file path or file URL is loaded as is, a package directory
//   through its package.json; a bare npm name is always fetched from npm @latest, never from a
//   local node_modules.

import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { StoreGeneration } from "../store/store-file.ts";
import { parseJsonc } from "../config/jsonc.ts";
import { isFile } from "../config/load.ts";

const PACKAGE_NAME = "opencode-engram";
/** The config keys that list plugins: OpenCode 2's, then the one both generations read. */
const PLUGIN_KEYS = ["plugins", "plugin"] as const;
/** What OpenCode 2 imports from a plugin directory, in its order. */
const DIRECTORY_ENTRIES = ["server", "index"].flatMap((name) => ["js", "mjs", "ts"].map((ext) => `${name}.${ext}`));

type PluginKey = (typeof PLUGIN_KEYS)[number];

export interface PluginEntry {
  key: PluginKey;
  entry: string;
  /** What the host does with this form of entry. */
  form: string;
  /** Why the host will not load it, when it will not. */
  problem?: string;
}

/** OpenCode's config files in a folder (global: the config dir; project: the root and .opencode/). */
export function opencodeConfigFiles(dir: string, project: boolean): string[] {
  const names = project
    ? ["opencode.json", "opencode.jsonc", join(".opencode", "opencode.json"), join(".opencode", "opencode.jsonc")]
    : ["opencode.json", "opencode.jsonc", "config.json"];
  return names.map((name) => join(dir, name)).filter(isFile);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function packageName(dir: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The local path an entry names (a file URL, an absolute or a relative path), or undefined for a package spec. */
function entryPath(entry: string, configDir: string): string | undefined {
  if (entry.startsWith("file://")) {
    try {
      return fileURLToPath(entry);
    } catch {
      return undefined;
    }
  }
  if (isAbsolute(entry) || entry.startsWith(".")) return resolve(configDir, entry);
  return undefined;
}

/** True when `path` is this package's folder or lies in one (checked up to three folders up). */
function inOurPackage(path: string, packageDir: string): boolean {
  if (path === packageDir || path.startsWith(`${packageDir}/`)) return true;
  let dir = isDirectory(path) ? path : dirname(path);
  for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) if (packageName(dir) === PACKAGE_NAME) return true;
  return false;
}

/** Why OpenCode 2 cannot load the directory, or undefined when it can. */
function directoryProblem(dir: string): string | undefined {
  const entry = DIRECTORY_ENTRIES.find((name) => isFile(join(dir, name)));
  if (!entry) return `${dir} has no server.js or index.js for OpenCode 2 to load`;
  // A checkout's server.js loads the build: without it the import fails.
  const source = readFileSync(join(dir, entry), "utf8");
  if (source.includes("./dist/index.js") && !isFile(join(dir, "dist", "index.js")))
    return `${dir}/dist is not built: run \`npm ci\` (or \`npm run build\`) there`;
  return undefined;
}

type Form = Pick<PluginEntry, "form" | "problem">;

/** A package spec's form; a local folder or tarball it names must exist (resolved against `configDir`). */
function packageForm(entry: string, configDir: string): Form | undefined {
  if (entry === PACKAGE_NAME) return { form: "npm name without a version: the host installs opencode-engram@latest from npm at start" };
  const local = /^(?:opencode-engram@)?file:(?!\/\/)(.+)$/.exec(entry)?.[1];
  if (local !== undefined) {
    const target = resolve(configDir, local);
    const form = entry.startsWith(PACKAGE_NAME)
      ? "npm spec of a local folder: the host links that folder"
      : `npm spec of a local ${/\.(tgz|tar\.gz)$/.test(target) ? "tarball (npm pack)" : "folder"}: the host installs it as a package`;
    return existsSync(target) ? { form } : { form, problem: `${target} does not exist` };
  }
  if (entry.startsWith(`${PACKAGE_NAME}@`)) return { form: `npm package pinned to ${entry.slice(PACKAGE_NAME.length + 1)}` };
  return undefined;
}

function pathForm(path: string, generation: StoreGeneration): Form {
  if (!existsSync(path)) return { form: "local path", problem: `${path} does not exist` };
  if (isDirectory(path)) {
    if (generation === "opencode-2") return { form: "directory: the host loads its server.js (else index.js)", problem: directoryProblem(path) };
    return { form: "package directory: loaded through its package.json" };
  }
  if (generation === "opencode-2") {
    return {
      form: "file path",
      problem: `OpenCode 2 drops every configured file path ("configured plugin path must be a directory"): list the folder that holds package.json instead`,
    };
  }
  return { form: "file path: loaded as is" };
}

/**
 * What the host of `generation` does with one entry, or undefined when it is not this plugin. A
 * relative path is resolved against `configDir`, the config file's folder.
 */
export function entryForm(entry: string, configDir: string, packageDir: string, generation: StoreGeneration): Form | undefined {
  const path = entryPath(entry, configDir);
  if (path === undefined) {
    const spec = /^file:(?!\/\/)(.+)$/.exec(entry)?.[1];
    const ours = entry.includes(PACKAGE_NAME) || (spec !== undefined && inOurPackage(resolve(configDir, spec), packageDir));
    return ours ? packageForm(entry, configDir) : undefined;
  }
  if (!entry.includes(PACKAGE_NAME) && !inOurPackage(path, packageDir)) return undefined;
  const { form, problem } = pathForm(path, generation);
  const how = entry.startsWith("file://") ? "file URL" : isAbsolute(entry) ? "absolute path" : "relative path";
  return { form: `${how}, ${form}`, problem };
}

/** One config file's plugin lists, by key. */
export interface ConfigFileLists {
  path: string;
  /** Set when the file does not parse. */
  error?: string;
  lists: Array<[PluginKey, unknown[]]>;
}

export function readPluginLists(path: string): ConfigFileLists {
  let config: unknown;
  try {
    config = parseJsonc(readFileSync(path, "utf8"));
  } catch (error) {
    return { path, error: error instanceof Error ? error.message : String(error), lists: [] };
  }
  const record = config !== null && typeof config === "object" ? (config as Record<string, unknown>) : {};
  const lists = PLUGIN_KEYS.flatMap((key): Array<[PluginKey, unknown[]]> => {
    const list = record[key];
    return Array.isArray(list) ? [[key, list]] : [];
  });
  return { path, lists };
}

/** This plugin's entries in a config file, each with what the host of `generation` does with it. */
export function pluginEntries(file: ConfigFileLists, packageDir: string, generation: StoreGeneration): PluginEntry[] {
  const entries: PluginEntry[] = [];
  for (const [key, list] of file.lists) {
    for (const item of list) {
      const entry = Array.isArray(item) ? item[0] : item;
      if (typeof entry !== "string") continue;
      const form = entryForm(entry, dirname(file.path), packageDir, generation);
      if (!form) continue;
      const problem = key === "plugins" && generation === "opencode-1" ? `OpenCode 1.x reads its plugins from "plugin", not "plugins"` : form.problem;
      entries.push({ key, entry, form: form.form, ...(problem ? { problem } : {}) });
    }
  }
  return entries;
}

/** The generation config files are written for when they say: OpenCode 2's `plugins` key. */
export function configGeneration(files: readonly ConfigFileLists[]): StoreGeneration | undefined {
  return files.some((file) => file.lists.some(([key]) => key === "plugins")) ? "opencode-2" : undefined;
}

/** How to list this plugin for the host of `generation`: forms that host loads. */
export function listingAdvice(generation: StoreGeneration, packageDir: string): string {
  if (generation === "opencode-2") {
    return `the plugin is in no opencode.json "plugins" list: add "opencode-engram@<version>" (npm) or a checkout's folder ("${packageDir}"); OpenCode 2 drops file paths`;
  }
  return `the plugin is in no opencode.json "plugin" list: add "opencode-engram@<version>" (npm) or a file:// URL to a checkout's src/index.ts`;
}
