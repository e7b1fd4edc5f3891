// Cutting long content so the model can see that more exists and how to get it.

import { safeCut } from "./text.ts";

export interface Cut {
  text: string;
  /** Characters left out; 0 when nothing was cut. */
  more: number;
}

/** At most `max` characters, followed by a `[N chars more]` marker when cut. */
export function cutWithMarker(text: string, max: number): Cut {
  if (text.length <= max) return { text, more: 0 };
  const end = safeCut(text, max);
  const more = text.length - end;
  return { text: `${text.slice(0, end)}… [${more} chars more]`, more };
}
