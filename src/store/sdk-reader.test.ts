import { describe, expect, it } from "vitest";
import { createSdkReader } from "./sdk-reader.ts";
import { FakeClient, rawId, rawText } from "./testing/fake-client.ts";

const SID = "ses_a";

function setup(timeoutMs = 1000) {
  const client = new FakeClient();
  client.addSession(
    SID,
    Array.from({ length: 3 }, (_, i) => rawText(SID, rawId("msg", i), "user", `text ${i}`)),
  );
  return { client, reader: createSdkReader(client, { pageSize: 10, timeoutMs }) };
}

/** The signal each request of `method` was sent with. */
const signals = (client: FakeClient, method: string) => client.calls.filter((c) => c.method === method).map((c) => (c.args as { signal?: AbortSignal }).signal);

describe("SDK reader cancellation", () => {
  it("aborts the request it gave up on when it times out", async () => {
    const { client, reader } = setup(20);
    client.faults.hang = true; // a host that never answers, nor honours the signal
    await expect(reader.readAll(SID)).rejects.toThrow(/timed out after 20 ms/);
    await expect(reader.readOne(SID, rawId("msg", 0))).rejects.toThrow(/timed out/);
    await expect(reader.getSession(SID)).rejects.toThrow(/timed out/);
    await expect(reader.listSessions()).rejects.toThrow(/timed out/);
    for (const method of ["session.messages", "session.message", "session.get", "session.list"]) {
      const [signal] = signals(client, method);
      expect(signal?.aborted, method).toBe(true);
      expect(String(signal?.reason), method).toMatch(/timed out/);
    }
  });

  it("aborts the request in flight when the caller cancels, rejecting with the caller's reason", async () => {
    const { client, reader } = setup(60_000);
    const caller = new AbortController();
    const reason = new Error("the tool call was cancelled");
    client.faults.hang = true;
    client.beforeAnswer = () => caller.abort(reason);
    await expect(reader.readAll(SID, { signal: caller.signal })).rejects.toBe(reason);
    const [signal] = signals(client, "session.messages");
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(reason);
  });

  it("sends nothing for a caller that already cancelled, and leaves answered requests alone", async () => {
    const { client, reader } = setup();
    const caller = new AbortController();
    expect(await reader.readAll(SID, { signal: caller.signal })).toHaveLength(3);
    caller.abort();
    const [answered] = signals(client, "session.messages");
    expect(answered?.aborted).toBe(false);
    await expect(reader.readAll(SID, { signal: caller.signal })).rejects.toThrow(/abort/i);
    expect(signals(client, "session.messages")).toHaveLength(1);
  });
});
