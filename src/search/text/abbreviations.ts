// Short forms of software-engineering words: people ask in full words (`stylesheet`, `database`,
// `directory`), while code, commands and agents write the short forms (`css`, `db`, `dir`), and the
// other way round. A query word that is a full form also matches its short forms, and a short form
// its full forms and the other short forms of them (`config` finds `configuration` and `cfg`), at
// a lower weight than the word as typed and in its query-word group, so coverage counts it once.
// Only the query is expanded, like the stem's other forms (stem.ts): the index stores nothing
// extra. The table holds true equivalents only (the same thing written shorter), not synonyms or
// related words (`database` is not `sql`), and no short form that mostly means something else in
// code (`res`: result, resource or response; `mod`: module or modulo). A short form is often also
// a file extension or path segment (`.css`, `.py`, `lib/`, `tmp/`): that is meant (a `.css` file
// is a stylesheet).
// Their weight is tuning.ts's query.abbreviations.

/** A full form (singular and plural apart, as written) and its short forms. */
const TABLE: ReadonlyArray<readonly [full: string, shorts: string]> = [
  ["administrator", "admin"],
  ["administrators", "admins"],
  ["allocation", "alloc"],
  ["application", "app"],
  ["applications", "apps"],
  ["argument", "arg"],
  ["arguments", "args"],
  ["asynchronous", "async"],
  ["attribute", "attr"],
  ["attributes", "attrs"],
  ["authentication", "auth"],
  ["authorization", "auth"],
  ["average", "avg"],
  ["binary", "bin"],
  ["boolean", "bool"],
  ["buffer", "buf"],
  ["button", "btn"],
  ["certificate", "cert"],
  ["certificates", "certs"],
  ["character", "char"],
  ["characters", "chars"],
  ["column", "col"],
  ["columns", "cols"],
  ["command", "cmd"],
  ["commands", "cmds"],
  ["configuration", "config cfg conf"],
  ["configurations", "configs"],
  ["context", "ctx"],
  ["current", "cur curr"],
  ["database", "db"],
  ["databases", "dbs"],
  ["dependency", "dep deps"],
  ["dependencies", "deps"],
  ["destination", "dest dst"],
  ["development", "dev"],
  ["directory", "dir"],
  ["directories", "dirs"],
  ["document", "doc"],
  ["documents", "docs"],
  ["documentation", "docs doc"],
  ["environment", "env"],
  ["environments", "envs"],
  ["error", "err"],
  ["errors", "errs"],
  ["exception", "exc"],
  ["executable", "exe"],
  ["expression", "expr"],
  ["extension", "ext"],
  ["function", "func fn"],
  ["functions", "funcs fns"],
  ["identifier", "id"],
  ["identifiers", "ids"],
  ["image", "img"],
  ["images", "imgs"],
  ["implementation", "impl"],
  ["index", "idx"],
  ["information", "info"],
  ["initialization", "init"],
  ["initialisation", "init"],
  ["initialize", "init"],
  ["initialise", "init"],
  ["integer", "int"],
  ["integers", "ints"],
  ["internationalization", "i18n"],
  ["iterator", "iter"],
  ["javascript", "js"],
  ["jpeg", "jpg"],
  ["kubernetes", "k8s"],
  ["length", "len"],
  ["library", "lib"],
  ["libraries", "libs"],
  ["localization", "l10n"],
  ["markdown", "md"],
  ["maximum", "max"],
  ["memory", "mem"],
  ["message", "msg"],
  ["messages", "msgs"],
  ["minimum", "min"],
  ["miscellaneous", "misc"],
  ["number", "num"],
  ["numbers", "nums"],
  ["object", "obj"],
  ["objects", "objs"],
  ["operation", "op"],
  ["operations", "ops"],
  ["option", "opt"],
  ["options", "opts"],
  ["package", "pkg"],
  ["packages", "pkgs"],
  ["parameter", "param"],
  ["parameters", "params"],
  ["pointer", "ptr"],
  ["position", "pos"],
  ["previous", "prev"],
  ["process", "proc"],
  ["production", "prod"],
  ["property", "prop"],
  ["properties", "props"],
  ["python", "py"],
  ["reference", "ref"],
  ["references", "refs"],
  ["repository", "repo"],
  ["repositories", "repos"],
  ["request", "req"],
  ["requests", "reqs"],
  ["response", "resp"],
  ["sequence", "seq"],
  ["source", "src"],
  ["specification", "spec"],
  ["specifications", "specs"],
  ["standard", "std"],
  ["statistics", "stats"],
  ["string", "str"],
  ["strings", "strs"],
  ["stylesheet", "css"],
  ["stylesheets", "css"],
  ["synchronous", "sync"],
  ["system", "sys"],
  ["template", "tmpl"],
  ["temporary", "tmp temp"],
  ["transaction", "txn"],
  ["typescript", "ts"],
  ["utility", "util"],
  ["utilities", "utils"],
  ["value", "val"],
  ["values", "vals"],
  ["variable", "var"],
  ["variables", "vars"],
  ["yaml", "yml"],
];

/** Each form of the table → the other forms it matches. */
const EQUIVALENTS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  const add = (word: string, form: string) => {
    const forms = map.get(word) ?? [];
    if (form !== word && !forms.includes(form)) forms.push(form);
    map.set(word, forms);
  };
  const fullsOf = new Map<string, string[]>();
  for (const [full, shorts] of TABLE) {
    for (const short of shorts.split(" ")) {
      add(full, short);
      fullsOf.set(short, [...(fullsOf.get(short) ?? []), full]);
    }
  }
  // A short form matches its full forms and every short form of them (`cfg` → `config`).
  for (const [short, fulls] of fullsOf) for (const full of fulls) for (const form of [full, ...map.get(full)!]) add(short, form);
  return map;
})();

/** The full or short forms a lower-case query word also matches (none when it is in no pair). */
export function abbreviationForms(word: string): readonly string[] {
  return EQUIVALENTS.get(word) ?? [];
}

/** Every pair of the table, for tests and docs: a full form and its short forms. */
export function abbreviationPairs(): ReadonlyArray<readonly [full: string, shorts: readonly string[]]> {
  return TABLE.map(([full, shorts]) => [full, shorts.split(" ")] as const);
}
