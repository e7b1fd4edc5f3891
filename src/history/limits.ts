// Bounds every answer respects. The host cuts tool output over 51,200 bytes or 2,000 lines, and a
// single over-long line keeps nothing, so each answer stays well below the byte cut.

/** Largest serialized answer in UTF-8 bytes. */
export const MAX_ANSWER_BYTES = 45_000;

/** Largest window the tools accept before clamping; the configured caps sit below these. */
export const MAX_WINDOW_ARG = 100;
