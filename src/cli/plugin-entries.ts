// Which OpenCode config files list this plugin, and in what form: the form decides what the host
// loads (a bare npm name is always fetched from npm @latest, never from a local node_modules).

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseJsonc } from "../config/jsonc.ts";

const PACKAGE_NAME = "opencode-engram";

export interface ConfigFileReport {
  path: string;
  /** Set when the file does not parse. */
  error?: string;
  /** This plugin's entries, each with what the host does with it. */
  entries: Array<{ entry: string; form: string }>;
}

/** OpenCode's config files in a folder (global: the config dir; project: the root and .opencode/). */
export function opencodeConfigFiles(dir: string, project: boolean): string[] {
  const names = project
    ? ["opencode.json", "opencode.jsonc", join(".opencode", "opencode.json"), join(".opencode", "opencode.jsonc")]
    : ["opencode.json", "opencode.jsonc", "config.json"];
  return names
    .map((name) => join(dir, name))
    .filter((path) => {
      try {
        return statSync(path).isFile();
      } catch {
        return false;
      }
    });
}

/** What the host does with one `plugin` entry, or undefined when it is not this plugin. */
export function entryForm(entry: string, packageDir: string): string | undefined {
  const ours = entry.includes(PACKAGE_NAME) || entry.includes(packageDir);
  if (!ours) return undefined;
  if (entry === PACKAGE_NAME) return "npm name without a version: the host installs opencode-engram@latest from npm at start";
  if (entry.startsWith(`${PACKAGE_NAME}@file:`)) return "npm spec of a local folder: the host links that folder";
  if (entry.startsWith(`${PACKAGE_NAME}@`)) return `npm package pinned to ${entry.slice(PACKAGE_NAME.length + 1)}`;
  if (entry.startsWith("file://")) return "file URL: loaded as is";
  if (entry.startsWith("/")) return "absolute path: loaded as is";
  if (entry.startsWith(".")) return "relative path: resolved against the config file's folder";
  return "unrecognised form";
}

export function pluginEntries(path: string, packageDir: string): ConfigFileReport {
  let config: unknown;
  try {
    config = parseJsonc(readFileSync(path, "utf8"));
  } catch (error) {
    return { path, error: error instanceof Error ? error.message : String(error), entries: [] };
  }
  const plugins = (config as { plugin?: unknown } | null)?.plugin;
  const entries: ConfigFileReport["entries"] = [];
  for (const item of Array.isArray(plugins) ? plugins : []) {
    const entry = Array.isArray(item) ? item[0] : item;
    if (typeof entry !== "string") continue;
    const form = entryForm(entry, packageDir);
    if (form !== undefined) entries.push({ entry, form });
  }
  return { path, entries };
}
