// `opencode-engram doctor`: where the store is and whether we can read it, who wrote it, which
// config files list the plugin and in what form, whether the plugin's own config files are valid,
// and how big the history is with what a cold search of it costs (measured here).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configFiles, globalConfigDir, loadConfig } from "../config/load.ts";
import { WIRING_DEFAULTS } from "../config/schema.ts";
import { parseJsonc } from "../config/jsonc.ts";
import { resolveConfig } from "../config/validate.ts";
import { isStoreProblem, openStore, storeSessions, type Store } from "../store/store-file.ts";
import { type LegacyCopy, storeFigures } from "../store/figures.ts";
import { GENERATION_NAMES, type StoreGeneration } from "../store/store-file.ts";
import { projectionReport } from "../projection/index.ts";
import { composeEngram } from "../tools/engram.ts";
import { UsageError, type Parsed } from "./argv.ts";
import { EXIT, type CommandContext } from "./command.ts";
import { inProject, projectRoot, scopedReader, storeDir } from "./history.ts";
import { configGeneration, listingAdvice, opencodeConfigFiles, pluginEntries, readPluginLists } from "./plugin-entries.ts";
import { size } from "./render.ts";
import { DEFAULT_TUNING } from "../search/api.ts";

export const DOCTOR_FLAGS = { values: ["project"], switches: [] } as const;

type Status = "ok" | "warn" | "fail";

interface Check {
  name: string;
  status: Status;
  detail: string[];
}

const packageDir = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
/** A sample this big gives a stable read-and-scan rate without making doctor slow. */
const SAMPLE_BYTES = 8 * 1_048_576;
/** Common words in coding sessions: most chunks pass the scan's prefilter, as real queries do. */
const PROBE_QUERY = "error file test";

/** The host version the e2e suite pins for a generation (package.json devDependencies), if any. */
function testedHostVersion(generation: StoreGeneration): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(`${packageDir}/package.json`, "utf8")) as { devDependencies?: Record<string, string> };
    return pkg.devDependencies?.[generation === "opencode-2" ? "@opencode/cli" : "opencode-ai"];
  } catch {
    return undefined;
  }
}

function runtimeCheck(): Check {
  const bun = (globalThis as { Bun?: { version: string } }).Bun;
  const via = process.env.OPENCODE_ENGRAM_RUNTIME;
  if (!bun)
    return {
      name: "runtime",
      status: "fail",
      detail: [`Node ${process.versions.node}: the store is read with Bun's SQLite driver; run through the opencode-engram launcher`],
    };
  return { name: "runtime", status: "ok", detail: [`Bun ${bun.version}${via ? ` (${via})` : ""}`] };
}

/** Times a cold keyword search over the newest sessions (up to SAMPLE_BYTES) and scales it. */
async function coldSearchCost(store: Store, bytes: Map<string, number>, root: string): Promise<string[]> {
  const sessions = await storeSessions(store);
  sessions.sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
  const sample = new Set<string>();
  let sampled = 0;
  for (const session of sessions) {
    if (sampled >= SAMPLE_BYTES) break;
    sample.add(session.id);
    sampled += bytes.get(session.id) ?? 0;
  }
  const total = [...bytes.values()].reduce((sum, n) => sum + n, 0);
  const project = sessions.filter((session) => inProject(session, root)).reduce((sum, session) => sum + (bytes.get(session.id) ?? 0), 0);
  if (sampled === 0) return ["no message text to search yet"];
  const config = loadConfig([globalConfigDir(), root]).config;
  const timed = { ...config, search: { ...config.search, project_time_budget_ms: WIRING_DEFAULTS.commandSearchBudgetMs } };
  const reader = scopedReader(store, (session) => sample.has(session.id));
  const { search: service } = composeEngram({ runs: "sample", config: () => timed, reader, decode: store.decode, generation: store.generation, log: () => {} });
  const started = performance.now();
  await service.search({ query: PROBE_QUERY, callerSessionId: "", scope: "project", types: ["text", "tool"], limit: 10 });
  const seconds = (performance.now() - started) / 1000;
  const budget = `in the plugin, project and global searches answer partial after search.project_time_budget_ms (${config.search.project_time_budget_ms} ms); once the store's projection is built they rank from it, reading only the messages that can place and the sessions changed since its last pass`;
  if (sample.size === sessions.length) {
    return [`cold search of every project (${size(total)} of messages, this project ${size(project)}): ${seconds.toFixed(2)} s, measured`, budget];
  }
  const rate = sampled / Math.max(seconds, 0.001);
  return [
    `cold search measured on the newest ${sample.size} sessions (${size(sampled)}): ${seconds.toFixed(2)} s, ${size(rate)}/s`,
    `estimate: this project (${size(project)}) ≈ ${(project / rate).toFixed(1)} s, every project (${size(total)}) ≈ ${(total / rate).toFixed(1)} s`,
    budget,
  ];
}

