// The demo's script: the scratch project the host opens, the conversation the scripted model
// plays (an earlier session, then the turns in which the decision is made and built), and the
// question asked after compaction with the model's search and answer. demo.ts runs it.

import { editCall, readCall, shellCall, writeCall } from "../e2e/harness/builtin-tools.ts";
import type { MockResponse } from "../e2e/harness/mock-llm.ts";

// ---------------------------------------------------------------- the scratch project

const SERVER_JS = `import { createServer } from "node:http";

export function handle(req, res) {
  const key = req.headers["x-api-key"];
  if (!key) {
    res.writeHead(401, { "content-type": "text/plain" });
    res.end("missing API key\\n");
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ ok: true }));
}

if (process.argv[1] === new URL(import.meta.url).pathname) createServer(handle).listen(8080);
`;

const RATE_LIMIT_JS = `// Sliding-window rate limiter: at most \`limit\` requests per API key in any \`windowMs\`.
export function createLimiter({ limit = 120, windowMs = 60_000, now = Date.now } = {}) {
  const hits = new Map(); // API key -> timestamps of accepted requests, oldest first
  return function check(key) {
    const t = now();
    const recent = (hits.get(key) ?? []).filter((at) => t - at < windowMs);
    if (recent.length >= limit) {
      hits.set(key, recent);
      return { ok: false, retryAfterMs: windowMs - (t - recent[0]) };
    }
    recent.push(t);
    hits.set(key, recent);
    return { ok: true };
  };
}
`;

const TEST_JS = `import assert from "node:assert/strict";
import { test } from "node:test";
import { createLimiter } from "../src/rate-limit.js";

test("allows the limit, then rejects with a retry delay", () => {
  let t = 0;
  const check = createLimiter({ limit: 3, windowMs: 1000, now: () => t });
  for (let i = 0; i < 3; i++) assert.equal(check("k").ok, true);
  const rejected = check("k");
  assert.equal(rejected.ok, false);
  assert.equal(rejected.retryAfterMs, 1000);
});

test("the window slides instead of resetting", () => {
  let t = 0;
  const check = createLimiter({ limit: 2, windowMs: 1000, now: () => t });
  check("k");
  t = 600;
  check("k");
  t = 1001;
  assert.equal(check("k").ok, true); // the first request left the window
  assert.equal(check("k").ok, false); // the second one has not
});

test("keys are limited separately", () => {
  const check = createLimiter({ limit: 1, windowMs: 1000, now: () => 0 });
  assert.equal(check("a").ok, true);
  assert.equal(check("b").ok, true);
  assert.equal(check("a").ok, false);
});
`;

export const PROJECT_FILES: Record<string, string> = {
  "package.json": `${JSON.stringify({ name: "acme-api", private: true, type: "module", scripts: { test: "node --test" } }, null, 2)}\n`,
  "src/server.js": SERVER_JS,
};

// ---------------------------------------------------------------- the scripted conversation

export const DECISION =
  "Decision: a sliding-window limiter, not a token bucket. A token bucket lets a client that was idle spend its whole bucket at once, " +
  "which is exactly the burst Northwind complained about; a sliding window counts the last 60 seconds, so there is no refill or " +
  "minute boundary to pile up on. Limit: 120 requests per minute per API key. Over the limit we answer 429 with a Retry-After header.";

export const TITLES: [RegExp, string][] = [
  [/Northwind's nightly import/, "Northwind import burst investigation"],
  [/rate limiting/, "Per-key rate limiter for the public API"],
];

export interface Turn {
  user: string;
  /** The model's replies in `dir`, its built-in tools called as OpenCode `generation` names them. */
  steps: (dir: string, generation: 1 | 2) => MockResponse[];
}

export const EARLIER_SESSION: Turn = {
  user: "Why did Northwind's nightly import get 600 requests through in five seconds? Support ticket #4812.",
  steps: () => [
    {
      text: "The gateway has no per-key limit at all, so one API key can use the whole capacity. Their import client retries in tight loops, which turns one slow minute into a burst. We need a per-key rate limiter.",
    },
  ],
};

export const TURNS: Turn[] = [
  {
    user: "Our public API needs per-key rate limiting (see ticket #4812). Northwind keeps complaining that other tenants' bursts slow everyone down. Token bucket or sliding window? Decide, then we implement it.",
    steps: () => [
      {
        reasoning: "A token bucket allows bursts up to its capacity by design; the complaint is about bursts. A sliding window log bounds any 60 s span.",
        text: DECISION,
      },
    ],
  },
  {
    user: "Go ahead: implement the limiter module.",
    steps: (dir, generation) => [
      { toolCalls: [shellCall(generation, "ls -R src && cat package.json", "Look at the project layout")] },
      { toolCalls: [writeCall(generation, `${dir}/src/rate-limit.js`, RATE_LIMIT_JS)] },
      {
        text: "Added src/rate-limit.js: createLimiter({ limit, windowMs }) keeps the timestamps of accepted requests per API key and rejects once the last window already holds `limit` of them, with the delay until the oldest one leaves.",
      },
    ],
  },
  {
    user: "Wire it into the server.",
    steps: (dir, generation) => [
      { toolCalls: [readCall(generation, `${dir}/src/server.js`)] },
      {
        toolCalls: [
          editCall(
            generation,
            `${dir}/src/server.js`,
            'import { createServer } from "node:http";\n',
            'import { createServer } from "node:http";\nimport { createLimiter } from "./rate-limit.js";\n\nconst limit = createLimiter();\n',
          ),
        ],
      },
      {
        toolCalls: [
          editCall(
            generation,
            `${dir}/src/server.js`,
            '  res.writeHead(200, { "content-type": "application/json" });',
            '  const verdict = limit(key);\n  if (!verdict.ok) {\n    res.writeHead(429, { "retry-after": String(Math.ceil(verdict.retryAfterMs / 1000)) });\n    res.end("rate limit exceeded\\n");\n    return;\n  }\n  res.writeHead(200, { "content-type": "application/json" });',
          ),
        ],
      },
      { text: "The server now checks the limiter after the API-key check and answers 429 with Retry-After in seconds." },
    ],
  },
  {
    user: "Add tests and run them.",
    steps: (dir, generation) => [
      { toolCalls: [writeCall(generation, `${dir}/test/rate-limit.test.js`, TEST_JS)] },
      { toolCalls: [shellCall(generation, "node --test test/ 2>&1 | grep -E '^# (tests|pass|fail) '", "Run the limiter tests")] },
      { text: "Three tests (limit then 429 with retry delay, the window slides, keys are separate) pass." },
    ],
  },
  {
    user: "Ops wants the limit configurable per deployment.",
    steps: (dir, generation) => [
      {
        toolCalls: [
          editCall(
            generation,
            `${dir}/src/server.js`,
            "const limit = createLimiter();",
            "const limit = createLimiter({ limit: Number(process.env.RATE_LIMIT_PER_MIN ?? 120) });",
          ),
        ],
      },
      { text: "RATE_LIMIT_PER_MIN now overrides the limit; the default stays 120." },
    ],
  },
];

export const QUESTION = "Support asks which limit we shipped and why we did not use a token bucket. What do I tell them?";

/** What the model searches its history for when asked the question. */
export const SEARCH_QUERY = "token bucket sliding window";

/** The model's answer once it has read the decision again. */
export const ANSWER =
  "We shipped a sliding-window limiter at 120 requests per minute per API key (configurable with RATE_LIMIT_PER_MIN). We chose it over a token bucket because a token bucket lets an idle client spend its whole bucket at once, which is the burst Northwind complained about.";
