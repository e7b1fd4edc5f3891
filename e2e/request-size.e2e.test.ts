// What the plugin adds to every model request, measured on the request the real host sends: the
// history tools' definitions (name, description, JSON Schema) and the guidance block in the system
// prompt. Every session pays these bytes on every call, whether or not it uses its history.
import { afterAll, beforeAll, expect, test } from "vitest";
import { GUIDANCE } from "../src/hooks/system.ts";
import { HISTORY_TOOL_NAMES } from "../src/tools/engram.ts";
import { startHost, type Host } from "./harness/host.ts";
import { systemText } from "./harness/mock-llm.ts";

/** Tool definitions and guidance together, per request (issue 11). */
const REQUEST_BUDGET_BYTES = 4_000;

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

let host: Host;
beforeAll(async () => {
  host = await startHost();
});
afterAll(async () => {
  await host?.stop();
});

test(`the history tools and the guidance add at most ${REQUEST_BUDGET_BYTES} bytes to a request`, async () => {
  const session = await host.createSession();
  await host.prompt(session.id, "Hello");
  expect(host.pluginLoadErrors()).toEqual([]);
  const chat = host.mock.chatRequests().at(-1)!;

  const ours = (chat.body.tools ?? []).filter((t) => t.function.name.startsWith("history_"));
  expect(ours.map((t) => t.function.name).sort()).toEqual(HISTORY_TOOL_NAMES);
  const perTool = ours.map((t) => [t.function.name, bytes(JSON.stringify(t))] as const);
  const toolBytes = perTool.reduce((sum, [, n]) => sum + n, 0);

  // The block is sent exactly as the plugin wrote it.
  expect(systemText(chat.body)).toContain(GUIDANCE);
  const guidanceBytes = bytes(GUIDANCE);

  console.log(
    `request size: history tools ${toolBytes} bytes (${perTool.map(([name, n]) => `${name} ${n}`).join(", ")}); ` +
      `guidance ${guidanceBytes} bytes; together ${toolBytes + guidanceBytes} of ${REQUEST_BUDGET_BYTES}`,
  );
  expect(toolBytes + guidanceBytes).toBeLessThanOrEqual(REQUEST_BUDGET_BYTES);
});
