// The num_before / num_after arguments every browse tool shares.

import { MAX_WINDOW_ARG } from "../history/limits.ts";
import { optionalInt, type Args } from "./args.ts";

export interface WindowArgs {
  numBefore: number;
  numAfter: number;
}

export function windowArgs(args: Args): WindowArgs {
  const rule = { min: 0, max: MAX_WINDOW_ARG, default: 0 };
  return {
    numBefore: optionalInt(args, "num_before", rule).value,
    numAfter: optionalInt(args, "num_after", rule).value,
  };
}
