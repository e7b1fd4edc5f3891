// The interface every e2e host offers, whichever generation runs (host.ts starts 1.x, host-v2.ts
// OpenCode 2); a file of its own so both implementations import it without a cycle.
import type { MockLlm } from "./mock-llm.ts";
import type { ToolCallResult } from "./tool-call.ts";
import type { HostMessage, HostSession } from "./types.ts";

export interface StartHostOptions {
  /** Plugin entries; defaults to the working tree's `src/index.ts` as a file:// URL. `[]` loads none. */
  plugin?: string | string[];
  /** Merged over the generated opencode.json (top-level keys replace, `provider` entries merge). */
  config?: Record<string, unknown>;
  /** Extra files for the project, relative paths → contents. Committed in the initial commit. */
  projectFiles?: Record<string, string>;
  /** Contents of `<project>/opencode-engram.jsonc` (the project layer of the plugin's config). */
  engramConfig?: string;
  /** Contents of `$XDG_CONFIG_HOME/opencode/opencode-engram.jsonc` (the global layer). */
  globalEngramConfig?: string;
  /** Extra environment for the host process. */
  env?: Record<string, string>;
  /** Host log level printed to the captured output (default INFO). */
  logLevel?: "DEBUG" | "INFO" | "WARN" | "ERROR";
  /** Runs after the project and scratch dirs exist, before the host starts (e.g. to seed its data dir). */
  prepare?(dirs: { root: string; directory: string; xdgData: string }): void;
}

export interface PromptOptions {
  /** Extra parts sent after the text part (e.g. a `file` part). */
  parts?: Record<string, unknown>[];
  agent?: string;
  system?: string;
  tools?: Record<string, boolean>;
  timeoutMs?: number;
}

export interface Host {
  /** The OpenCode generation (1: `plugin` functions, 2: `plugins` with `{id, setup}`). */
  generation: 1 | 2;
  /** The pinned version running (e2e/hosts.json). */
  version: string;
  /** The host's binary (also the Bun the CLI tests run under). */
  binary: string;
  url: string;
  /** The host process id (e.g. to read its memory). */
  pid: number | undefined;
  /** The scratch project directory (a git repo with one commit). */
  directory: string;
  /** Root of every temp dir of this host (project, HOME, XDG dirs). */
  root: string;
  dataDir: string;
  mock: MockLlm;
  /** Captured stdout/stderr of the host, most recent last. */
  logs(): string;
  /** Host log lines about plugins that failed to load (the host otherwise carries on silently). */
  pluginLoadErrors(): string[];
  request<T = unknown>(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<T>;
  createSession(body?: Record<string, unknown>): Promise<HostSession>;
  /** Sends a user message and waits until the whole turn finishes; returns the last assistant message. */
  prompt(sessionId: string, text: string, opts?: PromptOptions): Promise<HostMessage>;
  messages(sessionId: string): Promise<HostMessage[]>;
  /** Writes a file relative to the project directory (e.g. to change opencode-engram.jsonc mid-test). */
  writeFile(relativePath: string, contents: string): void;
  /** Aborts the running turn of a session. */
  abort(sessionId: string): Promise<boolean>;
  session(sessionId: string): Promise<HostSession>;
  children(sessionId: string): Promise<HostSession[]>;
  sessions(): Promise<HostSession[]>;
  /** Disposes the project's instance (its plugins' dispose runs; the next request loads them afresh). */
  disposeInstance(): Promise<void>;
  /** Deletes a session through the host. */
  deleteSession(sessionId: string): Promise<void>;
  /** Manual compaction; resolves once the summary is written. */
  summarize(sessionId: string): Promise<boolean>;
  /** Makes the mock model call `name(args)`, then reply with text; returns the stored tool part. */
  callTool(sessionId: string, name: string, args: unknown, opts?: { prompt?: string; reply?: string }): Promise<ToolCallResult>;
  stop(): Promise<void>;
}
