// The build thread's module (build-thread.ts starts it in a worker_threads Worker): opens the
// host's store read-only, the same file and the same generation's tables the plugin reads, and
// runs the projection's passes there (build-serve.ts).

import { parentPort, workerData } from "node:worker_threads";
import { isStoreProblem, openStoreFile } from "../store/store-file.ts";
import type { BuildStart } from "./build-serve.ts";
import { serveBuild } from "./build-serve.ts";
import { storeFeed } from "./feed.ts";

// A settled thread allocates nothing until the next host event, so the garbage of its passes
// (over 100 MB during a heavy store's build) would stay in the host's memory: collected at once.
const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;

const port = parentPort;
if (port) {
  const start = workerData as BuildStart;
  const store = await openStoreFile(start.store, start.generation);
  if (isStoreProblem(store)) port.postMessage({ kind: "failed", reason: store.message });
  else serveBuild(port, start, storeFeed(store), () => store.close(), bun ? { settled: () => bun.gc(true) } : {});
}
