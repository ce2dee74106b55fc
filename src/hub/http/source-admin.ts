// Webhook sources as the admin manages them (`switchboard source add | rotate | bind | remove`):
// the hub writes them itself and drops what it cached of each one it changed, so the next webhook
// goes by the change with no wait. Admin token only: a source's secret lets events into sessions.
import { Hono } from 'hono'
import { conflict, invalid, notFound } from '../../core/errors.js'
import { newSecret } from '../../core/ids.js'
import { SENDER_MADE_SECRET } from '../../core/source-spec.js'
import { isReservedSource } from '../../core/sources.js'
import type { Source } from '../../store/store.js'
import { sourceRow } from '../core/reads.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import { nameOf } from './principal.js'

export function sourceAdminRoutes(parts: HubParts): Hono<HubEnv> {
  const cache = parts.sources
  const app = new Hono<HubEnv>()
  const { hub, creds, log } = parts
  const { store } = hub

  const existing = async (name: string): Promise<Source> => {
    const source = await store.getSource(name)
    if (!source) throw notFound(`no source named "${name}"`)
    return source
  }

  defineRoute(app, creds, 'addSource', async (_c, { body, who }) => {
    const { name } = body
    if (isReservedSource(name))
      throw invalid(`source name "${name}" is reserved for Switchboard's own events; pick another`)
    if (await store.getSource(name)) throw conflict(`source "${name}" exists already`)
    const secret = body.secret ?? newSecret('sbw')
    const source = await store.addSource({
      name,
      topic: body.topic ?? name,
      secret,
      deliveryHeader: body.deliveryHeader,
      preset: body.preset,
      fieldMap: body.fieldMap,
      about: body.about,
    })
    cache.forget(name)
    log.info({ source: name, preset: body.preset, by: nameOf(who) }, 'source added')
    // A secret the caller gave is theirs already: not sent back.
    return { source: await sourceRow(hub, source), secret: body.secret === undefined ? secret : null }
  })

  defineRoute(app, creds, 'rotateSource', async (_c, { params, body, who }) => {
    const { name } = params
    const preset = (await existing(name)).preset ?? 'generic'
    if (body.secret === undefined && SENDER_MADE_SECRET.has(preset))
      throw invalid(
        `source "${name}" checks ${preset}'s signatures with the secret ${preset} made: give the new one with --secret-file <path> or --secret - (stdin)`,
      )
    const secret = body.secret ?? newSecret('sbw')
    if (!(await store.setSourceSecret(name, secret))) throw notFound(`no source named "${name}"`)
    cache.forget(name)
    log.info({ source: name, by: nameOf(who) }, 'source secret rotated')
    return { name, secret: body.secret === undefined ? secret : null }
  })

  defineRoute(app, creds, 'bindSource', async (_c, { params, body, who }) => {
    const { name } = params
    if (!(await store.setSourceAbout(name, body.about))) throw notFound(`no source named "${name}"`)
    cache.forget(name)
    log.info({ source: name, about: body.about, by: nameOf(who) }, 'source bound')
    return { source: await sourceRow(hub, await existing(name)) }
  })

  defineRoute(app, creds, 'removeSource', async (_c, { params, who }) => {
    const { name } = params
    if (!(await store.removeSource(name))) throw notFound(`no source named "${name}"`)
    cache.forget(name)
    log.info({ source: name, by: nameOf(who) }, 'source removed')
    return { removed: name }
  })
  return app
}
