// What a project asks of Switchboard, in a file that lives with it (`.switchboard.json` at the top of
// its repository, or in its folder), read for every session that works there, whatever started it
// (the plugin, the hooks, a driven session): the topics it takes whatever they are about, the other
// repositories whose events are its business too, or everything.
import * as z from 'zod'
import { topicSchema } from './hub-protocol.js'

export const PROJECT_FILE = '.switchboard.json'

export const projectFileSchema = z
  .object({
    /** Topics its sessions take whatever project they are about (`ci`, `alerts`, `github.*`). */
    topics: z.array(topicSchema).max(50, 'at most 50 topics').default([]),
    /** Other repositories (`owner/name`) whose events its sessions take, besides its own. */
    repositories: z
      .array(z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'a repository as owner/name'))
      .max(50, 'at most 50 repositories')
      .default([]),
    /** Every event, whatever it is about: what every session got before sessions had projects. */
    everything: z.boolean().default(false),
  })
  .strict()
export type ProjectFile = z.infer<typeof projectFileSchema>
