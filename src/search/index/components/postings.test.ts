import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenSpans, tokenize } from "../../text/tokenize.ts";
import { addDocument, countPostings, createPostingsStore, forEachPosting, removeDocument, trimSteps, type PostingsStore } from "./postings.ts";
import { TermTokenizer } from "./tokenizer.ts";
import { TermTable } from "./term-table.ts";

/** What the packed store should hold: term → [[doc, tf], …] in insertion order. */
function naive(docs: string[]): Map<string, Array<[number, number]>> {
  const out = new Map<string, Array<[number, number]>>();
  docs.forEach((text, doc) => {
    const counts = new Map<string, number>();
    for (const token of tokenize(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [token, tf] of counts) {
      const list = out.get(token) ?? [];
      list.push([doc, Math.min(tf, 255)]);
      out.set(token, list);
    }
  });
  return out;
}

const tokenizer = new TermTokenizer();
const spans = new TokenSpans();

/** Adds a document as the index component does: through the tokenizer component's spans. */
function add(store: PostingsStore, doc: number, text: string): void {
  addDocument(store, doc, tokenizer.spans(text, spans), spans, text.length);
}

function packed(docs: string[], trimAfter = -1): Map<string, Array<[number, number]>> {
  const store = createPostingsStore();
  docs.forEach((text, doc) => {
    add(store, doc, text);
    if (doc === trimAfter) for (const _ of trimSteps(store));
  });
  const out = new Map<string, Array<[number, number]>>();
  for (let term = 0; term < store.terms.count; term++) {
    const list: Array<[number, number]> = [];
    forEachPosting(store, term, (doc, tf) => list.push([doc, tf]));
    expect(countPostings(store, term)).toBe(list.length);
    out.set(store.terms.text(term), list);
  }
  return out;
}

const WORDS = ["alpha", "beta", "gamma", "Delta", "parseJSONBody", "无线耳机", "x", "café", "ＡＢＣ", "id_42"];

describe("packed postings", () => {
  it("hold exactly the tokenizer's terms with their frequencies, in document order", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...WORDS), { maxLength: 40 }), { maxLength: 60 }), fc.integer({ min: -1, max: 30 }), (docs, trimAfter) => {
        const texts = docs.map((words) => words.join(" "));
        expect(packed(texts, trimAfter)).toEqual(naive(texts));
      }),
      { numRuns: 150 },
    );
  });

  it("grow blocks for a term in many documents and cap the term frequency", () => {
    const texts = Array.from({ length: 3000 }, (_, i) => `common word${i % 97} ${i === 5 ? "spam ".repeat(400) : ""}`);
    expect(packed(texts)).toEqual(naive(texts));
  });

  it("counts documents alive after removal", () => {
    const store = createPostingsStore();
    add(store, 0, "one two");
    add(store, 1, "two three");
    removeDocument(store, 0);
    removeDocument(store, 0);
    expect(store.liveDocs).toBe(1);
    expect(store.deadDocs).toBe(1);
    expect(store.liveLength).toBe("two three".length);
  });
});

describe("term table", () => {
  it("interns each distinct span once and finds it again", () => {
    const table = new TermTable();
    const text = Array.from({ length: 5000 }, (_, i) => `t${i}`).join(" ");
    const ids = new Map<string, number>();
    let at = 0;
    for (const word of text.split(" ")) {
      ids.set(word, table.intern(text, at, at + word.length));
      at += word.length + 1;
    }
    expect(table.count).toBe(5000);
    for (const [word, id] of ids) {
      expect(table.find(word, 0, word.length)).toBe(id);
      expect(table.text(id)).toBe(word);
    }
    expect(table.find("nope", 0, 4)).toBe(-1);
  });
});
