// The heavy-user round (issue 24): 3,000 real sessions in 30 projects, one of them the host's own
// (100 sessions); or issue 40's second round, 10,000 in 50 projects (200 in the host's own). Every-project searches before anything is built, while the plugin builds what it
// builds in the background, and after; `history_sessions` over every project; project scope; the
// host's memory. The build is done when the projection holds every session but the driver's as
// the store holds it now (what `doctor` reports), read from the host's cache folder by this
// process. A rare-word global search with nothing unsearched is not enough: it may read the
// hundreds of sessions not yet projected within its budget, and the searches "after the build"
// then read them too (in two of six runs on 3 December, 234 sessions were left).
// The wait scales with the store's text: 1.5 s a MB (a build rate of 0.67 MB/s, a fifth of what
// a quiet machine builds), at least 900 s: 900 s for 259 MB, 1,290 s for 860 MB. How long it took
// and whether it completed are printed as the round goes.
//   BENCH_HEAVY_WAIT_MS   longest wait for that (default: as above)

import { join } from "node:path";
import { projectionReport } from "../../src/projection/report.ts";
import { isStoreProblem, openStore } from "../../src/store/store-file.ts";
import type { HeavyData } from "./heavy-data.ts";
import { call, type Figures, median, rssMb, sleep, startBenchHost, unsearchedOf, type Variant, withStallProbe } from "./measure.ts";
import { BENCH_PROJECT_ID } from "./data.ts";
import { DEFAULT_TUNING } from "../../src/search/tuning.ts";

const waitMs = (textMb: number) => Number(process.env.BENCH_HEAVY_WAIT_MS ?? Math.max(900_000, Math.round(textMb * 1500)));
const PROGRESS_MS = 60_000;
const POLL_MS = 10_000;
const SETTLE_MS = 10_000;
const BUILT_QUERY = "separability";
const GLOBAL_QUERIES = ["separability matrix nested compound", "timezone aware datetime", "pytest fixture teardown", "migration squash operations"];

export async function runHeavy(variant: Variant, heavy: HeavyData, noopPlugin: string, log: (line: string) => void): Promise<Figures> {
  const figures: Figures = new Map();
  const WAIT_MS = waitMs(heavy.textMb);
  const say = (line: string) => log(`  heavy ${heavy.sessions} (${variant}): ${line}`);
  say(`seeding a host (${heavy.dbMb.toFixed(0)} MB store); build wait up to ${(WAIT_MS / 1000).toFixed(0)} s`);
  try {
    await round(variant, heavy, noopPlugin, figures, WAIT_MS, say);
  } catch (error) {
    // The figures so far are printed all the same (a run of half an hour is not thrown away).
    say(`FAILED: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`);
  }
  return figures;
}

