// A stand-in store's watermark from its per-session stamps (feeds over memory stores): the mark
// holds every stamp, so it moves with any of them and names exactly the sessions whose stamp moved;
// a session gone since, like a deleted one in the host's store, leaves it unable to say.

import type { ProjectionFeed } from "../feed.ts";

export function stampWatermark(stamps: ReadonlyMap<string, unknown>): Pick<ProjectionFeed, "watermark" | "changedSince"> {
  const now = () => [...stamps].map(([id, stamp]): [string, string] => [id, String(stamp)]);
  return {
    watermark: async () => JSON.stringify(now()),
    async changedSince(mark) {
      let before: Map<string, string>;
      try {
        before = new Map(JSON.parse(mark) as [string, string][]);
      } catch {
        return undefined;
      }
      if ([...before.keys()].some((id) => !stamps.has(id))) return undefined;
      return now()
        .filter(([id, stamp]) => before.get(id) !== stamp)
        .map(([id]) => id);
    },
  };
}
