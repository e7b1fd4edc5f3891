// Runs user regexes off the host's thread. A JavaScript regex cannot be interrupted once it starts,
// and some patterns backtrack for minutes on a few hundred characters: the only sure bound is to
// run them in a worker and terminate it when a batch overruns. The worker is started on first use,
// reused while it behaves, and replaced after a termination.

import { Worker } from "node:worker_threads";
import { ArgumentError } from "../../history/errors.ts";

export type Span = [start: number, end: number];

// Plain JavaScript so Node and Bun can both start it from a string.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, source, texts, limit }) => {
  const regex = new RegExp(source, "gi");
  const spans = texts.map((text) => {
    const found = [];
    regex.lastIndex = 0;
    while (found.length < limit) {
      const m = regex.exec(text);
      if (!m) break;
      found.push([m.index, m.index + m[0].length]);
      if (m[0].length === 0) regex.lastIndex++;
    }
    return found;
  });
  parentPort.postMessage({ id, spans });
});
`;

interface Pending {
  resolve(spans: Span[][]): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class RegexRunner {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  /** Spans of `source` (flags gi) in each text, at most `limit` per text; rejects after `timeoutMs`. */
  find(source: string, texts: string[], limit: number, timeoutMs: number): Promise<Span[][]> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Span[][]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stop(new ArgumentError("regex search stopped"));
        reject(
          new ArgumentError(
            `regex took longer than ${timeoutMs} ms on ${texts.length} chunks and was stopped; simplify it (avoid repetition inside repetition) or use literal=true`,
          ),
        );
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, source, texts, limit });
    });
  }

  /** Ends the worker (plugin shutdown, tests). */
  close(): void {
    this.stop(new ArgumentError("regex search stopped"));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    // An idle worker must not keep the host (or a test run) alive.
    worker.unref();
    worker.on("message", ({ id, spans }: { id: number; spans: Span[][] }) => {
      const entry = this.pending.get(id);
      if (!entry) return;
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.resolve(spans);
    });
    worker.on("error", (error: Error) => this.stop(new ArgumentError(`regex search failed: ${error.message}`)));
    worker.on("exit", () => {
      if (this.worker === worker) this.worker = undefined;
    });
    this.worker = worker;
    return worker;
  }

  private stop(reason: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(reason);
      this.pending.delete(id);
    }
    void worker?.terminate();
  }
}