/** Who last wrote a session: a version other than the one the suite pins is worth a look. */
function writerCheck(store: Store, version: string | undefined): Check {
  const tested = testedHostVersion(store.generation);
  return {
    name: "written by",
    status: version && tested && version !== tested ? "warn" : "ok",
    detail: [version ? `OpenCode ${version}${tested ? ` (this plugin is tested with ${tested})` : ""}` : "no session records an OpenCode version"],
  };
}

/** The 1.x tables an OpenCode 2 store still holds: not its history, but they tell what it lacks. */
function legacyCheck(legacy: LegacyCopy): Check {
  const migration = legacy.migration
    ? `; its import of them is at phase "${legacy.migration}" (kv migration.v1-v2)`
    : "; no import state recorded (kv migration.v1-v2)";
  const detail = [`the 1.x tables (session, message, part) are a frozen copy: OpenCode 2 reads and writes only session_v2 and session_message${migration}`];
  if (legacy.notImported === 0) detail.push(`all ${legacy.sessions} 1.x sessions are in OpenCode 2's tables`);
  else {
    detail.push(
      `${legacy.notImported} of the ${legacy.sessions} 1.x sessions were never imported into OpenCode 2: neither OpenCode 2 nor this plugin there sees them (sessions OpenCode 1.x wrote after the import are among them)`,
    );
  }
  return { name: "1.x tables", status: legacy.notImported > 0 ? "warn" : "ok", detail };
}

/** The store's projection (many-session searches): where, how big, how current; or why there is none. */
async function projectionCheck(store: Store, root: string): Promise<Check> {
  const name = "projection";
  if (!loadConfig([globalConfigDir(), root]).config.projection.enable) {
    return { name, status: "ok", detail: ["off (projection.enable: false): global and large-project searches read every session within their time budget"] };
  }
  const report = await projectionReport(store, DEFAULT_TUNING);
  if (!report.exists) {
    return {
      name,
      status: "warn",
      detail: [
        `not built yet (${report.file}): the plugin builds it in the background once OpenCode names a session; \`opencode-engram reindex\` builds it now`,
      ],
    };
  }
  const share = report.total > 0 ? Math.floor((100 * report.current) / report.total) : 100;
  const detail = [`${report.file} (${size(report.bytes)})`];
  if (report.mismatch) detail.push(`${report.mismatch}: the plugin builds it again on its next pass`);
  detail.push(`${report.current} of ${report.total} sessions projected as they are now (${share}%); sessions not projected are read by each search`);
  detail.push(
    report.currentAt
      ? `last pass that found every session current: ${new Date(report.currentAt).toISOString()}`
      : "no pass has found every session current yet",
  );
  detail.push("a cache: delete the file (or run `opencode-engram reindex`) to build it again; nothing is written to OpenCode's store");
  // Measured, not estimated for this store: docs/config.md, "What it costs".
  detail.push(
    "memory in the host, measured on a 3,000-session store (259 MB of text): +240 to +280 MB over a plugin-less host at the peak, +170 to +210 MB ten seconds after a search, about 40 MB of it the build thread's",
  );
  return { name, status: report.mismatch || report.current < report.total ? "warn" : "ok", detail };
}

/**
 * The config files that list the plugin, read for the host that will load them: the store's
 * generation when there is a store, else the configs' own (OpenCode 2's `plugins` key), else 1.x.
 */
