// Ordinary lines of a coding session, for tests that need messages around the ones they rank.

export const FILLER = [
  "Let us look at the build configuration first.",
  "The tests pass on my machine but fail in CI sometimes.",
  "I refactored the invoice module and renamed a few helpers.",
  "Please check the README for the setup steps.",
  "The chart renders labels twice in the dashboard.",
  "We should total the numbers before rounding.",
];
