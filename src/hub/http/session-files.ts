// A file from the dashboard into a driven session (issue 36): its bytes are the request's body, its
// type the Content-Type, its name and any words in the query. It is held to the chats' limit and types
// and stored where their files are (sources/chat/inbox.ts: one store, one limit), and the session is
// sent a message naming its path, type and size. A raw body rather than multipart: the one app reads
// every body itself, at most its route's limit, and refuses one that says it is longer before reading
// a byte; a refusal names the limit, as a chat's does.
import type { Context, Hono } from 'hono'
import { invalid, tooLarge } from '../../core/errors.js'
import {
  chatFileLimits,
  inboxFolder,
  messageWithFiles,
  refusalWhy,
  shownName,
  storeInboxFile,
  typeOf,
} from '../../sources/chat/inbox.js'
import type { InboundAttachment } from '../../sources/chat/platform.js'
import { type Before, defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import { requestBody } from './node-io.js'
import type { HubParts } from './parts.js'

const NOT_SENT = 'it was not sent'

/** The file as the chats' checks see one; `size` null until it is known. */
function attachmentOf(c: Context<HubEnv>, size: number | null): InboundAttachment {
  return {
    kind: 'document',
    ref: '',
    name: c.req.query('name') ?? null,
    mime: c.req.header('content-type') ?? null,
    size,
  }
}

/** Throws the refusal of a file over the limit (413) or of a type not taken (400). */
function refuse(attachment: InboundAttachment, home: string): void {
  const refused = refusalWhy(attachment, chatFileLimits(home), NOT_SENT)
  if (refused) throw refused.reason === 'size' ? tooLarge(refused.message) : invalid(refused.message)
}

export function sessionFileRoutes(app: Hono<HubEnv>, parts: HubParts, elsewhere: Before): void {
  const { sessions, creds, home } = parts
  // Once the session is known to be this hub's: a size the request states, and its type, are refused
  // before any of its body is read.
  const before: Before = async (c, name, who) => {
    const there = await elsewhere(c, name, who)
    if (there) return there
    const declared = c.req.header('content-length')
    refuse(attachmentOf(c, declared === undefined ? null : Number(declared)), home)
    return null
  }
  defineRoute(
    app,
    creds,
    'uploadFile',
    async (c, { params, query }) => {
      const view = await sessions.view(params.id)
      const bytes = await requestBody(c)
      const attachment = attachmentOf(c, bytes.length)
      refuse(attachment, home)
      if (bytes.length === 0) throw invalid(`${shownName(attachment)} is empty: there is nothing to send.`)
      const path = await storeInboxFile(inboxFolder(home, view.id), query.name, bytes)
      const file = { path, type: typeOf(attachment), size: bytes.length }
      const session = await sessions.send(view.id, messageWithFiles(query.text, [file]))
      return { file, session }
    },
    { before, bodyLimit: () => chatFileLimits(home).maxBytes },
  )
}
