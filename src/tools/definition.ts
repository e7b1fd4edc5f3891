// tool.definition: what the host sends the model for each of our tools, trimmed. The host gives
// every plugin tool's JSON Schema a `$schema` line (the dialect URL, 57 bytes) that tells the model
// nothing; every request carries it for each tool.

export interface ToolDefinitionOutput {
  description: string;
  parameters: unknown;
  /** The JSON Schema the model gets (OpenCode 1.18.33 and later; absent on hosts without it). */
  jsonSchema?: unknown;
}

/** The schema without its `$schema` line: a new object when there was one, else the same value. */
export function withoutSchemaDialect<T>(schema: T): T {
  if (typeof schema !== "object" || schema === null || !("$schema" in schema)) return schema;
  const trimmed: Record<string, unknown> = { ...schema };
  delete trimmed.$schema;
  return trimmed as T;
}

export function dropSchemaDialect(output: ToolDefinitionOutput): void {
  // A new object: the host keeps the original for the next request.
  output.jsonSchema = withoutSchemaDialect(output.jsonSchema);
}
