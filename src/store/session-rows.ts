// Sessions as the host's SQLite store keeps them, turned into the host's JSON shape so map.ts
// reads them exactly like SDK answers. Shared by the plugin's global scope and the CLI.

/** The columns read here are all in sqlite-reader.ts's schema check. */
export const SESSION_COLUMNS = "id, parent_id, title, directory, time_created, time_updated";

export interface SessionRow {
  id: string;
  parent_id: string | null;
  title: string | null;
  directory: string | null;
  time_created: number | null;
  time_updated: number | null;
}

export function sessionJson(row: SessionRow): Record<string, unknown> {
  const json: Record<string, unknown> = { id: row.id, title: row.title ?? "", time: { created: row.time_created, updated: row.time_updated } };
  if (row.parent_id) json.parentID = row.parent_id;
  if (row.directory) json.directory = row.directory;
  return json;
}
