// Ordinary lines of a coding session, for tests that need messages around the ones they rank
// (`line` and `item` apart: a distractor for a query on a line item).

export const FILLER = [
  "Let us look at the build configuration first.",
  "The tests pass on my machine but fail in CI sometimes.",
  "I refactored the invoice module and renamed a few helpers.",
  "Please check the README for the setup steps.",
  "The line chart renders item labels twice in the dashboard.",
  "We should total the numbers before rounding.",
];

/** Words no test asks for, for long messages around the ones a test ranks (repeat to lengthen). */
export const FILLER_WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega river stone cloud forest ember ";
