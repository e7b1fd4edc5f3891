// Orama's function components for flat documents (no nested properties, vectors or geopoints):
// read and check a document's properties without splitting each path and listing the schema on
// every insert. Orama's defaults allocate a few arrays per property and document, which made
// indexing measurably slower once chunks carried their filterable properties.

import type { AnyDocument, SearchableValue } from "@orama/orama";

export type FlatSchema = Readonly<Record<string, "string" | "string[]" | "number" | "boolean" | "enum">>;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** validateSchema: the first property whose value has the wrong type (absent values pass). */
export function flatSchemaValidator(schema: FlatSchema): (doc: AnyDocument) => string | undefined {
  const entries = Object.entries(schema);
  return (doc) => {
    for (const [property, type] of entries) {
      const value: unknown = doc[property];
      if (value === undefined) continue;
      const valid =
        type === "enum" ? typeof value === "string" || typeof value === "number" : type === "string[]" ? isStringList(value) : typeof value === type;
      if (!valid) return property;
    }
    return undefined;
  };
}

/** getDocumentProperties: the values the document has of the given top-level properties. */
export function flatDocumentProperties(doc: AnyDocument, paths: string[]): Record<string, SearchableValue> {
  const properties: Record<string, SearchableValue> = {};
  for (const path of paths) {
    const value: unknown = doc[path];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || isStringList(value)) properties[path] = value;
  }
  return properties;
}
