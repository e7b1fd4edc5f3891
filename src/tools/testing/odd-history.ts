// Big and odd sessions in the host's raw shape: what a long-lived store may hold. Test-only.

import type { RawMessage } from "../../store/reader.ts";
import { RawSessionBuilder } from "./raw-session.ts";

const MB = 1024 * 1024;

/** Deterministic pseudo-random generator, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Text that looks like a binary file dumped to a terminal: any UTF-16 unit, NUL, controls, lone surrogates. */
function binaryLooking(length: number, seed = 7): string {
  const next = random(seed);
  const units: string[] = [];
  for (let i = 0; i < length; i++) {
    const roll = next();
    if (roll < 0.1) units.push("\u0000");
    else if (roll < 0.25) units.push(String.fromCharCode(Math.floor(next() * 32)));
    else if (roll < 0.3) units.push(String.fromCharCode(0xd800 + Math.floor(next() * 0x800)));
    else units.push(String.fromCharCode(Math.floor(next() * 0x10000)));
  }
  return units.join("");
}

/** 20,000 messages: 10,000 turns of CJK prompts and replies, tool calls every few turns. */
export function bigSession(sessionId: string, messages = 20_000): RawSessionBuilder {
  const b = new RawSessionBuilder(sessionId);
  const cjk = "限流器使用令牌桶算法每个密钥每分钟一百个请求。".repeat(20);
  for (let turn = 0; b.messages.length < messages; turn++) {
    b.user(`第${turn}轮 ${cjk}`);
    const tools =
      turn % 3 === 0
        ? [
            RawSessionBuilder.tool(`bash`, { command: `echo ${turn}` }, "completed", `${turn}\n`),
            RawSessionBuilder.tool("write", { filePath: `/project/src/${"deep/".repeat(20)}file${turn}.ts`, content: "x" }),
          ]
        : [];
    b.assistant(`回答${turn} ${cjk}`, tools);
  }
  return b;
}

export interface OddSession {
  builder: RawSessionBuilder;
  /** The 5 MB text part and the 5 MB binary-looking bash output. */
  bigText: { messageId: string; partId: string; text: string };
  bigOutput: { messageId: string; partId: string; output: string; command: string };
}

function idOf(value: unknown): string {
  return (value as { id: string }).id;
}

export function oddSession(sessionId: string): OddSession {
  const b = new RawSessionBuilder(sessionId);
  b.user("Start.");
  const text = `${"word ".repeat(MB)}末尾🦀`;
  const textMessage = b.add("assistant", [{ type: "text", text }]);
  const output = binaryLooking(5 * MB);
  const command = "cat /dev/urandom | head -c 5M";
  const outputMessage = b.add("assistant", [RawSessionBuilder.tool("bash", { command }, "completed", output)]);
  b.user("Odd things follow.");
  b.add("assistant", []); // no parts
  b.add("user", [], {}); // a user message without parts
  const noTime = b.add("assistant", [{ type: "text", text: "no time" }]);
  delete (noTime.info as { time?: unknown }).time;
  b.add("assistant", [{ type: "text", text: "time is junk" }], { time: { created: "yesterday", completed: Number.NaN } });
  b.messages.push(structuredClone(b.messages[b.messages.length - 1]!)); // duplicate id
  b.add("assistant", [{ type: "hologram", text: "unknown part type" }, { type: "step-start" }, { type: "retry", attempt: 1 }, { type: "snapshot" }]);
  b.add("assistant", [RawSessionBuilder.tool("bash", {}, "pending"), RawSessionBuilder.tool("grep", { pattern: "x" }, "running")]);
  b.add("assistant", [{ type: "text", text: "partial" }], { error: { name: "MessageAbortedError", data: { message: "Aborted" } } });
  b.add("assistant", [], { error: { name: "APIError", data: { message: `<html>${"bad gateway ".repeat(20_000)}</html>` } } });
  b.add("assistant", [RawSessionBuilder.tool("bash", { command: "x" }, "bogus-status", "y")]);
  b.add(
    "assistant",
    Array.from({ length: 2000 }, (_, i) => ({ type: "text", text: `part ${i} ${"界".repeat(300)}` })),
  );
  b.add("user", [
    { type: "text", text: "Many attachments." },
    ...Array.from({ length: 800 }, (_, i) => ({ type: "file", mime: "text/plain", url: `file:///project/${"dir/".repeat(30)}f${i}.txt` })),
    { type: "file", mime: "text/plain", url: "file:///project/bad%E0%A4%A.txt" },
  ]);
  b.add("assistant", [
    ...Array.from({ length: 1500 }, (_, i) => RawSessionBuilder.tool("write", { filePath: `/project/${"gen/".repeat(20)}out${i}.ts`, content: "" })),
    ...Array.from({ length: 300 }, (_, i) => RawSessionBuilder.tool(`mcp_tool_${i}_${"x".repeat(60)}`, { i })),
    { type: "text", text: "Generated many files." },
  ]);
  const junk = b.add("assistant", [{ type: "text", text: 42 }, { type: "tool", tool: null, state: null }, { type: "file" }]);
  junk.parts.push(null, "junk", 7, [{ type: "text", text: "array part" }]);
  b.user("Last question.");
  b.assistant("Last answer.");
  return {
    builder: b,
    bigText: { messageId: idOf(textMessage.info), partId: idOf(textMessage.parts[0]), text },
    bigOutput: { messageId: idOf(outputMessage.info), partId: idOf(outputMessage.parts[0]), output, command },
  };
}

export function messageIds(messages: readonly RawMessage[]): string[] {
  return [...new Set(messages.map((message) => idOf(message.info)))];
}
