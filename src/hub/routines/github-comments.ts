// A routine's run end as a comment on the GitHub issue or pull request it was about (a start action
// with `commentOnGitHub`; the runner names the thread in the event's meta). A durable subscriber of
// the run-end events, like an outbound webhook: a comment GitHub did not take is tried again, one
// that waited while no hub ran goes once one does, and one that never went is a dead letter.
import type { StoredEvent } from '../../core/event.js'
import type { Logger } from '../../core/log.js'
import { POSTED_BY_SWITCHBOARD, routineSpecSchema } from '../../core/routines.js'
import type { Hub } from '../core/hub.js'
import type { HubSecrets } from '../core/hub-secrets.js'
import { subscriberLease, type WorkSource } from '../core/lease-keeper.js'
import { nextAttemptIn, type Refusal } from './github-retry.js'
import { ROUTINE_SOURCE } from './runner.js'

export const GITHUB_COMMENTS = 'github:comments'
const ATTEMPTS = 5
const TIMEOUT_MS = 15_000

export interface GitHubSettings {
  token: string | null
  apiUrl: string
}

export class GitHubComments {
  private registered = false

  constructor(
    private readonly hub: Hub,
    private readonly log: Logger,
    /** A comment is public: it carries no secret of the hub's, nor one of a known shape. */
    private readonly secrets: HubSecrets,
    private readonly settings: () => GitHubSettings,
    /** The wait after the first failed attempt, doubled after each. */
    private readonly backoffMs = 2_000,
  ) {}

  /** The comments are work for one hub at a time, the one holding the subscriber's lease. */
  work(): WorkSource {
    return {
      wanted: async () => {
        // Nothing to post, nothing subscribed: run ends of other routines do not queue up here.
        if (!this.registered) {
          if (!(await this.anyRoutineComments())) return new Map()
          await this.hub.store.registerSubscriber(GITHUB_COMMENTS, ['routines.*'], { peer: false })
          this.registered = true
        }
        return new Map([
          [
            subscriberLease(GITHUB_COMMENTS),
            {
              start: (lease) =>
                this.hub.attachConsumer(GITHUB_COMMENTS, (event) => this.comment(event), lease),
              stop: async () => this.hub.detach(GITHUB_COMMENTS),
            },
          ],
        ])
      },
    }
  }

  private async anyRoutineComments(): Promise<boolean> {
    return (await this.hub.store.listRoutines()).some((r) => {
      const parsed = routineSpecSchema.safeParse(r.spec)
      return parsed.success && parsed.data.action.kind === 'start' && parsed.data.action.commentOnGitHub
    })
  }

  /**
   * Tries until GitHub takes the comment or the attempts run out. What cannot be stored (the log, a
   * dead letter) throws: the event stays unacknowledged and is handed over again.
   */
  private async comment(event: StoredEvent): Promise<void> {
    const thread = event.source === ROUTINE_SOURCE ? event.meta.github_thread : undefined
    if (!thread) return
    const [repository, number] = thread.split('#')
    const { token, apiUrl } = this.settings()
    const url = `${apiUrl.replace(/\/+$/, '')}/repos/${repository}/issues/${number}/comments`
    await this.secrets.refresh()
    const text = `${this.secrets.redactor.redact(event.content)}\n\n${POSTED_BY_SWITCHBOARD}`
    let error = 'no githubToken setting: nothing was posted'
    for (let attempt = 1; token && attempt <= ATTEMPTS; attempt++) {
      const answer = await post(url, token, text)
      await this.hub.store.logOutbound({
        webhook: GITHUB_COMMENTS,
        eventId: event.id,
        attempt,
        status: answer.status,
        error: answer.taken ? null : problemOf(answer),
      })
      if (answer.taken) return
      error = problemOf(answer)
      const wait = nextAttemptIn(answer, this.backoffMs * 2 ** (attempt - 1))
      if (wait === null) break
      if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, wait))
    }
    await this.hub.store.addDeadLetter({
      kind: 'github-comment',
      target: thread,
      payload: { event: event.id, run: event.meta.run },
      reason: error,
    })
    this.log.warn({ thread, event: event.id, reason: error }, 'routine run end not posted to GitHub')
  }
}

type Answer = { taken: true; status: number } | ({ taken: false } & Refusal)

async function post(url: string, token: string, text: string): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'user-agent': 'switchboard',
        'x-github-api-version': '2022-11-28',
      },
      body: JSON.stringify({ body: text }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    const answer = await res.text().catch(() => '')
    if (res.ok) return { taken: true, status: res.status }
    return { taken: false, status: res.status, headers: res.headers, message: messageIn(answer) }
  } catch (err) {
    return { taken: false, status: null, headers: null, message: (err as Error).message }
  }
}

function messageIn(answer: string): string | undefined {
  try {
    return (JSON.parse(answer) as { message?: string }).message
  } catch {
    return undefined
  }
}

function problemOf({ status, message }: Refusal): string {
  if (status === null) return message ?? 'no answer from GitHub'
  return `GitHub answered ${status}${message ? `: ${message}` : ''}`
}
