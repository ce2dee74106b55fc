// A row as better-sqlite3 returns it, before an area's mapper turns it into the Store's type.
export type Row = Record<string, unknown>
