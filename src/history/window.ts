// Windows around an anchor, clamped to a cap with a note saying so.

export interface WindowRequest {
  anchor: number;
  numBefore: number;
  numAfter: number;
  /** Number of items the window picks from. */
  length: number;
  /** Most items one window may hold. */
  cap: number;
  /** Plural noun for the note, e.g. "turns". */
  noun: string;
}

export interface Window {
  from: number;
  to: number;
  note?: string;
}

export function windowAround(request: WindowRequest): Window {
  const { anchor, length, cap, noun } = request;
  let before = Math.min(request.numBefore, anchor);
  let after = Math.min(request.numAfter, length - 1 - anchor);
  let note: string | undefined;
  if (before + after + 1 > cap) {
    // Keep the anchor and share the room, before first (the usual reading direction is backwards).
    const room = cap - 1;
    before = Math.min(before, Math.max(room - after, Math.ceil(room / 2)));
    after = Math.min(after, room - before);
    note = `window clamped to ${cap} ${noun} per call (asked for ${request.numBefore + request.numAfter + 1}); page with the ids at the edges`;
  }
  return { from: anchor - before, to: anchor + after + 1, note };
}