function opencodeConfigCheck(root: string, storeGeneration: StoreGeneration | undefined): Check {
  const files = [...opencodeConfigFiles(globalConfigDir(), false), ...opencodeConfigFiles(root, true)].map(readPluginLists);
  const generation = storeGeneration ?? configGeneration(files) ?? "opencode-1";
  const detail: string[] = [];
  let status: Status = "ok";
  let listed = 0;
  for (const file of files) {
    if (file.error) {
      status = "fail";
      detail.push(`${file.path}: does not parse (${file.error})`);
      continue;
    }
    const entries = pluginEntries(file, packageDir, generation);
    if (entries.length === 0) detail.push(`${file.path}: does not list the plugin`);
    for (const { key, entry, form, problem } of entries) {
      if (!problem) listed++;
      else if (status === "ok") status = "warn";
      const verdict = problem ? `not loadable: ${problem}` : `${GENERATION_NAMES[generation]} loads it`;
      detail.push(`${file.path}: "${entry}" — ${form} (under "${key}"); ${verdict}`);
    }
  }
  if (files.length === 0) detail.push(`no opencode.json in ${globalConfigDir()} or ${root}`);
  if (listed === 0 && status !== "fail") {
    status = "warn";
    detail.push(listingAdvice(generation, packageDir));
  } else if (listed > 1 && generation === "opencode-2") {
    status = status === "fail" ? status : "warn";
    detail.push(`listed ${listed} times: OpenCode 2 loads one and fails the others ("Duplicate plugin ID: opencode-engram"); keep one entry`);
  }
  return { name: "opencode.json", status, detail };
}

function engramConfigCheck(root: string): Check {
  const files = configFiles([globalConfigDir(), root]);
  if (files.length === 0) return { name: "plugin config", status: "ok", detail: ["no opencode-engram.jsonc (defaults apply)"] };
  const detail: string[] = [];
  let status: Status = "ok";
  for (const path of files) {
    let value: unknown;
    try {
      value = parseJsonc(readFileSync(path, "utf8"));
    } catch (error) {
      status = "fail";
      detail.push(`${path}: does not parse (${error instanceof Error ? error.message : String(error)}); the plugin ignores this file`);
      continue;
    }
    const problems = resolveConfig([{ source: path, value }]).problems;
    if (problems.length > 0) status = "fail";
    detail.push(...(problems.length > 0 ? problems.map((problem) => `${problem} (default kept)`) : [`${path}: valid`]));
  }
  return { name: "plugin config", status, detail };
}

export async function doctorCommand(parsed: Parsed, ctx: CommandContext): Promise<number> {
  if (parsed.positionals.length > 0) throw new UsageError(`doctor takes no arguments (got ${parsed.positionals.join(" ")})`);
  const { io } = ctx;
  const root = projectRoot(parsed.values.get("project") ?? process.cwd());
  const checks: Check[] = [runtimeCheck()];
  const dir = storeDir(parsed.values.get("data-dir"));
  const store = await openStore(dir);
  const generation = isStoreProblem(store) ? undefined : store.generation;
  if (isStoreProblem(store)) {
    const hint = store.kind === "missing" ? ["OpenCode has not run as this user, or its data is elsewhere: set XDG_DATA_HOME or pass --data-dir"] : [];
    checks.push({ name: "store", status: "fail", detail: [store.message, ...hint] });
  } else {
    checks.push({ name: "store", status: "ok", detail: [`${store.path} (${GENERATION_NAMES[store.generation]} store, schema known, opened read-only)`] });
    const figures = await storeFigures(store);
    if (figures.legacy) checks.push(legacyCheck(figures.legacy));
    checks.push(writerCheck(store, figures.writerVersion));
    const mine = (await storeSessions(store)).filter((session) => inProject(session, root)).length;
    io.progress("measuring a cold search…");
    const cost = await coldSearchCost(store, figures.sessionBytes, root);
    io.progress(undefined);
    checks.push({
      name: "history",
      status: "ok",
      detail: [
        `${figures.sessions} sessions (${mine} in ${root}), ${figures.messages} messages, ${figures.parts !== undefined ? `${figures.parts} parts, ` : ""}${size(figures.bytes)} on disk`,
        ...cost,
      ],
    });
    checks.push(await projectionCheck(store, root));
    store.close();
  }
  checks.push(opencodeConfigCheck(root, generation), engramConfigCheck(root));
  const failed = checks.some((check) => check.status === "fail");
  if (parsed.switches.has("json")) io.out(JSON.stringify({ ok: !failed, checks }));
  else {
    const mark = { ok: io.style("ok", "✓"), warn: io.style("warn", "!"), fail: io.style("fail", "✗") };
    for (const check of checks) {
      io.out(`${mark[check.status]} ${io.style("bold", check.name.padEnd(14))} ${check.detail[0] ?? ""}`);
      for (const line of check.detail.slice(1)) io.out(`  ${" ".repeat(14)} ${line}`);
    }
  }
  return failed ? EXIT.nothingFound : EXIT.ok;
}
