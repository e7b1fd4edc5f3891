// Bad tool arguments: a hand-written table of values a model (or a broken client) may send, and
// fast-check arbitraries for the rest. Test-only.

import fc from "fast-check";

const TEN_KB = 10 * 1024;

/** Values for any parameter, each with a label for the report. */
export const NASTY_VALUES: readonly [label: string, value: unknown][] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["zero", 0],
  ["negative zero", -0],
  ["minus one", -1],
  ["fraction", 1.5],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
  ["2^53+1", 2 ** 53 + 1],
  ["1e308", 1e308],
  ["-1e308", -1e308],
  ["bigint", 10n],
  ["empty array", []],
  ["array of id", ["msg_1"]],
  ["empty object", {}],
  ["object", { id: "msg_1" }],
  ["nested arrays", [[[[[]]]]]],
  ["empty string", ""],
  ["spaces", "   "],
  ["newlines and tabs", "\n\t\r\n"],
  ["string zero", "0"],
  ["string minus one", "-1"],
  ["string exponent", "1e3"],
  ["string hex", "0x10"],
  ["string huge number", "99999999999999999999"],
  ["string NaN", "NaN"],
  ["string true", "true"],
  ["arabic digits", "١٢٣"],
  ["fullwidth digits", "１２"],
  ["10 KB of a", "a".repeat(TEN_KB)],
  ["10 KB of CJK", "界".repeat(TEN_KB)],
  ["10 KB id-shaped", `msg_${"A".repeat(TEN_KB)}`],
  ["10 KB of quotes and backslashes", '"\\'.repeat(TEN_KB / 2)],
  ["control characters", "\u0000\u0001\u0007\u001b[31m\u007f"],
  ["NUL inside an id", "msg_abc\u0000def"],
  ["lone high surrogate", "\uD800"],
  ["lone low surrogate", "\uDC00abc"],
  ["surrogate in an id", "msg_\uD83D"],
  ["reversed pair", "\uDE00\uD83D"],
  ["emoji", "🦀🧪👩‍👩‍👧"],
  ["right-to-left override", "\u202Emsg_1"],
  ["zero-width space id", "msg_\u200B1"],
  ["combining marks", "e\u0301\u0301\u0301"],
  ["SQL injection", "'; DROP TABLE message; --"],
  ["SQL in an id", "msg_1' OR '1'='1"],
  ["path traversal", "../../../etc/passwd"],
  ["id with slash", "ses_../../etc"],
  ["__proto__", "__proto__"],
  ["constructor", "constructor"],
  ["wrong prefix: session", "ses_fuzzzz"],
  ["wrong prefix: message", "msg_fuzzzz"],
  ["wrong prefix: part", "prt_fuzzzz"],
  ["prefix only", "msg_"],
  ["upper-case prefix", "MSG_1"],
  ["padded id", "  msg_1  "],
  ["regex: nested quantifier", "(a+)+$"],
  ["regex: exponential alternation", "((a|a)+)+b"],
  ["regex: star of group", "(.*a){25}"],
  ["regex: unbalanced", "(["],
  ["regex: lone backslash", "\\"],
  ["regex: huge repeat", "a{99999999}"],
  ["regex: lookbehind", "(?<=a)b"],
  ["regex: unicode class", "\\p{L}+"],
  ["regex: backreference", "(a)\\2"],
  ["regex: empty match", "^|$"],
  ["glob star", "*"],
  ["pipe list with junk", "text|code|"],
  ["pipes only", "|||"],
  ["date garbage", "2026-13-45"],
  ["date far future", "9999-12-31T23:59:59Z"],
  ["date epoch digits", "1700000000000"],
];

const LONE_SURROGATES = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const CONTROLS = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));

/** Strings mixing any code points, control characters and lone surrogates. */
const nastyString: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: LONE_SURROGATES },
    { weight: 1, arbitrary: CONTROLS },
  ),
  maxLength: 200,
});

/** Strings that look like ids, of every kind and some broken ones. */
const idLike: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^(ses|msg|prt)_[A-Za-z0-9_-]{0,40}$/),
  fc.tuple(fc.constantFrom("ses_", "msg_", "prt_", ""), nastyString).map(([prefix, rest]) => prefix + rest),
);

/** Anything a parameter might hold. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ maxDepth: 2, withBigInt: false, withNullPrototype: true, withObjectString: true }),
  nastyString,
  idLike,
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.integer({ min: -5, max: 250 }),
  fc.double(),
  fc.integer({ min: -5, max: 250 }).map(String),
  fc.boolean(),
  fc.array(fc.oneof(nastyString, fc.constantFrom("text", "tool", "reasoning")), { maxLength: 5 }),
);
