// `npm run demo [-- --generation 1|2 | --host <version>]`: runs demo/demo.ts under Node 20. The demo
// and the e2e harness it drives are TypeScript: the project's one loader (scripts/ts-loader.mjs)
// transpiles .ts files as they load.
import "../scripts/ts-loader.mjs";

const { main } = await import("./demo.ts");
process.exit(await main(process.argv.slice(2)));
