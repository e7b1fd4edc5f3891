/**
 * An error meant for the model: its message says what was wrong and what to do instead.
 * Tools throw it; the host records it as the tool's error text and the session goes on.
 */
export class HistoryError extends Error {
  override readonly name = "HistoryError";
}

/** Thrown for a tool argument that is missing or outside its valid range. */
export class ArgumentError extends HistoryError {}
