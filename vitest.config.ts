import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "eval/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.corpus.test.ts", "**/node_modules/**"],
          environment: "node",
          // Each file's scratch folders are removed after it (util/testing/scratch-dir.ts).
          setupFiles: ["src/util/testing/scratch-dir.setup.ts"],
          // A harness timeout, not an assertion: property tests run for seconds on a loaded machine.
          testTimeout: 120_000,
        },
      },
      {
        test: {
          // Tests over ../shared/corpus/ beside the checkout; scripts/test-corpus.ts runs them when it is there.
          name: "corpus",
          include: ["src/**/*.corpus.test.ts", "eval/**/*.corpus.test.ts"],
          environment: "node",
          // A harness timeout, not an assertion: the real-session eval asks ~400 questions twice.
          testTimeout: 600_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.test.ts"],
          environment: "node",
          // Harness timeouts, not assertions: the first host start npm-installs packages.
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // One real host per file; two cores cannot run several hosts at once.
          fileParallelism: false,
          maxWorkers: 1,
        },
      },
    ],
  },
});
