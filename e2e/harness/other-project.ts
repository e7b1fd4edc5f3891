// Sessions of other projects on the same host, and the host's permission prompts, for the tests of
// reads outside the calling session's project.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL, type Host } from "./host.ts";
import { readToolPart, type ToolCallResult } from "./tool-call.ts";
import type { HostSession } from "./types.ts";

/** A pending request as `GET /permission` lists it. */
export interface PermissionRequest {
  id: string;
  sessionID: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
}

/**
 * Makes `directory` a second project served by the same host (a git repo with the host project's
 * opencode.json, so the mock model answers there too) and seeds one session in it.
 */
export async function seedOtherProject(host: Host, directory: string, userText: string, reply: string): Promise<HostSession> {
  mkdirSync(directory, { recursive: true });
  copyFileSync(join(host.directory, "opencode.json"), join(directory, "opencode.json"));
  writeFileSync(join(directory, "README.md"), `# ${userText}\n`);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e", ...args], { cwd: directory, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  host.mock.push({ text: reply });
  if (host.generation === 2) {
    const session = await host.createSession({ location: { directory } });
    await host.prompt(session.id, userText);
    return session;
  }
  const at = `directory=${encodeURIComponent(directory)}`;
  const session = await host.request<HostSession>("POST", `/session?${at}`, {});
  await host.request("POST", `/session/${session.id}/message?${at}`, { parts: [{ type: "text", text: userText }], model: MODEL });
  return session;
}

/** OpenCode 2's pending request (`{action, resources, save}`), in 1.x's names. */
interface PermissionRequestV2 {
  id: string;
  sessionID: string;
  action: string;
  resources: string[];
  save?: string[];
  metadata?: Record<string, unknown>;
}

/** The permission requests waiting for an answer in a session. */
export async function pendingPermissions(host: Host, sessionId: string): Promise<PermissionRequest[]> {
  if (host.generation === 1) return (await host.request<PermissionRequest[]>("GET", "/permission")).filter((request) => request.sessionID === sessionId);
  const { data } = await host.request<{ data: PermissionRequestV2[] }>("GET", `/api/session/${sessionId}/permission`);
  return data.map((r) => ({ id: r.id, sessionID: r.sessionID, permission: r.action, patterns: r.resources, always: r.save ?? [], metadata: r.metadata ?? {} }));
}

async function replyPermission(host: Host, request: PermissionRequest, reply: "once" | "always" | "reject"): Promise<void> {
  if (host.generation === 1) await host.request("POST", `/permission/${request.id}/reply`, { reply });
  else await host.request("POST", `/api/session/${request.sessionID}/permission/${request.id}/reply`, { decision: reply });
}

export interface AskedCall {
  result: ToolCallResult;
  /** The permission requests the call raised, in order, each answered with `answer`. */
  asked: PermissionRequest[];
}

/**
 * Makes the model call a tool and answers every permission request the call raises with `answer`
 * (none expected when `answer` is undefined: a request then fails the call's test).
 */
export async function callAnswering(host: Host, sessionId: string, name: string, args: unknown, answer?: "once" | "always" | "reject"): Promise<AskedCall> {
  const callId = `call_perm_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  host.mock.push({ toolCalls: [{ id: callId, name, args }] }, { text: `Called ${name}.` });
  let done = false;
  const turn = host.prompt(sessionId, `Please call ${name}.`).finally(() => {
    done = true;
  });
  const asked: PermissionRequest[] = [];
  while (!done) {
    const pending = await pendingPermissions(host, sessionId);
    for (const request of pending) {
      if (asked.some((seen) => seen.id === request.id)) continue;
      asked.push(request);
      if (answer === undefined) throw new Error(`unexpected permission request: ${JSON.stringify(request)}`);
      await replyPermission(host, request, answer);
    }
    await Promise.race([turn.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  await turn;
  return { result: readToolPart(await host.messages(sessionId), callId, host.generation), asked };
}
