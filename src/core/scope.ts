// What a subscriber gets of the events it names no topic for: those about its project, or everything
// (event.ts's `wants`). Its own file, and no zod, so that the settings table (`routing`) takes the
// list without building the events' schemas: every command loads the table.
export type Scope = 'project' | 'everything'
export const SCOPES = ['project', 'everything'] as const
