import { describe, expect, it } from "vitest";
import { abbreviationForms, abbreviationPairs } from "./abbreviations.ts";
import { tokenize } from "./tokenize.ts";
import { parseQuery } from "./query.ts";
import { TUNING } from "../tuning.ts";

/** The terms parseQuery adds to a query for its words' full or short forms, by token. */
function forms(query: string): string[] {
  const parsed = parseQuery(query);
  return parsed.terms
    .filter(
      (t) =>
        t.variant &&
        t.weight === TUNING.query.abbreviations.weight &&
        abbreviationPairs().some(([full, shorts]) => full === t.token || shorts.includes(t.token)),
    )
    .map((t) => t.token);
}

describe("abbreviation table", () => {
  it("holds well over 40 pairs, each form one whole term of the tokenizer", () => {
    const pairs = abbreviationPairs();
    expect(pairs.length).toBeGreaterThan(40);
    for (const [full, shorts] of pairs) for (const form of [full, ...shorts]) expect([form, tokenize(form)]).toEqual([form, [form]]);
  });

  it("matches a full form to its short forms, and a short form to its full forms and their other short forms", () => {
    expect(abbreviationForms("database")).toEqual(["db"]);
    expect(abbreviationForms("db")).toEqual(["database"]);
    expect(abbreviationForms("configuration")).toEqual(["config", "cfg", "conf"]);
    expect(abbreviationForms("cfg")).toEqual(["configuration", "config", "conf"]);
    expect(abbreviationForms("auth")).toEqual(["authentication", "authorization"]);
    // Two full forms sharing a short form are not each other's forms.
    expect(abbreviationForms("authentication")).toEqual(["auth"]);
    expect(abbreviationForms("deploy")).toEqual([]);
  });
});

describe("parseQuery with abbreviations", () => {
  it("adds a word's full or short forms to its query word, below the word as typed", () => {
    const parsed = parseQuery("new stylesheet in the db");
    const stylesheet = parsed.terms.find((t) => t.token === "stylesheet")!;
    const css = parsed.terms.find((t) => t.token === "css")!;
    const database = parsed.terms.find((t) => t.token === "database")!;
    expect([css.group, css.weight, css.variant]).toEqual([stylesheet.group, TUNING.query.abbreviations.weight, true]);
    expect(database.group).toBe(parsed.terms.find((t) => t.token === "db")!.group);
    expect(stylesheet.weight).toBe(1);
    expect(parsed.groups).toBe(3);
  });

  it("expands an acronym typed in capitals and a capitalised word", () => {
    expect(forms("CSS")).toEqual(["stylesheet", "stylesheets"]);
    expect(forms("Database")).toContain("db");
  });

  it("leaves words of a path, identifier or name as typed", () => {
    for (const query of ["lib/db.py", "db_url", "dbName", "app.config", "--config", "DbConfig"]) expect([query, forms(query)]).toEqual([query, []]);
  });

  it("adds no forms for a word typed again: they would make a query word only they match", () => {
    const parsed = parseQuery("priv/static/app.css CSS variables");
    expect(parsed.terms.map((t) => t.token)).not.toContain("stylesheet");
    expect(parsed.groups).toBe(2);
  });
});
