// docs/cli.md's synopsis is the usage the command prints, and every command's synopsis, --help,
// section of docs/cli.md and parser name the same flags: a flag added to one and not the others
// fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMON, type FlagSpec } from "./argv.ts";
import { DOCTOR_FLAGS } from "./doctor-command.ts";
import { EXPORT_FLAGS } from "./export-command.ts";
import { HELP, USAGE } from "./help.ts";
import { REINDEX_FLAGS } from "./reindex-command.ts";
import { SEARCH_FLAGS } from "./search-command.ts";
import { SESSIONS_FLAGS } from "./sessions-command.ts";
import { SHOW_FLAGS } from "./show-command.ts";

/** What main.ts parses each command with. */
const PARSED: Record<string, FlagSpec> = {
  search: SEARCH_FLAGS,
  sessions: SESSIONS_FLAGS,
  show: SHOW_FLAGS,
  export: EXPORT_FLAGS,
  doctor: DOCTOR_FLAGS,
  reindex: REINDEX_FLAGS,
};

const COMMON_NAMES = [...COMMON.values, ...COMMON.switches];

/** The usage's synopsis: its indented lines, from the first to the blank line after them. */
function usageSynopsis(): string[] {
  const lines = USAGE.split("\n");
  const first = lines.findIndex((line) => line.startsWith("  opencode-engram "));
  const end = lines.indexOf("", first);
  return lines.slice(first, end).map((line) => line.slice(2));
}

/** docs/cli.md's synopsis: the first fenced block. */
function docSynopsis(): string[] {
  const doc = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8").split("\n");
  const open = doc.indexOf("```");
  return doc.slice(open + 1, doc.indexOf("```", open + 1));
}

/** Per command, its synopsis lines joined (a line not starting with the program continues the one before). */
function synopsisByCommand(lines: readonly string[]): Map<string, string> {
  const byCommand = new Map<string, string>();
  let command = "";
  for (const line of lines) {
    const named = /^opencode-engram (\S+)/.exec(line);
    if (named) command = named[1]!;
    byCommand.set(command, `${byCommand.get(command) ?? ""} ${line}`);
  }
  return byCommand;
}

/** Long names of the flags a text names (`-o` as its long name), common ones left out. */
function flagNames(text: string, spec: FlagSpec): string[] {
  const longs = new Map(Object.entries(spec.shorts ?? {}).map(([short, long]) => [`-${short}`, long]));
  longs.set("-h", "help");
  const names = [...text.matchAll(/(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b/g)].map(([flag]) => longs.get(flag!) ?? flag!.slice(2));
  return [...new Set(names)].filter((name) => !COMMON_NAMES.includes(name)).sort();
}

/** The flag column of a --help text: its lines that start with a flag. */
function helpFlagLines(help: string): string {
  return help
    .split("\n")
    .filter((line) => /^ {2}-/.test(line))
    .map((line) => line.split(/ {2,}/)[1])
    .join(" ");
}

/** The flags docs/cli.md's section on a command describes: its table rows' and list items' first cell. */
function docFlagLines(command: string): string {
  const doc = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");
  const heading = doc.indexOf(`### \`${command}`);
  if (heading < 0) throw new Error(`docs/cli.md has no section on ${command}`);
  const section = doc.slice(doc.indexOf("\n", heading));
  return section
    .slice(0, section.search(/^##/m))
    .split("\n")
    .filter((line) => /^(\| |- )`-/.test(line))
    .map((line) => (line.startsWith("|") ? line.split("|")[1] : line.split(":")[0]))
    .join(" ");
}

function parsedNames(spec: FlagSpec): string[] {
  return [...spec.values, ...spec.switches].sort();
}

describe("the command line's synopsis", () => {
  it("docs/cli.md's synopsis is the one the usage prints", () => {
    expect(docSynopsis()).toEqual(usageSynopsis());
  });

  it("names the commands main.ts runs, each with a --help", () => {
    const commands = Object.keys(PARSED).sort();
    expect([...synopsisByCommand(usageSynopsis()).keys()].sort()).toEqual(commands);
    expect(Object.keys(HELP).sort()).toEqual(commands);
  });

  for (const [command, spec] of Object.entries(PARSED)) {
    it(`${command}: the synopsis and --help name the flags it parses`, () => {
      const synopsis = synopsisByCommand(usageSynopsis()).get(command)!;
      expect(flagNames(synopsis, spec)).toEqual(parsedNames(spec));
      expect(flagNames(helpFlagLines(HELP[command]!), spec)).toEqual(parsedNames(spec));
    });

    it(`${command}: docs/cli.md's section describes the flags it parses`, () => {
      expect(flagNames(docFlagLines(command), spec)).toEqual(parsedNames(spec));
    });

    it(`${command}: --help lists the flags every command takes`, () => {
      const listed = [...helpFlagLines(HELP[command]!).matchAll(/--([a-z-]+)/g)].map(([, name]) => name);
      expect(listed).toEqual(expect.arrayContaining(COMMON_NAMES));
    });
  }
});
