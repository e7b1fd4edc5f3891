// Run in the host's Bun by cli/argv.test.ts (runInBun): the usage error each argument list gives
// there, since the command line runs in Bun and parseArgs' own wording differs between runtimes.

import { answer } from "../../store/testing/run-in-bun.ts";
import { parseArgs, type FlagSpec } from "../argv.ts";

await answer(async ({ spec, cases }: { spec: FlagSpec; cases: string[][] }) => {
  const errors: Record<string, string> = {};
  for (const argv of cases) {
    try {
      parseArgs(argv, spec);
      errors[argv.join(" ")] = "";
    } catch (error) {
      errors[argv.join(" ")] = `${(error as Error).name}: ${(error as Error).message}`;
    }
  }
  return errors;
});
