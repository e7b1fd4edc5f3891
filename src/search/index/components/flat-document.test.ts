import { components } from "@orama/orama";
import { describe, expect, it } from "vitest";
import { flatDocumentProperties, flatSchemaValidator } from "./flat-document.ts";

const SCHEMA = { text: "string", kind: "enum", size: "number" } as const;
const DOCS: Array<{ id: string } & Record<string, string | number | boolean>> = [
  { id: "a", text: "hello", kind: "x", size: 3 },
  { id: "b", text: "hello", kind: 7 },
  { id: "c", text: 5, kind: "x" },
  { id: "d", text: "hi", kind: true },
  { id: "e", text: "hi", size: "3" },
  { id: "f" },
];

describe("flat document components", () => {
  it("judge and read flat documents as Orama's defaults do", () => {
    const validate = flatSchemaValidator(SCHEMA);
    const paths = Object.keys(SCHEMA);
    for (const doc of DOCS) {
      expect(validate(doc)).toBe(components.validateSchema(doc, SCHEMA));
      expect(flatDocumentProperties(doc, paths)).toEqual(components.getDocumentProperties(doc, paths));
    }
  });
});
