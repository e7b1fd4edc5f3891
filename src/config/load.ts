// Finds and reads opencode-engram.json / .jsonc: the global OpenCode config folder first, then
// the project root (project wins). Re-read when a file changes; a broken file never stops a tool.

import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseJsonc } from "./jsonc.ts";
import type { EngramConfig } from "./schema.ts";
import { resolveConfig, type Layer } from "./validate.ts";

const FILE_NAMES = ["opencode-engram.jsonc", "opencode-engram.json"];

export function globalConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== "" ? env.XDG_CONFIG_HOME : join(homedir(), ".config");
  return join(base, "opencode");
}

/** True when `path` is a file; false when it is absent or something else. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The config files that exist, lowest precedence first (one per folder: .jsonc before .json). */
export function configFiles(dirs: readonly string[]): string[] {
  return dirs.flatMap((dir) => FILE_NAMES.map((name) => join(dir, name)).find(isFile) ?? []);
}

function readLayer(path: string): Layer | string {
  try {
    return { source: path, value: parseJsonc(readFileSync(path, "utf8")) };
  } catch (error) {
    return `${path}: cannot be read as JSON (${error instanceof Error ? error.message : String(error)}); using the other layers and defaults`;
  }
}

export interface LoadedConfig {
  config: EngramConfig;
  /** Problems found, for one warning. */
  problems: string[];
}

export function loadConfig(dirs: readonly string[]): LoadedConfig {
  const layers: Layer[] = [];
  const problems: string[] = [];
  for (const path of configFiles(dirs)) {
    const layer = readLayer(path);
    if (typeof layer === "string") problems.push(layer);
    else layers.push(layer);
  }
  const resolved = resolveConfig(layers);
  return { config: resolved.config, problems: [...problems, ...resolved.problems] };
}

function signature(dirs: readonly string[]): string {
  return configFiles(dirs)
    .map((path) => {
      try {
        const stat = statSync(path);
        return `${path}:${stat.mtimeMs}:${stat.size}`;
      } catch {
        return path;
      }
    })
    .join("|");
}

/**
 * The current config, re-read at most every `recheckMs` when a file was added, removed or
 * changed. `warn` is called once per load that found problems.
 */
export function watchedConfig(dirs: readonly string[], warn: (message: string) => void, recheckMs = 2000): () => EngramConfig {
  let loaded = loadConfig(dirs);
  let seen = signature(dirs);
  let checkedAt = Date.now();
  if (loaded.problems.length > 0) warn(`opencode-engram config: ${loaded.problems.join("; ")}`);
  return () => {
    const now = Date.now();
    if (now - checkedAt < recheckMs) return loaded.config;
    checkedAt = now;
    const current = signature(dirs);
    if (current !== seen) {
      seen = current;
      loaded = loadConfig(dirs);
      if (loaded.problems.length > 0) warn(`opencode-engram config: ${loaded.problems.join("; ")}`);
    }
    return loaded.config;
  };
}