async function round(variant: Variant, heavy: HeavyData, noopPlugin: string, figures: Figures, WAIT_MS: number, say: (line: string) => void): Promise<void> {
  const host = await startBenchHost(variant, noopPlugin, heavy.xdgData, "project_id = ?", BENCH_PROJECT_ID);
  try {
    const driver = (await host.createSession({ title: "bench driver" })).id;
    const probe = `/session/${driver}`;
    const search = (query: string, scope: string) => call(host, driver, "history_search", { query, scope });
    await call(host, driver, "history_sessions", { limit: 1 });
    const key = `heavy (${heavy.sessions} sessions in ${heavy.projects} projects, ${heavy.textMb.toFixed(0)} MB)`;

    say("host up, first global search");
    const started = performance.now();
    const first = await withStallProbe(host, probe, () => search(GLOBAL_QUERIES[0]!, "global"));
    figures.set(`${key}: first global search`, first.value.ms);
    figures.set(`${key}: first global search unsearched`, unsearchedOf(first.value.output));
    figures.set(`${key}: stall, first global search`, first.stallMs);
    const again = await search(GLOBAL_QUERIES[1]!, "global");
    figures.set(`${key}: global search at once`, again.ms);
    figures.set(`${key}: global search at once unsearched`, unsearchedOf(again.output));
    // RSS by phase: what the first many-session searches leave, what the build adds.
    figures.set(`${key}: host RSS after the first global searches (MB)`, rssMb(host.pid).rss);

    // Polls until the projection is complete and a rare-word global search leaves nothing out;
    // the no-op answers at once, so it waits the same first poll for its stall floor.
    const build = await withStallProbe(host, probe, async () => {
      let left = variant === "plugin" ? Number.POSITIVE_INFINITY : 0;
      let behind = variant === "plugin" ? Number.POSITIVE_INFINITY : 0;
      let told = performance.now();
      while ((left > 0 || behind > 0) && performance.now() - started < WAIT_MS) {
        await sleep(POLL_MS);
        left = unsearchedOf((await search(BUILT_QUERY, "global")).output);
        if (left === 0) behind = await sessionsNotProjected(host.dataDir, join(host.root, "cache", "opencode-engram"));
        if (performance.now() - told >= PROGRESS_MS) {
          told = performance.now();
          say(
            `${((told - started) / 1000).toFixed(0)} s: ${left} unsearched${left === 0 ? `, ${behind} not projected` : ""}, RSS ${rssMb(host.pid).rss.toFixed(0)} MB`,
          );
        }
      }
      if (variant === "no-op") await sleep(POLL_MS);
      return { left, behind };
    });
    const buildSeconds = (performance.now() - started) / 1000;
    figures.set(`${key}: unsearched when the wait ended`, build.value.left);
    if (variant === "plugin") {
      const complete = build.value.left === 0 && build.value.behind === 0;
      say(
        complete
          ? `build complete after ${buildSeconds.toFixed(0)} s (${(heavy.textMb / buildSeconds).toFixed(2)} MB/s)`
          : `build NOT complete when the wait ended after ${buildSeconds.toFixed(0)} s: ${build.value.left} unsearched, ${build.value.behind} not projected`,
      );
      figures.set(`${key}: sessions not projected when the wait ended`, build.value.behind);
      figures.set(`${key}: background build until complete (s)`, buildSeconds);
      figures.set(`${key}: build rate (MB of text/s)`, complete ? heavy.textMb / buildSeconds : Number.NaN);
    }
    figures.set(`${key}: stall, background build`, build.stallMs);
    figures.set(`${key}: host RSS when the build was complete (MB)`, rssMb(host.pid).rss);

    const after = await withStallProbe(host, probe, async () => {
      const times: number[] = [];
      const unsearched: number[] = [];
      for (const query of GLOBAL_QUERIES.slice(1)) {
        const answer = await search(query, "global");
        times.push(answer.ms);
        unsearched.push(unsearchedOf(answer.output));
      }
      return { times, unsearched };
    });
    figures.set(`${key}: global search after the build (median of 3)`, median(after.value.times));
    figures.set(`${key}: global search after the build, most unsearched`, Math.max(...after.value.unsearched));
    figures.set(`${key}: stall, global searches after the build`, after.stallMs);
    // The same queries again: their sessions are now in the session cache (what a cold read costs).
    const again3: number[] = [];
    const againUnsearched: number[] = [];
    for (const query of GLOBAL_QUERIES.slice(1)) {
      const answer = await search(query, "global");
      again3.push(answer.ms);
      againUnsearched.push(unsearchedOf(answer.output));
    }
    figures.set(`${key}: the same global searches again (median of 3)`, median(again3));
    figures.set(`${key}: the same again, most unsearched`, Math.max(...againUnsearched));
    const sessions: number[] = [];
    const sessionsUnsearched: number[] = [];
    for (const query of ["astropy units", "django queryset"]) {
      const answer = await call(host, driver, "history_sessions", { query, scope: "global", limit: 10 });
      sessions.push(answer.ms);
      sessionsUnsearched.push(unsearchedOf(answer.output));
    }
    figures.set(`${key}: history_sessions(query, global) (median of 2)`, median(sessions));
    figures.set(`${key}: history_sessions, most unsearched`, Math.max(...sessionsUnsearched));
    const own = await search("astropy coordinates frame", "project");
    figures.set(`${key}: project search (${heavy.ownProject} sessions), first`, own.ms);
    figures.set(`${key}: project search, next`, (await search("pytest fixture teardown", "project")).ms);
    const memory = rssMb(host.pid);
    figures.set(`${key}: host RSS at the end (MB)`, memory.rss);
    figures.set(`${key}: host peak RSS (MB)`, memory.peak);
    // The allocators give freed memory back over seconds, not at once (search-notes.md, "RSS by phase").
    await sleep(SETTLE_MS);
    figures.set(`${key}: host RSS ${SETTLE_MS / 1000} s after the last search (MB)`, rssMb(host.pid).rss);
    figures.set(`${key}: longest stall of the round`, Math.max(first.stallMs, build.stallMs, after.stallMs));
    say("done");
  } finally {
    await host.stop();
  }
}

/** Sessions of the host's store its projection does not hold as they are now, the driver's (the one session written during the round) aside. */
async function sessionsNotProjected(storeDir: string, cacheDir: string): Promise<number> {
  const store = await openStore(storeDir);
  if (isStoreProblem(store)) throw new Error(store.message);
  try {
    const report = await projectionReport(store, DEFAULT_TUNING, cacheDir);
    return report.mismatch ? report.total : Math.max(0, report.total - report.current - 1);
  } finally {
    store.close();
  }
}
