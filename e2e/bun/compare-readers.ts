// Run by the host's own Bun (BUN_BE_BUN=1 <opencode binary> this-file.ts): reads one session
// (its messages, and its info but for the agent, which only the host adds) through the SQLite
// fast path and through the host's HTTP API, maps both, and prints whether they agree.
// Usage: compare-readers.ts <dataDir> <sessionId> <serverUrl> <directory>
import { isDeepStrictEqual } from "node:util";
import { mapMessage, mapSession } from "../../src/store/map.ts";
import { openSqliteReader } from "../../src/store/store-file.ts";

const [dataDir, sessionId, serverUrl, directory] = process.argv.slice(2) as [string, string, string, string];

const reader = await openSqliteReader(dataDir, sessionId);
if (typeof reader === "string") {
  console.log(JSON.stringify({ error: reader }));
  process.exit(0);
}
const fromSqlite = (await reader.readAll(sessionId)).map((raw) => mapMessage(raw, sessionId));
const response = await fetch(`${serverUrl}/session/${sessionId}/message?directory=${encodeURIComponent(directory)}`);
const fromHttp = ((await response.json()) as unknown[]).map((raw) => mapMessage(raw, sessionId));
const firstDiff = fromHttp.findIndex((message, i) => !isDeepStrictEqual(message, fromSqlite[i]));
const stamp = await reader.stamp(sessionId);
const infoFromSqlite = mapSession(reader.sessionInfo(sessionId));
const infoFromHttp = mapSession(await (await fetch(`${serverUrl}/session/${sessionId}?directory=${encodeURIComponent(directory)}`)).json());
if (infoFromSqlite) delete infoFromSqlite.agent;
if (infoFromHttp) delete infoFromHttp.agent;
reader.close();
const infoEqual = infoFromSqlite !== undefined && isDeepStrictEqual(infoFromSqlite, infoFromHttp);
console.log(
  JSON.stringify({
    sqlite: fromSqlite.length,
    http: fromHttp.length,
    equal: isDeepStrictEqual(fromSqlite, fromHttp),
    firstDiff,
    stamp,
    infoEqual,
    info: infoEqual ? undefined : [infoFromSqlite, infoFromHttp],
  }),
);
