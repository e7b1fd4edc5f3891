// The projection's public entry: what the tools, the command line and each host's wiring use of
// the store-wide projection (a file in the user's cache folder that says which sessions may hold
// a term, built on a thread of its own). Nothing outside src/projection/ imports a deeper module
// (scripts/import-layers.test.ts).

export { type Projection, ThreadedProjection } from "./build-thread.ts";
export { readerFeed } from "./feed.ts";
export { projectionPath, removeProjection } from "./projection-db.ts";
export { ProjectionBuilder } from "./builder.ts";
export type { ProjectionStatus } from "./reader.ts";
export { projectionReport } from "./report.ts";
export { toolCalls } from "./tool-calls.ts";
