// Run by the host's own Bun (BUN_BE_BUN=1 <opencode binary> this-file.ts): reads one session
// through the SQLite fast path and through the host's HTTP API, maps both, and prints whether
// they agree. Usage: compare-readers.ts <dataDir> <sessionId> <serverUrl> <directory>
import { sameValue } from "../../src/host/equal.ts";
import { mapMessage } from "../../src/host/map.ts";
import { openSqliteReader } from "../../src/host/sqlite-reader.ts";

const [dataDir, sessionId, serverUrl, directory] = process.argv.slice(2) as [string, string, string, string];

const reader = await openSqliteReader(dataDir, sessionId);
if (typeof reader === "string") {
  console.log(JSON.stringify({ error: reader }));
  process.exit(0);
}
const fromSqlite = (await reader.readAll(sessionId)).map((raw) => mapMessage(raw, sessionId));
const response = await fetch(`${serverUrl}/session/${sessionId}/message?directory=${encodeURIComponent(directory)}`);
const fromHttp = ((await response.json()) as unknown[]).map((raw) => mapMessage(raw, sessionId));
const firstDiff = fromHttp.findIndex((message, i) => !sameValue(message, fromSqlite[i]));
const stamp = await reader.stamp(sessionId);
reader.close();
console.log(JSON.stringify({ sqlite: fromSqlite.length, http: fromHttp.length, equal: sameValue(fromSqlite, fromHttp), firstDiff, stamp }));
