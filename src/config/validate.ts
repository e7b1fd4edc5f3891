// Merges user config layers over the defaults, field by field. An invalid value keeps the
// default and is reported; nothing here throws.

import { CONFIG_SCHEMA, defaultConfig, isOption, type ConfigOption, type ConfigSection, type EngramConfig } from "./schema.ts";

type Tree = Record<string, unknown>;

function isTree(value: unknown): value is Tree {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function describe(spec: ConfigOption): string {
  if (spec.kind === "int") return `an integer from ${spec.min} to ${spec.max}`;
  if (spec.kind === "bool") return "true or false";
  return "an array of strings";
}

function valid(spec: ConfigOption, value: unknown): boolean {
  if (spec.kind === "int") return typeof value === "number" && Number.isInteger(value) && value >= spec.min && value <= spec.max;
  if (spec.kind === "bool") return typeof value === "boolean";
  return Array.isArray(value) && value.every((item) => typeof item === "string" && item.length <= 200);
}

function apply(section: ConfigSection, user: Tree, target: Tree, path: string, problems: string[]): void {
  for (const [key, value] of Object.entries(user)) {
    const where = path ? `${path}.${key}` : key;
    const entry = section[key];
    if (entry === undefined) {
      problems.push(`unknown key ${where}`);
    } else if (isOption(entry)) {
      if (valid(entry, value)) target[key] = structuredClone(value);
      else problems.push(`${where} must be ${describe(entry)}; keeping ${JSON.stringify(target[key])}`);
    } else if (isTree(value)) {
      apply(entry, value, target[key] as Tree, where, problems);
    } else {
      problems.push(`${where} must be an object`);
    }
  }
}

export interface Layer {
  /** Where the layer came from, for messages. */
  source: string;
  value: unknown;
}

export interface Resolved {
  config: EngramConfig;
  problems: string[];
}

/** Later layers win, field by field. */
export function resolveConfig(layers: readonly Layer[]): Resolved {
  const config = defaultConfig();
  const problems: string[] = [];
  for (const layer of layers) {
    if (!isTree(layer.value)) {
      problems.push(`${layer.source}: the top level must be an object`);
      continue;
    }
    const found: string[] = [];
    apply(CONFIG_SCHEMA, layer.value, config, "", found);
    for (const problem of found) problems.push(`${layer.source}: ${problem}`);
  }
  return { config, problems };
}
