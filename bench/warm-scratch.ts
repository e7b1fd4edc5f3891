import { toolVisibility } from "../src/history/tool-visibility.ts";
import { createSearchService } from "../src/search/service.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { generateSession } from "./generate.ts";
const visibility = toolVisibility([], []);
const messages = generateSession({ messages: 10000, seed: 3, hugeOutputs: 5, sessionId: "ses_p" });
const config = defaultConfig();
const source = {
  listSessions: async () => [{ id: "ses_p", title: "p", created: 0, updated: 0 }],
  getSession: async () => ({ id: "ses_p", title: "p", created: 0, updated: 0 }),
  loadMessages: async () => messages,
};
const svc = createSearchService({ source, config: () => config, visibility: () => visibility });
await svc.indexed("ses_p");
const t0 = performance.now();
let n = 0;
while (performance.now() - t0 < 4000) {
  for (const q of ["token bucket limiter", "computeLineItemTotals", "refund policy", "无线耳机", "ERROR webfetch"]) {
    await svc.search({ query: q, sessionId: "ses_p", callerSessionId: "x", scope: "session", types: ["text", "tool"], limit: 10 });
    n++;
  }
}
console.log(`${n} searches, ${((performance.now() - t0) / n).toFixed(2)} ms each`);
process.exit(0);
