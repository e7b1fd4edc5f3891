// Deterministic synthetic sessions for the bench: prose, code, logs, CJK, tool outputs, and a few
// 200 KB tool outputs.

import type { HistoryMessage, HistoryPart } from "../src/history/types.ts";
import { seededRandom } from "../src/util/testing/seeded-random.ts";

const WORDS =
  "the a of to and in is it that for on with as this we was be by at or are from but not have an they which one you were all there their been has more when if will would about out up them some into what than its only other new could time these two may then first any like now over such our after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three".split(
    " ",
  );
const IDENT_PARTS =
  "compute line item total invoice payment sandbox key rate limiter token bucket retry policy cache session index build parse render chart user account order refund config loader".split(
    " ",
  );
const CJK = [
  "用户想买无线耳机，预算五百元以内。",
  "购物车在结算时偶尔会清空。",
  "形態素解析にはMeCabを使います。",
  "トークナイザの辞書を更新しました。",
  "결제할 때 카드가 거절되었습니다.",
  "환불은 영업일 기준 삼일 정도 걸립니다.",
];

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)]!;
}

function sentence(r: () => number): string {
  const n = 6 + Math.floor(r() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(pick(r, WORDS));
  const s = words.join(" ");
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

function identifier(r: () => number): string {
  const n = 2 + Math.floor(r() * 3);
  const parts = Array.from({ length: n }, () => pick(r, IDENT_PARTS));
  return parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join("");
}

function codeBlock(r: () => number): string {
  const lines: string[] = [];
  const n = 4 + Math.floor(r() * 16);
  for (let i = 0; i < n; i++) {
    lines.push(`  const ${identifier(r)} = ${identifier(r)}(${identifier(r)}, ${Math.floor(r() * 1000)}); // ${pick(r, WORDS)} ${pick(r, WORDS)}`);
  }
  return `\`\`\`ts\nexport function ${identifier(r)}() {\n${lines.join("\n")}\n}\n\`\`\``;
}

function logLines(r: () => number, n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = Math.floor(r() * 0xffffffff)
      .toString(16)
      .padStart(8, "0");
    const level = pick(r, ["INFO", "WARN", "ERROR", "DEBUG"]);
    lines.push(
      `2025-01-0${1 + (i % 9)}T10:${String(i % 60).padStart(2, "0")}:00Z ${level} [req ${id}] ${pick(r, WORDS)} ${identifier(r)} took ${Math.floor(r() * 900)}ms path=/api/${pick(r, IDENT_PARTS)}/${Math.floor(r() * 100)}`,
    );
  }
  return lines.join("\n");
}

let idCounter = 0;
function id(prefix: string): string {
  idCounter++;
  return `${prefix}_${idCounter.toString(36).padStart(12, "0")}`;
}

export interface GenOptions {
  messages: number;
  seed: number;
  /** How many 200 KB tool outputs. */
  hugeOutputs: number;
  sessionId: string;
}

export function generateSession(options: GenOptions): HistoryMessage[] {
  const r = seededRandom(options.seed);
  const out: HistoryMessage[] = [];
  const hugeAt = new Set<number>();
  for (let i = 0; i < options.hugeOutputs; i++) hugeAt.add(Math.floor(((i + 0.5) / options.hugeOutputs) * options.messages) | 1);
  let time = Date.UTC(2025, 0, 1);
  for (let i = 0; i < options.messages; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    const parts: HistoryPart[] = [];
    const kind = r();
    let text: string;
    if (role === "user") text = Array.from({ length: 1 + Math.floor(r() * 3) }, () => sentence(r)).join(" ");
    else if (kind < 0.4) text = Array.from({ length: 3 + Math.floor(r() * 8) }, () => sentence(r)).join(" ");
    else if (kind < 0.75) text = `${sentence(r)}\n\n${codeBlock(r)}\n\n${sentence(r)}`;
    else if (kind < 0.9) text = `${pick(r, CJK)}${pick(r, CJK)}${pick(r, CJK)} ${sentence(r)}`;
    else text = `${sentence(r)} ${identifier(r)} ${identifier(r)}.`;
    parts.push({ kind: "text", id: id("prt"), text });
    if (role === "assistant" && (r() < 0.5 || hugeAt.has(i))) {
      const huge = hugeAt.has(i);
      const output = huge ? logLines(r, 1700) : r() < 0.5 ? logLines(r, 5 + Math.floor(r() * 30)) : codeBlock(r);
      parts.push({
        kind: "tool",
        id: id("prt"),
        callId: id("call"),
        tool: pick(r, ["bash", "grep", "edit", "webfetch"]),
        status: "completed",
        input: { command: `${pick(r, ["npm test", "rg", "cat"])} ${identifier(r)}` },
        output,
      });
    }
    out.push({ id: id("msg"), sessionId: options.sessionId, role, created: (time += 1000), parts });
  }
  return out;
}

/** A message appended to a session (the incremental-update measurement). */
export function extraMessage(sessionId: string, text: string): HistoryMessage {
  return { id: id("msg"), sessionId, role: "assistant", created: Date.UTC(2026, 0, 1), parts: [{ kind: "text", id: id("prt"), text }] };
}
