// Decisions waiting for a person, answered from here by id or code, the live feed every page of the
// dashboard follows, and the rules that answer prompts before anyone is asked: "always allow" made
// from a prompt, and allow or deny rules by pattern, previewed before they are saved.
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { conflict, notFound } from '../../core/errors.js'
import { answerDecision } from '../people/answer.js'
import { decisionRow, turnRow } from '../people/views.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import { nameOf } from './principal.js'
import { checkedWrites, holdOpen, stillOperator } from './sse.js'

export function decisionRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { hub, creds, feed, sessions, log } = parts

  /** Where a decision's session works, for a project rule's preview; null when not known. */
  const folderOf = (owner: string): Promise<string | null> =>
    owner.startsWith('ses_')
      ? sessions.view(owner).then(
          (v) => v.cwd,
          () => null,
        )
      : Promise.resolve(null)

  defineRoute(app, creds, 'decisions', async () => ({ decisions: await feed.open() }))

  defineRoute(app, creds, 'answer', async (_c, { params, body, who }) => ({
    decision: decisionRow(await answerDecision(hub, params.ref, body, nameOf(who))),
  }))

  /**
   * What every page follows, whichever it shows: decisions opened, answered or cancelled, and driven
   * sessions' turn ends (for notifications). One stream for both: a browser opens at most six
   * connections to a host, and a session's page holds its transcript's too.
   */
  defineRoute(app, creds, 'feed', (c, { who }) => {
    const mayStillSee = stillOperator(hub.store, who)
    return streamSSE(c, async (stream) => {
      // A prompt goes out only to one who may answer it now, in the order the feed gave them. One who
      // may not ends the feed, which stops following at once (holdOpen would notice within a second).
      const offDecisions = feed.subscribe(
        checkedWrites(
          mayStillSee,
          (row) => stream.writeSSE({ event: 'changed', data: JSON.stringify(row) }),
          () => {
            stopFollowing()
            return stream.close()
          },
        ),
      )
      const offTurns = sessions.onLine((id, _seq, line) => {
        const turn = turnRow(id, line)
        if (turn) void stream.writeSSE({ event: 'turn', data: JSON.stringify(turn) })
      })
      const stopFollowing = () => {
        offDecisions()
        offTurns()
      }
      stream.onAbort(stopFollowing)
      try {
        await holdOpen(stream, mayStillSee)
      } finally {
        // Ended here too (closed by the hub, not by the page): onAbort is not called then.
        stopFollowing()
      }
    })
  })

  defineRoute(app, creds, 'rules', async () => ({ rules: await hub.decisions.rules.list() }))

  /** A rule made from an open prompt, which it then answers: "allow, and always". */
  defineRoute(app, creds, 'makeRule', async (_c, { body, who }) => {
    const by = nameOf(who)
    const decision = await hub.store.getDecision(body.decision)
    if (!decision) throw notFound('no such decision')
    if (decision.status !== 'open')
      throw conflict(`already ${decision.status}${decision.answeredBy ? ` by ${decision.answeredBy}` : ''}`)
    const folder = await folderOf(decision.owner)
    const rule = await hub.decisions.rules.fromDecision(decision, body.scope, {
      folder,
      expiresInMinutes: body.expiresInMinutes ?? null,
      by,
    })
    log.info({ rule: rule.id, tool: rule.toolName, scope: rule.scope, by }, 'always-allow rule made')
    await hub.decisions.answer(decision, { behavior: 'allow' }, by).catch(() => {})
    return { rule }
  })

  defineRoute(app, creds, 'previewRule', async (_c, { body, who }) => {
    const startedByOf = async (owner: string) => (await hub.store.getSession(owner))?.startedBy ?? null
    const { matched, read } = await hub.decisions.rules.preview(body, {
      folderOf,
      startedByOf,
      by: nameOf(who),
    })
    return { matched: matched.map(decisionRow), read }
  })

  defineRoute(app, creds, 'makePatternRule', async (_c, { body, who }) => {
    const by = nameOf(who)
    const rule = await hub.decisions.rules.make(body, by)
    log.info({ rule: rule.id, tool: rule.toolName, match: rule.match, effect: rule.effect, by }, 'rule made')
    return { rule }
  })

  defineRoute(app, creds, 'revokeRule', async (_c, { params, who }) => {
    if (!(await hub.decisions.rules.revoke(params.id))) throw notFound('no such rule')
    log.info({ rule: params.id, by: nameOf(who) }, 'always-allow rule revoked')
    return { ok: true as const }
  })
  return app
}
