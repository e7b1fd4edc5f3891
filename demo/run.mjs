// `npm run demo`: runs demo/demo.ts under Node 20. The demo and the e2e harness it drives are
// TypeScript, so a module hook (ts-hooks.mjs) transpiles .ts files as they are imported.
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url);
const { main } = await import("./demo.ts");
process.exit(await main());
